/// A D-Bus value of any type, as read from or written to a message.
///
/// Containers carry their element signature explicitly so that an empty array still has a type
/// (`.array(element: "s", [])` is `as`). Dictionaries are arrays of `.dictEntry` values, as on the wire.
///
/// Only the cases that hold a value directly are `indirect` (a dict entry, a variant): every other value is stored
/// inline, so that a string or a number costs no allocation of its own (with the whole enum indirect, each value
/// was a heap box, and making and freeing them was 6 % of traitd's instructions in a transition).
public enum DBusValue: Sendable, Hashable {
    case byte(UInt8)
    case boolean(Bool)
    case int16(Int16)
    case uint16(UInt16)
    case int32(Int32)
    case uint32(UInt32)
    case int64(Int64)
    case uint64(UInt64)
    case double(Double)
    case string(String)
    case objectPath(String)
    case signature(String)
    case array(element: String, [DBusValue])
    case structure([DBusValue])
    indirect case dictEntry(DBusValue, DBusValue)
    indirect case variant(DBusValue)

    /// The value's D-Bus type signature (`s`, `a{sv}`, `(dddd)`, ...).
    public var signature: String {
        if let code = typeCode { return String(Character(code)) }
        switch self {
        case .array(let element, _): return "a" + element
        case .structure(let fields): return "(" + fields.map(\.signature).joined() + ")"
        case .dictEntry(let key, let value): return "{" + key.signature + value.signature + "}"
        default: preconditionFailure("every other value has a one-character type code")
        }
    }

    /// The one-character signature of a basic value or a variant; nil for the containers whose signature is
    /// built from their contents.
    package var typeCode: Unicode.Scalar? {
        switch self {
        case .byte: "y"
        case .boolean: "b"
        case .int16: "n"
        case .uint16: "q"
        case .int32: "i"
        case .uint32: "u"
        case .int64: "x"
        case .uint64: "t"
        case .double: "d"
        case .string: "s"
        case .objectPath: "o"
        case .signature: "g"
        case .variant: "v"
        case .array, .structure, .dictEntry: nil
        }
    }
}

extension DBusValue {
    /// Whether `signature == self.signature`, without building the string: an array's every item is checked
    /// against its element type before it is sent, and building `{sv}` for each entry was most of that.
    public func hasSignature(_ signature: String) -> Bool {
        var signature = signature
        return signature.withUTF8(hasSignature)
    }

    /// Whether `signature`'s bytes are exactly this value's signature.
    fileprivate func hasSignature(_ signature: UnsafeBufferPointer<UInt8>) -> Bool {
        var position = 0
        return consumeSignature(signature, at: &position) && position == signature.count
    }

    /// Removes this value's signature from the front of `rest` (by advancing `at`); false when `rest` does not
    /// start with it.
    fileprivate func consumeSignature(_ rest: UnsafeBufferPointer<UInt8>, at position: inout Int) -> Bool {
        func take(_ code: Unicode.Scalar) -> Bool {
            guard position < rest.count, rest[position] == UInt8(ascii: code) else { return false }
            position += 1
            return true
        }
        if let code = typeCode { return take(code) }
        switch self {
        case .array(let element, _):
            guard take("a") else { return false }
            let end = position + element.utf8.count
            guard end <= rest.count, element.utf8.elementsEqual(rest[position..<end]) else { return false }
            position = end
            return true
        case .structure(let fields):
            guard take("(") else { return false }
            for field in fields where !field.consumeSignature(rest, at: &position) { return false }
            return take(")")
        case .dictEntry(let key, let value):
            return take("{") && key.consumeSignature(rest, at: &position)
                && value.consumeSignature(rest, at: &position) && take("}")
        default:
            return false  // has a type code: taken above
        }
    }

    /// `signature.utf8.count`, without building the string (the wire limits measure every body sent).
    public var signatureLength: Int {
        switch self {
        case .array(let element, _): return 1 + element.utf8.count
        case .structure(let fields): return fields.reduce(2) { $0 + $1.signatureLength }
        case .dictEntry(let key, let value): return 2 + key.signatureLength + value.signatureLength
        default: return 1
        }
    }
}

extension [DBusValue] {
    /// Whether `signature == self.signature` (a message body's), without building the string.
    public func hasSignature(_ signature: String) -> Bool {
        var signature = signature
        return signature.withUTF8 { rest in
            var position = 0
            for value in self where !value.consumeSignature(rest, at: &position) { return false }
            return position == rest.count
        }
    }

    /// Whether every value has signature `element` (an array's items), the signature's bytes read once.
    public func allHaveSignature(_ element: String) -> Bool {
        var element = element
        return element.withUTF8 { signature in allSatisfy { $0.hasSignature(signature) } }
    }

    /// The signature of these values in a row, as a message body carries them (`sa{sv}`).
    public var signature: String { map(\.signature).joined() }
}

// MARK: - Building values

extension DBusValue {
    /// `a{sv}` from a Swift dictionary; keys are sorted so that output is deterministic.
    public static func vardict(_ entries: [String: DBusValue]) -> DBusValue {
        .array(element: "{sv}", entries.keys.sorted().map { .dictEntry(.string($0), .variant(entries[$0]!)) })
    }

    /// `as` from Swift strings.
    public static func strings(_ values: [String]) -> DBusValue {
        .array(element: "s", values.map { .string($0) })
    }

    /// `ao` from object paths.
    public static func objectPaths(_ values: [String]) -> DBusValue {
        .array(element: "o", values.map { .objectPath($0) })
    }

    /// `(dd...)` from doubles.
    public static func doubles(_ values: [Double]) -> DBusValue {
        .structure(values.map { .double($0) })
    }
}

// MARK: - Reading values

extension DBusValue {
    public var string: String? {
        switch self {
        case .string(let s), .objectPath(let s), .signature(let s): return s
        case .variant(let v): return v.string
        default: return nil
        }
    }

    public var double: Double? {
        switch self {
        case .double(let d): return d
        case .variant(let v): return v.double
        default: return nil
        }
    }

    public var uint64: UInt64? {
        switch self {
        case .uint64(let v): return v
        case .uint32(let v): return UInt64(v)
        case .variant(let v): return v.uint64
        default: return nil
        }
    }

    public var bool: Bool? {
        switch self {
        case .boolean(let b): return b
        case .variant(let v): return v.bool
        default: return nil
        }
    }

    /// Elements of an array (any element type), or the fields of a struct.
    public var elements: [DBusValue]? {
        switch self {
        case .array(_, let items): return items
        case .structure(let fields): return fields
        case .variant(let v): return v.elements
        default: return nil
        }
    }

    /// The doubles of a `(dd...)` struct or `ad` array.
    public var doubles: [Double]? {
        guard let items = elements else { return nil }
        let values = items.compactMap(\.double)
        return values.count == items.count ? values : nil
    }

    /// The strings of an `as` (or `ao`) array.
    public var strings: [String]? {
        guard let items = elements else { return nil }
        let values = items.compactMap(\.string)
        return values.count == items.count ? values : nil
    }

    /// A dictionary with string keys (`a{sv}`, `a{ss}`, `a{s(dddd)}`...), variants unwrapped one level, as a
    /// daemon reads what it is sent: nil when the value is not one, and `InvalidArgs` naming the key when a key
    /// comes twice. (The D-Bus specification leaves a repeated key's meaning to the reader: GDBus keeps the
    /// first value, a Swift dictionary the last. traitd keeps neither: `{Appearance: <42>, Appearance: <"dark">}`
    /// must not pass as "dark" when another reader of the same message sees 42.) `what` names the value.
    public func uniqueDictionary(_ what: String) throws -> [String: DBusValue]? { try uniqueDictionary(what) { $0 } }

    /// The same, each value (unwrapped) made into `Element` by `decode` as it is read: one pass, straight into the
    /// typed dictionary (a report's frames are read this way at every report).
    public func uniqueDictionary<Element>(_ what: String, _ decode: (DBusValue) throws -> Element) throws -> [String: Element]? {
        guard case .array(_, let items) = self.unwrapped else { return nil }
        var result: [String: Element] = [:]
        result.reserveCapacity(items.count)
        for item in items {
            guard case .dictEntry(let key, let value) = item, let k = key.string else { return nil }
            guard result[k] == nil else { throw DBusError.repeatedKey(k, in: what) }
            result[k] = try decode(value.unwrapped)
        }
        return result
    }

    /// A dictionary with string keys (`a{sv}`, `a{ss}`, `a{s(dddd)}`...), variants unwrapped one level, as a
    /// client reads a reply (the last value of a repeated key wins); a daemon reads with `uniqueDictionary`.
    public var dictionary: [String: DBusValue]? {
        guard case .array(_, let items) = self.unwrapped else { return nil }
        var result: [String: DBusValue] = [:]
        for item in items {
            guard case .dictEntry(let key, let value) = item, let k = key.string else { return nil }
            result[k] = value.unwrapped
        }
        return result
    }

    /// The value inside any number of variants.
    public var unwrapped: DBusValue {
        if case .variant(let inner) = self { return inner.unwrapped }
        return self
    }
}
