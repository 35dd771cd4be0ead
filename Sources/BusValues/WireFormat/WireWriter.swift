import Glibc

/// A signal's or method return's bytes in the D-Bus wire format (little-endian), written in one pass: what
/// traitd sends most, made without libdbus's iterator.
///
/// Appending value by value through `dbus_message_iter_*` costs libdbus a type-writer step per value and a
/// rewrite of the header's signature after every top-level argument: about a third of traitd's instructions in a
/// transition, for messages of a few hundred bytes (callgrind, one adapter). The body comes in one of two ways
/// (`MessageBody`): `DBusValue`s, measured first (`DBusValue.wireEnd`, the function `WireLimits` checks with)
/// so the buffer has their size, or a signal declaration's typed arguments, which its parameters write
/// straight from the Swift values (`TypedBody`; making the values and freeing them was most of a signal's cost).
/// The buffer is zeroed, so that padding is only a skip, and grows if the typed values need more. The writer
/// measures the nesting and the largest array as it goes, so the limits' errors are the iterator's.
///
/// The bytes it returns are a message the bus accepts, checked as they are written rather than by reading them
/// back: the connection writes them to its socket as they are (`SocketWriter`), and a message the bus refused
/// would cost the daemon its connection. It checks what libdbus's reader checks: the header's names, no NUL in a
/// string, object paths and signature values, every array's items of its element type (an empty array's element
/// one complete type), and each signature written (the body's, and each variant's that holds a container) by
/// libdbus's rules (`SignatureRules`), which also rule out an empty struct, a dict entry outside an array, a key
/// that is not basic and signatures nested past 32. Depth and size are `WireLimits`' (`Written.checkLimits`).
/// `fuzz-dbus-value` holds it to that: every body it accepts, libdbus reads.
@usableFromInline
package struct WireWriter {
    @usableFromInline var base: UnsafeMutablePointer<UInt8>
    @usableFromInline var capacity: Int
    @usableFromInline package var offset = 0
    /// Containers around the value being written, and the deepest nesting met (`DBusValue.nestingDepth`).
    @usableFromInline var level = 0
    @usableFromInline var deepest = 0
    /// Bytes of the largest array's elements written so far (`WireLimits.Measure.largestArray`).
    @usableFromInline var largestArray = 0
    /// False once the bytes would not say what the values do, or say it in a message the bus refuses: an array
    /// holds an item of another type than its element's (the body's signature is built from the arrays' element
    /// types), a value is not of the type its parameter declares, a signature is longer than its one-byte length
    /// can say or not valid, a string holds a NUL, an object path or signature value is not one, or the message
    /// would pass D-Bus's size.
    @usableFromInline var isFaithful = true

    /// A zeroed buffer of `capacity` bytes, which grows as values are written (`fits`).
    private init(capacity: Int) {
        base = .allocate(capacity: capacity)
        base.initialize(repeating: 0, count: capacity)
        self.capacity = capacity
    }

    /// The bytes of one message, with the body's measure and the length of its signature, for `WireLimits`.
    package struct Written {
        package var bytes: [UInt8]
        package let body: WireLimits.Measure
        package let signatureLength: Int

        /// Throws `LimitsExceeded`, naming the limit, when the body passes one (the iterator's words).
        package func checkLimits() throws { try WireLimits.check(body, signatureLength: signatureLength) }

        /// The bytes, or nil when the body passes a limit.
        package var bytesWithinLimits: [UInt8]? { (try? checkLimits()) != nil ? bytes : nil }
    }

    /// A whole signal: the header with `path`, `interface`, `member` and the body's signature, then the body.
    /// The serial is a placeholder, 1 (nobody reads a message with serial 0; `SocketWriter` numbers it as it
    /// sends it). Nil when the bytes would not be faithful (see `isFaithful`): `Message.append` refuses such
    /// values, saying why.
    package static func signal(path: String, interface: String, member: String, _ arguments: [DBusValue]) -> Written? {
        signal(path: path, interface: interface, member: member, ValuesBody(arguments))
    }

    /// A whole signal whose body `body` writes.
    package static func signal(path: String, interface: String, member: String, _ body: some MessageBody) -> Written? {
        // The Local path and interface are libdbus's own (its Disconnected signal): the bus refuses them from a peer.
        guard NameRules.isValidObjectPath(path), NameRules.isValidInterfaceName(interface),
              NameRules.isValidMemberName(member), path != NameRules.localPath, interface != NameRules.localInterface
        else { return nil }
        return message(type: 4, names: path.utf8.count + interface.utf8.count + member.utf8.count, body) { writer in
            writer.field(1, "o", path)
            writer.field(2, "s", interface)
            writer.field(3, "s", member)
        }
    }

    /// A method return to the call numbered `replySerial` from `destination` (none off a bus): the header
    /// fields libdbus writes for one (`dbus_message_new_method_return`), the destination, the reply serial and
    /// the body's signature, in that order. The serial is a placeholder, as a signal's.
    package static func methodReturn(replySerial: UInt32, destination: String?, _ arguments: [DBusValue]) -> Written? {
        guard replySerial != 0, destination.map(NameRules.isValidBusName) ?? true else { return nil }
        return message(type: 2, names: destination?.utf8.count ?? 0, ValuesBody(arguments)) { writer in
            if let destination { writer.field(6, "s", destination) }
            writer.pad(to: 8)
            writer.bytes(5, 1, UInt8(ascii: "u"), 0)
            writer.put(replySerial)
        }
    }

    /// A message of `type`, its header fields written by `fields` (whose names hold `names` bytes in all), then
    /// the body's signature and the body. Flags: no reply expected, as libdbus sets for a signal and a return.
    private static func message(type: UInt8, names: Int, _ body: some MessageBody, fields: (inout WireWriter) -> Void) -> Written? {
        let signatureLength = body.signatureLength
        guard signatureLength <= WireLimits.maximumSignatureLength else { return nil }
        // Each header field: at most 7 bytes of padding, code, variant signature (3 bytes), then the value (a
        // string's length, characters and NUL, or a number).
        let headerBound = 16 + 4 * (7 + 4 + 5) + names + 2 + signatureLength + 7
        var writer = WireWriter(capacity: headerBound + body.expectedBytes)
        defer { writer.base.deallocate() }
        writer.header(type: type, body, fields: fields)
        let start = writer.offset
        body.write(&writer)
        writer.store(UInt32(truncatingIfNeeded: writer.offset - start), at: 4)
        let bodyBytes = writer.offset - start
        guard writer.isFaithful, body.accepts(bodyBytes: bodyBytes) else { return nil }
        let measure = WireLimits.Measure(depth: max(writer.deepest, body.declaredDepth), bytes: bodyBytes,
                                         largestArray: writer.largestArray)
        return Written(bytes: Array(UnsafeBufferPointer(start: writer.base, count: writer.offset)), body: measure,
                       signatureLength: signatureLength)
    }

    // MARK: Internals

    /// The fixed part (byte order, type, flags: no reply expected, version, the body's length, filled in last,
    /// serial 1), then the fields (`a(yv)`) in libdbus's order: those `fields` writes, then the body's
    /// signature; then the padding that starts the body at a multiple of 8.
    private mutating func header(type: UInt8, _ body: some MessageBody, fields: (inout WireWriter) -> Void) {
        bytes(UInt8(ascii: "l"), type, 1, 1)
        put(UInt32(0))
        put(UInt32(1))
        put(UInt32(0))  // the fields' length, filled in below
        let fieldsStart = offset  // 16: 8-aligned
        fields(&self)
        if body.signatureLength > 0 {
            pad(to: 8)
            bytes(8, 1, UInt8(ascii: "g"), 0)
            body.writeSignature(&self)
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

    /// A value as it is: its own type is what the body's signature says (`ValuesBody` writes that signature from
    /// the values), so every array's items are checked against its element type.
    package mutating func write(_ value: DBusValue) {
        switch value {
        case .byte(let v): byte(v)
        case .boolean(let b): boolean(b)
        case .int16(let v): put(v)
        case .uint16(let v): put(v)
        case .int32(let v): put(v)
        case .uint32(let v): put(v)
        case .int64(let v): put(v)
        case .uint64(let v): put(v)
        case .double(let v): double(v)
        case .string(let s): string(s)
        case .objectPath(let s): objectPath(s)
        case .signature(let s):
            if isFaithful, !SignatureRules.isValid(s) { isFaithful = false }
            signatureValue(s)
        case .array(let element, let items):
            if isFaithful, !items.allHaveSignature(element) { isFaithful = false }
            // The items say what the element is; with none, only the element string does, and it must be one
            // complete type: "a" + "a" followed by a byte reads as one array of bytes, not two values.
            if isFaithful, items.isEmpty, !SignatureRules.isValid("a" + element, single: true) { isFaithful = false }
            if items.isEmpty { deepest = max(deepest, level + 1 + DBusValue.depth(ofSignature: element)) }
            array(alignment: DBusValue.alignment(ofSignature: element)) { writer in
                for item in items { writer.write(item) }
            }
        case .structure(let fields):
            structure { writer in
                for field in fields { writer.write(field) }
            }
        case .dictEntry(let key, let value):
            structure { writer in
                writer.write(key)
                writer.write(value)
            }
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

    /// A value a parameter gave as a `DBusValue` (one with no writer of its own), which must be of the type the
    /// parameter declares: the body's signature is the declaration's (`TypedBody`).
    package mutating func write(_ value: DBusValue, declaredAs signature: String) {
        if isFaithful, !value.hasSignature(signature) { isFaithful = false }
        write(value)
    }

    // MARK: Typed values (what a parameter writes; `DBusValue`'s cases above use them too)

    @inlinable
    package mutating func boolean(_ value: Bool) { put(UInt32(value ? 1 : 0)) }

    @inlinable
    package mutating func double(_ value: Double) { put(value.bitPattern) }

    package mutating func objectPath(_ path: String) {
        if isFaithful, !NameRules.isValidObjectPath(path) { isFaithful = false }
        string(path)
    }

    /// An array whose elements start at a multiple of `alignment` (their type's): its length, then what
    /// `items` writes.
    @inlinable
    package mutating func array(alignment: Int, _ items: (inout WireWriter) -> Void) {
        enter()
        pad(to: 4)
        let lengthAt = offset
        put(UInt32(0))
        pad(to: alignment)
        let start = offset
        items(&self)
        store(UInt32(truncatingIfNeeded: offset - start), at: lengthAt)
        largestArray = max(largestArray, offset - start)
        level -= 1
    }

    /// A struct or a dict entry (both start at a multiple of 8): what `fields` writes.
    @inlinable
    package mutating func structure(_ fields: (inout WireWriter) -> Void) {
        enter()
        pad(to: 8)
        fields(&self)
        level -= 1
    }

    /// A variant of a type declared by the contract: `signature`, one complete type, checked where it was
    /// declared (`Parameter.variantSignature`), then what `value` writes.
    @inlinable
    package mutating func variant(signature: String, _ value: (inout WireWriter) -> Void) {
        enter()
        signatureValue(signature)
        value(&self)
        level -= 1
    }

    /// A signature value: its length, its characters, a NUL; checked by the caller (a declared one when it was
    /// declared).
    @inlinable
    package mutating func signatureValue(_ signature: String) {
        byte(UInt8(truncatingIfNeeded: signature.utf8.count))
        characters(signature)
        byte(0)
    }

    @inlinable
    mutating func enter() {
        level += 1
        deepest = max(deepest, level)
    }

    /// `values`' signature as a signature value (its length, its characters, a NUL), written from the values
    /// without building the string.
    package mutating func signature(of values: some Sequence<DBusValue>) {
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
    package mutating func validateSignature(at lengthAt: Int, single: Bool) {
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

    /// Whether `count` more bytes fit, growing the buffer when they do not (zeroed as at the start); past
    /// D-Bus's largest message nothing more is written and the writer is not faithful.
    @inlinable @inline(__always)
    mutating func fits(_ count: Int) -> Bool {
        guard isFaithful else { return false }
        return offset + count <= capacity || grow(toFit: count)
    }

    /// Out of line: the buffer is sized for most messages at the start.
    @usableFromInline @inline(never)
    mutating func grow(toFit count: Int) -> Bool {
        guard offset + count <= WireLimits.maximumMessageBytes else {
            isFaithful = false
            return false
        }
        let grownCapacity = min(max(2 * capacity, offset + count), WireLimits.maximumMessageBytes)
        let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: grownCapacity)
        grown.initialize(from: base, count: offset)
        (grown + offset).initialize(repeating: 0, count: grownCapacity - offset)
        base.deallocate()
        base = grown
        capacity = grownCapacity
        return true
    }

    @inlinable @inline(__always)
    mutating func byte(_ value: UInt8) {
        guard fits(1) else { return }
        base[offset] = value
        offset += 1
    }

    @inlinable @inline(__always)
    mutating func bytes(_ a: UInt8, _ b: UInt8, _ c: UInt8, _ d: UInt8) {
        guard fits(4) else { return }
        (base[offset], base[offset + 1], base[offset + 2], base[offset + 3]) = (a, b, c, d)
        offset += 4
    }

    @inlinable
    package mutating func string(_ s: String) {
        put(UInt32(truncatingIfNeeded: s.utf8.count))
        characters(s)
        byte(0)
    }

    /// A string's bytes, copied at once from its storage. A NUL among them is not faithful: D-Bus strings end at
    /// their first NUL. (A Swift string is valid UTF-8, as D-Bus requires, by construction.)
    @inlinable
    mutating func characters(_ s: String) {
        var s = s
        s.withUTF8 { utf8 in
            guard fits(utf8.count), let source = utf8.baseAddress else { return }
            if memchr(source, 0, utf8.count) != nil { isFaithful = false }
            (base + offset).update(from: source, count: utf8.count)
            offset += utf8.count
        }
    }

    /// Skips to the next multiple of `alignment`: the buffer is zeroed, so the padding is already there.
    @inlinable @inline(__always)
    mutating func pad(to alignment: Int) {
        let padding = -offset & (alignment - 1)  // alignments are powers of two
        if fits(padding) { offset += padding }
    }

    /// A number in little-endian order at its natural alignment.
    @inlinable @inline(__always)
    package mutating func put<Number: FixedWidthInteger>(_ number: Number) {
        let size = MemoryLayout<Number>.size
        pad(to: size)
        guard fits(size) else { return }
        UnsafeMutableRawPointer(base + offset).storeBytes(of: number.littleEndian, as: Number.self)
        offset += size
    }

    @inlinable
    func store(_ number: UInt32, at position: Int) {
        guard isFaithful else { return }
        UnsafeMutableRawPointer(base + position).storeBytes(of: number.littleEndian, as: UInt32.self)
    }
}
