import DBus
import Foundation
import TestSupport
import TraitClient
import Testing

/// `examples/sidebar_adapter.py`: an out-of-process adapter on an independent D-Bus library (dbus-python).
@Suite struct PythonAdapterTests {
    /// Debian's python3-dbus installs for the system Python; `make deps` installs it.
    static let python = "/usr/bin/python3"
    static var script: String { Binaries.repository.appendingPathComponent("examples/sidebar_adapter.py").path }

    @Test func theExampleAdapterRegistersLaysOutAndReports() async throws {
        let check = try ChildProcess.run(Self.python, ["-c", "import dbus, dbus.mainloop.glib; from gi.repository import GLib"])
        try #require(check.status == 0, "python3-dbus and python3-gi are needed (make deps installs them): \(check.stderr)")
        let fixture = try await DaemonFixture(config: "transitions:\n  deadline-ms: 3000\n")
        let recorder = try await Recorder(fixture)
        let adapter = try ChildProcess(Self.python, [Self.script, "--app", "mail", "--bus", fixture.bus.address])
        // It registers, then lays out the window as it is now (transition 0): 694 wide, so a 208.2 pt sidebar.
        try await recorder.wait("the adapter's first layout") { _ in adapter.standardOutput.contains("reported transition 0") }
        #expect(adapter.standardOutput.contains("registered python-sidebar for mail"))
        var mail = try #require(try await recorder.client.state().window("mail"))
        #expect(mail.adapters == ["python-sidebar"])
        #expect(mail.layouts == ["python-sidebar": ["sidebar": [0, 0, 208.2, 768], "content": [208.2, 0, 485.8, 768]]])
        // A rotation: 438 wide, too narrow for a sidebar. The transition completes as soon as it reports.
        let start = Date()
        let rotate = try fixture.dbusSend("Rotate", ["string:portrait"])
        #expect(rotate.status == 0)
        let id = try #require(await waitForID(recorder, "mail"))
        let completion = try await recorder.completion(of: id)
        #expect(completion.reported == ["python-sidebar"] && completion.missed.isEmpty)
        #expect(Date().timeIntervalSince(start) < 2.5, "completed by the report, not the 3 s deadline")
        mail = try #require(try await recorder.client.state().window("mail"))
        #expect(mail.layouts == ["python-sidebar": ["content": [0, 0, 438, 1024]]])
        // SIGTERM: it exits 0, and its registration ends with its connection.
        adapter.kill(SIGTERM)
        #expect(adapter.wait(timeout: 10) == 0, "\(adapter.standardError)")
        try await recorder.wait("the registration to end") { _ in
            (try? fixture.dbusSend("ListAdapters").stdout.contains("python-sidebar")) == false
        }
    }
}
