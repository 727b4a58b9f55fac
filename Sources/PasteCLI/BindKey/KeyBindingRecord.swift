import PasteCore
import Stores
import SystemInterop

/// What `--bind-key` wrote and how `--unbind-key` undoes it, kept in
/// `$XDG_STATE_HOME/paste/bind-key/`: `record` (text, one step a line, fields split by tabs)
/// and, for each file it changed, the file's bytes before (`N.before`, absent when the file was
/// not there) and after (`N.after`).
///
/// Undoing restores each file byte for byte when it still holds what paste wrote (else it is
/// left, and said), and runs the recorded commands (settings set back to their old values).
struct KeyBindingRecord: Equatable {
    /// One way back.
    enum Step: Equatable {
        /// A file paste changed: its bytes before (nil: it did not exist) and after.
        case file(path: String, before: [UInt8]?, after: [UInt8])
        /// A command that sets a setting back (argv, run with no shell).
        case run([String])
        /// A command that makes the desktop read its settings again, after the rest.
        case reload([String])
    }

    var desktop: KeyDesktop
    /// The key, in the common form.
    var key: String
    /// The command bound.
    var command: String
    var steps: [Step] = []

    /// The record's folder in `context`'s state folder.
    static func folder(_ context: Context) -> String { context.pasteStateDirectory + "/bind-key" }

    /// Reads the record, or nil when paste bound no key.
    static func load(_ context: Context) throws(BindKeyError) -> KeyBindingRecord? {
        let folder = folder(context)
        let path = folder + "/record"
        let text: [UInt8]?
        do { text = try AtomicFile.read(path) } catch { throw .file(path: path, reason: error.message) }
        guard let text else { return nil }
        var record: KeyBindingRecord?
        var steps: [Step] = []
        for line in String(decoding: text, as: UTF8.self).split(separator: "\n") {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            switch fields.first {
            case "binding" where fields.count == 4:
                guard let desktop = KeyDesktop(rawValue: fields[1]) else { throw .badRecord(path: path) }
                record = KeyBindingRecord(desktop: desktop, key: fields[2], command: fields[3])
            case "run" where fields.count > 1: steps.append(.run(Array(fields.dropFirst())))
            case "reload" where fields.count > 1: steps.append(.reload(Array(fields.dropFirst())))
            case "file" where fields.count == 3:
                let base = folder + "/" + fields[1]
                do {
                    guard let after = try AtomicFile.read(base + ".after") else {
                        throw BindKeyError.badRecord(path: path)
                    }
                    steps.append(.file(path: fields[2], before: try AtomicFile.read(base + ".before"), after: after))
                } catch let error as BindKeyError {
                    throw error
                } catch {
                    throw .badRecord(path: path)
                }
            default: throw .badRecord(path: path)
            }
        }
        guard var record else { throw .badRecord(path: path) }
        record.steps = steps
        return record
    }

    /// Writes the record (the file copies first, the `record` file last: a record is whole
    /// once it is there).
    func save(_ context: Context) throws(BindKeyError) {
        let folder = Self.folder(context)
        var lines = ["binding\t\(desktop.rawValue)\t\(key)\t\(command)"]
        var index = 0
        do {
            try AtomicFile.createPrivateFolder(folder)
            for step in steps {
                switch step {
                case .run(let arguments): lines.append((["run"] + arguments).joined(separator: "\t"))
                case .reload(let arguments): lines.append((["reload"] + arguments).joined(separator: "\t"))
                case .file(let path, let before, let after):
                    index += 1
                    if let before { try AtomicFile.write(before, to: folder + "/\(index).before") }
                    try AtomicFile.write(after, to: folder + "/\(index).after")
                    lines.append("file\t\(index)\t\(path)")
                }
            }
            try AtomicFile.write(Array((lines.joined(separator: "\n") + "\n").utf8), to: folder + "/record")
        } catch {
            throw .file(path: folder, reason: error.message)
        }
    }

    /// Removes the record (every file in its folder) and then the folder: nothing of it stays
    /// in the state folder. A folder something was put in meanwhile stays.
    static func remove(_ context: Context) throws(BindKeyError) {
        let folder = folder(context)
        do {
            for name in try FileSystem.entries(ofDirectory: folder) where name != "record" {
                try FileSystem.removeFile(folder + "/" + name)
            }
            try FileSystem.removeFile(folder + "/record")
            try FileSystem.removeDirectory(folder)
        } catch {
            if error == .noSuchFileOrDirectory || error == .directoryNotEmpty { return }
            throw .file(path: folder, reason: error.message)
        }
    }

    /// Whether a text can stand in a record field: no tab, no line break.
    static func isStorable(_ text: String) -> Bool { !text.contains("\t") && !text.contains("\n") }
}
