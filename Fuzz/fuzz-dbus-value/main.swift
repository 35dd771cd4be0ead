// Fuzz target: the D-Bus value reader and writers. Bytes that libdbus accepts as a marshalled message are
// read into values; those values must write back (no abort, no refusal), read again to the same values, and
// `WireLimits.measure` must give exactly the body length libdbus wrote; a signal written in one pass
// (`Message.signal(path:interface:member:_:)`, what traitd sends) must be exactly the bytes libdbus writes.
import DBus
import FuzzSupport

@_cdecl("LLVMFuzzerTestOneInput")
func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = FuzzTarget.bytes(data, size)
    guard let values = try? Marshalling.decode(Array(bytes)) else { return 0 }
    let encoded: [UInt8]
    do {
        encoded = try Marshalling.encode(values)
    } catch {
        preconditionFailure("values read from a valid message cannot be written back: \(error)")
    }
    guard let again = try? Marshalling.decode(encoded) else { preconditionFailure("a written message does not read back") }
    precondition(again.map(\.signature) == values.map(\.signature), "the signature changed in a round trip")
    precondition(try! Marshalling.encode(again) == encoded, "the values changed in a round trip")
    // The body length is bytes 4-7 of the header, in the message's byte order ('l' little, 'B' big).
    let length = encoded[0] == UInt8(ascii: "l")
        ? encoded[4..<8].reversed().reduce(0) { $0 << 8 | Int($1) } : encoded[4..<8].reduce(0) { $0 << 8 | Int($1) }
    precondition(WireLimits.measure(values).bytes == length, "measured \(WireLimits.measure(values).bytes) bytes, libdbus wrote \(length)")
    do {
        let written = try Marshalling.bytes(of: Message.signal(path: "/org/traitd/Stored", interface: "org.traitd.Stored", member: "Values", values))
        precondition(written == encoded, "the signal written in one pass differs from libdbus's")
    } catch {
        preconditionFailure("values libdbus wrote cannot be written in one pass: \(error)")
    }
    return 0
}

FuzzTarget.main(fuzzOneInput)
