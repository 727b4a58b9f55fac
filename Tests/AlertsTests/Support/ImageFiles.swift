import Foundation
import TestSupport

/// Image files made and read with ImageMagick (`convert`), through temporary files.
enum ImageFiles {
    /// `bytes` (any format ImageMagick reads) converted with `arguments` into `output`, e.g.
    /// `["-define", "png:color-type=0"]` and `"PNG8:"`; returns the new file's bytes.
    static func convert(_ bytes: [UInt8], _ arguments: [String], to output: String) throws -> [UInt8] {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("alerts-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appendingPathComponent("in.png")
        let result = directory.appendingPathComponent("out")
        try Data(bytes).write(to: input)
        try run("convert", [input.path] + arguments + [output + result.path])
        return [UInt8](try Data(contentsOf: result))
    }

    /// An image ImageMagick makes from `arguments` alone (e.g. its built-in `logo:`), as `output`.
    static func make(_ arguments: [String], as output: String) throws -> [UInt8] {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("alerts-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = directory.appendingPathComponent("out")
        try run("convert", arguments + [output + result.path])
        return [UInt8](try Data(contentsOf: result))
    }

    /// The pixels of `bytes` (any format ImageMagick reads) after `arguments`, as 8-bit RGBA.
    static func rgba(of bytes: [UInt8], _ arguments: [String]) throws -> [UInt8] {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("alerts-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appendingPathComponent("in")
        try Data(bytes).write(to: input)
        return [UInt8](try run("convert", [input.path] + arguments + ["-depth", "8", "rgba:-"]))
    }

    /// The pixels of the image file at `path` as 8-bit RGBA, rows top to bottom.
    static func rgba(ofFile path: String) throws -> (width: Int, height: Int, pixels: [UInt8]) {
        let size = try String(decoding: run("identify", ["-format", "%w %h", path]), as: UTF8.self)
            .split(separator: " ").compactMap { Int($0) }
        guard size.count == 2 else { throw ToolFailed(command: ["identify", path], status: 0, stderr: "no size") }
        let pixels = try run("convert", [path, "-depth", "8", "rgba:-"])
        return (size[0], size[1], [UInt8](pixels))
    }

    @discardableResult
    private static func run(_ tool: String, _ arguments: [String]) throws -> Data {
        let result = try runProcess("/usr/bin/env", [tool] + arguments, timeout: 30)
        guard result.status == 0 else {
            throw ToolFailed(command: [tool] + arguments, status: result.status, stderr: result.err)
        }
        return result.stdout
    }
}
