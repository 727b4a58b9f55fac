internal import CX11
internal import Glibc

/// The length asked of `XGetWindowProperty`, in 4-byte units: 2 GiB, more than any property the
/// server will hold, so one call reads the whole value. (Xlib sends it as a CARD32.)
private let wholePropertyLength = 0x1FFF_FFFF

/// What `readProperty` found, besides the bytes it appended.
public struct PropertyHeader: Sendable, Equatable {
    /// The property's type.
    public var type: Atom
    /// 8, 16 or 32.
    public var format: Int
    /// How many bytes were appended to the caller's buffer.
    public var byteCount: Int
    /// The items of a format-32 property (such as `INCR`'s size), as C `long`s widened to `UInt`.
    public var values: [UInt]
}

extension Display {
    /// Reads a format-8 (or 16) property of `window`, appending its bytes to `buffer`.
    ///
    /// The fast path for selection data: the bytes go from Xlib's reply straight into the
    /// caller's buffer (one copy, no per-byte work), and the reply is `XFree`d here. With
    /// `delete`, the server deletes the property in the same request once it is fully read: that
    /// deletion is what asks an INCR owner for the next chunk (ICCCM §2.7.2).
    ///
    /// Wraps `XGetWindowProperty(req_type: AnyPropertyType)`.
    /// - Returns: nil when the window has no such property (type `None`). A format-32 property
    ///   appends nothing; its items are in the header's `values`.
    public func readProperty(
        _ property: Atom, of window: Window, delete: Bool, appendingTo buffer: inout [UInt8]
    ) -> PropertyHeader? {
        var actualType: UInt = 0
        var actualFormat: Int32 = 0
        var itemCount: UInt = 0
        var bytesAfter: UInt = 0
        var data: UnsafeMutablePointer<UInt8>?
        let status = XGetWindowProperty(
            pointer, window.rawValue, property.rawValue, 0, wholePropertyLength, delete ? 1 : 0,
            0 /* AnyPropertyType */, &actualType, &actualFormat, &itemCount, &bytesAfter, &data)
        defer { if let data { XFree(data) } }
        guard status == Success, actualType != 0 else { return nil }
        var count = 0
        var values: [UInt] = []
        if let data, actualFormat == 8 || actualFormat == 16 {
            count = Int(itemCount) * Int(actualFormat / 8)
            if buffer.capacity - buffer.count < count {
                // Grow eight-fold, not two-fold: INCR owners often give no total size (xclip
                // gives none), and a doubling array copies all it holds at each step (a third
                // of reading a 64 MiB clipboard). The room beyond the data is address space,
                // not memory, until a later chunk is written into it.
                buffer.reserveCapacity(buffer.count + min(max(count, buffer.count * 7), 1 << 30))
            }
            buffer.append(contentsOf: UnsafeBufferPointer(start: data, count: count))
        } else if let data, actualFormat == 32 {
            let longs = UnsafeRawPointer(data).bindMemory(to: UInt.self, capacity: Int(itemCount))
            values = Array(UnsafeBufferPointer(start: longs, count: Int(itemCount)))
        }
        return PropertyHeader(
            type: Atom(rawValue: actualType), format: Int(actualFormat), byteCount: count, values: values)
    }

    /// Reads a whole property of `window` into Swift storage, or nil when it does not exist.
    ///
    /// Wraps `XGetWindowProperty`; Xlib's buffer is copied and `XFree`d here. Format-32 items
    /// arrive as C `long`s (8 bytes each here) and are returned in `values`.
    public func property(_ property: Atom, of window: Window, delete: Bool) -> Property? {
        var bytes: [UInt8] = []
        guard let header = readProperty(property, of: window, delete: delete, appendingTo: &bytes) else {
            return nil
        }
        return Property(type: header.type, format: header.format, bytes: bytes, values: header.values)
    }

    /// Sets a format-8 property from `bytes`. Wraps `XChangeProperty(format: 8)`.
    ///
    /// The request must fit `maxRequestBytes` (less a small header); larger data goes by INCR.
    public func changeProperty(
        _ property: Atom, of window: Window, type: Atom, bytes: ArraySlice<UInt8>, mode: PropertyMode = .replace
    ) {
        bytes.withUnsafeBufferPointer { buffer in
            // A zero-length change still needs a valid pointer.
            var empty: UInt8 = 0
            let base = buffer.baseAddress ?? withUnsafeMutablePointer(to: &empty) { UnsafePointer($0) }
            _ = XChangeProperty(
                pointer, window.rawValue, property.rawValue, type.rawValue, 8, mode.xlibValue,
                base, Int32(buffer.count))
        }
    }

    /// Sets a format-32 property from `values`, which Xlib takes as C `long`s.
    /// Wraps `XChangeProperty(format: 32)`.
    public func changeProperty(
        _ property: Atom, of window: Window, type: Atom, values: [UInt], mode: PropertyMode = .replace
    ) {
        var longs = values.isEmpty ? [0] : values
        let count = Int32(values.count)
        longs.withUnsafeMutableBytes { raw in
            _ = XChangeProperty(
                pointer, window.rawValue, property.rawValue, type.rawValue, 32, mode.xlibValue,
                raw.baseAddress!.assumingMemoryBound(to: UInt8.self), count)
        }
    }

    /// Sets a format-32 property holding atoms (type `ATOM`, `ATOM_PAIR`, ...).
    public func changeProperty(
        _ property: Atom, of window: Window, type: Atom, atoms: [Atom], mode: PropertyMode = .replace
    ) {
        changeProperty(property, of: window, type: type, values: atoms.map(\.rawValue), mode: mode)
    }

    /// Deletes a property. Wraps `XDeleteProperty`.
    public func deleteProperty(_ property: Atom, of window: Window) {
        XDeleteProperty(pointer, window.rawValue, property.rawValue)
    }

    /// Converts COMPOUND_TEXT (or any text type Xlib knows) to UTF-8.
    ///
    /// Wraps `Xutf8TextPropertyToTextList`; the list is copied and freed with `XFreeStringList`.
    /// - Returns: nil when Xlib cannot convert it.
    public func utf8Text(fromEncoded bytes: [UInt8], type: Atom) -> [UInt8]? {
        var input = bytes + [0]
        return input.withUnsafeMutableBufferPointer { buffer -> [UInt8]? in
            var textProperty = XTextProperty(
                value: buffer.baseAddress, encoding: type.rawValue, format: 8, nitems: UInt(bytes.count))
            var list: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
            var count: Int32 = 0
            let status = Xutf8TextPropertyToTextList(pointer, &textProperty, &list, &count)
            guard status >= 0, let list else { return nil }  // Success = 0; > 0 counts unconvertibles.
            defer { XFreeStringList(list) }
            var result: [UInt8] = []
            for index in 0..<Int(count) {
                guard let item = list[index] else { continue }
                result.append(
                    contentsOf: UnsafeBufferPointer(
                        start: UnsafeRawPointer(item).assumingMemoryBound(to: UInt8.self), count: strlen(item)))
            }
            return result
        }
    }
}

extension PropertyMode {
    /// `PropModeReplace` or `PropModeAppend`.
    var xlibValue: Int32 {
        switch self {
        case .replace: PropModeReplace
        case .append: PropModeAppend
        }
    }
}
