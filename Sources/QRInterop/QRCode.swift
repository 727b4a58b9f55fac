internal import CQRencode
internal import Glibc

/// A QR code: a square of dark and light modules, made by libqrencode.
///
/// libqrencode is opened at run time (`dlopen("libqrencode.so.4")`) the first time a code is
/// made, not linked: Debian ships it only as a shared library, and loading it at every start
/// would tax every run for an option few use. The library stays loaded for the life of the
/// process (it holds no resources of ours between calls).
public struct QRCode: Equatable, Sendable {
    /// Modules per side (without a quiet zone).
    public let size: Int
    /// `size × size` modules, row after row, top first: true for dark.
    public let modules: [Bool]

    /// Whether the module at `row`, `column` is dark; false outside the code (the quiet zone).
    public func isDark(row: Int, column: Int) -> Bool {
        guard (0..<size).contains(row), (0..<size).contains(column) else { return false }
        return modules[row * size + column]
    }

    /// The shared library opened, with its version in the name as Debian installs it
    /// (libqrencode4).
    static let libraryName = "libqrencode.so.4"

    /// Encodes `text` as 8-bit data, the smallest version that holds it, error correction M.
    ///
    /// Wraps `QRcode_encodeString` (version 0: the smallest that fits; `QR_ECLEVEL_M`, which
    /// survives 15 % damage; `QR_MODE_8`, case-sensitive), copies the modules (bit 0 of each byte
    /// of `data`) and frees the code with `QRcode_free`.
    /// - Throws: `QRError.libraryMissing` when libqrencode cannot be opened,
    ///   `.cannotEncode` when the text does not fit a QR code (`ERANGE`) or memory runs out.
    public static func encode(_ text: String) throws(QRError) -> QRCode {
        typealias Encode =
            @convention(c) (
                UnsafePointer<CChar>?, Int32, QRecLevel, QRencodeMode, Int32
            ) -> UnsafeMutablePointer<CQRencode.QRcode>?
        typealias Free = @convention(c) (UnsafeMutablePointer<CQRencode.QRcode>?) -> Void
        guard let library = dlopen(libraryName, RTLD_NOW | RTLD_LOCAL) else {
            throw .libraryMissing(name: libraryName, reason: dlerror().map { String(cString: $0) } ?? "")
        }
        guard let encodeSymbol = dlsym(library, "QRcode_encodeString"), let freeSymbol = dlsym(library, "QRcode_free")
        else { throw .libraryMissing(name: libraryName, reason: "QRcode_encodeString not found") }
        let encodeString = unsafeBitCast(encodeSymbol, to: Encode.self)
        let free = unsafeBitCast(freeSymbol, to: Free.self)
        errno = 0
        guard let code = text.withCString({ encodeString($0, 0, QR_ECLEVEL_M, QR_MODE_8, 1) }) else {
            throw .cannotEncode(errno: errno)
        }
        defer { free(code) }
        let size = Int(code.pointee.width)
        guard size > 0, let data = code.pointee.data else { throw .cannotEncode(errno: 0) }
        let modules = (0..<(size * size)).map { data[$0] & 1 == 1 }
        return QRCode(size: size, modules: modules)
    }

    /// A code from its modules (tests, and codes made elsewhere).
    public init(size: Int, modules: [Bool]) {
        precondition(modules.count == size * size, "a QR code is square")
        self.size = size
        self.modules = modules
    }
}

/// Why no QR code was made.
public enum QRError: Error, Equatable, Sendable {
    /// libqrencode could not be opened (not installed): its name and `dlerror`'s text.
    case libraryMissing(name: String, reason: String)
    /// The text could not be encoded: the C `errno` (`ERANGE`: too long for a QR code).
    case cannotEncode(errno: Int32)

    /// One line saying what went wrong.
    public var description: String {
        switch self {
        case .libraryMissing(let name, _): "cannot make a QR code: \(name) is missing (apt install libqrencode4)"
        case .cannotEncode(let number) where number == ERANGE: "cannot make a QR code: the URL is too long"
        case .cannotEncode: "cannot make a QR code: libqrencode failed"
        }
    }
}
