import DBus
import Foundation
import TestSupport
import TraitClient
import Testing

/// Whatever a client hands traitd to publish, every message traitd then sends is one the bus accepts: values
/// too deep or too large are refused by name before they are stored, and a state file holding one never stops
/// traitd from starting.
@Suite struct LimitTests {
    /// `{'k': <{'k': <... 'leaf' ...>}>}`, `levels` dictionaries deep (3 containers each), in GVariant text.
    static func nestedText(_ levels: Int) -> String {
        String(repeating: "{'k': <", count: levels) + "'leaf'" + String(repeating: ">}", count: levels)
    }

    /// The reads that wrap a window's values deepest, each of which must still answer.
    static func readEverything(_ fixture: DaemonFixture) async throws {
        let client = try TraitClient(bus: .address(fixture.bus.address))
        defer { client.close() }
        _ = try await client.state()
        _ = try await fixture.probe.call(destination: "org.traitd.Layout1", path: "/org/traitd/Layout1",
                                         interface: "org.freedesktop.DBus.ObjectManager", member: "GetManagedObjects")
        for app in ["mail", "notes"] {
            _ = try await fixture.probe.call(destination: "org.traitd.Layout1", path: TraitClient.windowPath(app),
                                             interface: "org.freedesktop.DBus.Properties", member: "GetAll",
                                             [.string("org.traitd.Layout1.Window")])
        }
    }

    @Test func aRestorationStateTooDeepIsRefusedAndTheDaemonStaysOnTheBus() async throws {
        let fixture = try await DaemonFixture()
        let before = try await fixture.busctl(["get-property", "org.traitd.Layout1", "/org/traitd/Layout1",
                                         "org.traitd.Layout1.Display", "Serial"])
        // 17 dictionaries (51 containers): what ended traitd before; gdbus is an independent implementation.
        for levels in [11, 17, 21] {
            let result = try await fixture.gdbus("call", ["--dest", "org.traitd.Layout1", "--object-path", "/org/traitd/Layout1/window/mail",
                                                    "--method", "org.traitd.Layout1.Window.SetRestorationState", Self.nestedText(levels)])
            #expect(result.status != 0)
            #expect(result.stderr.contains("org.traitd.Layout1.Error.LimitExceeded") && result.stderr.contains("limits.value-depth"),
                    "\(result.stderr)")
        }
        // 10 dictionaries (30 containers, within 32) is accepted, and every read that wraps it still answers.
        let client = try TraitClient(bus: .address(fixture.bus.address))
        defer { client.close() }
        try await client.setRestorationState(["k": DBusValue.nested(9)], for: "mail")
        try await Self.readEverything(fixture)
        #expect(try await client.restorationState(of: "mail") == ["k": DBusValue.nested(9)])
        // A restart brings it back, and traitd stays up.
        try await fixture.restart()
        try await Self.readEverything(fixture)
        #expect(try await client.restorationState(of: "mail") == ["k": DBusValue.nested(9)])
        #expect(fixture.daemon.isRunning)
        let after = try await fixture.busctl(["get-property", "org.traitd.Layout1", "/org/traitd/Layout1",
                                        "org.traitd.Layout1.Display", "Serial"])
        #expect(before.stdout == after.stdout, "a refused call must not change Serial")
    }

    @Test func extrasTooDeepAreRefusedAndReportsThatTogetherWouldBeTooLargeAreRefused() async throws {
        let fixture = try await DaemonFixture(config: """
            limits:
              report-bytes: 8192
              window-bytes: 20000
              total-bytes: 25000
            """)
        let recorder = try await Recorder(fixture)
        let adapters = try (0..<5).map { _ in try TraitClient(bus: .address(fixture.bus.address)) }
        defer { adapters.forEach { $0.close() } }
        for (n, adapter) in adapters.enumerated() { try await adapter.registerAdapter("a\(n)", for: n < 3 ? "mail" : "notes") }
        // Too deep: refused, nothing stored.
        try await expectError("org.traitd.Layout1.Error.LimitExceeded", containing: "limits.value-depth") {
            try await adapters[0].reportLayout(app: "mail", transition: 0, adapter: "a0", frames: [:], extras: ["deep": DBusValue.nested(12)])
        }
        // One report past report-bytes.
        try await expectError("org.traitd.Layout1.Error.LimitExceeded", containing: "limits.report-bytes") {
            try await adapters[0].reportLayout(app: "mail", transition: 0, adapter: "a0", frames: [:],
                                               extras: ["blob": .string(String(repeating: "x", count: 9000))])
        }
        // Each within report-bytes, but three of them past window-bytes.
        let big: [String: DBusValue] = ["blob": .string(String(repeating: "y", count: 7000))]
        try await adapters[0].reportLayout(app: "mail", transition: 0, adapter: "a0", frames: [:], extras: big)
        try await adapters[1].reportLayout(app: "mail", transition: 0, adapter: "a1", frames: [:], extras: big)
        try await expectError("org.traitd.Layout1.Error.LimitExceeded", containing: "limits.window-bytes") {
            try await adapters[2].reportLayout(app: "mail", transition: 0, adapter: "a2", frames: [:], extras: big)
        }
        // The other window: within its own window-bytes, but past total-bytes.
        try await adapters[3].reportLayout(app: "notes", transition: 0, adapter: "a3", frames: [:], extras: big)
        try await expectError("org.traitd.Layout1.Error.LimitExceeded", containing: "limits.total-bytes") {
            try await adapters[4].reportLayout(app: "notes", transition: 0, adapter: "a4", frames: [:], extras: big)
        }
        // A smaller report in place of a large one is fine: the budget counts each adapter's latest report.
        try await adapters[0].reportLayout(app: "mail", transition: 0, adapter: "a0", frames: ["x": [0, 0, 1, 1]])
        try await adapters[2].reportLayout(app: "mail", transition: 0, adapter: "a2", frames: [:], extras: big)
        try await Self.readEverything(fixture)
        let layouts = try await recorder.layouts(of: "mail")
        #expect(Set(layouts.extras.keys) == ["a0", "a1", "a2"])
        // An adapter that leaves takes its report's bytes with it: a0's large report fits again beside a2's.
        adapters[1].close()
        try await recorder.until("a1's report gone") { (try? await recorder.layouts(of: "mail").extras["a1"]) == nil }
        try await adapters[0].reportLayout(app: "mail", transition: 0, adapter: "a0", frames: [:], extras: big)
        #expect(fixture.daemon.isRunning)
    }

    @Test func aStateFileWithAStateTooDeepToPublishIsSetAsideAndTheRestRestored() async throws {
        let fixture = try await DaemonFixture()
        let client = try TraitClient(bus: .address(fixture.bus.address))
        defer { client.close() }
        try await client.setRestorationState(["tab": .string("drafts")], for: "notes")
        try await client.rotate(to: .portrait)
        fixture.daemon.kill(SIGTERM)
        _ = await fixture.daemon.wait(timeout: 30)
        // Poison the saved file: mail's state 19 dictionaries deep (57 containers, which libdbus still reads,
        // but which no message of traitd's could carry).
        let file = fixture.stateDirectory.appendingPathComponent("state.json")
        var json = try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as! [String: Any]
        var restoration = json["restoration"] as! [String: Any]
        restoration["mail"] = Data(try Marshalling.encode([.vardict(["k": DBusValue.nested(18)])])).base64EncodedString()
        json["restoration"] = restoration
        try JSONSerialization.data(withJSONObject: json).write(to: file)
        for _ in 0..<2 {
            try await fixture.restart()
            try await Self.readEverything(fixture)
        }
        let log = fixture.daemon.standardError
        let snapshot = try await client.state()
        #expect(snapshot.orientation == "portrait", "the rest of the state is restored")
        #expect(try await client.restorationState(of: "notes") == ["tab": .string("drafts")])
        #expect(try await client.restorationState(of: "mail").isEmpty)
        // The first restart set the file aside and said what it dropped; the second found a clean file.
        let folder = try FileManager.default.contentsOfDirectory(atPath: fixture.stateDirectory.path)
        #expect(folder.contains { $0.hasPrefix("state.json.corrupt-") }, "\(folder)")
        #expect(log.contains("restored the state saved in"), "\(log)")
    }

    @Test func theFirstRestartNamesWhatItDropped() async throws {
        let fixture = try await DaemonFixture()
        let client = try TraitClient(bus: .address(fixture.bus.address))
        defer { client.close() }
        try await client.setRestorationState(["tab": .string("drafts")], for: "notes")  // on disk when it returns
        fixture.daemon.kill(SIGTERM)
        _ = await fixture.daemon.wait(timeout: 30)
        let file = fixture.stateDirectory.appendingPathComponent("state.json")
        var json = try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as! [String: Any]
        json["restoration"] = ["mail": Data(try Marshalling.encode([.vardict(["k": DBusValue.nested(18)])])).base64EncodedString()]
        try JSONSerialization.data(withJSONObject: json).write(to: file)
        try await fixture.restart()
        try await Self.readEverything(fixture)
        let log = fixture.daemon.standardError
        #expect(log.contains("dropped them: mail (the restoration state nests 57 containers deep; at most 32 are allowed (limits.value-depth))"),
                "\(log)")
    }
}
