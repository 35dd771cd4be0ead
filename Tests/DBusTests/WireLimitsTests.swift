import DBus
import TestSupport
import Testing

/// `WireLimits`: the measures agree with what libdbus writes, and a body past D-Bus's limits is refused
/// before anything is built, so the bus never sees it.
@Suite struct WireLimitsTests {
    /// The body length libdbus wrote (bytes 4-7 of the header, little endian on this machine).
    static func bodyLength(_ values: [DBusValue]) throws -> Int {
        let bytes = try Marshalling.encode(values)
        #expect(bytes[0] == UInt8(ascii: "l"))
        return bytes[4..<8].reversed().reduce(0) { $0 << 8 | Int($1) }
    }

    @Test(arguments: [
        [DBusValue.byte(1), .double(2), .string("abc"), .boolean(true)],
        [.vardict(["k": .structure([.double(1), .double(2)]), "a": .strings(["x", "yy"])])],
        [.array(element: "{s(dddd)}", []), .array(element: "t", []), .int16(3), .array(element: "(yd)", [.structure([.byte(1), .double(2)])])],
        [.signature("a{sv}"), .objectPath("/a/b"), .variant(.variant(.uint64(9))), .array(element: "ay", [.array(element: "y", [.byte(1)])])],
        [.nested(12)],
    ])
    func theMeasuredSizeIsExactlyWhatLibdbusWrites(values: [DBusValue]) throws {
        #expect(WireLimits.measure(values).bytes == (try Self.bodyLength(values)))
    }

    @Test func depthCountsEveryContainerAndEmptyArraysByTheirType() {
        #expect(DBusValue.string("x").nestingDepth == 0)
        #expect(DBusValue.vardict(["k": .int32(1)]).nestingDepth == 3)
        #expect(DBusValue.nested(17).nestingDepth == 51)
        #expect(DBusValue.array(element: "a{sv}", []).nestingDepth == 4)
        #expect(DBusValue.array(element: "(a(i))", []).nestingDepth == 4)
        for entries: [String: DBusValue] in [[:], ["k": .int32(1)], ["a": .nested(3), "b": .string("x")], ["e": .array(element: "a{sv}", [])]] {
            #expect(DBusValue.vardictDepth(entries) == DBusValue.vardict(entries).nestingDepth, "\(entries)")
        }
    }

    @Test func aBodyTooDeepIsRefusedByNameBeforeAnythingIsBuilt() throws {
        let message = try Message.signal(path: "/t", interface: "org.example.T", member: "M")
        // 21 dictionaries in an a{sv}: 66 containers, past D-Bus's 64.
        do {
            try message.append([.vardict(["k": DBusValue.nested(21)])])
            Issue.record("a body 66 deep was accepted")
        } catch let error as DBusError {
            #expect(error.name == "org.freedesktop.DBus.Error.LimitsExceeded" && error.message.contains("64"), "\(error)")
        }
        #expect(message.signature == "", "nothing was appended")
        try message.append([.vardict(["k": DBusValue.nested(20)])])  // 63: fine
    }

    @Test func anArrayPast64MiBIsRefusedWithoutBuildingIt() throws {
        // 5 MiB strings, 14 of them: 70 MiB of array, past D-Bus's 64 MiB; measured, not written.
        let big = String(repeating: "x", count: 5 * 1024 * 1024)
        let values: [DBusValue] = [.strings(Array(repeating: big, count: 14))]
        #expect(WireLimits.measure(values).largestArray > WireLimits.maximumArrayBytes)
        #expect(throws: DBusError.self) { try WireLimits.check(values) }
    }
}
