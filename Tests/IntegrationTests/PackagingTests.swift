import Foundation
import DBus
import TestSupport
import Testing

/// The files under Config/dbus-1 and systemd/, exercised on real buses.
@Suite struct PackagingTests {
    /// The essentials of Debian's system.conf default policy: deny by default, allow the bus itself.
    static let systemPolicy = """
        <policy context="default">
          <allow user="*"/>
          <deny own="*"/>
          <deny send_type="method_call"/>
          <allow send_type="signal"/>
          <allow send_requested_reply="true" send_type="method_return"/>
          <allow send_requested_reply="true" send_type="error"/>
          <allow receive_type="method_call"/>
          <allow receive_type="method_return"/>
          <allow receive_type="error"/>
          <allow receive_type="signal"/>
          <allow send_destination="org.freedesktop.DBus" send_interface="org.freedesktop.DBus"/>
          <allow send_destination="org.freedesktop.DBus" send_interface="org.freedesktop.DBus.Introspectable"/>
        </policy>
        """

    static var policyFile: String { Binaries.repository.appendingPathComponent("Config/dbus-1/org.traitd.Layout1.conf").path }

    /// Runs `arguments` as user nobody.
    func asNobody(_ bus: PrivateBus, _ arguments: [String]) async throws -> (status: Int32, stdout: String, stderr: String) {
        try await ChildProcess.run("setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups"] + arguments,
                             environment: bus.environment)
    }

    @Test(.enabled(if: getuid() == 0, "switching to user nobody needs root"))
    func systemBusPolicyLetsAnyoneReadButOnlyRootChange() async throws {
        let bus = try await PrivateBus(type: "system", policy: Self.systemPolicy, extra: "<include>\(Self.policyFile)</include>")
        let daemon = try ChildProcess(Binaries.path("traitd"), ["--bus", bus.address], environment: bus.environment)
        defer { daemon.kill() }
        let send = ["dbus-send", "--bus=\(bus.address)", "--print-reply", "--dest=org.traitd.Layout1", "/org/traitd/Layout1"]
        let probe = try Connection(bus: .address(bus.address))
        defer { probe.close() }
        try await waitForOwner(of: "org.traitd.Layout1", on: probe, process: daemon) { $0 != nil }
        // Anyone reads.
        for call in [["org.traitd.Layout1.Display.GetState"], ["org.traitd.Layout1.Display.ListDevices"],
                     ["org.traitd.Layout1.Display.ListAdapters"],
                     ["org.traitd.Layout1.Display.GetRestorationState", "string:mail"],
                     ["org.freedesktop.DBus.Properties.Get", "string:org.traitd.Layout1.Display", "string:Serial"],
                     ["org.freedesktop.DBus.Introspectable.Introspect"]] {
            let result = try await asNobody(bus, send + call)
            #expect(result.status == 0, "nobody may call \(call[0]): \(result.stderr)")
        }
        // Nobody changes.
        for call in [["org.traitd.Layout1.Display.Rotate", "string:portrait"], ["org.traitd.Layout1.Display.BeginDividerDrag"],
                     ["org.traitd.Layout1.Display.RegisterAdapter", "string:mail", "string:spy"]] {
            let result = try await asNobody(bus, send + call)
            #expect(result.status != 0 && result.stderr.contains("org.freedesktop.DBus.Error.AccessDenied"), "\(call[0])")
        }
        // Root does.
        #expect(try await ChildProcess.run(send[0], Array(send.dropFirst()) + ["org.traitd.Layout1.Display.Rotate", "string:portrait"]).status == 0)
        // Nobody may not own the name.
        let second = try await asNobody(bus, [Binaries.path("traitd"), "--bus", bus.address])
        #expect(second.status == 1 && second.stderr.contains("org.freedesktop.DBus.Error.AccessDenied"), "\(second.stderr)")
    }

    @Test func sessionActivationStartsTheDaemon() async throws {
        let template = try String(contentsOf: Binaries.repository.appendingPathComponent("Config/dbus-1/org.traitd.Layout1.service"),
                                  encoding: .utf8)
        let bin = URL(fileURLWithPath: Binaries.path("traitd")).deletingLastPathComponent().path
        let bus = try await PrivateBus(extra: "<servicedir>{DIR}/services</servicedir>")
        let services = bus.folder.appendingPathComponent("services")
        try FileManager.default.createDirectory(at: services, withIntermediateDirectories: true)
        try template.replacingOccurrences(of: "@bindir@", with: bin)
            .write(to: services.appendingPathComponent("org.traitd.Layout1.service"), atomically: true, encoding: .utf8)
        _ = try await ChildProcess.run("dbus-send", ["--session", "--type=method_call", "--dest=org.freedesktop.DBus",
                                               "/org/freedesktop/DBus", "org.freedesktop.DBus.ReloadConfig"],
                                 environment: bus.environment)
        // Nothing owns the name; the first call starts traitd.
        let first = try await ChildProcess.run("dbus-send", ["--session", "--print-reply", "--dest=org.traitd.Layout1",
                                                       "/org/traitd/Layout1", "org.traitd.Layout1.Display.ListDevices"],
                                         environment: bus.environment)
        #expect(first.status == 0 && first.stdout.contains("ipad-9.7"), "\(first.stderr)")
        // Stop the activated daemon.
        let owner = try await ChildProcess.run("dbus-send", ["--session", "--print-reply", "--dest=org.freedesktop.DBus",
                                                       "/org/freedesktop/DBus", "org.freedesktop.DBus.GetConnectionUnixProcessID",
                                                       "string:org.traitd.Layout1"], environment: bus.environment)
        if let pid = owner.stdout.split(separator: " ").last.flatMap({ Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) }) {
            kill(pid, SIGTERM)
        }
    }
}
