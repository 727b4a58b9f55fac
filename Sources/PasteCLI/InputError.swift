import PasteCore

/// Why there is nothing (usable) to paste.
enum InputError: PasteError, Equatable {
    /// The input had no bytes.
    case empty(source: String)
    /// The input holds NUL bytes (the first at `offset`): binary data, not text.
    case binary(source: String, offset: Int)
    /// A `-f` file does not exist.
    case missingFile(path: String)
    /// A `-f` file cannot be read.
    case unreadable(path: String, reason: String)
    /// A `-f` operand is a folder or a device.
    case notAFile(path: String)
    /// stdin is a terminal and there is no clipboard to read.
    case nothingToRead
    /// `--image`, and the selection holds text but no image.
    case noImage(source: String)

    var message: String {
        switch self {
        case .empty(let source): "nothing to paste: \(shownPath: source) is empty"
        case .binary(let source, let offset):
            "\(shownPath: source) looks like binary data (a NUL byte at byte offset \(offset)); only text is pasted"
        case .missingFile(let path): "cannot read '\(shownPath: path)': no such file or directory"
        case .unreadable(let path, let reason): "cannot read '\(shownPath: path)': \(reason)"
        case .notAFile(let path): "cannot paste '\(shownPath: path)': not a regular file"
        case .nothingToRead:
            "nothing to paste: no text on stdin, and no display to read a clipboard from"
        case .noImage(let source): "\(source) holds text but no image, and --image sends only an image"
        }
    }

    var hint: String? {
        switch self {
        case .nothingToRead: "pipe text in (cmd | paste), or use -f FILE"
        case .noImage: "copy an image, or leave out --image to send the text"
        default: nil
        }
    }

    var exitStatus: ExitStatus {
        switch self {
        case .empty, .binary, .noImage: .badInput
        case .missingFile, .nothingToRead, .notAFile: .noInput
        case .unreadable: .ioError
        }
    }
}
