import DBus
import Foundation
import Testing

@Suite struct MessageTests {
    @Test(arguments: [
        DBusValue.vardict(["k": .structure([.double(1), .double(2)])]),
        .array(element: "{s(dd)}", [.dictEntry(.string("x"), .doubles([3, 4]))]),
        .array(element: "s", []),
        .structure([.string("a"), .array(element: "i", [.int32(1)])]),
    ])
    func valuesSurviveAppendAndRead(value: DBusValue) throws {
        let message = try Message.signal(path: "/t", interface: "org.example.T", member: "M")
        try message.append([value, .variant(value)])
        #expect(message.arguments() == [value, .variant(value)])
        #expect(message.signature == value.signature + "v")
    }

    /// `hasSignature` (the check of every array item before it is sent) agrees with building the signature.
    @Test func aValueHasExactlyItsOwnSignature() {
        let values: [DBusValue] = [
            .vardict(["k": .structure([.double(1), .double(2)])]), .dictEntry(.string("x"), .doubles([3, 4])),
            .structure([.string("a"), .array(element: "i", [.int32(1)])]), .variant(.byte(1)), .objectPath("/a"),
            .array(element: "a{sv}", []), .structure([.structure([.uint64(1)]), .boolean(true)]),
        ]
        for value in values {
            #expect(value.hasSignature(value.signature), "\(value)")
            for other in values where other.signature != value.signature {
                #expect(!value.hasSignature(other.signature), "\(value) against \(other.signature)")
            }
            #expect(!value.hasSignature(value.signature + "s"))
            #expect(!value.hasSignature(String(value.signature.dropLast())))
        }
        #expect([DBusValue.string("a"), .string("b")].allHaveSignature("s") && [DBusValue]().allHaveSignature("s"))
        #expect(![DBusValue.string("a"), .int32(1)].allHaveSignature("s") && ![DBusValue.string("a")].allHaveSignature("ss"))
        let mixed = DBusValue.array(element: "{sv}", [.dictEntry(.string("a"), .variant(.int32(1))), .dictEntry(.string("b"), .int32(2))])
        #expect(throws: DBusError.self) { try Message.signal(path: "/t", interface: "org.example.T", member: "M").append([mixed]) }
    }

    @Test func invalidValuesAreRefusedNotAborted() throws {
        let message = try Message.signal(path: "/t", interface: "org.example.T", member: "M")
        #expect(throws: DBusError.self) { try message.append([.string("nul\u{0}inside")]) }
        #expect(throws: DBusError.self) { try message.append([.objectPath("not a path")]) }
        #expect(throws: DBusError.self) { try message.append([.array(element: "s", [.int32(1)])]) }
        #expect(throws: DBusError.self) { try Message.signal(path: "//", interface: "x", member: "M") }
    }
}

/// Values read from a message write back as they read, whatever the message carried.
@Suite struct ReadBackTests {
    /// A message whose body holds an array of unix fds (`ah`), as fuzz-dbus-value found it (its seed since).
    /// traitd takes no fds: each reads as int32 -1, and the array as `ai`, so the values write back.
    @Test func anArrayOfUnixFDsReadsAsInt32AndWritesBack() throws {
        let seed = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Fuzz/corpus/fuzz-dbus-value/array-of-unix-fds.bin")
        let values = try Marshalling.decode(Array(try Data(contentsOf: seed)))
        // The body is an a{sv}; its "flags" entry holds the `ah`.
        let flags = try #require(values.first?.dictionary?["flags"]?.unwrapped)
        guard case .array(let element, let items) = flags else { Issue.record("flags read as \(flags)"); return }
        #expect(element == "i" && !items.isEmpty && items.allSatisfy { $0 == .int32(-1) })
        let again = try Marshalling.decode(try Marshalling.encode(values))
        #expect(again == values)
    }
}
