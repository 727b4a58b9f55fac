internal import CDBus

/// Writing `BusValue`s into a message and reading them out of one, with libdbus's iterators
/// (`DBusMessageIter`, spec: "Marshaling (Wire Format)").
///
/// libdbus checks every string it is given and, by default, aborts the process on an invalid
/// one (`_dbus_warn_check_failed`); Swift strings are always valid UTF-8 and `withCString`
/// stops at a NUL, so what reaches it is valid.
extension BusConnection {
    /// The type codes of the D-Bus type system (`DBUS_TYPE_BYTE` = `'y'` and so on). The C
    /// macros are casts of character constants, which Swift does not import.
    enum TypeCode {
        static let invalid: Int32 = 0
        static let byte = code("y")
        static let boolean = code("b")
        static let int32 = code("i")
        static let uint32 = code("u")
        static let string = code("s")
        static let objectPath = code("o")
        static let signature = code("g")
        static let variant = code("v")
        static let array = code("a")
        static let structure = code("r")
        static let dictionaryEntry = code("e")

        private static func code(_ character: Unicode.Scalar) -> Int32 { Int32(character.value) }
    }

    // MARK: - Writing

    /// Appends `arguments` to a new message. Wraps `dbus_message_iter_init_append`.
    static func append(_ arguments: [BusValue], to message: OpaquePointer) throws(BusError) {
        var iterator = DBusMessageIter()
        dbus_message_iter_init_append(message, &iterator)
        for argument in arguments {
            guard append(argument, to: &iterator) else { throw .outOfMemory }
        }
    }

    /// Appends one value. Wraps `dbus_message_iter_append_basic`, `…_open_container`,
    /// `…_close_container` and `…_append_fixed_array`.
    /// - Returns: false when libdbus ran out of memory.
    private static func append(_ value: BusValue, to iterator: inout DBusMessageIter) -> Bool {
        func basic<Value: BitwiseCopyable>(_ type: Int32, _ value: Value) -> Bool {
            var copy = value
            return withUnsafeMutablePointer(to: &copy) { dbus_message_iter_append_basic(&iterator, type, $0) } != 0
        }
        func container(_ type: Int32, _ signature: String?, _ body: (inout DBusMessageIter) -> Bool) -> Bool {
            var inner = DBusMessageIter()
            let isOpen =
                if let signature {
                    dbus_message_iter_open_container(&iterator, type, signature, &inner) != 0
                } else {
                    dbus_message_iter_open_container(&iterator, type, nil, &inner) != 0
                }
            guard isOpen else { return false }
            guard body(&inner) else {
                dbus_message_iter_abandon_container(&iterator, &inner)
                return false
            }
            return dbus_message_iter_close_container(&iterator, &inner) != 0
        }
        switch value {
        case .byte(let byte): return basic(TypeCode.byte, byte)
        case .boolean(let flag): return basic(TypeCode.boolean, dbus_bool_t(flag ? 1 : 0))
        case .int32(let number): return basic(TypeCode.int32, number)
        case .uint32(let number): return basic(TypeCode.uint32, number)
        case .string(let text), .objectPath(let text):
            let type = value.signature == "o" ? TypeCode.objectPath : TypeCode.string
            return text.withCString { basic(type, Optional($0)) }
        case .variant(let inner):
            return container(TypeCode.variant, inner.signature) { append(inner, to: &$0) }
        case .array(let element, let elements):
            return container(TypeCode.array, element) { inner in elements.allSatisfy { append($0, to: &inner) } }
        case .bytes(let bytes):
            return container(TypeCode.array, "y") { inner in
                bytes.withUnsafeBufferPointer { buffer in
                    guard var start = buffer.baseAddress else { return true }
                    return dbus_message_iter_append_fixed_array(&inner, TypeCode.byte, &start, Int32(buffer.count))
                        != 0
                }
            }
        case .structure(let fields):
            return container(TypeCode.structure, nil) { inner in fields.allSatisfy { append($0, to: &inner) } }
        case .dictionaryEntry(let key, let entryValue):
            return container(TypeCode.dictionaryEntry, nil) { inner in
                append(key, to: &inner) && append(entryValue, to: &inner)
            }
        }
    }

    // MARK: - Reading

    /// A received message's arguments. Wraps `dbus_message_iter_init`.
    ///
    /// Types paste never reads (16- and 64-bit numbers, doubles, descriptors) end the list: the
    /// caller sees fewer arguments than it expects and reports an unexpected reply.
    static func arguments(of message: OpaquePointer) -> [BusValue] {
        var iterator = DBusMessageIter()
        guard dbus_message_iter_init(message, &iterator) != 0 else { return [] }
        return values(&iterator)
    }

    /// The values from the iterator's position to its end. Wraps `dbus_message_iter_next`.
    private static func values(_ iterator: inout DBusMessageIter) -> [BusValue] {
        var values: [BusValue] = []
        while dbus_message_iter_get_arg_type(&iterator) != TypeCode.invalid {
            guard let value = value(&iterator) else { break }
            values.append(value)
            dbus_message_iter_next(&iterator)
        }
        return values
    }

    /// The value at the iterator. Wraps `dbus_message_iter_get_arg_type`, `…_get_basic`,
    /// `…_recurse` and `…_get_signature` (freed with `dbus_free`).
    private static func value(_ iterator: inout DBusMessageIter) -> BusValue? {
        func basic<Value: BitwiseCopyable>(_ initial: Value) -> Value {
            var value = initial
            withUnsafeMutablePointer(to: &value) { dbus_message_iter_get_basic(&iterator, $0) }
            return value
        }
        func inner() -> [BusValue] {
            var inner = DBusMessageIter()
            dbus_message_iter_recurse(&iterator, &inner)
            return values(&inner)
        }
        switch dbus_message_iter_get_arg_type(&iterator) {
        case TypeCode.byte: return .byte(basic(UInt8(0)))
        case TypeCode.boolean: return .boolean(basic(dbus_bool_t(0)) != 0)
        case TypeCode.int32: return .int32(basic(Int32(0)))
        case TypeCode.uint32: return .uint32(basic(UInt32(0)))
        case TypeCode.string, TypeCode.signature:
            return .string(basic(UnsafePointer<CChar>?.none).map { String(cString: $0) } ?? "")
        case TypeCode.objectPath:
            return .objectPath(basic(UnsafePointer<CChar>?.none).map { String(cString: $0) } ?? "")
        case TypeCode.variant: return inner().first.map { .variant($0) }
        case TypeCode.array:
            var element = ""
            if let signature = dbus_message_iter_get_signature(&iterator) {
                element = String(String(cString: signature).dropFirst())
                dbus_free(signature)
            }
            let elements = inner()
            if element == "y" {
                return .bytes(elements.map { if case .byte(let byte) = $0 { byte } else { 0 } })
            }
            return .array(elementSignature: element, elements)
        case TypeCode.structure: return .structure(inner())
        case TypeCode.dictionaryEntry:
            let fields = inner()
            guard fields.count == 2 else { return nil }
            return .dictionaryEntry(key: fields[0], value: fields[1])
        default: return nil
        }
    }
}
