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

    /// Bodies and paths the bus refuses (it closes the connection that sends one): libdbus's reader refuses the
    /// first nine; the last five its iterator built without a word until stop 49 (structs nested past 32, a dict
    /// entry outside an array, an empty struct, an empty array whose element is not one type, the Local path).
    static let refused: [(body: [DBusValue], path: String)] = [
        ([.string("nul\u{0}inside")], "/t"), ([.objectPath("not a path")], "/t"), ([.signature("a{")], "/t"),
        ([.array(element: "s", [.int32(1)])], "/t"), ([.vardict(["k": .nested(21)])], "/t"), ([], "//"),
        ([.array(element: "{sv}", [.dictEntry(.array(element: "s", []), .variant(.byte(1)))])], "/t"),
        ([.structure(Array(repeating: .byte(1), count: 300))], "/t"), ([.variant(.structure(Array(repeating: .byte(1), count: 300)))], "/t"),
        ([structs(33)], "/t"), ([.dictEntry(.string("k"), .byte(1))], "/t"), ([.structure([])], "/t"),
        ([.array(element: "a", []), .byte(1)], "/t"), ([.byte(1)], "/org/freedesktop/DBus/Local"),
    ]

    static func structs(_ depth: Int) -> DBusValue { depth == 0 ? .byte(1) : .structure([structs(depth - 1)]) }

    @Test func signaturesAreJudgedAsLibdbusJudgesThem() {
        let signatures = ["", "s", "a{sv}", "a{vs}", "{sv}", "()", "(s)", "a", "aa", "ay)", "(a{sv}a(ii))", "a{s}",
                          "a{sss}", "v", "sv", "(((", ")", "}", "a{sa{sv}}", "h", "z", "a(", String(repeating: "a", count: 32) + "y",
                          String(repeating: "a", count: 33) + "y", String(repeating: "(", count: 32) + "y" + String(repeating: ")", count: 32),
                          String(repeating: "(", count: 33) + "y" + String(repeating: ")", count: 33), "(a{s)i}", "a{s(i}i)", "(a{si})", "a{(s)v}"]
        for signature in signatures {
            #expect(SignatureRules.isValid(signature) == Validation.isValidSignature(signature), "'\(signature)'")
            #expect(SignatureRules.isValid(signature, single: true) == Validation.isValidSingleCompleteType(signature),
                    "'\(signature)' as one type")
        }
        #expect(SignatureRules.isValid("a{sv}(ii)") && !SignatureRules.isValid("a{sv}(ii)", single: true))
    }

    @Test(arguments: bodies)
    func aSignalWrittenInOnePassIsTheBytesLibdbusWrites(body: [DBusValue]) throws {
        let written = try Message.signal(path: "/org/traitd/Layout1", interface: "org.traitd.Layout1.Window", member: "M", body)
        let built = try Message.signal(path: "/org/traitd/Layout1", interface: "org.traitd.Layout1.Window", member: "M")
        try built.append(body)
        #expect(try Marshalling.bytes(of: written) == Marshalling.bytes(of: built))
        #expect(try Marshalling.directBytes(path: "/org/traitd/Layout1", interface: "org.traitd.Layout1.Window", member: "M", body)
                == Marshalling.bytes(of: built), "what the connection writes to its socket itself")
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
        for (body, path) in Self.refused {
            let words = refusal(body, path: path)
            #expect(words != nil, "\(body) at \(path) was accepted")
            #expect(words == iteratorRefusal(body, path: path), "\(body) at \(path)")
            #expect(Marshalling.directBytes(path: path, interface: "org.example.T", member: "M", body) == nil,
                    "\(body) at \(path) would be written to the socket")
        }
        #expect(refusal([.vardict(["k": .nested(20)])]) == nil, "63 containers deep: fine")
    }
}
