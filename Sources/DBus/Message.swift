import CDBus

/// One D-Bus message: a method call, a reply, an error or a signal.
///
/// `DBusMessage` is not thread-safe, so neither is this class: it is deliberately not `Sendable`. Values
/// cross threads as `[DBusValue]` instead.
public final class Message {
    public enum Kind: Sendable { case methodCall, methodReturn, error, signal, invalid }

    let raw: OpaquePointer

    /// The bytes a signal was read from (`signal(path:interface:member:_:)`), with serial 1: what the journal
    /// keeps (`Marshalling.bytes(of:)`), so that a signal is not marshalled a second time for it.
    private(set) var wire: [UInt8]?

    /// The whole message's bytes, for reading a received message from them (`receivedBytes`), made once.
    private var marshalled: [UInt8]??

    /// The whole message as bytes (`dbus_message_marshal`: one copy), kept for the readers that follow; nil when
    /// libdbus cannot give them.
    func receivedBytes() -> [UInt8]? {
        if let marshalled { return marshalled }
        var buffer: UnsafeMutablePointer<CChar>?
        var length: Int32 = 0
        let bytes: [UInt8]? = if dbus_message_marshal(raw, &buffer, &length) != 0, let buffer {
            Array(UnsafeRawBufferPointer(start: buffer, count: Int(length)))
        } else {
            nil
        }
        dbus_free(buffer)
        marshalled = .some(bytes)
        return bytes
    }

    /// Takes over one reference to `raw`.
    init(owning raw: OpaquePointer) { self.raw = raw }

    /// Adds a reference to `raw` (for messages libdbus lends to a callback).
    init(borrowing raw: OpaquePointer) {
        self.raw = dbus_message_ref(raw)
    }

    deinit { dbus_message_unref(raw) }

    // MARK: Creating messages

    public static func methodCall(destination: String?, path: String, interface: String?, member: String) throws
        -> Message
    {
        if let destination, !Validation.isValidBusName(destination) {
            throw DBusError.invalidArgs("'\(destination)' is not a valid bus name")
        }
        try checkHeader(path: path, interface: interface, member: member)
        guard let raw = dbus_message_new_method_call(destination, path, interface, member) else {
            throw DBusError.failed("out of memory creating a method call")
        }
        return Message(owning: raw)
    }

    public static func signal(path: String, interface: String, member: String) throws -> Message {
        try checkHeader(path: path, interface: interface, member: member)
        guard let raw = dbus_message_new_signal(path, interface, member) else {
            throw DBusError.failed("out of memory creating a signal")
        }
        return Message(owning: raw)
    }

    /// A signal carrying `arguments`, written in one pass (`WireWriter`) and read back by libdbus, which
    /// validates it as the bus will. Where libdbus refuses the bytes (a NUL in a string, an invalid name, path
    /// or signature, a body past the limits), the signal is built value by value instead, which throws the
    /// same errors as `signal(path:interface:member:)` and `append` always have: so this never sends what
    /// they would refuse, and refuses with the same words.
    public static func signal(path: String, interface: String, member: String, _ arguments: [DBusValue]) throws
        -> Message
    {
        if let written = WireWriter.signal(path: path, interface: interface, member: member, arguments),
           let message = signal(written: written.bytes) {
            try written.checkLimits()
            return message
        }
        let message = try signal(path: path, interface: interface, member: member)
        try message.append(arguments)
        return message
    }

    /// A signal to send, read from the bytes `WireWriter` wrote, which it keeps for the journal; nil when libdbus
    /// refuses them.
    static func signal(written bytes: [UInt8]) -> Message? {
        guard let message = read(bytes) else { return nil }
        message.wire = bytes
        return message
    }

    /// A message to send, read from whole-message bytes; nil when libdbus refuses them. The bytes carry a
    /// placeholder serial (libdbus reads none with serial 0); the copy it returns has none, so the connection
    /// numbers it as it sends it, as it does every message it builds.
    private static func read(_ bytes: [UInt8]) -> Message? {
        let parsed = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { dbus_message_demarshal($0.baseAddress, Int32(clamping: $0.count), nil) }
        }
        guard let parsed else { return nil }
        defer { dbus_message_unref(parsed) }
        guard let copy = dbus_message_copy(parsed) else { return nil }
        guard dbus_message_get_serial(copy) == 0 else {
            dbus_message_unref(copy)
            return nil
        }
        return Message(owning: copy)
    }

    /// The method return for this method call.
    public func makeReturn() -> Message {
        Message(owning: dbus_message_new_method_return(raw)!)
    }

    /// An error reply to this method call. An invalid error name becomes `...Error.Failed`; the message text
    /// is always valid (NUL bytes removed) so that libdbus never aborts.
    public func makeError(_ error: DBusError) -> Message {
        let name = Validation.isValidErrorName(error.name) ? error.name : DBusError.failedName
        let text = error.message.replacingNULs()
        return Message(owning: dbus_message_new_error(raw, name, text)!)
    }

    private static func checkHeader(path: String, interface: String?, member: String) throws {
        guard Validation.isValidObjectPath(path) else {
            throw DBusError.invalidArgs("'\(path.printable)' is not a valid object path")
        }
        if let interface, !Validation.isValidInterfaceName(interface) {
            throw DBusError.invalidArgs("'\(interface.printable)' is not a valid interface name")
        }
        guard path != NameRules.localPath, interface != NameRules.localInterface else {
            throw DBusError.invalidArgs("'\(path == NameRules.localPath ? path : interface!)' is libdbus's own; the bus refuses it from a peer")
        }
        guard Validation.isValidMemberName(member) else {
            throw DBusError.invalidArgs("'\(member.printable)' is not a valid member name")
        }
    }

    // MARK: Header fields

    public var kind: Kind {
        switch dbus_message_get_type(raw) {
        case DBUS_MESSAGE_TYPE_METHOD_CALL: return .methodCall
        case DBUS_MESSAGE_TYPE_METHOD_RETURN: return .methodReturn
        case DBUS_MESSAGE_TYPE_ERROR: return .error
        case DBUS_MESSAGE_TYPE_SIGNAL: return .signal
        default: return .invalid
        }
    }

    public var path: String? { dbus_message_get_path(raw).map { String(cString: $0) } }
    public var interface: String? { dbus_message_get_interface(raw).map { String(cString: $0) } }
    public var member: String? { dbus_message_get_member(raw).map { String(cString: $0) } }
    public var sender: String? { dbus_message_get_sender(raw).map { String(cString: $0) } }
    public var destination: String? { dbus_message_get_destination(raw).map { String(cString: $0) } }
    public var errorName: String? { dbus_message_get_error_name(raw).map { String(cString: $0) } }
    public var signature: String { String(cString: dbus_message_get_signature(raw)) }
    public var serial: UInt32 { dbus_message_get_serial(raw) }
    public var replySerial: UInt32 { dbus_message_get_reply_serial(raw) }

    public var noReplyExpected: Bool {
        get { dbus_message_get_no_reply(raw) != 0 }
        set { dbus_message_set_no_reply(raw, newValue ? 1 : 0) }
    }

    // MARK: Body

    /// Appends values to the body. Throws, having appended nothing, when the values would make a message that
    /// the bus refuses: too deep or too large (`WireLimits`), or a body signature it refuses (a dict entry
    /// outside an array, structs nested past 32: libdbus's iterator appends those without a word); throws (and
    /// appends nothing further) on a value libdbus would abort on.
    public func append(_ values: [DBusValue]) throws {
        try WireLimits.check(values)
        if values.contains(where: { $0.typeCode == nil }) {  // one type code is a valid signature by itself
            let signature = values.signature
            if !SignatureRules.isValid(signature), let problem = Validation.signatureProblem(signature) {
                throw DBusError.invalidArgs("the values' signature '\(signature.printable)' is not valid: \(problem)")
            }
        }
        var iter = DBusMessageIter()
        dbus_message_iter_init_append(raw, &iter)
        for value in values { try Self.append(value, to: &iter) }
    }

    /// Reads the whole body: from its bytes (`WireReader`), or where that gives up, with libdbus's iterator.
    public func arguments() -> [DBusValue] {
        argumentsFromTheBytes() ?? argumentsThroughTheIterator()
    }

    /// Reads the whole body with libdbus's iterator, value by value: what `arguments()` must equal.
    public func argumentsThroughTheIterator() -> [DBusValue] {
        var iter = DBusMessageIter()
        guard dbus_message_iter_init(raw, &iter) != 0 else { return [] }
        return Self.readAll(&iter)
    }
}

extension String {
    /// The string with NUL bytes replaced, safe to hand to libdbus as a C string.
    func replacingNULs() -> String {
        utf8.contains(0) ? String(decoding: utf8.map { $0 == 0 ? UInt8(ascii: "?") : $0 }, as: UTF8.self) : self
    }

}
