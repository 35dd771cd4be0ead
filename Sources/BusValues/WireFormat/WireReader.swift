import Glibc

/// A message's body read from its bytes in one pass, every byte checked as libdbus's loader checks a message it
/// receives (`validate_body_helper` in dbus-marshal-validate.c): what `Message.arguments()` reads a received
/// message with, and what `WireMessage` reads a file with, where nothing has checked the bytes before.
///
/// libdbus's iterator costs about 3,300 instructions a value (a type reader per step, and each array's element
/// signature built as a string it allocates): 14,500 for a one-frame `ReportLayout`, read for every report
/// (callgrind, ten adapters). So traitd reads the bytes itself, in the message's own byte order, and refuses
/// (`Invalid`, saying what) what libdbus's loader refuses: a length or an offset past the body, padding that is
/// not zero, a boolean other than 0 or 1, a string that is not UTF-8 or holds a NUL or has none after it, an
/// object path or a signature that is not one, a variant that does not hold one complete type, an array past
/// 64 MiB, values nested past 64. It is stricter in one place: an array of fixed-size values whose length is not
/// a multiple of their size (which libdbus's iterator reads past). The values are the iterator's, to the letter
/// (a Unix file descriptor reads as int32 -1, and `h` as `i` in an array's element type), which
/// `WireReaderTests` and `fuzz-dbus-value` hold it to.
package struct WireReader {
    /// Why bytes are not a D-Bus value of the type expected, in a person's words.
    package struct Invalid: Error, CustomStringConvertible {
        package let description: String
        init(_ description: String) { self.description = description }
    }

    private let base: UnsafeRawPointer
    /// The end of the bytes being read (a body, or a message's header).
    private let end: Int
    private(set) var offset: Int
    let bigEndian: Bool

    /// libdbus's limit on values nested in values (32 arrays and 32 structs, the nesting a signature allows, which
    /// a variant must not let go past).
    static let maximumDepth = 64

    /// A reader of `bytes` from `offset` up to `end`.
    init(_ bytes: UnsafeRawBufferPointer, from offset: Int, to end: Int, bigEndian: Bool) {
        base = bytes.baseAddress ?? UnsafeRawPointer(bitPattern: 1)!
        self.offset = offset
        self.end = end
        self.bigEndian = bigEndian
    }

    /// The values of the body of the whole message in `bytes`, whose signature is `signature` (a header libdbus
    /// has checked says where the body is and what it holds).
    package static func arguments(
        ofMessage bytes: UnsafeRawBufferPointer, signature: UnsafeBufferPointer<UInt8>
    ) throws(Invalid) -> [DBusValue] {
        var reader = try body(of: bytes)
        return try reader.values(signature)
    }

    /// The body's size and depth as `IncomingLimit` counts them (4 bytes a container, 5 and its length a string,
    /// its size a basic value, no padding), walking no further than the first limit passed.
    package static func measure(
        ofMessage bytes: UnsafeRawBufferPointer, signature: UnsafeBufferPointer<UInt8>, bytesLimit: Int, depthLimit: Int
    ) throws(Invalid) -> (bytes: Int, depth: Int) {
        var reader = try body(of: bytes)
        var total = (bytes: 0, depth: 0)
        var position = 0
        while position < signature.count {
            guard try reader.measure(signature, &position, depth: 0, into: &total, limits: (bytesLimit, depthLimit)) else { break }
        }
        return total
    }

    /// A reader at the start of the body of the whole message in `buffer`.
    private static func body(of buffer: UnsafeRawBufferPointer) throws(Invalid) -> WireReader {
        let header = try FixedHeader(buffer)
        return WireReader(buffer, from: header.bodyStart, to: header.bodyStart + header.bodyLength, bigEndian: header.bigEndian)
    }

    /// A message's fixed header, the first 16 bytes: byte order, type, flags, version, the body's length, the
    /// serial, the length of the header fields' array, which follows; the body starts at the next multiple of 8
    /// after that array. Read the same way for a message libdbus checked (`arguments`, `measure`) and for bytes
    /// nothing checked (`WireMessage`), with libdbus's bounds (`_dbus_header_have_message_untrusted`).
    package struct FixedHeader {
        package let bigEndian: Bool
        package let type: UInt8
        package let version: UInt8
        package let serial: UInt32
        package let fieldsLength: Int
        package let bodyLength: Int
        /// Where the body starts: the fields' end, padded to 8.
        package let bodyStart: Int

        /// The header of the message in `buffer`, which must hold the whole message (and may hold more).
        package init(_ buffer: UnsafeRawBufferPointer) throws(Invalid) {
            guard buffer.count >= 16 else { throw Invalid("it is \(buffer.count) bytes, and a message is at least 16") }
            let order = buffer[0]
            guard order == UInt8(ascii: "l") || order == UInt8(ascii: "B") else { throw Invalid("the byte order is neither 'l' nor 'B'") }
            var reader = WireReader(buffer, from: 1, to: 16, bigEndian: order == UInt8(ascii: "B"))
            bigEndian = reader.bigEndian
            type = try reader.byte()
            _ = try reader.byte()  // flags: unknown ones are ignored
            version = try reader.byte()
            bodyLength = Int(try reader.uint32())
            serial = try reader.uint32()
            fieldsLength = Int(try reader.uint32())
            guard fieldsLength <= WireLimits.maximumMessageBytes else { throw Invalid("the header's fields claim \(fieldsLength) bytes") }
            guard bodyLength <= WireLimits.maximumMessageBytes else { throw Invalid("the body claims \(bodyLength) bytes") }
            bodyStart = (16 + fieldsLength + 7) & ~7
            guard bodyStart + bodyLength <= WireLimits.maximumMessageBytes else { throw Invalid("the message is longer than 128 MiB") }
            guard bodyStart + bodyLength <= buffer.count else { throw Invalid("the message is cut short") }
        }
    }

    // MARK: Values

    /// Every value of `signature`, which must take the bytes exactly.
    mutating func values(_ signature: UnsafeBufferPointer<UInt8>) throws(Invalid) -> [DBusValue] {
        var values: [DBusValue] = []
        var position = 0
        while position < signature.count { values.append(try value(signature, &position, depth: 0)) }
        guard offset == end else { throw Invalid("\(end - offset) byte(s) are left after the values") }
        return values
    }

    /// The value whose type starts at `position` in `signature`, nested `depth` deep; `position` moves past
    /// that type.
    mutating func value(_ signature: UnsafeBufferPointer<UInt8>, _ position: inout Int, depth: Int) throws(Invalid) -> DBusValue {
        guard depth <= Self.maximumDepth else { throw Invalid("values are nested more than \(Self.maximumDepth) deep") }
        guard position < signature.count else { throw Invalid("the signature ends before its type") }
        let code = signature[position]
        position += 1
        switch code {
        case UInt8(ascii: "y"): return .byte(try byte())
        case UInt8(ascii: "b"): return .boolean(try boolean())
        case UInt8(ascii: "n"): return .int16(Int16(bitPattern: try uint16()))
        case UInt8(ascii: "q"): return .uint16(try uint16())
        case UInt8(ascii: "i"): return .int32(Int32(bitPattern: try uint32()))
        case UInt8(ascii: "u"): return .uint32(try uint32())
        case UInt8(ascii: "h"):  // as the iterator reads it: the fd is not taken
            _ = try uint32()
            return .int32(-1)
        case UInt8(ascii: "x"): return .int64(Int64(bitPattern: try uint64()))
        case UInt8(ascii: "t"): return .uint64(try uint64())
        case UInt8(ascii: "d"): return .double(Double(bitPattern: try uint64()))
        case UInt8(ascii: "s"): return .string(try string())
        case UInt8(ascii: "o"):
            let path = try string()
            guard NameRules.isValidObjectPath(path) else { throw Invalid("'\(path)' is not an object path") }
            return .objectPath(path)
        case UInt8(ascii: "g"):
            let characters = try signatureValue()
            guard SignatureRules.isValid(characters) else { throw Invalid("'\(String(decoding: characters, as: UTF8.self))' is not a signature") }
            return .signature(String(decoding: characters, as: UTF8.self))
        case UInt8(ascii: "a"): return try array(signature, &position, depth: depth)
        case UInt8(ascii: "("), UInt8(ascii: "{"):
            let close = code == UInt8(ascii: "(") ? UInt8(ascii: ")") : UInt8(ascii: "}")
            try align(to: 8)
            var fields: [DBusValue] = []
            while position < signature.count, signature[position] != close {
                fields.append(try value(signature, &position, depth: depth + 1))
            }
            guard position < signature.count else { throw Invalid("the signature ends inside a struct") }
            position += 1
            if code == UInt8(ascii: "(") { return .structure(fields) }
            guard fields.count == 2 else { throw Invalid("a dict entry holds \(fields.count) values") }
            return .dictEntry(fields[0], fields[1])
        case UInt8(ascii: "v"):
            let inner = try signatureValue()
            guard SignatureRules.isValid(inner, single: true) else {
                throw Invalid("a variant's signature '\(String(decoding: inner, as: UTF8.self))' is not one complete type")
            }
            var innerPosition = 0
            return .variant(try value(inner, &innerPosition, depth: depth + 1))
        default:
            throw Invalid("'\(Unicode.Scalar(code))' is not a type")
        }
    }

    /// An array (its length, padding to its element's alignment, its items), the `a` at `position - 1`.
    private mutating func array(_ signature: UnsafeBufferPointer<UInt8>, _ position: inout Int, depth: Int) throws(Invalid) -> DBusValue {
        let elementStart = position
        guard let elementEnd = Self.endOfType(signature, from: elementStart) else { throw Invalid("an array has no element type") }
        let length = Int(try uint32())
        let element = UnsafeBufferPointer(rebasing: signature[elementStart..<elementEnd])
        try align(to: DBusValue.alignment(ofTypeCode: element[0]))
        guard length <= end - offset else { throw Invalid("an array's length (\(length) bytes) goes past the message") }
        guard length <= WireLimits.maximumArrayBytes else { throw Invalid("an array is longer than 64 MiB") }
        let itemsEnd = offset + length
        // libdbus walks into the items of an array of containers one level deeper; fixed-size items it skips.
        let itemDepth = element.count == 1 && DBusValue.fixedSize(ofTypeCode: element[0]) != nil ? depth : depth + 1
        var items: [DBusValue] = []
        while offset < itemsEnd {
            var itemPosition = elementStart
            items.append(try value(signature, &itemPosition, depth: itemDepth))
        }
        guard offset == itemsEnd else { throw Invalid("an array's items do not end where its length says") }
        position = elementEnd
        var elementString = String(decoding: element, as: UTF8.self)
        if element.contains(UInt8(ascii: "h")) {  // an fd reads as int32, so its type does too (as the iterator's)
            elementString = String(elementString.map { $0 == "h" ? "i" : $0 })
        }
        return .array(element: elementString, items)
    }

    /// Adds the value whose type starts at `position` on to `total`: false once a limit is passed (the walk
    /// stops there, as `Message.measure`'s does).
    private mutating func measure(
        _ signature: UnsafeBufferPointer<UInt8>, _ position: inout Int, depth: Int,
        into total: inout (bytes: Int, depth: Int), limits: (bytes: Int, depth: Int)
    ) throws(Invalid) -> Bool {
        guard position < signature.count else { throw Invalid("the signature ends before its type") }
        let code = signature[position]
        switch code {
        case UInt8(ascii: "a"), UInt8(ascii: "("), UInt8(ascii: "{"), UInt8(ascii: "v"):
            total.depth = max(total.depth, depth + 1)
            total.bytes += 4
            if total.depth > limits.depth { return false }
            switch code {
            case UInt8(ascii: "a"):
                let elementStart = position + 1
                guard let elementEnd = Self.endOfType(signature, from: elementStart) else { throw Invalid("an array has no element type") }
                let length = Int(try uint32())
                try align(to: DBusValue.alignment(ofTypeCode: signature[elementStart]))
                guard length <= end - offset else { throw Invalid("an array's length (\(length) bytes) goes past the message") }
                let itemsEnd = offset + length
                if let size = DBusValue.fixedSize(ofTypeCode: signature[elementStart]), elementEnd == elementStart + 1 {
                    total.bytes += length / size * size  // counted, not walked
                    offset = itemsEnd
                } else {
                    while offset < itemsEnd {
                        var itemPosition = elementStart
                        if !(try measure(signature, &itemPosition, depth: depth + 1, into: &total, limits: limits)) { return false }
                    }
                }
                position = elementEnd
            case UInt8(ascii: "v"):
                position += 1
                let inner = try signatureValue()
                var innerPosition = 0
                if !(try measure(inner, &innerPosition, depth: depth + 1, into: &total, limits: limits)) { return false }
            default:
                let close = code == UInt8(ascii: "(") ? UInt8(ascii: ")") : UInt8(ascii: "}")
                position += 1
                try align(to: 8)
                while position < signature.count, signature[position] != close {
                    if !(try measure(signature, &position, depth: depth + 1, into: &total, limits: limits)) { return false }
                }
                guard position < signature.count else { throw Invalid("the signature ends inside a struct") }
                position += 1
            }
        case UInt8(ascii: "s"), UInt8(ascii: "o"):
            position += 1
            total.bytes += 5 + (try stringCharacters()).count
        case UInt8(ascii: "g"):
            position += 1
            total.bytes += 5 + (try signatureValue()).count
        default:
            _ = try value(signature, &position, depth: depth)
            total.bytes += DBusValue.fixedSize(ofTypeCode: code) ?? 8
        }
        return total.bytes <= limits.bytes
    }

    /// The end of the complete type starting at `start`; nil when the brackets do not close.
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

    /// Skips to the next multiple of `alignment`, over padding that must be zero.
    mutating func align(to alignment: Int) throws(Invalid) {
        let aligned = (offset + alignment - 1) & ~(alignment - 1)
        guard aligned <= end else { throw Invalid("the values end before their padding") }
        while offset < aligned {
            guard base.load(fromByteOffset: offset, as: UInt8.self) == 0 else { throw Invalid("padding is not zero") }
            offset += 1
        }
    }

    mutating func byte() throws(Invalid) -> UInt8 {
        guard offset < end else { throw Invalid("the values end before a byte") }
        defer { offset += 1 }
        return base.load(fromByteOffset: offset, as: UInt8.self)
    }

    private mutating func number<Number: FixedWidthInteger>(_: Number.Type) throws(Invalid) -> Number {
        let size = MemoryLayout<Number>.size
        try align(to: size)
        guard offset + size <= end else { throw Invalid("the values end inside a number") }
        defer { offset += size }
        let raw = base.loadUnaligned(fromByteOffset: offset, as: Number.self)
        return bigEndian ? Number(bigEndian: raw) : Number(littleEndian: raw)
    }

    private mutating func uint16() throws(Invalid) -> UInt16 { try number(UInt16.self) }
    mutating func uint32() throws(Invalid) -> UInt32 { try number(UInt32.self) }
    private mutating func uint64() throws(Invalid) -> UInt64 { try number(UInt64.self) }

    private mutating func boolean() throws(Invalid) -> Bool {
        switch try uint32() {
        case 0: return false
        case 1: return true
        case let other: throw Invalid("a boolean is \(other), where only 0 and 1 are")
        }
    }

    /// A string (its length, its characters and a NUL): valid UTF-8 without a NUL of its own.
    ///
    /// Decoded as `String(decoding:as:)` decodes (specialised, one pass), and valid where that changed no byte:
    /// decoding replaces every ill-formed sequence with U+FFFD. `String(validating:as:)` said the same through
    /// the standard library's unspecialised generic path, whose metadata lookups cost 1 % of a call under load.
    private mutating func string() throws(Invalid) -> String {
        let characters = try stringCharacters()
        guard !characters.isEmpty else { return "" }
        var string = String(decoding: characters, as: UTF8.self)
        let valid = memchr(characters.baseAddress!, 0, characters.count) == nil && string.withUTF8 { decoded in
            decoded.count == characters.count && memcmp(decoded.baseAddress!, characters.baseAddress!, decoded.count) == 0
        }
        guard valid else { throw Invalid("a string is not UTF-8 without NUL bytes") }
        return string
    }

    /// A string's characters, pointing into the bytes, after its length and before its NUL.
    private mutating func stringCharacters() throws(Invalid) -> UnsafeBufferPointer<UInt8> {
        let length = Int(try uint32())
        guard length < end - offset else { throw Invalid("a string's length (\(length) bytes) goes past the message") }
        return try characters(length)
    }

    /// A signature's characters (its one-byte length, its characters and a NUL), pointing into the bytes.
    private mutating func signatureValue() throws(Invalid) -> UnsafeBufferPointer<UInt8> {
        let length = Int(try byte())
        guard length < end - offset else { throw Invalid("a signature's length (\(length) bytes) goes past the message") }
        return try characters(length)
    }

    /// `length` characters and the NUL after them.
    private mutating func characters(_ length: Int) throws(Invalid) -> UnsafeBufferPointer<UInt8> {
        let start = offset
        guard base.load(fromByteOffset: start + length, as: UInt8.self) == 0 else { throw Invalid("a string does not end in a NUL") }
        offset += length + 1
        return UnsafeBufferPointer(start: (base + start).assumingMemoryBound(to: UInt8.self), count: length)
    }
}
