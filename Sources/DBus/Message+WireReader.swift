import CDBus
import Glibc

/// A received message read from its bytes (`WireReader`, in BusValues) rather than with libdbus's iterator.
extension Message {
    /// The body's values; nil when libdbus cannot give the bytes or the reader refuses them (the caller then reads
    /// with the iterator, which says why).
    func argumentsFromTheBytes() -> [DBusValue]? {
        withBody { bytes, signature in try? WireReader.arguments(ofMessage: bytes, signature: signature) }
    }

    /// The body's size and depth as `IncomingLimit` counts them, walking no further than the first limit passed;
    /// nil when it is measured with the iterator instead.
    func measureFromTheBytes(upTo limit: IncomingLimit) -> (bytes: Int, depth: Int)? {
        withBody { bytes, signature in
            try? WireReader.measure(ofMessage: bytes, signature: signature, bytesLimit: limit.bytes, depthLimit: limit.depth)
        }
    }

    /// Runs `body` with the whole message's bytes and the body's signature (from the header libdbus checked).
    private func withBody<Result>(_ body: (UnsafeRawBufferPointer, UnsafeBufferPointer<UInt8>) -> Result?) -> Result? {
        guard let signature = dbus_message_get_signature(raw), let bytes = receivedBytes() else { return nil }
        let characters = UnsafeRawPointer(signature).assumingMemoryBound(to: UInt8.self)
        return bytes.withUnsafeBytes { body($0, UnsafeBufferPointer(start: characters, count: strlen(signature))) }
    }
}
