import DBus
import FoundationEssentials
import Testing
import TestSupport

/// A whole message read from bytes nothing has checked (`WireMessage`, what the state file's restoration states
/// are read with, without libdbus) against libdbus's `dbus_message_demarshal`: what one reads the other reads, to
/// the same values, and what one refuses the other refuses.
@Suite struct WireMessageTests {
    /// The restoration state in every earlier release's state file (one fixture per format), written by
    /// libdbus, reads as libdbus reads it; and written again without libdbus, it is the same bytes.
    @Test func everyEarlierStateFilesRestorationStatesReadAsLibdbusReadsThem() throws {
        let folder = Binaries.repository.appendingPathComponent("Tests/IntegrationTests/Fixtures/state-files")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".json") }
        #expect(names.count >= 4)
        var states = 0
        for name in names {
            struct StateFile: Decodable { var restoration: [String: String] }
            let file = try JSONDecoder().decode(StateFile.self, from: Data(contentsOf: folder.appendingPathComponent(name)))
            for text in file.restoration.values {
                let bytes = try #require(Data(base64Encoded: text).map { [UInt8]($0) })
                let read = try WireMessage(reading: bytes)
                #expect(read.values.description == (try Marshalling.decode(bytes)).description, "\(name)")
                #expect((read.path, read.interface, read.member) == ("/org/traitd/Stored", "org.traitd.Stored", "Values"))
                #expect(try WireMessage.signal(path: "/org/traitd/Stored", interface: "org.traitd.Stored", member: "Values",
                                               read.values) == bytes, "\(name)")
                states += 1
            }
        }
        #expect(states == names.count)
    }

    @Test(arguments: WireWriterTests.bodies)
    func whatIsWrittenWithoutLibdbusIsWhatLibdbusWritesAndReadsBack(body: [DBusValue]) throws {
        let bytes = try WireMessage.signal(path: "/org/traitd/Stored", interface: "org.traitd.Stored", member: "Values", body)
        #expect(bytes == (try Marshalling.encode(body)))
        #expect(try WireMessage(reading: bytes).values.description == body.description)  // NaN: as text
    }

    /// A valid message changed one way each, refused by both, with what is wrong in the words of the refusal.
    @Test func bytesLibdbusRefusesAreRefusedSayingWhy() throws {
        let good = try Marshalling.encode([.vardict(["on": .boolean(true), "name": .string("abc"), "at": .objectPath("/a")])])
        let body = good.count - Self.bodyLength(good)
        func changed(_ change: (inout [UInt8]) -> Void) -> [UInt8] {
            var bytes = good
            change(&bytes)
            return bytes
        }
        let booleanAt = try #require(Self.offset(of: [1, 0, 0, 0], in: good, from: body))
        let cases: [(bytes: [UInt8], reason: String)] = [
            (Array(good.prefix(40)), "cut short"),
            (changed { $0[0] = UInt8(ascii: "x") }, "byte order"),
            (changed { $0[3] = 2 }, "protocol version is 2"),
            (changed { $0[8...11] = [0, 0, 0, 0] }, "serial is 0"),
            (changed { $0[booleanAt] = 2 }, "a boolean is 2"),
            (changed { $0[Self.offset(of: Array("abc".utf8), in: good, from: body)!] = 0xFF }, "not UTF-8"),
            (changed { $0[Self.offset(of: Array("abc".utf8), in: good, from: body)! + 1] = 0 }, "NUL"),
            (changed { $0[Self.offset(of: Array("/a".utf8), in: good, from: body)! + 1] = UInt8(ascii: "/") }, "'//' is not an object path"),
            (changed { $0[body + 4] = 7 }, "padding is not zero"),  // between the array's length and its first entry
        ]
        for (bytes, reason) in cases {
            #expect(throws: (any Error).self, "libdbus accepts what should be refused for \(reason)") { try Marshalling.decode(bytes) }
            do {
                _ = try WireMessage(reading: bytes)
                Issue.record("read bytes refused for \(reason)")
            } catch {
                #expect(error.description.contains(reason), "\(error)")
            }
        }
        // Stricter than libdbus, which reads the first message and leaves a second that is not yet whole.
        #expect(try Marshalling.decode(good + [0]).description == Marshalling.decode(good).description)
        #expect { try WireMessage(reading: good + [0]) } throws: {
            "\($0)" == "not a D-Bus message: 1 byte(s) follow the message"
        }
    }

    /// Values nested past 64 through variants (each one as deep as a signature may say) are refused by both;
    /// 64 are read by both. (traitd's writer does not write 65: its bytes are made here.)
    @Test func valuesNestedPast64AreRefused() throws {
        func variants(_ depth: Int) throws -> [UInt8] {
            let one = try WireMessage.signal(path: "/t", interface: "a.b", member: "M", [.variant(.byte(1))])
            let header = Array(one.prefix(one.count - Self.bodyLength(one)))
            let body = Array([[1, UInt8(ascii: "v"), 0]].repeated(depth - 1).joined()) + [1, UInt8(ascii: "y"), 0, 1]
            var bytes = header + body
            bytes[4...7] = [UInt8(body.count & 0xFF), UInt8(body.count >> 8), 0, 0]
            return bytes
        }
        let deepest = try variants(64)
        #expect(try WireMessage(reading: deepest).values.description == (try Marshalling.decode(deepest)).description)
        let deep = try variants(65)
        #expect(throws: (any Error).self) { try Marshalling.decode(deep) }
        #expect { try WireMessage(reading: deep) } throws: { "\($0)".contains("nested more than 64 deep") }
    }

    /// The names a header holds are judged as libdbus judges them (`Validation` asks libdbus).
    @Test func namesAreJudgedAsLibdbusJudgesThem() {
        let names = ["", "/", "//", "/a", "/a/", "/a//b", "/a_1/B2", "a", "a.b", "a..b", ".a.b", "a.b.", "1a.b", "a.1b", "_a._b",
                     "a-b.c", ":1.42", ":", ":a", ":.a", ":a.", "-a.b", "org.freedesktop.DBus", String(repeating: "a.", count: 127) + "ab",
                     String(repeating: "a", count: 255), String(repeating: "a", count: 256), "käse.x", "a b", "Member", "1member", "m_1"]
        for name in names {
            #expect(NameRules.isValidObjectPath(name) == Validation.isValidObjectPath(name), "'\(name)' as a path")
            #expect(NameRules.isValidInterfaceName(name) == Validation.isValidInterfaceName(name), "'\(name)' as an interface")
            #expect(NameRules.isValidMemberName(name) == Validation.isValidMemberName(name), "'\(name)' as a member")
            #expect(NameRules.isValidErrorName(name) == Validation.isValidErrorName(name), "'\(name)' as an error name")
            #expect(NameRules.isValidBusName(name) == Validation.isValidBusName(name), "'\(name)' as a bus name")
        }
    }

    /// The body's length, bytes 4-7 (little-endian: what traitd and libdbus on this machine write).
    static func bodyLength(_ bytes: [UInt8]) -> Int { bytes[4..<8].reversed().reduce(0) { $0 << 8 | Int($1) } }

    static func offset(of needle: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
        (start...(bytes.count - needle.count)).first { Array(bytes[$0..<$0 + needle.count]) == needle }
    }
}

extension Array {
    fileprivate func repeated(_ count: Int) -> [Element] { (0..<count).flatMap { _ in self } }
}
