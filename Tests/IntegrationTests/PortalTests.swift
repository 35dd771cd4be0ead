import DBus
import Foundation
import TestSupport
import TraitClient
import Testing

/// The desktop's settings both ways: `traitd --portal` serves org.freedesktop.portal.Settings from the
/// simulated settings (to gdbus, and to a real libadwaita app under Xvfb), and `traitd --follow-desktop`
/// follows another portal's settings.
@Suite struct PortalTests {
    static let portal = ["--dest", "org.freedesktop.portal.Desktop", "--object-path", "/org/freedesktop/portal/desktop"]

    @Test func thePortalServesTheSimulatedSettings() async throws {
        let fixture = try await DaemonFixture(arguments: ["--portal"])
        let all = try await fixture.gdbus("call", Self.portal + ["--method", "org.freedesktop.portal.Settings.ReadAll", "[]"])
        #expect(all.stdout == "({'org.freedesktop.appearance': {'color-scheme': <uint32 2>, 'contrast': <uint32 0>, 'reduced-motion': <uint32 0>}, 'org.gnome.desktop.a11y.interface': {'high-contrast': <false>}, 'org.gnome.desktop.interface': {'text-scaling-factor': <1.0>}},)\n", "\(all)")
        let some = try await fixture.gdbus("call", Self.portal + ["--method", "org.freedesktop.portal.Settings.ReadAll", "['org.gnome.*']"])
        #expect(some.stdout.contains("org.gnome.desktop.interface") && !some.stdout.contains("org.freedesktop.appearance"))
        let version = try await fixture.busctl(["get-property", "org.freedesktop.portal.Desktop", "/org/freedesktop/portal/desktop",
                                                "org.freedesktop.portal.Settings", "version"])
        #expect(version.stdout == "u 2\n")
        // SettingChanged for what a change moves, in the portal's words.
        let monitor = try ChildProcess("/usr/bin/dbus-monitor", [
            "--address", fixture.bus.address, "type='signal',interface='org.freedesktop.portal.Settings',member='SettingChanged'",
        ])
        defer { monitor.kill() }
        try await monitor.waitForOutput("member=NameLost")
        #expect(try await fixture.traitctl(["set", "appearance", "dark"]).status == 0)
        #expect(try await fixture.traitctl(["set", "content-size", "accessibility-large"]).status == 0)
        try await monitor.waitForOutput("member=SettingChanged", occurrences: 2)
        #expect(monitor.standardOutput.contains(#"string "color-scheme""#) && monitor.standardOutput.contains("uint32 1"))
        let one = try await fixture.gdbus("call", Self.portal + ["--method", "org.freedesktop.portal.Settings.ReadOne",
                                                                  "org.gnome.desktop.interface", "text-scaling-factor"])
        #expect(one.stdout == "(<1.9411764705882353>,)\n", "33 / 17: \(one)")
        let old = try await fixture.gdbus("call", Self.portal + ["--method", "org.freedesktop.portal.Settings.Read",
                                                                  "org.freedesktop.appearance", "color-scheme"])
        #expect(old.stdout == "(<<uint32 1>>,)\n", "Read wraps the value twice, as version 1 did")
        let missing = try await fixture.gdbus("call", Self.portal + ["--method", "org.freedesktop.portal.Settings.ReadOne",
                                                                      "org.freedesktop.appearance", "accent-color"])
        #expect(missing.status != 0 && missing.stderr.contains("org.freedesktop.portal.Error.NotFound"))
    }

    /// `org.traitd.Layout1` is what says traitd is ready (systemd's `Type=dbus`, traitctl, the tests' fixture),
    /// so with `--portal` the portal's name is taken before it: a client that saw traitd's name finds the portal
    /// served. The other way round, the first test above sometimes called the portal before its name was taken
    /// ("not provided by any .service files"). Seen on the bus itself: dbus-monitor's `NameOwnerChanged` order.
    @Test func thePortalsNameIsTakenBeforeTraitdsOwn() async throws {
        let bus = try await PrivateBus()
        let monitor = try ChildProcess("/usr/bin/dbus-monitor", [
            "--address", bus.address, "type='signal',interface='org.freedesktop.DBus',member='NameOwnerChanged'",
        ])
        defer { monitor.kill() }
        try await monitor.waitForOutput("member=NameLost")
        let daemon = try ChildProcess(Binaries.path("traitd"), ["--bus", bus.address, "--no-state", "--portal"],
                                      environment: bus.environment)
        defer { daemon.kill() }
        try await monitor.waitForOutput(#"string "org.traitd.Layout1""#)
        let output = monitor.standardOutput
        let portal = output.range(of: #"string "org.freedesktop.portal.Desktop""#)
        let traitd = output.range(of: #"string "org.traitd.Layout1""#)!
        #expect(portal != nil && portal!.lowerBound < traitd.lowerBound, "\(output)")
    }

    /// Never by default: a traitd without --portal does not take the name, and one with it refuses to start when
    /// another connection (xdg-desktop-portal, on a real session) owns it.
    @Test func thePortalIsServedOnlyWhenAskedAndFree() async throws {
        let plain = try await DaemonFixture()
        #expect(try await plain.probe.nameOwner("org.freedesktop.portal.Desktop")?.isEmpty ?? true)
        let bus = try await PrivateBus()
        let owner = try Connection(bus: .address(bus.address))
        defer { owner.close() }
        #expect(try await owner.requestName("org.freedesktop.portal.Desktop") == .primaryOwner)
        let refused = try await ChildProcess.run(Binaries.path("traitd"), ["--bus", bus.address, "--no-state", "--portal"],
                                                 environment: bus.environment)
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("--portal: org.freedesktop.portal.Desktop is already owned by \(owner.uniqueName)"),
                "\(refused.stderr)")
    }

    /// `--follow-desktop`: a second traitd, on a bus of its own, follows the first one's portal: its settings at
    /// start, then each change, logged.
    @Test func aFollowerFollowsTheDesktopsSettings() async throws {
        let desktop = try await DaemonFixture(arguments: ["--portal"])
        #expect(try await desktop.traitctl(["set", "contrast", "high"]).status == 0)
        let follower = try await DaemonFixture(arguments: ["--follow-desktop", "--desktop-bus", desktop.bus.address])
        try await follower.daemon.waitForOutput("followed the desktop (settings at start)", in: .errors)
        #expect(try await follower.traitctl(["get", "contrast"]).stdout == "high\n")
        let recorder = try await Recorder(follower)
        #expect(try await desktop.traitctl(["set", "appearance", "dark"]).status == 0)
        try await recorder.wait("the follower's appearance change") { events in
            events.contains { if case .displayChanged(let c) = $0 { c.names.contains("Appearance") } else { false } }
        }
        #expect(try await follower.traitctl(["get", "appearance"]).stdout == "dark\n")
        #expect(try await desktop.traitctl(["set", "content-size", "extra-extra-large"]).status == 0)
        try await follower.daemon.waitForOutput("followed the desktop (org.gnome.desktop.interface text-scaling-factor changed): content-size extra-extra-large", in: .errors)
        #expect(follower.daemon.standardError.contains("followed the desktop (org.freedesktop.appearance color-scheme changed): appearance dark"))
    }

    static let screenshots = Binaries.repository.appendingPathComponent(".build/adwaita-screenshots")

    /// A real libadwaita app (examples/adwaita/style_probe.py, PyGObject) under Xvfb, on a bus where traitd
    /// serves the portal: its AdwStyleManager reports dark and high contrast as traitctl sets them, and its
    /// window turns dark (the mean luminance of its screenshot).
    @Test func aLibadwaitaAppFollowsTheSimulatedAppearance() async throws {
        let screen = try await GtkClientTests.VirtualScreen()
        let fixture = try await DaemonFixture(arguments: ["--portal"])
        try? FileManager.default.removeItem(at: Self.screenshots)
        var environment = fixture.bus.environment
        environment["DISPLAY"] = screen.display
        environment["GDK_BACKEND"] = "x11"
        environment["GSK_RENDERER"] = "cairo"
        environment["NO_AT_BRIDGE"] = "1"
        let app = try ChildProcess("/usr/bin/python3", [
            Binaries.repository.appendingPathComponent("examples/adwaita/style_probe.py").path, "--screenshots", Self.screenshots.path,
        ], environment: environment)
        defer { app.kill(SIGTERM) }
        func line(_ n: Int) async throws -> String {
            try await app.waitForOutput("style ", occurrences: n, timeout: 60)
            return app.standardOutput.split(separator: "\n").filter { $0.hasPrefix("style ") }[n - 1].description
        }
        func luminance(_ line: String) -> Int? {
            line.split(separator: " ").first { $0.hasPrefix("luminance=") }.flatMap { Int($0.dropFirst(10)) }
        }
        let light = try await line(1)
        #expect(light.hasPrefix("style dark=false high-contrast=false"), "\(light)")
        #expect((luminance(light) ?? 0) > 180, "\(light)")
        #expect(try await fixture.traitctl(["set", "appearance", "dark"]).status == 0)
        let dark = try await line(2)
        #expect(dark.hasPrefix("style dark=true high-contrast=false"), "\(dark)")
        #expect((luminance(dark) ?? 255) < 80, "\(dark)")
        #expect(try await fixture.traitctl(["set", "contrast", "high"]).status == 0)
        let contrast = try await line(3)
        #expect(contrast.hasPrefix("style dark=true high-contrast=true"), "\(contrast)")
    }
}
