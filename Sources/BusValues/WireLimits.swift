/// The limits the D-Bus specification puts on one message, and the checks that keep every message this
/// package builds inside them.
///
/// A message past one of them is not refused by libdbus when it is built: the bus refuses it when it arrives,
/// and does so by closing the sender's connection. So a daemon that published one value too deep or too large
/// would lose the bus. `Message.append` checks every body against these limits first and throws instead.
public enum WireLimits {
    /// Containers (arrays, structs, dict entries, variants) nested in one message body.
    public static let maximumDepth = 64
    /// Bytes of one array's elements.
    public static let maximumArrayBytes = 64 * 1024 * 1024
    /// Bytes of one whole message. The body is kept a little under it to leave room for the header.
    public static let maximumMessageBytes = 128 * 1024 * 1024
    package static let maximumBodyBytes = maximumMessageBytes - 64 * 1024
    /// Characters in one signature (a message's body signature, or a variant's).
    public static let maximumSignatureLength = 255

    /// The measurements of a body: its depth, size and largest array.
    public struct Measure: Sendable, Equatable {
        /// The deepest nesting of containers.
        public var depth = 0
        /// Bytes in the wire format, the body starting at an 8-aligned offset.
        public var bytes = 0
        /// Bytes of the largest array's elements.
        public var largestArray = 0
        package init(depth: Int = 0, bytes: Int = 0, largestArray: Int = 0) {
            self.depth = depth
            self.bytes = bytes
            self.largestArray = largestArray
        }
    }

    /// Measures `values` as one message body.
    public static func measure(_ values: [DBusValue]) -> Measure {
        var measure = Measure()
        for value in values {
            measure.bytes = value.wireEnd(from: measure.bytes, &measure.largestArray)
            measure.depth = max(measure.depth, value.nestingDepth)
        }
        return measure
    }

    /// Throws `org.freedesktop.DBus.Error.LimitsExceeded`, naming the limit, when `values` cannot be one
    /// message body.
    public static func check(_ values: [DBusValue]) throws {
        try check(measure(values), signatureLength: values.reduce(0) { $0 + $1.signatureLength })
    }

    /// The same checks on a body already measured (`WireWriter` measures as it writes).
    package static func check(_ measure: Measure, signatureLength: Int) throws {
        guard signatureLength <= maximumSignatureLength else {
            throw DBusError(DBusError.limitsExceededName,
                            "the body's signature has \(signatureLength) characters; D-Bus allows \(maximumSignatureLength)")
        }
        guard measure.depth <= maximumDepth else {
            throw DBusError(DBusError.limitsExceededName,
                            "the body nests \(measure.depth) containers deep; D-Bus allows \(maximumDepth)")
        }
        guard measure.largestArray <= maximumArrayBytes else {
            throw DBusError(DBusError.limitsExceededName,
                            "an array of the body has \(measure.largestArray) bytes; D-Bus allows \(maximumArrayBytes)")
        }
        guard measure.bytes <= maximumBodyBytes else {
            throw DBusError(DBusError.limitsExceededName,
                            "the body has \(measure.bytes) bytes; a D-Bus message may have \(maximumMessageBytes) in all")
        }
    }
}

extension DBusValue {
    /// Containers nested in this value (arrays, structs, dict entries and variants each count one); 0 for a
    /// basic value. An empty array counts the containers its element type would hold.
    public var nestingDepth: Int {
        switch self {
        case .array(let element, let items):
            // An item is at least as deep as its type: the element signature counts only for an empty array.
            guard !items.isEmpty else { return 1 + Self.depth(ofSignature: element) }
            var deepest = 0
            for item in items { deepest = max(deepest, item.nestingDepth) }
            return 1 + deepest
        case .structure(let fields):
            var deepest = 0
            for field in fields { deepest = max(deepest, field.nestingDepth) }
            return 1 + deepest
        case .dictEntry(let key, let value):
            return 1 + max(key.nestingDepth, value.nestingDepth)
        case .variant(let inner):
            return 1 + inner.nestingDepth
        default:
            return 0
        }
    }

    /// `DBusValue.vardict(entries).nestingDepth` without building the value: the array, a dict entry and a
    /// variant around the deepest value (an empty one counts its element type's, as an empty array does).
    public static func vardictDepth(_ entries: [String: DBusValue]) -> Int {
        3 + entries.values.reduce(0) { max($0, $1.nestingDepth) }
    }

    /// The value's size in the wire format when it starts at an 8-aligned offset (alignment padding included).
    public var wireSize: Int {
        var largest = 0
        return wireEnd(from: 0, &largest)
    }

    /// Where the value ends when written at `offset` (relative to an 8-aligned start); records the bytes of the
    /// largest array in `largestArray`.
    package func wireEnd(from offset: Int, _ largestArray: inout Int) -> Int {
        func aligned(_ n: Int, _ a: Int) -> Int { (n + a - 1) / a * a }
        switch self {
        case .byte: return offset + 1
        case .int16, .uint16: return aligned(offset, 2) + 2
        case .boolean, .int32, .uint32: return aligned(offset, 4) + 4
        case .int64, .uint64, .double: return aligned(offset, 8) + 8
        case .string(let s), .objectPath(let s): return aligned(offset, 4) + 4 + s.utf8.count + 1
        case .signature(let s): return offset + 1 + s.utf8.count + 1
        case .array(let element, let items):
            let start = aligned(aligned(offset, 4) + 4, Self.alignment(ofSignature: element))
            var end = start
            for item in items { end = item.wireEnd(from: end, &largestArray) }
            largestArray = max(largestArray, end - start)
            return end
        case .structure(let fields):
            var end = aligned(offset, 8)
            for field in fields { end = field.wireEnd(from: end, &largestArray) }
            return end
        case .dictEntry(let key, let value):
            let end = key.wireEnd(from: aligned(offset, 8), &largestArray)
            return value.wireEnd(from: end, &largestArray)
        case .variant(let inner):
            return inner.wireEnd(from: offset + 1 + inner.signatureLength + 1, &largestArray)
        }
    }

    /// The alignment of values of a type, from the first character of its signature.
    package static func alignment(ofSignature signature: String) -> Int { alignment(ofTypeCode: signature.utf8.first ?? 0) }

    /// The alignment of values of the type whose signature starts with `code`.
    package static func alignment(ofTypeCode code: UInt8) -> Int {
        switch code {
        case UInt8(ascii: "n"), UInt8(ascii: "q"): return 2
        case UInt8(ascii: "b"), UInt8(ascii: "i"), UInt8(ascii: "u"), UInt8(ascii: "s"), UInt8(ascii: "o"),
            UInt8(ascii: "a"), UInt8(ascii: "h"):
            return 4
        case UInt8(ascii: "x"), UInt8(ascii: "t"), UInt8(ascii: "d"), UInt8(ascii: "("), UInt8(ascii: "{"): return 8
        default: return 1  // y, g, v
        }
    }

    /// The size of a basic value of fixed size (nil for strings, signatures, containers and anything else). The
    /// codes are libdbus's type constants too (`DBUS_TYPE_INT32` is `i`).
    package static func fixedSize(ofTypeCode code: UInt8) -> Int? {
        switch code {
        case UInt8(ascii: "y"): return 1
        case UInt8(ascii: "n"), UInt8(ascii: "q"): return 2
        case UInt8(ascii: "b"), UInt8(ascii: "i"), UInt8(ascii: "u"), UInt8(ascii: "h"): return 4
        case UInt8(ascii: "x"), UInt8(ascii: "t"), UInt8(ascii: "d"): return 8
        default: return nil
        }
    }

    /// The deepest nesting of containers a signature describes (`a{sv}` is 3: array, dict entry, variant).
    package static func depth(ofSignature signature: String) -> Int {
        var deepest = 0
        var enclosing = 0  // containers around this point of the signature
        var arrays = 0  // array codes waiting for their element type
        var opened: [Int] = []  // for each open struct or dict entry, the containers it added to `enclosing`
        for byte in signature.utf8 {
            switch byte {
            case UInt8(ascii: "a"):
                arrays += 1
                deepest = max(deepest, enclosing + arrays)
            case UInt8(ascii: "("), UInt8(ascii: "{"):
                opened.append(arrays + 1)
                enclosing += arrays + 1
                arrays = 0
                deepest = max(deepest, enclosing)
            case UInt8(ascii: ")"), UInt8(ascii: "}"):
                enclosing -= opened.popLast() ?? 0
                arrays = 0
            case UInt8(ascii: "v"):
                deepest = max(deepest, enclosing + arrays + 1)
                arrays = 0
            default:
                arrays = 0
            }
        }
        return deepest
    }
}
