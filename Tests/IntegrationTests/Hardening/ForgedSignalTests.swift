import DBus
import Foundation
import TestSupport
import TraitClient
import Testing

/// Any peer can send a signal straight to a connection, whatever its match rules say. traitd, the adapter host
/// and the client library act only on signals from the bus (`NameOwnerChanged`) or from the current owner of
/// `org.traitd.Layout1` (transitions). Each forged signal here is sent by dbus-send or gdbus, as an attacker on
/// the session bus would, and nothing may change.
@Suite struct ForgedSignalTests {
    /// A forged `NameOwnerChanged` saying `name` left the bus, sent to `destination` with dbus-send.
    static func forgeNameLeft(_ fixture: DaemonFixture, name: String, to destination: String, newOwner: String = "") async throws {
        let result = try await fixture.run("dbus-send", [
            "--session", "--type=signal", "--dest=\(destination)", "/org/freedesktop/DBus",
            "org.freedesktop.DBus.NameOwnerChanged", "string:\(name)", "string:\(name)", "string:\(newOwner)",
        ])
        #expect(result.status == 0, "\(result)")
    }

    @Test func traitdIgnoresANameOwnerChangedThatDoesNotComeFromTheBus() async throws {
        let fixture = try await DaemonFixture()
        let adapter = try TraitClient(bus: .address(fixture.bus.address))
        let thief = try TraitClient(bus: .address(fixture.bus.address))
        defer { adapter.close(); thief.close() }
        try await adapter.registerAdapter("sidebar", for: "mail")
        let traitd = try #require(try await fixture.probe.nameOwner("org.traitd.Layout1"))
        // "The adapter's connection has left": a lie, sent straight to traitd.
        try await Self.forgeNameLeft(fixture, name: adapter.connection.uniqueName, to: traitd)
        _ = try await adapter.listAdapters()  // a round trip through traitd, after the forged signal
        #expect(try await adapter.listAdapters() == [.init(app: "mail", adapter: "sidebar", owner: adapter.connection.uniqueName)])
        try await expectError("org.traitd.Layout1.Error.AdapterExists", containing: "already registered") {
            try await thief.registerAdapter("sidebar", for: "mail")
        }
        // The real departure still ends the registration: the window says so (its Adapters change).
        let recorder = try await Recorder(fixture)
        adapter.close()
        _ = try await recorder.wait("mail's adapters to go") { events in
            events.contains { if case .windowChanged("mail", let changes) = $0 { changes[Layout1.Window.adapters] == [] } else { false } }
        }
        #expect(try await thief.listAdapters().isEmpty)
    }

    @Test func theAdapterHostIgnoresForgedTransitionsAndForgedOwnerChanges() async throws {
        let fixture = try await DaemonFixture(config: "transitions:\n  deadline-ms: 5000\n")
        let recorder = try await Recorder(fixture)
        let host = try HostProcess(fixture)
        try await recorder.until("the host's registrations") {
            (try? await recorder.client.listAdapters().count) == 6
        }
        try await recorder.until("mail's first layouts") {
            (try? await recorder.layouts(of: "mail").frames["support-panel"]) != nil
        }
        let hostName = try #require(try await recorder.client.listAdapters().first?.owner)
        let before = try await recorder.layouts(of: "mail")
        // A window size that never existed, sent straight to the host as if from traitd (transition 0, which
        // traitd accepts from a registered adapter at any time).
        let forged = try await fixture.gdbus("emit", [
            "--object-path", TraitClient.windowPath("mail"), "--dest", hostName,
            "--signal", "org.traitd.Layout1.Window.ViewWillTransitionToSize",
            "uint64 0", "123.0", "456.0", "{'reason': <'rotation'>, 'orientation': <'portrait'>, 'duration': <0.3>}",
        ])
        #expect(forged.status == 0, "\(forged)")
        // "traitd left the bus" and "traitd is now :1.999", both forged.
        try await Self.forgeNameLeft(fixture, name: "org.traitd.Layout1", to: hostName)
        try await Self.forgeNameLeft(fixture, name: "org.traitd.Layout1", to: hostName, newOwner: ":1.999")
        // The host still follows the real daemon: a real transition gets every adapter's report. Its reports for
        // it come after it read the forged signals (its connection keeps their order), so the checks below,
        // after them, see whatever the forgeries did.
        let completion = try await recorder.transition(of: "mail", "SetArrangement(split-half)") {
            try await recorder.client.setArrangement(.splitHalf)
        }
        #expect(!host.log.contains("123x456"), "\(host.log)")
        #expect(!host.log.contains("traitd left the bus"), "\(host.log)")
        #expect(try await recorder.layouts(of: "mail").frames != before.frames, "the real size's report, not a forged one's")
        #expect(completion.reported == AdapterHostTests.mailAdapters && completion.missed.isEmpty, "\(completion)")
    }

    @Test func theClientLibraryDeliversOnlyTheDaemonsSignals() async throws {
        let fixture = try await DaemonFixture()
        let recorder = try await Recorder(fixture)
        let name = recorder.client.connection.uniqueName
        for member in ["ViewWillTransitionToSize", "TransitionCompleted"] {
            let arguments = member == "TransitionCompleted"
                ? ["uint64 77", "['x']", "@as []", "@as []"] : ["uint64 77", "1.0", "2.0", "@a{sv} {}"]
            let forged = try await fixture.gdbus("emit", [
                "--object-path", TraitClient.windowPath("mail"), "--dest", name,
                "--signal", "org.traitd.Layout1.Window.\(member)",
            ] + arguments)
            #expect(forged.status == 0, "\(forged)")
        }
        // A real signal after them, through the same connection: when it arrives, the forged ones would have.
        try await recorder.client.rotate(to: .portrait)
        try await recorder.wait("the rotation's completion") { $0.contains { $0.member == "TransitionCompleted" } }
        #expect(!recorder.all.contains { $0.transition == 77 }, "\(recorder.all)")
    }
}
