/// A signal's bytes in the D-Bus wire format (little-endian), written in one pass over its values: what traitd
/// sends most, made without libdbus's iterator.
///
/// Appending value by value through `dbus_message_iter_*` costs libdbus a type-writer step per value and a
/// rewrite of the header's signature after every top-level argument: about a third of traitd's instructions in a
/// transition, for messages of a few hundred bytes (callgrind, one adapter). Here the body's size is measured
/// first (`DBusValue.wireEnd`, the same function `WireLimits` checks with), the bytes are written into one
/// buffer of that size, zeroed so that padding is only a skip, and libdbus reads the whole message back once
/// (`Message.signal(path:interface:member:_:)`), validating it as the bus will. The writer also measures the
/// nesting as it goes, so the limits' errors are the same as on the iterator's way.
struct WireWriter {
    private let base: UnsafeMutablePointer<UInt8>
    private let capacity: Int
    private var offset = 0
    /// Containers around the value being written, and the deepest nesting met (`DBusValue.nestingDepth`).
    private var level = 0
    private var deepest = 0
    /// False once the bytes would not say what the values do: an array holds an item of another type than its
    /// element's (the body's signature is built from the arrays' element types), a signature is longer than its
    /// one-byte length can say, or the values did not fit the size measured for them.
    private var isFaithful = true

    private init(base: UnsafeMutablePointer<UInt8>, capacity: Int) {
        self.base = base
        self.capacity = capacity
    }

    /// A whole signal: the header with `path`, `interface`, `member` and the body's signature, then the body;
    /// with the body's measure and the length of its signature, for `WireLimits`. The serial is a placeholder
    /// (libdbus reads no message with serial 0). Nil when the bytes would not be faithful (see `isFaithful`):
    /// `Message.append` refuses such values, saying why.
    static func signal(path: String, interface: String, member: String, _ arguments: [DBusValue])
        -> (bytes: [UInt8], body: WireLimits.Measure, signatureLength: Int)?
    {
        var largestArray = 0, bodyBytes = 0, signatureLength = 0
        for value in arguments {
            bodyBytes = value.wireEnd(from: bodyBytes, &largestArray)
            signatureLength += value.signatureLength
        }
        guard signatureLength <= WireLimits.maximumSignatureLength else { return nil }
        // Each header field: at most 7 bytes of padding, code, variant signature (3 bytes), then the value.
        let headerBound = 16 + 4 * (7 + 4) + 3 * 5 + path.utf8.count + interface.utf8.count + member.utf8.count
            + 2 + signatureLength + 7
        var depth = 0, faithful = false
        let bytes = [UInt8](unsafeUninitializedCapacity: headerBound + bodyBytes) { buffer, count in
            buffer.initialize(repeating: 0)
            var writer = WireWriter(base: buffer.baseAddress!, capacity: buffer.count)
            writer.header(path: path, interface: interface, member: member, arguments)
            let start = writer.offset
            for value in arguments { writer.write(value) }
            writer.store(UInt32(truncatingIfNeeded: writer.offset - start), at: 4)
            faithful = writer.isFaithful && writer.offset - start == bodyBytes
            depth = writer.deepest
            count = writer.offset
        }
        guard faithful else { return nil }
        return (bytes, WireLimits.Measure(depth: depth, bytes: bodyBytes, largestArray: largestArray), signatureLength)
    }

    // MARK: Internals

    /// The fixed part (byte order, type: signal, flags: no reply expected, as libdbus sets for a signal,
    /// version, the body's length, filled in last, serial 1), then the fields (`a(yv)`) in libdbus's order:
    /// path, interface, member, the body's signature; then the padding that starts the body at a multiple of 8.
    private mutating func header(path: String, interface: String, member: String, _ arguments: [DBusValue]) {
        bytes(UInt8(ascii: "l"), 4, 1, 1)
        put(UInt32(0))
        put(UInt32(1))
        put(UInt32(0))  // the fields' length, filled in below
        let fieldsStart = offset  // 16: 8-aligned
        field(1, "o", path)
        field(2, "s", interface)
        field(3, "s", member)
        if !arguments.isEmpty {
            pad(to: 8)
            bytes(8, 1, UInt8(ascii: "g"), 0)
            signature(of: arguments)
        }
        store(UInt32(truncatingIfNeeded: offset - fieldsStart), at: 12)
        pad(to: 8)
    }

    /// One header field: its code, then a variant of one type code holding a string.
    private mutating func field(_ code: UInt8, _ type: Unicode.Scalar, _ value: String) {
        pad(to: 8)
        bytes(code, 1, UInt8(ascii: type), 0)
        string(value)
    }

    private mutating func write(_ value: DBusValue) {
        switch value {
        case .byte(let v): byte(v)
        case .boolean(let b): put(UInt32(b ? 1 : 0))
        case .int16(let v): put(v)
        case .uint16(let v): put(v)
        case .int32(let v): put(v)
        case .uint32(let v): put(v)
        case .int64(let v): put(v)
        case .uint64(let v): put(v)
        case .double(let v): put(v.bitPattern)
        case .string(let s), .objectPath(let s):
            string(s)
        case .signature(let s):
            byte(UInt8(truncatingIfNeeded: s.utf8.count))
            characters(s)
            byte(0)
        case .array(let element, let items):
            if isFaithful, !items.allHaveSignature(element) { isFaithful = false }
            enter()
            if items.isEmpty { deepest = max(deepest, level + DBusValue.depth(ofSignature: element)) }
            pad(to: 4)
            let lengthAt = offset
            put(UInt32(0))
            pad(to: DBusValue.alignment(ofSignature: element))
            let start = offset
            for item in items { write(item) }
            store(UInt32(truncatingIfNeeded: offset - start), at: lengthAt)
            level -= 1
        case .structure(let fields):
            enter()
            pad(to: 8)
            for field in fields { write(field) }
            level -= 1
        case .dictEntry(let key, let value):
            enter()
            pad(to: 8)
            write(key)
            write(value)
            level -= 1
        case .variant(let inner):
            enter()
            signature(of: CollectionOfOne(inner))
            write(inner)
            level -= 1
        }
    }

    private mutating func enter() {
        level += 1
        deepest = max(deepest, level)
    }

    /// `values`' signature as a signature value (its length, its characters, a NUL), written from the values
    /// without building the string.
    private mutating func signature(of values: some Sequence<DBusValue>) {
        let lengthAt = offset
        byte(0)
        for value in values { signatureCharacters(of: value) }
        let length = offset - lengthAt - 1
        if length > WireLimits.maximumSignatureLength { isFaithful = false }
        if isFaithful { base[lengthAt] = UInt8(truncatingIfNeeded: length) }
        byte(0)
    }

    private mutating func signatureCharacters(of value: DBusValue) {
        if let code = value.typeCode { return byte(UInt8(truncatingIfNeeded: code.value)) }
        switch value {
        case .array(let element, _):
            byte(UInt8(ascii: "a"))
            characters(element)
        case .structure(let fields):
            byte(UInt8(ascii: "("))
            for field in fields { signatureCharacters(of: field) }
            byte(UInt8(ascii: ")"))
        case .dictEntry(let key, let value):
            byte(UInt8(ascii: "{"))
            signatureCharacters(of: key)
            signatureCharacters(of: value)
            byte(UInt8(ascii: "}"))
        default:
            preconditionFailure("every other value has a one-character type code")
        }
    }

    // MARK: Bytes

    /// Whether `count` more bytes fit; past the buffer nothing is written and the writer is not faithful.
    private mutating func fits(_ count: Int) -> Bool {
        guard isFaithful, offset + count <= capacity else {
            isFaithful = false
            return false
        }
        return true
    }

    private mutating func byte(_ value: UInt8) {
        guard fits(1) else { return }
        base[offset] = value
        offset += 1
    }

    private mutating func bytes(_ a: UInt8, _ b: UInt8, _ c: UInt8, _ d: UInt8) {
        guard fits(4) else { return }
        (base[offset], base[offset + 1], base[offset + 2], base[offset + 3]) = (a, b, c, d)
        offset += 4
    }

    private mutating func string(_ s: String) {
        put(UInt32(truncatingIfNeeded: s.utf8.count))
        characters(s)
        byte(0)
    }

    /// A string's bytes, copied at once from its storage.
    private mutating func characters(_ s: String) {
        var s = s
        s.withUTF8 { utf8 in
            guard fits(utf8.count), let source = utf8.baseAddress else { return }
            (base + offset).update(from: source, count: utf8.count)
            offset += utf8.count
        }
    }

    /// Skips to the next multiple of `alignment`: the buffer is zeroed, so the padding is already there.
    private mutating func pad(to alignment: Int) {
        let padding = (alignment - offset % alignment) % alignment
        if fits(padding) { offset += padding }
    }

    /// A number in little-endian order at its natural alignment.
    private mutating func put<Number: FixedWidthInteger>(_ number: Number) {
        let size = MemoryLayout<Number>.size
        pad(to: size)
        guard fits(size) else { return }
        UnsafeMutableRawPointer(base + offset).storeBytes(of: number.littleEndian, as: Number.self)
        offset += size
    }

    private func store(_ number: UInt32, at position: Int) {
        guard isFaithful else { return }
        UnsafeMutableRawPointer(base + position).storeBytes(of: number.littleEndian, as: UInt32.self)
    }
}
