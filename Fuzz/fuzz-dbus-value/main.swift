// Fuzz target: the D-Bus value reader and writers. Three checks on every input:
// 1. Bytes that libdbus accepts as a marshalled message are read into values (from the bytes, `WireReader`,
//    exactly as libdbus's iterator reads them, and measured for `IncomingLimit` as the iterator measures them);
//    those values must write back (no
//    abort, no refusal), read again to the same values, and `WireLimits.measure` must give exactly the body
//    length libdbus wrote; a signal written in one pass (`Message.signal(path:interface:member:_:)`, what traitd
//    sends) must be exactly the bytes libdbus writes.
// 2. The input read as a signature: `SignatureRules` (which checks what traitd writes to its socket itself) must
//    judge it as libdbus's own validators do, as a signature and as one complete type.
// 3. The input read as instructions for building values (`ValueBuilder`), valid or not: whatever the one-pass
//    writer accepts (`Marshalling.directBytes`, what `Connection.emit` writes to the socket without libdbus) must
//    be within `WireLimits` and read back by libdbus as the same values; a message the bus refused would cost
//    traitd its connection.
// 4. The input read as a whole message without libdbus (`WireMessage`, what reads the state file's restoration
//    states): it must read exactly what libdbus reads (the same values), and refuse what libdbus refuses, but for
//    bytes after the message (libdbus leaves them for a next message). The input as text, judged as a name by
//    `NameRules`, must be judged as libdbus's validators judge it.
import DBus
import FuzzSupport

@_cdecl("LLVMFuzzerTestOneInput")
func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = FuzzTarget.bytes(data, size)
    checkSignatureRules(FuzzTarget.text(bytes))
    checkNameRules(FuzzTarget.text(bytes))
    checkDirectBytes(Array(bytes))
    checkWireMessage(Array(bytes))
    guard let values = try? Marshalling.decode(Array(bytes)) else { return 0 }
    guard let iterated = try? Marshalling.decodeThroughTheIterator(Array(bytes)) else {
        preconditionFailure("libdbus read the message for one reader and not the other")
    }
    precondition(values.description == iterated.description, "WireReader read other values than libdbus's iterator")  // NaN: as text
    for (size, depth) in [(64, 3), (1 << 20, 64)] {
        let limit = IncomingLimit(bytes: size, depth: depth, errorName: "org.example.E", bytesSetting: "b", depthSetting: "d")
        guard let measures = try? Marshalling.bodyMeasures(Array(bytes), upTo: limit), let fromTheBytes = measures.fromTheBytes,
              fromTheBytes == measures.throughTheIterator else {
            preconditionFailure("the body measured over its bytes differs from libdbus's iterator's measure")
        }
    }
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

func checkSignatureRules(_ text: String) {
    guard !text.utf8.contains(0) else { return }  // libdbus's validators take C strings
    precondition(SignatureRules.isValid(text) == Validation.isValidSignature(text),
                 "SignatureRules and libdbus disagree on '\(text)' as a signature")
    precondition(SignatureRules.isValid(text, single: true) == Validation.isValidSingleCompleteType(text),
                 "SignatureRules and libdbus disagree on '\(text)' as one complete type")
}

func checkNameRules(_ text: String) {
    guard !text.utf8.contains(0) else { return }  // libdbus's validators take C strings
    precondition(NameRules.isValidObjectPath(text) == Validation.isValidObjectPath(text), "object path '\(text)'")
    precondition(NameRules.isValidInterfaceName(text) == Validation.isValidInterfaceName(text), "interface '\(text)'")
    precondition(NameRules.isValidMemberName(text) == Validation.isValidMemberName(text), "member '\(text)'")
    precondition(NameRules.isValidErrorName(text) == Validation.isValidErrorName(text), "error name '\(text)'")
    precondition(NameRules.isValidBusName(text) == Validation.isValidBusName(text), "bus name '\(text)'")
}

func checkWireMessage(_ bytes: [UInt8]) {
    let ours = Result { try WireMessage(reading: bytes) }
    let libdbus = Result { try Marshalling.decodeSignal(bytes) }
    switch (ours, libdbus) {
    case (.success(let message), .success(let read)):
        let iterated = try? Marshalling.decodeThroughTheIterator(bytes)
        precondition(message.values.description == iterated?.description, "WireMessage read other values than libdbus's iterator")
        precondition(message.path ?? "" == read.path && message.interface ?? "" == read.interface && message.member ?? "" == read.member,
                     "WireMessage read another header than libdbus")
    case (.success(let message), .failure(let error)):
        preconditionFailure("WireMessage read what libdbus refuses (\(error)): \(message)")
    case (.failure(let error), .success):
        precondition("\(error)".contains("follow the message"), "WireMessage refused what libdbus reads: \(error)")
    case (.failure, .failure):
        break
    }
}

func checkDirectBytes(_ input: [UInt8]) {
    var builder = ValueBuilder(input[...])
    let values = builder.values()
    let path = builder.pick(["/org/traitd/Stored", "/org/freedesktop/DBus/Local", "//", "/a/b_1"])
    let interface = builder.pick(["org.traitd.Stored", "org.freedesktop.DBus.Local", "no", "a.b"])
    guard let direct = Marshalling.directBytes(path: path, interface: interface, member: "Values", values) else { return }
    precondition((try? WireLimits.check(values)) != nil, "written directly past the limits: \(values)")
    guard let read = try? Marshalling.decodeSignal(direct) else {
        preconditionFailure("the one-pass writer accepted what libdbus refuses: \(values) at \(path) \(interface)")
    }
    precondition(read.arguments.description == values.description, "libdbus read other values than were written")  // NaN: as text
}

/// Values built from bytes, one decision a byte: every type, and the mistakes a caller can make (an empty struct,
/// a dict entry outside an array, items of another type than the array's element, a NUL in a string, invalid
/// object paths and signatures, deep nesting).
struct ValueBuilder {
    private var input: ArraySlice<UInt8>
    init(_ input: ArraySlice<UInt8>) { self.input = input }

    mutating func next() -> UInt8 { input.popFirst() ?? 0 }

    mutating func pick<T>(_ choices: [T]) -> T { choices[Int(next()) % choices.count] }

    mutating func values() -> [DBusValue] { (0..<Int(next() % 4)).map { _ in value(depth: 0) } }

    private static let strings = ["", "a", "käse ✓", "nul\u{0}in", "/org/x", "a{sv}"]
    private static let paths = ["/", "/org/traitd", "not a path", "//", "/a/", ""]
    private static let signatures = ["", "s", "a{sv}", "(", "a{vs}", "()", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", "{sv}", "v"]
    private static let elements = ["s", "{sv}", "(dd)", "v", "", "{", "()", "{vs}", "a", "ay", "{s}", "s)", "y(", "{sa{sv}}"]

    mutating func value(depth: Int) -> DBusValue {
        let kind = depth > 70 ? next() % 10 : next() % 16
        switch kind {
        case 0: return .byte(next())
        case 1: return .boolean(next() & 1 == 1)
        case 2: return .int16(Int16(truncatingIfNeeded: Int(next()) << 8 | Int(next())))
        case 3: return .uint32(UInt32(next()) << 24 | UInt32(next()))
        case 4: return .int64(Int64(Int8(bitPattern: next())))
        case 5: return .double(pick([0, -0.0, .nan, 1.5, .infinity]))
        case 6: return .string(pick(Self.strings))
        case 7: return .objectPath(pick(Self.paths))
        case 8: return .signature(pick(Self.signatures))
        case 9: return .uint64(UInt64(next()))
        case 10, 11:
            let count = Int(next() % 4)
            if next() & 1 == 0, count > 0 {
                // Items of one made type, the element its signature: what every well-formed caller builds.
                let items = (0..<count).map { _ in value(depth: depth + 1) }
                return .array(element: items[0].signature, items)
            }
            return .array(element: pick(Self.elements), (0..<count).map { _ in value(depth: depth + 1) })
        case 12: return .structure((0..<Int(next() % 4)).map { _ in value(depth: depth + 1) })
        case 13: return .dictEntry(value(depth: depth + 1), value(depth: depth + 1))
        default: return .variant(value(depth: depth + 1))
        }
    }
}

FuzzTarget.main(fuzzOneInput)
