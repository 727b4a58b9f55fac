import Foundation

/// Real image files for tests, made by ImageMagick's `convert` (installed by scripts/bootstrap).
public enum TestImages {
    /// A small PNG (a flat colour, a few hundred bytes): fits one X property.
    public static func smallPNG() throws -> [UInt8] {
        try make(["-size", "64x48", "xc:skyblue"], as: "png")
    }

    /// A PNG of random noise, which does not compress: about `side`² × 3 bytes (700 makes
    /// 1.4 MiB, far past the 256 KiB where X owners switch to INCR).
    public static func noisePNG(side: Int = 700) throws -> [UInt8] {
        try make(["-size", "\(side)x\(side)", "xc:", "+noise", "Random"], as: "png")
    }

    /// An image `convert` makes from `arguments` alone, written as `format` (`png`, `jpeg`,
    /// `gif`, `webp`, `bmp`).
    public static func make(_ arguments: [String], as format: String) throws -> [UInt8] {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("image-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent("out.\(format)")
        let result = try runProcess("/usr/bin/env", ["convert"] + arguments + ["\(format):" + output.path], timeout: 60)
        guard result.status == 0 else { throw ImageToolFailed(arguments: arguments, stderr: result.err) }
        return [UInt8](try Data(contentsOf: output))
    }
}

/// `convert` failed.
public struct ImageToolFailed: Error, CustomStringConvertible {
    public var arguments: [String]
    public var stderr: String
    public var description: String { "convert \(arguments.joined(separator: " ")) failed: \(stderr)" }
}
