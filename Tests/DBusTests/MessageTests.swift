import DBus
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

    @Test func invalidValuesAreRefusedNotAborted() throws {
        let message = try Message.signal(path: "/t", interface: "org.example.T", member: "M")
        #expect(throws: DBusError.self) { try message.append([.string("nul\u{0}inside")]) }
        #expect(throws: DBusError.self) { try message.append([.objectPath("not a path")]) }
        #expect(throws: DBusError.self) { try message.append([.array(element: "s", [.int32(1)])]) }
        #expect(throws: DBusError.self) { try Message.signal(path: "//", interface: "x", member: "M") }
    }
}
