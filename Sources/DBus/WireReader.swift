import CDBus
import Glibc

/// A received message's body read from its bytes in one pass: the mirror of `WireWriter`, and what
/// `Message.arguments()` reads with.
///
/// libdbus's iterator costs about 3,300 instructions a value (a type reader per step, and each array's element
/// signature built as a string it allocates): 14,500 for a one-frame `ReportLayout`, read for every report
/// (callgrind, ten adapters). libdbus has already validated the message when it arrived (its loader refuses
/// what the specification does), so this reads the bytes as they are: the body's signature from the header
/// (`dbus_message_get_signature`), the bytes from `dbus_message_marshal` (one copy), in the message's own byte
/// order. It still checks every length and offset against the body and gives up (nil) on anything it did not
/// expect, and the caller then reads with libdbus's iterator instead; the values are the iterator's, to the
/// letter (a Unix file descriptor reads as int32 -1, and `h` as `i` in an array's element type), which
/// `WireReaderTests` and `fuzz-dbus-value` hold it to.
struct WireReader {
    private let base: UnsafeRawPointer
    /// The end of the body.
    private let end: Int
    private var offset: Int
    private let bigEndian: Bool

    private init(base: UnsafeRawPointer, body: Int, end: Int, bigEndian: Bool) {
        self.base = base
        self.offset = body
        self.end = end
        self.bigEndian = bigEndian
    }

    /// The values of `message`'s body; nil when they are read some other way (see the type's comment).
    static func arguments(of message: Message) -> [DBusValue]? {
        withBody(of: message) { reader, signature in
            var values: [DBusValue] = []
            var position = 0
            while position < signature.count {
                guard let value = reader.value(signature, &position) else { return nil }
                values.append(value)
            }
            return reader.offset == reader.end ? values : nil
        }
    }

    /// The body's size and depth as `IncomingLimit` counts them (`Message.measure`'s rules: 4 bytes a container,
    /// 5 and its length a string, its size a basic value, no padding), walking no further than the first limit
    /// passed; nil when it is measured some other way.
    static func measure(_ message: Message, upTo limit: IncomingLimit) -> (bytes: Int, depth: Int)? {
        withBody(of: message) { reader, signature in
            var total = (bytes: 0, depth: 0)
            var position = 0
            while position < signature.count {
                switch reader.measure(signature, &position, depth: 0, into: &total, limit: limit) {
                case nil: return nil
                case false?: return total
                case true?: continue
                }
            }
            return total
        }
    }

    /// Runs `body` with a reader at the start of `message`'s body and the body's signature; nil when the message
    /// has no bytes to read this way.
    private static func withBody<Result>(
        of message: Message, _ body: (inout WireReader, UnsafeBufferPointer<UInt8>) -> Result?
    ) -> Result? {
        guard let signature = dbus_message_get_signature(message.raw), let bytes = message.receivedBytes() else { return nil }
        return signature.withMemoryRebound(to: UInt8.self, capacity: strlen(signature)) { characters in
            let signature = UnsafeBufferPointer(start: characters, count: strlen(signature))
            return bytes.withUnsafeBytes { buffer -> Result? in
                guard var reader = WireReader(message: buffer) else { return nil }
                return body(&reader, signature)
            }
        }
    }

    /// A reader at the start of the body of the whole message in `buffer`. The fixed header: byte order, type,
    /// flags, version, the body's length, the serial, the length of the header fields' array; the body starts at
    /// the next multiple of 8 after that array.
    private init?(message buffer: UnsafeRawBufferPointer) {
        guard buffer.count >= 16, let base = buffer.baseAddress else { return nil }
        let order = base.load(as: UInt8.self)
        guard order == UInt8(ascii: "l") || order == UInt8(ascii: "B") else { return nil }
        var header = WireReader(base: base, body: 4, end: 16, bigEndian: order == UInt8(ascii: "B"))
        guard let bodyLength = header.uint32(), header.uint32() != nil, let fieldsLength = header.uint32() else { return nil }
        let body = (16 + Int(fieldsLength) + 7) & ~7
        guard body <= buffer.count, Int(bodyLength) <= buffer.count - body else { return nil }
        self.init(base: base, body: body, end: body + Int(bodyLength), bigEndian: header.bigEndian)
    }

    // MARK: Values

    /// The value whose type starts at `position` in `signature`; `position` moves past that type.
    private mutating func value(_ signature: UnsafeBufferPointer<UInt8>, _ position: inout Int) -> DBusValue? {
        guard position < signature.count else { return nil }
        let code = signature[position]
        position += 1
        switch code {
        case UInt8(ascii: "y"): return byte().map(DBusValue.byte)
        case UInt8(ascii: "b"): return uint32().map { .boolean($0 != 0) }
        case UInt8(ascii: "n"): return uint16().map { .int16(Int16(bitPattern: $0)) }
        case UInt8(ascii: "q"): return uint16().map(DBusValue.uint16)
        case UInt8(ascii: "i"): return uint32().map { .int32(Int32(bitPattern: $0)) }
        case UInt8(ascii: "u"): return uint32().map(DBusValue.uint32)
        case UInt8(ascii: "h"): return uint32().map { _ in .int32(-1) }  // as the iterator reads it: the fd is not taken
        case UInt8(ascii: "x"): return uint64().map { .int64(Int64(bitPattern: $0)) }
        case UInt8(ascii: "t"): return uint64().map(DBusValue.uint64)
        case UInt8(ascii: "d"): return uint64().map { .double(Double(bitPattern: $0)) }
        case UInt8(ascii: "s"): return string().map(DBusValue.string)
        case UInt8(ascii: "o"): return string().map(DBusValue.objectPath)
        case UInt8(ascii: "g"): return signatureValue().map { .signature(String(decoding: $0, as: UTF8.self)) }
        case UInt8(ascii: "a"):
            let elementStart = position
            guard let elementEnd = Self.endOfType(signature, from: elementStart), let length = uint32() else { return nil }
            let element = UnsafeBufferPointer(rebasing: signature[elementStart..<elementEnd])
            guard align(to: DBusValue.alignment(ofTypeCode: element[0])) else { return nil }
            let itemsEnd = offset + Int(length)
            guard itemsEnd <= end else { return nil }
            var items: [DBusValue] = []
            while offset < itemsEnd {
                var itemPosition = elementStart
                guard let item = value(signature, &itemPosition), itemPosition == elementEnd else { return nil }
                items.append(item)
            }
            guard offset == itemsEnd else { return nil }
            position = elementEnd
            var elementString = String(decoding: element, as: UTF8.self)
            if element.contains(UInt8(ascii: "h")) {  // an fd reads as int32, so its type does too (as the iterator's)
                elementString = String(elementString.map { $0 == "h" ? "i" : $0 })
            }
            return .array(element: elementString, items)
        case UInt8(ascii: "("), UInt8(ascii: "{"):
            let close = code == UInt8(ascii: "(") ? UInt8(ascii: ")") : UInt8(ascii: "}")
            guard align(to: 8) else { return nil }
            var fields: [DBusValue] = []
            while position < signature.count, signature[position] != close {
                guard let field = value(signature, &position) else { return nil }
                fields.append(field)
            }
            guard position < signature.count else { return nil }
            position += 1
            if code == UInt8(ascii: "(") { return .structure(fields) }
            return fields.count == 2 ? .dictEntry(fields[0], fields[1]) : nil
        case UInt8(ascii: "v"):
            guard let inner = signatureValue() else { return nil }
            var innerPosition = 0
            guard let value = value(inner, &innerPosition), innerPosition == inner.count else { return nil }
            return .variant(value)
        default:
            return nil
        }
    }

    /// Adds the value whose type starts at `position` on to `total`: false once a limit is passed (the walk
    /// stops there, as `Message.measure`'s does), nil where the bytes are not what was expected.
    private mutating func measure(
        _ signature: UnsafeBufferPointer<UInt8>, _ position: inout Int, depth: Int,
        into total: inout (bytes: Int, depth: Int), limit: IncomingLimit
    ) -> Bool? {
        guard position < signature.count else { return nil }
        let code = signature[position]
        switch code {
        case UInt8(ascii: "a"), UInt8(ascii: "("), UInt8(ascii: "{"), UInt8(ascii: "v"):
            total.depth = max(total.depth, depth + 1)
            total.bytes += 4
            if total.depth > limit.depth { return false }
            switch code {
            case UInt8(ascii: "a"):
                let elementStart = position + 1
                guard let elementEnd = Self.endOfType(signature, from: elementStart), let length = uint32(),
                      align(to: DBusValue.alignment(ofTypeCode: signature[elementStart])) else { return nil }
                let itemsEnd = offset + Int(length)
                guard itemsEnd <= end else { return nil }
                if let size = DBusValue.fixedSize(ofTypeCode: signature[elementStart]), elementEnd == elementStart + 1 {
                    total.bytes += Int(length) / size * size  // counted, not walked
                    offset = itemsEnd
                } else {
                    while offset < itemsEnd {
                        var itemPosition = elementStart
                        guard let more = measure(signature, &itemPosition, depth: depth + 1, into: &total, limit: limit)
                        else { return nil }
                        if !more { return false }
                    }
                }
                position = elementEnd
            case UInt8(ascii: "v"):
                position += 1
                guard let inner = signatureValue() else { return nil }
                var innerPosition = 0
                guard let more = measure(inner, &innerPosition, depth: depth + 1, into: &total, limit: limit) else { return nil }
                if !more { return false }
            default:
                let close = code == UInt8(ascii: "(") ? UInt8(ascii: ")") : UInt8(ascii: "}")
                position += 1
                guard align(to: 8) else { return nil }
                while position < signature.count, signature[position] != close {
                    guard let more = measure(signature, &position, depth: depth + 1, into: &total, limit: limit) else { return nil }
                    if !more { return false }
                }
                guard position < signature.count else { return nil }
                position += 1
            }
        case UInt8(ascii: "s"), UInt8(ascii: "o"):
            position += 1
            guard let characters = stringCharacters() else { return nil }
            total.bytes += 5 + characters.count
        case UInt8(ascii: "g"):
            position += 1
            guard let characters = signatureValue() else { return nil }
            total.bytes += 5 + characters.count
        default:
            guard value(signature, &position) != nil else { return nil }
            total.bytes += DBusValue.fixedSize(ofTypeCode: code) ?? 8
        }
        return total.bytes <= limit.bytes
    }

    /// The end of the complete type starting at `start` (libdbus has validated the signature: the brackets match).
    private static func endOfType(_ signature: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        var position = start
        var open = 0
        while position < signature.count {
            switch signature[position] {
            case UInt8(ascii: "a"):
                position += 1
                continue
            case UInt8(ascii: "("), UInt8(ascii: "{"): open += 1
            case UInt8(ascii: ")"), UInt8(ascii: "}"): open -= 1
            default: break
            }
            position += 1
            if open == 0 { return position }
        }
        return nil
    }

    // MARK: Bytes

    private mutating func align(to alignment: Int) -> Bool {
        let aligned = (offset + alignment - 1) & ~(alignment - 1)
        guard aligned <= end else { return false }
        offset = aligned
        return true
    }

    private mutating func byte() -> UInt8? {
        guard offset < end else { return nil }
        defer { offset += 1 }
        return base.load(fromByteOffset: offset, as: UInt8.self)
    }

    private mutating func number<Number: FixedWidthInteger>(_: Number.Type) -> Number? {
        let size = MemoryLayout<Number>.size
        guard align(to: size), offset + size <= end else { return nil }
        defer { offset += size }
        let raw = base.loadUnaligned(fromByteOffset: offset, as: Number.self)
        return bigEndian ? Number(bigEndian: raw) : Number(littleEndian: raw)
    }

    private mutating func uint16() -> UInt16? { number(UInt16.self) }
    private mutating func uint32() -> UInt32? { number(UInt32.self) }
    private mutating func uint64() -> UInt64? { number(UInt64.self) }

    /// A string (its length, its characters and a NUL), valid UTF-8 as libdbus checked.
    private mutating func string() -> String? {
        stringCharacters().map { String(decoding: $0, as: UTF8.self) }
    }

    /// A string's characters, pointing into the message.
    private mutating func stringCharacters() -> UnsafeBufferPointer<UInt8>? {
        guard let length = uint32().map(Int.init), offset + length < end else { return nil }
        defer { offset += length + 1 }
        return UnsafeBufferPointer(start: (base + offset).assumingMemoryBound(to: UInt8.self), count: length)
    }

    /// A signature's characters (its one-byte length, its characters and a NUL), pointing into the message.
    private mutating func signatureValue() -> UnsafeBufferPointer<UInt8>? {
        guard let length = byte().map(Int.init), offset + length < end else { return nil }
        defer { offset += length + 1 }
        return UnsafeBufferPointer(start: (base + offset).assumingMemoryBound(to: UInt8.self), count: length)
    }
}
