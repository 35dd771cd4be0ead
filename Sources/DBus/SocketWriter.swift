import CDBus
import Glibc

/// Writes a signal's bytes (`WireWriter`) to the connection's socket itself, beside libdbus, which still reads
/// everything and writes every other message.
///
/// Why: libdbus sends only messages it holds, and the one way to give it bytes already written is to have it
/// read them (`dbus_message_demarshal`), validating header and body as if they came from a stranger: about
/// 36,000 instructions for a signal of a few hundred bytes, a list node allocated under a global lock for each
/// variant's signature (callgrind, one-adapter transitions: a third of traitd's instructions). The writer has
/// already checked what that validation would (`WireWriter`); writing the bytes as they are costs one `send`,
/// as libdbus's own write does.
///
/// What keeps the stream of messages whole:
/// - it writes only on the connection's thread, the one thread where libdbus writes too (`Connection.send` hands
///   a message from any other thread to it), so the two never write at once;
/// - only when libdbus has nothing waiting to be written (`dbus_connection_has_messages_to_send`): a message it
///   has begun would be cut in two, one it has queued overtaken;
/// - a message is written whole before `write` returns: after a partial write the rest waits for the socket
///   (`poll`), as libdbus's `dbus_connection_flush` waits;
/// - when the socket takes nothing (full) or the connection is gone, nothing is written and the caller gives
///   the message to libdbus, which queues it behind, in order.
///
/// Serials: a D-Bus serial has to be unique only among a connection's method calls that await replies (a reply
/// names the call it answers); nobody answers a signal. libdbus numbers what it sends from 1 up; these are
/// numbered from 2³¹ up, so the two counts meet only after libdbus has sent two billion messages, and even then
/// only a signal and a reply or a call could share a number, which nothing reads as a link.
final class SocketWriter {
    private let connection: OpaquePointer
    private var nextSerial: UInt32 = 1 << 31

    /// Writes on `connection`'s socket; use it from the connection's thread only.
    init(connection: OpaquePointer) { self.connection = connection }

    /// Writes `bytes` (a whole message with a placeholder serial at bytes 8-11) whole, numbered; false when
    /// nothing was written and the message must go libdbus's way. `bytes` is left as it was.
    func write(_ bytes: inout [UInt8]) -> Bool {
        // Asked on each write: libdbus closes the socket when it sees the peer hang up, and its number may then
        // belong to another file. Both checks take the connection's lock; no other thread does I/O on it.
        guard dbus_connection_get_is_connected(connection) != 0,
              dbus_connection_has_messages_to_send(connection) == 0 else { return false }
        var fd: Int32 = -1
        guard dbus_connection_get_socket(connection, &fd) != 0, fd >= 0 else { return false }
        let serial = nextSerial
        nextSerial = nextSerial == .max ? 1 << 31 : nextSerial + 1
        return bytes.withUnsafeMutableBytes { buffer in
            let placeholder = buffer.load(fromByteOffset: 8, as: UInt32.self)
            buffer.storeBytes(of: serial.littleEndian, toByteOffset: 8, as: UInt32.self)
            defer { buffer.storeBytes(of: placeholder, toByteOffset: 8, as: UInt32.self) }
            return Self.writeWhole(buffer, to: fd)
        }
    }

    /// False only when not a byte was written (the socket is full, or refuses).
    private static func writeWhole(_ buffer: UnsafeMutableRawBufferPointer, to fd: Int32) -> Bool {
        var written = 0
        while written < buffer.count {
            let n = Glibc.send(fd, buffer.baseAddress! + written, buffer.count - written, Int32(MSG_NOSIGNAL))
            if n > 0 {
                written += n
                continue
            }
            if n < 0, errno == EINTR { continue }
            if written == 0 { return false }
            // Part of the message is in the socket: the rest has to follow before anything else does.
            guard n < 0, errno == EAGAIN || errno == EWOULDBLOCK else { return true }  // the connection broke
            var ready = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
            while poll(&ready, 1, -1) < 0, errno == EINTR {}
            if ready.revents & Int16(POLLERR | POLLHUP | POLLNVAL) != 0 { return true }  // libdbus will see it go
        }
        return true
    }
}
