import PasteCore
import Stores

/// Why `paste --init-config` wrote no starter config.
enum StarterConfigFailure: PasteError {
    /// A file (or anything else) is there already: it is never replaced.
    case exists(path: String)
    /// The file could not be written.
    case cannotWrite(StoreError)

    var message: String {
        switch self {
        case .exists(let path): "config '\(shownPath: path)' exists already; --init-config leaves it as it is"
        case .cannotWrite(let error): "cannot write the starter config: \(error.message)"
        }
    }

    var hint: String? {
        switch self {
        case .exists: "'paste --init-config --config FILE' writes one elsewhere to compare"
        case .cannotWrite: nil
        }
    }

    var exitStatus: ExitStatus {
        switch self {
        case .exists: .config
        case .cannotWrite: .ioError
        }
    }
}
