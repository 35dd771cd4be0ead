import CDBus

/// A message's body appended and read value by value through libdbus's iterator: how every message but a signal
/// or return written in one pass is built (`Message.append`), and how a body is read where `WireReader` gives
/// up (`Message.argumentsThroughTheIterator`). Each value is checked first where libdbus would abort on it.
extension Message {
    static func append(_ value: DBusValue, to iter: inout DBusMessageIter) throws {
        var ok: dbus_bool_t = 1
        switch value {
        case .byte(var v): ok = dbus_message_iter_append_basic(&iter, CDBUS_TYPE_BYTE, &v)
        case .boolean(let b):
            var v: dbus_bool_t = b ? 1 : 0
            ok = dbus_message_iter_append_basic(&iter, CDBUS_TYPE_BOOLEAN, &v)
        case .int16(var v): ok = dbus_message_iter_append_basic(&iter, CDBUS_TYPE_INT16, &v)
        case .uint16(var v): ok = dbus_message_iter_append_basic(&iter, CDBUS_TYPE_UINT16, &v)
        case .int32(var v): ok = dbus_message_iter_append_basic(&iter, CDBUS_TYPE_INT32, &v)
        case .uint32(var v): ok = dbus_message_iter_append_basic(&iter, CDBUS_TYPE_UINT32, &v)
        case .int64(var v): ok = dbus_message_iter_append_basic(&iter, CDBUS_TYPE_INT64, &v)
        case .uint64(var v): ok = dbus_message_iter_append_basic(&iter, CDBUS_TYPE_UINT64, &v)
        case .double(var v): ok = dbus_message_iter_append_basic(&iter, CDBUS_TYPE_DOUBLE, &v)
        case .string(let s):
            guard Validation.isValidString(s) else {
                throw DBusError.invalidArgs("string contains a NUL byte or invalid UTF-8")
            }
            ok = appendCString(s, type: CDBUS_TYPE_STRING, to: &iter)
        case .objectPath(let s):
            guard Validation.isValidObjectPath(s) else {
                throw DBusError.invalidArgs("'\(s.printable)' is not a valid object path")
            }
            ok = appendCString(s, type: CDBUS_TYPE_OBJECT_PATH, to: &iter)
        case .signature(let s):
            guard Validation.isValidSignature(s) else {
                throw DBusError.invalidArgs("'\(s.printable)' is not a valid signature")
            }
            ok = appendCString(s, type: CDBUS_TYPE_SIGNATURE, to: &iter)
        case .array(let element, let items):
            // Validated as "a" + element: a dict entry signature such as {sv} is only valid inside an array.
            guard Validation.isValidSignature("a" + element) else {
                throw DBusError.invalidArgs("'a\(element.printable)' is not a valid array signature")
            }
            guard items.allHaveSignature(element) else {
                throw DBusError.invalidArgs("array elements do not all have signature '\(element.printable)'")
            }
            try container(CDBUS_TYPE_ARRAY, element, &iter) { sub in
                for item in items { try append(item, to: &sub) }
            }
        case .structure(let fields):
            guard !fields.isEmpty else { throw DBusError.invalidArgs("a struct needs at least one field") }
            try container(CDBUS_TYPE_STRUCT, nil, &iter) { sub in
                for field in fields { try append(field, to: &sub) }
            }
        case .dictEntry(let key, let value):
            try container(CDBUS_TYPE_DICT_ENTRY, nil, &iter) { sub in
                try append(key, to: &sub)
                try append(value, to: &sub)
            }
        case .variant(let inner):
            let signature = inner.signature
            // One type code is always a valid signature (most variants: a record's strings and numbers); a
            // container's is checked, since it could be too long or too deep.
            guard inner.typeCode != nil || Validation.isValidSignature(signature) else {
                throw DBusError(DBusError.limitsExceededName, "a variant's signature '\(signature.printable)' is not valid (too long or too deep)")
            }
            try container(CDBUS_TYPE_VARIANT, signature, &iter) { sub in try append(inner, to: &sub) }
        }
        if ok == 0 { throw DBusError.failed("out of memory appending a value") }
    }

    private static func appendCString(_ s: String, type: Int32, to iter: inout DBusMessageIter) -> dbus_bool_t {
        s.withCString { cstr in
            var pointer: UnsafePointer<CChar>? = cstr
            return dbus_message_iter_append_basic(&iter, type, &pointer)
        }
    }

    private static func container(
        _ type: Int32, _ signature: String?, _ iter: inout DBusMessageIter,
        _ body: (inout DBusMessageIter) throws -> Void
    ) throws {
        var sub = DBusMessageIter()
        let opened: dbus_bool_t =
            if let signature {
                signature.withCString { dbus_message_iter_open_container(&iter, type, $0, &sub) }
            } else {
                dbus_message_iter_open_container(&iter, type, nil, &sub)
            }
        guard opened != 0 else { throw DBusError.failed("out of memory opening a container") }
        do {
            try body(&sub)
        } catch {
            dbus_message_iter_abandon_container(&iter, &sub)
            throw error
        }
        guard dbus_message_iter_close_container(&iter, &sub) != 0 else {
            throw DBusError.failed("out of memory closing a container")
        }
    }

    static func readAll(_ iter: inout DBusMessageIter) -> [DBusValue] {
        var values: [DBusValue] = []
        while dbus_message_iter_get_arg_type(&iter) != CDBUS_TYPE_INVALID {
            if let value = read(&iter) { values.append(value) }
            dbus_message_iter_next(&iter)
        }
        return values
    }

    private static func read(_ iter: inout DBusMessageIter) -> DBusValue? {
        let type = dbus_message_iter_get_arg_type(&iter)
        var basic = DBusBasicValue()
        func basicValue() -> DBusBasicValue {
            dbus_message_iter_get_basic(&iter, &basic)
            return basic
        }
        switch type {
        case CDBUS_TYPE_BYTE: return .byte(basicValue().byt)
        case CDBUS_TYPE_BOOLEAN: return .boolean(basicValue().bool_val != 0)
        case CDBUS_TYPE_INT16: return .int16(basicValue().i16)
        case CDBUS_TYPE_UINT16: return .uint16(basicValue().u16)
        case CDBUS_TYPE_INT32: return .int32(basicValue().i32)
        case CDBUS_TYPE_UINT32: return .uint32(basicValue().u32)
        case CDBUS_TYPE_INT64: return .int64(Int64(basicValue().i64))
        case CDBUS_TYPE_UINT64: return .uint64(UInt64(basicValue().u64))
        case CDBUS_TYPE_DOUBLE: return .double(basicValue().dbl)
        case CDBUS_TYPE_UNIX_FD: return .int32(-1)  // never used by traitd; the fd itself is not taken
        case CDBUS_TYPE_STRING: return .string(String(cString: basicValue().str))
        case CDBUS_TYPE_OBJECT_PATH: return .objectPath(String(cString: basicValue().str))
        case CDBUS_TYPE_SIGNATURE: return .signature(String(cString: basicValue().str))
        case CDBUS_TYPE_ARRAY:
            // dbus_message_iter_get_signature returns a copy the caller owns.
            guard let copy = dbus_message_iter_get_signature(&iter) else { return nil }
            // A unix fd reads as int32 -1 (below), so its type in an element signature reads as 'i': the array
            // then writes back as it reads (an `ah` is an `ai` of -1s), as values read anywhere else do.
            var element = String(String(cString: copy).dropFirst())
            dbus_free(copy)
            if element.utf8.contains(UInt8(ascii: "h")) {  // rare; `replacing` on every array read cost 2 % of a transition
                element = String(element.map { $0 == "h" ? "i" : $0 })
            }
            var sub = DBusMessageIter()
            dbus_message_iter_recurse(&iter, &sub)
            return .array(element: element, readAll(&sub))
        case CDBUS_TYPE_STRUCT:
            var sub = DBusMessageIter()
            dbus_message_iter_recurse(&iter, &sub)
            return .structure(readAll(&sub))
        case CDBUS_TYPE_DICT_ENTRY:
            var sub = DBusMessageIter()
            dbus_message_iter_recurse(&iter, &sub)
            let pair = readAll(&sub)
            guard pair.count == 2 else { return nil }
            return .dictEntry(pair[0], pair[1])
        case CDBUS_TYPE_VARIANT:
            var sub = DBusMessageIter()
            dbus_message_iter_recurse(&iter, &sub)
            return read(&sub).map { .variant($0) }
        default:
            return nil
        }
    }
}
