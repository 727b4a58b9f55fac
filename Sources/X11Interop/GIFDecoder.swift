internal import CGif

/// Decodes the first frame of GIF files with giflib into `RGBAImage`s.
///
/// The frame is drawn on the logical screen (GIF89a §18) over transparent pixels, with its
/// colour table (local, else global) and the transparent index of the graphic control extension
/// before it (§23); interlaced rows are put back in order (§21 and appendix E). Later frames of
/// an animation are not read.
public enum GIFDecoder {
    /// Whether `bytes` start with a GIF signature and version (`GIF87a`, `GIF89a`: §17).
    public static func hasSignature(_ bytes: [UInt8]) -> Bool {
        bytes.starts(with: Array("GIF87a".utf8)) || bytes.starts(with: Array("GIF89a".utf8))
    }

    /// Decodes the first frame of a whole GIF file held in memory.
    ///
    /// The logical screen and the frame are refused when either has more than
    /// `maximumPixelCount` pixels, before anything is allocated for them.
    ///
    /// Wraps `DGifOpen` (reading from memory through an `InputFunc` trampoline),
    /// `DGifGetRecordType`, `DGifGetExtension`, `DGifGetExtensionNext`, `DGifExtensionToGCB`,
    /// `DGifGetImageDesc`, `DGifGetLine`, `DGifCloseFile` and `GifErrorString`.
    /// - Throws: `ImageDecodingError`.
    public static func decode(_ bytes: [UInt8], maximumPixelCount: Int) throws(ImageDecodingError) -> RGBAImage {
        guard hasSignature(bytes) else { throw .unsupported }
        // giflib reads through `source` only until DGifCloseFile, all inside this closure.
        let result = bytes.withUnsafeBytes { raw -> Result<RGBAImage, ImageDecodingError> in
            let source = MemorySource(raw)
            var error: Int32 = 0
            guard let file = DGifOpen(Unmanaged.passUnretained(source).toOpaque(), readTrampoline, &error) else {
                return .failure(.invalid(reason: message(error)))
            }
            defer { DGifCloseFile(file, &error) }
            return firstFrame(of: file, maximumPixelCount: maximumPixelCount)
        }
        return try result.get()
    }

    /// Reads records up to the first image and draws it.
    private static func firstFrame(of file: UnsafeMutablePointer<GifFileType>, maximumPixelCount: Int)
        -> Result<RGBAImage, ImageDecodingError>
    {
        let screenWidth = Int(file.pointee.SWidth)
        let screenHeight = Int(file.pointee.SHeight)
        guard screenWidth * screenHeight <= maximumPixelCount else {
            return .failure(.tooLarge(width: screenWidth, height: screenHeight))
        }
        var transparent = Int(NO_TRANSPARENT_COLOR)
        while true {
            var record = UNDEFINED_RECORD_TYPE
            guard DGifGetRecordType(file, &record) == GIF_OK else { return .failure(.invalid(reason: message(file))) }
            switch record {
            case EXTENSION_RECORD_TYPE:
                var code: Int32 = 0
                var block: UnsafeMutablePointer<GifByteType>?
                guard DGifGetExtension(file, &code, &block) == GIF_OK else {
                    return .failure(.invalid(reason: message(file)))
                }
                if code == GRAPHICS_EXT_FUNC_CODE, let block {
                    // block[0] is the sub-block's length, the data follows.
                    var control = GraphicsControlBlock()
                    if DGifExtensionToGCB(Int(block[0]), block + 1, &control) == GIF_OK {
                        transparent = Int(control.TransparentColor)
                    }
                }
                while block != nil {
                    guard DGifGetExtensionNext(file, &block) == GIF_OK else {
                        return .failure(.invalid(reason: message(file)))
                    }
                }
            case IMAGE_DESC_RECORD_TYPE:
                guard DGifGetImageDesc(file) == GIF_OK else { return .failure(.invalid(reason: message(file))) }
                return drawFrame(
                    of: file, screen: (screenWidth, screenHeight), transparent: transparent,
                    maximumPixelCount: maximumPixelCount)
            case TERMINATE_RECORD_TYPE:
                return .failure(.invalid(reason: "no image in the file"))
            default:
                return .failure(.invalid(reason: "unknown record"))
            }
        }
    }

    /// Reads the current frame's rows and draws them on a transparent screen.
    private static func drawFrame(
        of file: UnsafeMutablePointer<GifFileType>, screen: (width: Int, height: Int), transparent: Int,
        maximumPixelCount: Int
    ) -> Result<RGBAImage, ImageDecodingError> {
        let frame = file.pointee.Image
        let width = Int(frame.Width)
        let height = Int(frame.Height)
        guard width * height <= maximumPixelCount else { return .failure(.tooLarge(width: width, height: height)) }
        guard width > 0, height > 0, screen.width > 0, screen.height > 0 else {
            return .failure(.invalid(reason: "an empty frame or screen"))
        }
        guard let map = frame.ColorMap ?? file.pointee.SColorMap, let colours = map.pointee.Colors else {
            return .failure(.invalid(reason: "no colour table"))
        }
        let colourCount = Int(map.pointee.ColorCount)
        var indices = [UInt8](repeating: 0, count: width * height)
        // Appendix E: rows of an interlaced image come in four passes.
        let passes: [(start: Int, step: Int)] =
            frame.Interlace ? [(0, 8), (4, 8), (2, 4), (1, 2)] : [(0, 1)]
        var failed = false
        indices.withUnsafeMutableBufferPointer { buffer in
            for pass in passes where !failed {
                for row in stride(from: pass.start, to: height, by: pass.step) {
                    if DGifGetLine(file, buffer.baseAddress! + row * width, Int32(width)) != GIF_OK {
                        failed = true
                        break
                    }
                }
            }
        }
        if failed { return .failure(.invalid(reason: message(file))) }
        var pixels = [UInt8](repeating: 0, count: screen.width * screen.height * 4)
        let left = Int(frame.Left)
        let top = Int(frame.Top)
        for row in 0..<height where top + row < screen.height {
            for column in 0..<width where left + column < screen.width {
                let index = Int(indices[row * width + column])
                guard index != transparent, index < colourCount else { continue }
                let colour = colours[index]
                let at = ((top + row) * screen.width + left + column) * 4
                pixels[at] = colour.Red
                pixels[at + 1] = colour.Green
                pixels[at + 2] = colour.Blue
                pixels[at + 3] = 255
            }
        }
        return .success(RGBAImage(width: screen.width, height: screen.height, pixels: pixels))
    }

    /// The text of a giflib error code.
    private static func message(_ code: Int32) -> String {
        GifErrorString(code).map { String(cString: $0) } ?? "error \(code)"
    }

    /// The text of the file's last error.
    private static func message(_ file: UnsafeMutablePointer<GifFileType>) -> String {
        message(file.pointee.Error)
    }
}

/// The bytes giflib reads, and how far it has read: its `UserData`.
private final class MemorySource {
    let bytes: UnsafeRawBufferPointer
    var offset = 0

    init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }
}

/// giflib's `InputFunc`: copies up to `count` bytes from the `MemorySource` in `UserData` and
/// returns how many it copied (fewer at the end: giflib then reports a read error).
private let readTrampoline: InputFunc = { file, destination, count in
    guard let file, let destination, count > 0, let userData = file.pointee.UserData else { return 0 }
    let source = Unmanaged<MemorySource>.fromOpaque(userData).takeUnretainedValue()
    let length = min(Int(count), source.bytes.count - source.offset)
    guard length > 0, let base = source.bytes.baseAddress else { return 0 }
    UnsafeMutableRawPointer(destination).copyMemory(from: base + source.offset, byteCount: length)
    source.offset += length
    return Int32(length)
}
