/// A whole D-Bus message as bytes, written and read without libdbus: how traitd keeps values in a file (each
/// app's restoration state in the state file is the marshalled signal this writes) and reads them back from
/// bytes nothing has checked.
///
/// Reading refuses what libdbus's loader refuses (`dbus_message_demarshal`: `_dbus_header_have_message_untrusted`
/// and `_dbus_header_load` in dbus-marshal-header.c, then the body by its signature, `WireReader`): the byte
/// order, a message type of 0, a protocol version other than 1, serial 0, lengths past 128 MiB, the header's
/// fields (each known one of its type and valid, none twice, the local path and interface refused, a reply
/// serial not 0, the fields each message type needs, no Unix file descriptors, which bytes cannot carry), the
/// padding after them, and the body. It is stricter in two places: bytes after the message (libdbus ignores a
/// second message that is not yet whole) and an array of fixed-size values whose length is not a multiple of
/// their size. `fuzz-dbus-value` holds it to libdbus on every input: what one reads the other reads, to the same
/// values. What is read is what libdbus's iterator reads, so a state file written by any release of traitd (by
/// libdbus, before this) reads as it did.
public struct WireMessage: Sendable, Equatable {
    /// The message type: 1 method call, 2 method return, 3 error, 4 signal (others are read and ignored).
    public var type: UInt8
    /// The header's path, interface and member (a signal has all three).
    public var path: String?
    public var interface: String?
    public var member: String?
    /// The body's values, as libdbus's iterator reads them.
    public var values: [DBusValue]

    /// Why bytes are not a message, in a person's words.
    public struct Invalid: Error, Equatable, CustomStringConvertible {
        /// What is wrong, and where ("not a D-Bus message: a boolean is 2, where only 0 and 1 are").
        public let description: String
        init(_ description: String) { self.description = description }
    }

    /// The bytes of a signal from `path`, `interface`, `member` carrying `values`, as traitd writes one to its
    /// socket (`WireWriter`: little-endian, serial 1, byte for byte what libdbus writes); throws when the values
    /// cannot be sent (a NUL in a string, an invalid object path or signature, past D-Bus's limits).
    public static func signal(path: String, interface: String, member: String, _ values: [DBusValue]) throws(Invalid) -> [UInt8] {
        guard let written = WireWriter.signal(path: path, interface: interface, member: member, values) else {
            throw Invalid("the values cannot be written as a D-Bus message")
        }
        do {
            try written.checkLimits()
        } catch {
            throw Invalid("\(error)")
        }
        return written.bytes
    }

    /// The message in `bytes`, checked whole.
    public init(reading bytes: [UInt8]) throws(Invalid) {
        let read = bytes.withUnsafeBytes { buffer in Result { () throws(WireReader.Invalid) in try Self.read(buffer) } }
        switch read {
        case .success(let message): self = message
        case .failure(let problem): throw Invalid("not a D-Bus message: \(problem.description)")
        }
    }

    private init(type: UInt8, path: String?, interface: String?, member: String?, values: [DBusValue]) {
        (self.type, self.path, self.interface, self.member, self.values) = (type, path, interface, member, values)
    }

    private static func read(_ buffer: UnsafeRawBufferPointer) throws(WireReader.Invalid) -> WireMessage {
        let fixed = try WireReader.FixedHeader(buffer)
        let end = fixed.bodyStart + fixed.bodyLength
        guard end == buffer.count else { throw WireReader.Invalid("\(buffer.count - end) byte(s) follow the message") }
        // The fields (`a(yv)`, from the array's length at byte 12), as libdbus reads the header: a body of
        // signature `yyyyuua(yv)`.
        var header = WireReader(buffer, from: 12, to: buffer.count, bigEndian: fixed.bigEndian)
        let fields = try Fields(try Self.withCharacters("a(yv)") { signature throws(WireReader.Invalid) in
            var position = 0
            return try header.value(signature, &position, depth: 0)
        })
        try header.align(to: 8)  // the padding after the fields is zero
        guard fixed.type != 0 else { throw WireReader.Invalid("the message type is 0") }
        guard fixed.version == 1 else { throw WireReader.Invalid("the protocol version is \(fixed.version), not 1") }
        guard fixed.serial != 0 else { throw WireReader.Invalid("the serial is 0") }
        try fields.checkRequired(by: fixed.type)
        var body = WireReader(buffer, from: fixed.bodyStart, to: end, bigEndian: fixed.bigEndian)
        let values = try Self.withCharacters(fields.signature ?? "") { signature throws(WireReader.Invalid) in try body.values(signature) }
        return WireMessage(type: fixed.type, path: fields.path, interface: fields.interface, member: fields.member, values: values)
    }
}

extension WireMessage {
    /// Runs `body` on `text`'s UTF-8 bytes.
    fileprivate static func withCharacters<Result>(
        _ text: String, _ body: (UnsafeBufferPointer<UInt8>) throws(WireReader.Invalid) -> Result
    ) throws(WireReader.Invalid) -> Result {
        let characters = Array(text.utf8)
        return try characters.withUnsafeBufferPointer { buffer in Swift.Result { () throws(WireReader.Invalid) in try body(buffer) } }.get()
    }
}

/// The header's fields as libdbus checks them (`load_and_validate_field`, `check_mandatory_fields`).
private struct Fields {
    var path, interface, member, signature: String?
    var seen: Set<UInt8> = []

    /// Each field's code and the type its value must have (codes past 10 are skipped, as libdbus skips them).
    static let types: [UInt8: String] = [1: "o", 2: "s", 3: "s", 4: "s", 5: "u", 6: "s", 7: "s", 8: "g", 9: "u", 10: "o"]

    init(_ value: DBusValue) throws(WireReader.Invalid) {
        guard case .array(_, let items) = value else { throw WireReader.Invalid("the header has no fields") }
        for item in items {
            guard case .structure(let parts) = item, parts.count == 2, case .byte(let code) = parts[0],
                  case .variant(let inner) = parts[1] else { throw WireReader.Invalid("a header field is not (yv)") }
            guard code != 0 else { throw WireReader.Invalid("a header field has code 0") }
            guard let type = Self.types[code] else { continue }
            guard inner.signature == type else { throw WireReader.Invalid("header field \(code) is not of type '\(type)'") }
            guard seen.insert(code).inserted else { throw WireReader.Invalid("header field \(code) appears twice") }
            try take(code, inner)
        }
    }

    private mutating func take(_ code: UInt8, _ value: DBusValue) throws(WireReader.Invalid) {
        switch (code, value) {
        case (1, .objectPath(let path)):
            guard path != NameRules.localPath else { throw WireReader.Invalid("the message uses libdbus's local path") }
            self.path = path
        case (2, .string(let name)):
            guard NameRules.isValidInterfaceName(name) else { throw WireReader.Invalid("'\(name)' is not an interface name") }
            guard name != NameRules.localInterface else { throw WireReader.Invalid("the message uses libdbus's local interface") }
            interface = name
        case (3, .string(let name)):
            guard NameRules.isValidMemberName(name) else { throw WireReader.Invalid("'\(name)' is not a member name") }
            member = name
        case (4, .string(let name)):
            guard NameRules.isValidErrorName(name) else { throw WireReader.Invalid("'\(name)' is not an error name") }
        case (5, .uint32(let serial)):
            guard serial != 0 else { throw WireReader.Invalid("the reply serial is 0") }
        case (6, .string(let name)), (7, .string(let name)):
            guard NameRules.isValidBusName(name) else { throw WireReader.Invalid("'\(name)' is not a bus name") }
        case (8, .signature(let signature)):
            self.signature = signature
        case (9, .uint32(let count)):
            guard count == 0 else { throw WireReader.Invalid("the message carries \(count) Unix file descriptor(s), which bytes cannot") }
        default:
            break
        }
    }

    /// The fields a message of `type` must have.
    func checkRequired(by type: UInt8) throws(WireReader.Invalid) {
        let required: [(UInt8, String)] = switch type {
        case 4: [(2, "an interface"), (1, "a path"), (3, "a member")]
        case 1: [(1, "a path"), (3, "a member")]
        case 3: [(4, "an error name"), (5, "a reply serial")]
        case 2: [(5, "a reply serial")]
        default: []
        }
        for (code, name) in required where !seen.contains(code) {
            throw WireReader.Invalid("a message of type \(type) without \(name)")
        }
    }
}
