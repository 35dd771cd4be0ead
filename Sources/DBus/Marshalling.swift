import CDBus

/// D-Bus values as bytes in the wire format, for storing them in a file and reading them back exactly
/// (every type, NaN and all). The bytes are a whole marshalled signal message carrying the values.
public enum Marshalling {
    /// The wire-format bytes of `values`.
    public static func encode(_ values: [DBusValue]) throws -> [UInt8] {
        let message = try Message.signal(path: "/org/traitd/Stored", interface: "org.traitd.Stored", member: "Values")
        try message.append(values)
        return try bytes(of: message)
    }

    /// The wire-format bytes of a message already built (a signal just sent): what `decode` reads back.
    public static func bytes(of message: Message) throws -> [UInt8] {
        if let wire = message.wire { return wire }
        // libdbus refuses to read back a message with serial 0 (one never sent).
        if dbus_message_get_serial(message.raw) == 0 { dbus_message_set_serial(message.raw, 1) }
        var buffer: UnsafeMutablePointer<CChar>?
        var length: Int32 = 0
        guard dbus_message_marshal(message.raw, &buffer, &length) != 0, let buffer else {
            throw DBusError.failed("out of memory while marshalling")
        }
        defer { dbus_free(buffer) }
        return buffer.withMemoryRebound(to: UInt8.self, capacity: Int(length)) { Array(UnsafeBufferPointer(start: $0, count: Int(length))) }
    }

    /// The bytes of a signal as `Connection.emit` writes them to the socket itself (serial 1); nil where the
    /// signal goes libdbus's way instead, which refuses what the bus would.
    public static func directBytes(path: String, interface: String, member: String, _ arguments: [DBusValue]) -> [UInt8]? {
        WireWriter.signal(path: path, interface: interface, member: member, arguments)?.bytesWithinLimits
    }

    /// The bytes of a declared signal as `Connection.emit(path:interface:_:_:)` writes them from its typed
    /// arguments; nil where the signal goes libdbus's way instead. Equal to `directBytes` of its values.
    public static func directBytes<Arguments: Sendable>(
        path: String, interface: String, _ signal: SignalDeclaration<Arguments>, _ arguments: Arguments
    ) -> [UInt8]? {
        WireWriter.signal(path: path, interface: interface, member: signal.name, signal, arguments)?.bytesWithinLimits
    }

    /// The bytes of the method return to `call` as `Connection.sendReturn` writes them to the socket itself
    /// (serial 1); nil where the return goes libdbus's way instead.
    public static func directReturnBytes(to call: Message, _ values: [DBusValue]) -> [UInt8]? {
        WireWriter.methodReturn(replySerial: call.serial, destination: call.sender, values)?.bytesWithinLimits
    }

    /// The values `encode` wrote; throws `InvalidArgs` for bytes that are not a marshalled message.
    public static func decode(_ bytes: [UInt8]) throws -> [DBusValue] { try message(bytes).arguments() }

    /// The same values read with libdbus's iterator instead of from the bytes (`WireReader`): what `decode`
    /// must give (`fuzz-dbus-value`).
    public static func decodeThroughTheIterator(_ bytes: [UInt8]) throws -> [DBusValue] {
        try message(bytes).argumentsThroughTheIterator()
    }

    /// The body's size and depth as `IncomingLimit` measures them, both ways: over the bytes (`WireReader`) and
    /// with libdbus's iterator, which the first must equal (`fuzz-dbus-value`, `WireReaderTests`).
    public static func bodyMeasures(_ bytes: [UInt8], upTo limit: IncomingLimit)
        throws -> (fromTheBytes: (bytes: Int, depth: Int)?, throughTheIterator: (bytes: Int, depth: Int))
    {
        let message = try message(bytes)
        return (message.measureFromTheBytes(upTo: limit), message.measureBodyThroughTheIterator(upTo: limit))
    }

    /// A signal `bytes(of:)` kept: its path, interface, member and arguments.
    public static func decodeSignal(_ bytes: [UInt8]) throws -> (path: String, interface: String, member: String, arguments: [DBusValue]) {
        let message = try message(bytes)
        return (message.path ?? "", message.interface ?? "", message.member ?? "", message.arguments())
    }

    private static func message(_ bytes: [UInt8]) throws -> Message {
        guard !bytes.isEmpty, bytes.count < Int(Int32.max) else { throw DBusError.invalidArgs("no marshalled D-Bus message") }
        var error = CDBus.DBusError()
        dbus_error_init(&error)
        defer { dbus_error_free(&error) }
        let raw = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { dbus_message_demarshal($0.baseAddress, Int32($0.count), &error) }
        }
        guard let raw else {
            let text = dbus_error_is_set(&error) != 0 ? String(cString: error.message) : "unreadable"
            throw DBusError.invalidArgs("not a marshalled D-Bus message: \(text)")
        }
        return Message(owning: raw)
    }
}
