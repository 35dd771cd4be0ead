import DBus
import Foundation
import TestSupport
import TraitClient
import Testing

/// `examples/sidebar_adapter.py`: an out-of-process adapter in Python on the traitd package's `Adapter`, over an
/// independent D-Bus library (dbus-fast).
@Suite struct PythonAdapterTests {
    /// Debian's python3-dbus-fast installs for the system Python; `make test`'s set-up installs it.
    static let python = "/usr/bin/python3"
    static var script: String { Binaries.repository.appendingPathComponent("examples/sidebar_adapter.py").path }

    static func requirePythonDBus() async throws {
        let check = try await ChildProcess.run(python, ["-c", "import dbus_fast"])
        try #require(check.status == 0, "python3-dbus-fast is needed (make test's set-up installs it): \(check.stderr)")
    }

    @Test func theExampleAdapterRegistersLaysOutAndReports() async throws {
        try await Self.requirePythonDBus()
        // A deadline far past the test's own wait: a completion at all means the report caused it.
        let fixture = try await DaemonFixture(config: "transitions:\n  deadline-ms: 60000\n")
        let recorder = try await Recorder(fixture)
        let adapter = try ChildProcess(Self.python, [Self.script, "--app", "mail", "--bus", fixture.bus.address])
        // It registers, then lays out the window as it is now (transition 0): 694 wide, so a 208.2 pt sidebar.
        try await adapter.waitForOutput("reported transition 0")
        #expect(adapter.standardOutput.contains("registered python-sidebar for mail"))
        var mail = try #require(try await recorder.client.state().window("mail"))
        #expect(mail.adapters == ["python-sidebar"])
        #expect(mail.layouts == ["python-sidebar": ["sidebar": [0, 0, 208.2, 768], "content": [208.2, 0, 485.8, 768]]])
        // A rotation: 438 wide, too narrow for a sidebar. The transition completes as soon as it reports.
        let rotate = try await fixture.dbusSend("Rotate", ["string:portrait"])
        #expect(rotate.status == 0)
        let id = try #require(await waitForID(recorder, "mail"))
        let completion = try await recorder.completion(of: id)
        #expect(completion.reported == ["python-sidebar"] && completion.missed.isEmpty)
        mail = try #require(try await recorder.client.state().window("mail"))
        #expect(mail.layouts == ["python-sidebar": ["content": [0, 0, 438, 1024]]])
        // A live resize in Stage Manager (from 438 to 600 wide: a sidebar from 500): the Python adapter follows the
        // steps it is given, and the last one's layout is the size the user let go at.
        try await recorder.client.setWindowing(.stageManager)
        let resize = try await fixture.traitctl(["resize", "mail", "600", "900", "--live", "10", "--wait"])
        #expect(resize.status == 0, "\(resize)")
        let last = try #require(Recorder.transitionIDs(of: "mail", in: recorder.all).last)
        #expect(try await recorder.completion(of: last).reported == ["python-sidebar"])
        mail = try #require(try await recorder.client.state().window("mail"))
        #expect(mail.layouts == ["python-sidebar": ["sidebar": [0, 0, 180, 900], "content": [180, 0, 420, 900]]])
        // SIGTERM: it exits 0, and its registration ends with its connection.
        adapter.kill(SIGTERM)
        #expect(await adapter.wait(timeout: 30) == 0, "\(adapter.standardError)")
        try await recorder.until("the registration to end") {
            await recorder.isRegistered("python-sidebar") == false
        }
    }

    @Test func theExampleAdapterComesBackAfterTraitdRestartsAndIgnoresForgedSignals() async throws {
        try await Self.requirePythonDBus()
        let fixture = try await DaemonFixture(config: "transitions:\n  deadline-ms: 3000\n")
        let adapter = try ChildProcess(Self.python, [Self.script, "--app", "mail", "--bus", fixture.bus.address])
        defer { adapter.kill(SIGTERM) }
        let client = try TraitClient(bus: .address(fixture.bus.address))
        defer { client.close() }
        func registrations() async -> [AdapterRegistration] { (try? await client.listAdapters()) ?? [] }
        // It says so once RegisterAdapter has been answered.
        try await adapter.waitForOutput("registered python-sidebar")
        #expect(await registrations().count == 1)
        // A crash and a clean stop: each time a new traitd, a new unique name, and the adapter registers again.
        for signal in [SIGKILL, SIGTERM] {
            let before = adapter.standardOutput.components(separatedBy: "registered python-sidebar").count
            try await fixture.restart(after: signal)
            try await adapter.waitForOutput("registered python-sidebar", occurrences: before)
            #expect(await registrations().count == 1, "registered with the new traitd")
        }
        #expect(!adapter.standardError.contains("ServiceUnknown"), "\(adapter.standardError)")
        // It reports for the new daemon's transitions.
        try await client.rotate(to: .portrait)
        try await adapter.waitForOutput("438x1024")
        // A signal sent straight to it by another peer is not acted on.
        let name = try #require(await registrations().first?.owner)
        let forged = try await fixture.gdbus("emit", [
            "--object-path", TraitClient.windowPath("mail"), "--dest", name,
            "--signal", "org.traitd.Layout1.Window.ViewWillTransitionToSize", "uint64 77", "999.0", "111.0", "@a{sv} {}",
        ])
        #expect(forged.status == 0, "\(forged)")
        let reports = adapter.standardOutput.components(separatedBy: "reported transition").count
        try await client.rotate(to: .landscapeLeft)
        try await adapter.waitForOutput("reported transition", occurrences: reports)
        #expect(!adapter.standardOutput.contains("999x111"), "\(adapter.standardOutput)")
    }

}
