import DBus
import Testing
import TestSupport

/// A signal written in one pass (`Message.signal(path:interface:member:_:)`) against the same signal built value
/// by value through libdbus's iterator: the same bytes, and where libdbus refuses, the same errors.
@Suite struct WireWriterTests {
    /// Every type, at every alignment, empty arrays of 8-aligned elements, variants of containers and of
    /// variants, strings past ASCII, NaN and -0.
    static let bodies: [[DBusValue]] = [
        [],
        [.uint64(7)],
        [.byte(1), .boolean(true), .int16(-2), .uint16(3), .int32(-4), .uint32(5), .int64(-6), .uint64(7),
         .double(.nan), .double(-0.0), .string("käse ✓"), .objectPath("/org/traitd/Layout1/window/mail"), .signature("a{sv}")],
        [.byte(9), .array(element: "(dd)", []), .byte(1), .array(element: "t", []), .array(element: "y", [.byte(1), .byte(2)])],
        [.vardict(["Frame": .structure([.double(1), .double(2), .double(3), .double(4)]), "Name": .string("x"),
                   "Nested": .variant(.variant(.vardict(["k": .array(element: "s", [.string("a"), .string("")])])))])],
        [.array(element: "{s(dddd)}", [.dictEntry(.string("root"), .structure([.double(0), .double(0), .double(10), .double(20)]))]),
         .array(element: "{sv}", [])],
        [.structure([.byte(1), .structure([.uint16(2), .array(element: "a{ss}", [.array(element: "{ss}", [])])])]), .nested(12)],
    ]

    @Test(arguments: bodies)
    func aSignalWrittenInOnePassIsTheBytesLibdbusWrites(body: [DBusValue]) throws {
        let written = try Message.signal(path: "/org/traitd/Layout1", interface: "org.traitd.Layout1.Window", member: "M", body)
        let built = try Message.signal(path: "/org/traitd/Layout1", interface: "org.traitd.Layout1.Window", member: "M")
        try built.append(body)
        #expect(try Marshalling.bytes(of: written) == Marshalling.bytes(of: built))
        #expect(written.arguments().description == body.description)  // NaN is not equal to itself: compared as text
        #expect(written.serial == 0, "numbered by the connection as it is sent")
        #expect(written.noReplyExpected && written.kind == .signal)
    }

    @Test func whatLibdbusRefusesIsRefusedWithTheIteratorsWords() throws {
        func refusal(_ body: [DBusValue], path: String = "/t") -> String? {
            do {
                _ = try Message.signal(path: path, interface: "org.example.T", member: "M", body)
                return nil
            } catch let error as DBusError {
                return "\(error.name): \(error.message)"
            } catch {
                return "\(error)"
            }
        }
        func iteratorRefusal(_ body: [DBusValue], path: String = "/t") -> String? {
            do {
                try Message.signal(path: path, interface: "org.example.T", member: "M").append(body)
                return nil
            } catch let error as DBusError {
                return "\(error.name): \(error.message)"
            } catch {
                return "\(error)"
            }
        }
        let refused: [(body: [DBusValue], path: String)] = [
            ([.string("nul\u{0}inside")], "/t"), ([.objectPath("not a path")], "/t"), ([.signature("a{")], "/t"),
            ([.array(element: "s", [.int32(1)])], "/t"), ([.vardict(["k": .nested(21)])], "/t"), ([], "//"),
            ([.array(element: "{sv}", [.dictEntry(.array(element: "s", []), .variant(.byte(1)))])], "/t"),
            ([.structure(Array(repeating: .byte(1), count: 300))], "/t"), ([.variant(.structure(Array(repeating: .byte(1), count: 300)))], "/t"),
        ]
        for (body, path) in refused {
            let words = refusal(body, path: path)
            #expect(words != nil, "\(body) at \(path) was accepted")
            #expect(words == iteratorRefusal(body, path: path), "\(body) at \(path)")
        }
        #expect(refusal([.vardict(["k": .nested(20)])]) == nil, "63 containers deep: fine")
    }
}
