internal import CCurlShims

/// OpenSSL's error text, loaded only when a failure is shown.
///
/// PERF(hotkey): OpenSSL loads the text of all its errors (some 2,000 strings, hashed into a
/// table) the first time any error state is made, which every start did while libcurl read
/// OpenSSL's configuration: about 0.9 M instructions, 7 % of a hotkey run (valgrind's count).
/// `ccurl_defer_tls_error_text` stops that before `curl_global_init`. libcurl writes an
/// OpenSSL error into its error buffer at the moment it happens, spelled
/// `error:0A00010B:lib(20)::reason(267)` while the text is not loaded; `readable` loads it
/// then and writes each such error again, `error:0A00010B:SSL routines::wrong version number`,
/// so a TLS failure reads as before. A verbose run (`-v`) loads it when the trace is turned on.
enum TLSErrorText {
    /// `message` with every OpenSSL error that was written without its text written with it.
    static func readable(_ message: String) -> String {
        let bytes = Array(message.utf8)
        let marker = Array("error:".utf8)
        var result: [UInt8] = []
        var copied = 0
        var position = 0
        while position + marker.count + 9 <= bytes.count {
            guard bytes[position..<(position + marker.count)].elementsEqual(marker),
                let code = code(bytes[(position + 6)..<(position + 14)]), bytes[position + 14] == UInt8(ascii: ":"),
                let end = unloadedEnd(bytes, from: position + 15)
            else {
                position += 1
                continue
            }
            ccurl_load_tls_error_text()
            result += bytes[copied..<position]
            result += text(of: code)
            copied = end
            position = end
        }
        guard copied > 0 else { return message }
        result += bytes[copied...]
        return String(decoding: result, as: UTF8.self)
    }

    /// The packed error code written as eight hexadecimal digits.
    static func code(_ digits: ArraySlice<UInt8>) -> UInt? {
        var value: UInt = 0
        for digit in digits {
            switch digit {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): value = value << 4 | UInt(digit - UInt8(ascii: "0"))
            case UInt8(ascii: "A")...UInt8(ascii: "F"): value = value << 4 | UInt(digit - UInt8(ascii: "A") + 10)
            default: return nil
            }
        }
        return value
    }

    /// Where `lib(N):FUNCTION:reason(N)` ends when it starts at `start`: OpenSSL's spelling of
    /// an error whose text is not loaded. Nil when the text is there.
    static func unloadedEnd(_ bytes: [UInt8], from start: Int) -> Int? {
        let library = Array("lib(".utf8)
        let reason = Array("reason(".utf8)
        guard bytes.count >= start + library.count, bytes[start..<(start + library.count)].elementsEqual(library)
        else { return nil }
        var position = start
        while position + reason.count <= min(bytes.count, start + 64) {
            if bytes[position..<(position + reason.count)].elementsEqual(reason) {
                return bytes[position...].firstIndex(of: UInt8(ascii: ")")).map { $0 + 1 }
            }
            position += 1
        }
        return nil
    }

    /// OpenSSL's text for `code` (`ERR_error_string_n`).
    static func text(of code: UInt) -> [UInt8] {
        var buffer = [CChar](repeating: 0, count: 256)
        buffer.withUnsafeMutableBufferPointer { ccurl_tls_error_text(code, $0.baseAddress, $0.count) }
        return buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
    }
}
