import Glibc

/// A signal's bytes in the D-Bus wire format (little-endian), written in one pass over its values: what traitd
/// sends most, made without libdbus's iterator.
///
/// Appending value by value through `dbus_message_iter_*` costs libdbus a type-writer step per value and a
/// rewrite of the header's signature after every top-level argument: about a third of traitd's instructions in a
/// transition, for messages of a few hundred bytes (callgrind, one adapter). Here the body's size is measured
/// first (`DBusValue.wireEnd`, the same function `WireLimits` checks with), the bytes are written into one
/// buffer of that size, zeroed so that padding is only a skip. The writer also measures the nesting as it goes,
/// so the limits' errors are the same as on the iterator's way.
///
/// The bytes it returns are a message the bus accepts, checked as they are written rather than by reading them
/// back: the connection writes them to its socket as they are (`SocketWriter`), and a message the bus refused
/// would cost the daemon its connection. It checks what libdbus's reader checks: the header's names, no NUL in a
/// string, object paths and signature values, every array's items of its element type (an empty array's element
/// one complete type), and each signature written (the body's, and each variant's that holds a container) by
/// libdbus's rules (`SignatureRules`), which also rule out an empty struct, a dict entry outside an array, a key
/// that is not basic and signatures nested past 32. Depth and size are `WireLimits`' (`Written.checkLimits`).
/// `fuzz-dbus-value` holds it to that: every body it accepts, libdbus reads.
struct WireWriter {
    private let base: UnsafeMutablePointer<UInt8>
    private let capacity: Int
    private var offset = 0
    /// Containers around the value being written, and the deepest nesting met (`DBusValue.nestingDepth`).
    private var level = 0
    private var deepest = 0
    /// False once the bytes would not say what the values do, or say it in a message the bus refuses: an array
    /// holds an item of another type than its element's (the body's signature is built from the arrays' element
    /// types), a signature is longer than its one-byte length can say or not valid, a string holds a NUL, an
    /// object path or signature value is not one, or the values did not fit the size measured for them.
    private var isFaithful = true

    private init(base: UnsafeMutablePointer<UInt8>, capacity: Int) {
        self.base = base
        self.capacity = capacity
    }

    /// The bytes of one message, with the body's measure and the length of its signature, for `WireLimits`.
    struct Written {
        var bytes: [UInt8]
        let body: WireLimits.Measure
        let signatureLength: Int

        /// Throws `LimitsExceeded`, naming the limit, when the body passes one (the iterator's words).
        func checkLimits() throws { try WireLimits.check(body, signatureLength: signatureLength) }

        /// The bytes, or nil when the body passes a limit.
        var bytesWithinLimits: [UInt8]? { (try? checkLimits()) != nil ? bytes : nil }
    }

    /// A whole signal: the header with `path`, `interface`, `member` and the body's signature, then the body.
    /// The serial is a placeholder, 1 (nobody reads a message with serial 0; `SocketWriter` numbers it as it
    /// sends it). Nil when the bytes would not be faithful (see `isFaithful`): `Message.append` refuses such
    /// values, saying why.
    static func signal(path: String, interface: String, member: String, _ arguments: [DBusValue]) -> Written? {
        // The Local path and interface are libdbus's own (its Disconnected signal): the bus refuses them from a peer.
        guard Validation.isValidObjectPath(path), Validation.isValidInterfaceName(interface),
              Validation.isValidMemberName(member), path != Validation.localPath, interface != Validation.localInterface
        else { return nil }
        return message(type: 4, names: path.utf8.count + interface.utf8.count + member.utf8.count, arguments) { writer in
            writer.field(1, "o", path)
            writer.field(2, "s", interface)
            writer.field(3, "s", member)
        }
    }

    /// A method return to the call numbered `replySerial` from `destination` (none off a bus): the header
    /// fields libdbus writes for one (`dbus_message_new_method_return`), the destination, the reply serial and
    /// the body's signature, in that order. The serial is a placeholder, as a signal's.
    static func methodReturn(replySerial: UInt32, destination: String?, _ arguments: [DBusValue]) -> Written? {
        guard replySerial != 0, destination.map(Validation.isValidBusName) ?? true else { return nil }
        return message(type: 2, names: destination?.utf8.count ?? 0, arguments) { writer in
            if let destination { writer.field(6, "s", destination) }
            writer.pad(to: 8)
            writer.bytes(5, 1, UInt8(ascii: "u"), 0)
            writer.put(replySerial)
        }
    }

    /// A message of `type`, its header fields written by `fields` (whose names hold `names` bytes in all), then
    /// the body's signature and the body. Flags: no reply expected, as libdbus sets for a signal and a return.
    private static func message(type: UInt8, names: Int, _ arguments: [DBusValue], fields: (inout WireWriter) -> Void) -> Written? {
        var largestArray = 0, bodyBytes = 0, signatureLength = 0
        for value in arguments {
            bodyBytes = value.wireEnd(from: bodyBytes, &largestArray)
            signatureLength += value.signatureLength
        }
        guard signatureLength <= WireLimits.maximumSignatureLength else { return nil }
        // Each header field: at most 7 bytes of padding, code, variant signature (3 bytes), then the value (a
        // string's length, characters and NUL, or a number).
        let headerBound = 16 + 4 * (7 + 4 + 5) + names + 2 + signatureLength + 7
        var depth = 0, faithful = false
        let bytes = [UInt8](unsafeUninitializedCapacity: headerBound + bodyBytes) { buffer, count in
            buffer.initialize(repeating: 0)
            var writer = WireWriter(base: buffer.baseAddress!, capacity: buffer.count)
            writer.header(type: type, arguments, fields: fields)
            let start = writer.offset
            for value in arguments { writer.write(value) }
            writer.store(UInt32(truncatingIfNeeded: writer.offset - start), at: 4)
            faithful = writer.isFaithful && writer.offset - start == bodyBytes
            depth = writer.deepest
            count = writer.offset
        }
        guard faithful else { return nil }
        return Written(bytes: bytes, body: WireLimits.Measure(depth: depth, bytes: bodyBytes, largestArray: largestArray),
                       signatureLength: signatureLength)
    }

    // MARK: Internals

    /// The fixed part (byte order, type, flags: no reply expected, version, the body's length, filled in last,
    /// serial 1), then the fields (`a(yv)`) in libdbus's order: those `fields` writes, then the body's
    /// signature; then the padding that starts the body at a multiple of 8.
    private mutating func header(type: UInt8, _ arguments: [DBusValue], fields: (inout WireWriter) -> Void) {
        bytes(UInt8(ascii: "l"), type, 1, 1)
        put(UInt32(0))
        put(UInt32(1))
        put(UInt32(0))  // the fields' length, filled in below
        let fieldsStart = offset  // 16: 8-aligned
        fields(&self)
        if !arguments.isEmpty {
            pad(to: 8)
            bytes(8, 1, UInt8(ascii: "g"), 0)
            let signatureAt = offset
            signature(of: arguments)
            validateSignature(at: signatureAt, single: false)
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
        case .string(let s):
            string(s)
        case .objectPath(let s):
            if isFaithful, !Validation.isValidObjectPath(s) { isFaithful = false }
            string(s)
        case .signature(let s):
            if isFaithful, !SignatureRules.isValid(s) { isFaithful = false }
            byte(UInt8(truncatingIfNeeded: s.utf8.count))
            characters(s)
            byte(0)
        case .array(let element, let items):
            if isFaithful, !items.allHaveSignature(element) { isFaithful = false }
            // The items say what the element is; with none, only the element string does, and it must be one
            // complete type: "a" + "a" followed by a byte reads as one array of bytes, not two values.
            if isFaithful, items.isEmpty, !SignatureRules.isValid("a" + element, single: true) { isFaithful = false }
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
            let signatureAt = offset
            signature(of: CollectionOfOne(inner))
            // One type code is a valid signature by itself (every case with one is a basic type or a variant).
            if inner.typeCode == nil { validateSignature(at: signatureAt, single: true) }
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

    /// Checks a signature just written (its length byte at `lengthAt`, then its characters) in place, by
    /// libdbus's rules (`SignatureRules`). `single`: one complete type, as a variant holds.
    private mutating func validateSignature(at lengthAt: Int, single: Bool) {
        guard isFaithful else { return }
        let characters = UnsafeBufferPointer(start: base + lengthAt + 1, count: Int(base[lengthAt]))
        if !SignatureRules.isValid(characters, single: single) { isFaithful = false }
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

    /// A string's bytes, copied at once from its storage. A NUL among them is not faithful: D-Bus strings end at
    /// their first NUL. (A Swift string is valid UTF-8, as D-Bus requires, by construction.)
    private mutating func characters(_ s: String) {
        var s = s
        s.withUTF8 { utf8 in
            guard fits(utf8.count), let source = utf8.baseAddress else { return }
            if memchr(source, 0, utf8.count) != nil { isFaithful = false }
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
