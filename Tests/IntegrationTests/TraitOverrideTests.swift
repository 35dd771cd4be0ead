import DBus
import Foundation
import TestSupport
import Testing
import TraitClient
import Vocabulary

/// Trait overrides and custom traits (`SetTraitOverrides`, UIKit's `UIWindowScene.traitOverrides` and
/// `UITraitDefinition`) through the real daemon: what the window's `Traits` say to another D-Bus implementation,
/// the trait transition's signals as `traitctl watch` prints them, what `explain` says, what is refused, and
/// what a restart keeps.
@Suite struct TraitOverrideTests {
    /// mail forced to dark while the display is light: its traits say dark (read with gdbus), notes' say light;
    /// the display turning dark changes nothing of mail's appearance and turns notes; a custom trait with its
    /// default is overridden in the same transition, its `TraitDidChange` after the system trait's.
    @Test func aWindowForcedToDarkWhileTheDisplayIsLight() async throws {
        let fixture = try await DaemonFixture()
        let adapter = try TraitClient(bus: .address(fixture.bus.address))
        defer { adapter.close() }
        try await adapter.registerAdapter("probe", for: "mail")
        try await adapter.setArrangement(.splitHalf)
        let watch = try await startTraitctlWatch(fixture, [])
        defer { watch.kill() }
        let started = try await adapter.setTraitOverrides(of: "mail", TraitOverrideRequest(
            system: [.display(.appearance): "dark"],
            custom: ["com.example.density": .init(defaultValue: .string("regular"), override: .string("compact"))]))
        let id = try #require(started.first)
        try await watch.waitForOutput("mail TransitionCompleted #\(id)")
        let lines = watch.standardOutput.split(separator: "\n").map { String($0.dropFirst(13)) }
            .filter { $0.hasPrefix("mail ") && $0.split(separator: " ").dropFirst(2).first == "#\(id)" }
        #expect(lines.map { $0.split(separator: " ")[1] } == ["WillTransitionToTraitCollection", "TraitCollectionDidChange", "TraitDidChange",
                                                             "TraitDidChange", "ViewWillLayoutSubviews", "TransitionCompleted"], "\(lines)")
        #expect(lines.contains("mail TraitDidChange #\(id) userInterfaceStyle=dark previous=light")
                && lines.contains("mail TraitDidChange #\(id) com.example.density=compact previous=regular"), "\(lines)")
        #expect(!watch.standardOutput.contains("notes TraitDidChange"), "\(watch.standardOutput)")

        // Another implementation reads the window's Traits: the override and the custom trait are there.
        let traits = try await fixture.gdbus("call", ["--dest", "org.traitd.Layout1", "--object-path", "/org/traitd/Layout1/window/mail",
                                                      "--method", "org.freedesktop.DBus.Properties.Get", "org.traitd.Layout1.Window", "Traits"])
        #expect(traits.stdout.contains("'userInterfaceStyle': <'dark'>") && traits.stdout.contains("'com.example.density': <'compact'>"), "\(traits)")
        #expect(try await fixture.traitctl(["get", "Appearance"]).stdout.contains("light"))
        let status = try await fixture.traitctl(["status"])
        #expect(status.stdout.contains("\ntraits of their own (overrides, custom traits):\n  mail: appearance dark, com.example.density compact\n"),
                "\(status.stdout)")
        // render draws mail dark (its primary tint in dark), notes light, the screen light.
        let svg = try await fixture.traitctl(["render", "--svg", "-"]).stdout
        #expect(svg.contains("fill=\"#1f2a44\"") && svg.contains("fill=\"#e9f7ef\"") && !svg.contains("fill=\"#e8f0fe\""), "\(svg.prefix(3000))")
        let explained = try await fixture.traitctl(["explain", "mail"])
        #expect(explained.stdout.contains("userInterfaceStyle dark (the app's override; the system's is light)")
                && explained.stdout.contains("com.example.density compact (the app's override of its custom trait; its default is regular)"),
                "\(explained.stdout)")

        // The display turns dark: notes hears it, mail (already dark by its override) does not.
        let before = watch.standardOutput.count
        let completions = watch.standardOutput.components(separatedBy: "notes TransitionCompleted").count - 1
        #expect(try await fixture.traitctl(["set", "appearance", "dark", "--wait"]).status == 0)
        try await watch.waitForOutput("notes TransitionCompleted", occurrences: completions + 1)
        let after = String(watch.standardOutput.dropFirst(before))
        #expect(after.contains("notes TraitDidChange") && after.contains("userInterfaceStyle=dark previous=light")
                && !after.contains("mail TraitDidChange"), "\(after)")
    }

    /// A custom trait named with its value alone has the zero of its type as default; dropping its override is a
    /// `TraitDidChange` back to that default, and the trait stays in `Traits`.
    @Test func aCustomTraitsOverrideComesAndGoes() async throws {
        let fixture = try await DaemonFixture()
        let adapter = try TraitClient(bus: .address(fixture.bus.address))
        defer { adapter.close() }
        try await adapter.registerAdapter("probe", for: "mail")
        let watch = try await startTraitctlWatch(fixture, [])
        defer { watch.kill() }
        let first = try #require(try await adapter.setTraitOverrides(of: "mail", TraitOverrideRequest(
            custom: ["com.example.compactToolbar": .init(override: .bool(true))])).first)
        try await watch.waitForOutput("mail TransitionCompleted #\(first)")
        let second = try #require(try await adapter.setTraitOverrides(of: "mail", TraitOverrideRequest()).first)
        try await watch.waitForOutput("mail TransitionCompleted #\(second)")
        let changes = watch.standardOutput.split(separator: "\n").map { String($0.dropFirst(13)) }.filter { $0.hasPrefix("mail TraitDidChange") }
        #expect(changes == ["mail TraitDidChange #\(first) com.example.compactToolbar=true previous=false",
                            "mail TraitDidChange #\(second) com.example.compactToolbar=false previous=true"], "\(watch.standardOutput)")
        let mail = try #require(try await adapter.state().windows.first { $0.app == "mail" })
        #expect(mail.traits.custom == ["com.example.compactToolbar": .bool(false)])
        // Nothing overridden again: no trait changes, so no transition.
        #expect(try await adapter.setTraitOverrides(of: "mail", TraitOverrideRequest()).isEmpty)
    }

    /// Mistakes are refused by name, saying what was expected, and change nothing; only the window's adapter's
    /// connection may override.
    @Test(arguments: [
        (["userInterfaceStyel": .string("dark")], "'userInterfaceStyel' is no system trait"),
        (["userInterfaceStyle": .string("purple")], "unknown userInterfaceStyle 'purple'; expected one of: light, dark"),
        (["userInterfaceStyle": .boolean(true)], "userInterfaceStyle must be 's' (light, dark), but it is 'b'"),
        (["displayScale": .string("2")], "displayScale must be 'd' (a number), but it is 's'"),
        (["displayScale": .double(7)], "displayScale is a number from 1 to 3; got '7'"),
        (["com.example.x": .array(element: "i", [.int32(1)])], "custom trait 'com.example.x' must be a boolean, an integer, a number or a string"),
        (["com.example.x": .vardict(["value": .boolean(true)])], "custom trait 'com.example.x': a{sv} gives its 'default'"),
        (["com.example.density": .boolean(true)],
         "custom trait 'com.example.density': its default is a string ('regular'), so its value must be one too; got a boolean"),
    ] as [([String: DBusValue], String)])
    func badOverridesAreRefusedAndChangeNothing(overrides: [String: DBusValue], message: String) async throws {
        let fixture = try await DaemonFixture()
        let adapter = try TraitClient(bus: .address(fixture.bus.address))
        defer { adapter.close() }
        try await adapter.registerAdapter("probe", for: "mail")
        try await adapter.setTraitOverrides(of: "mail", TraitOverrideRequest(custom: ["com.example.density": .init(defaultValue: .string("regular"))]))
        let before = try await adapter.state()
        // The adapter's own connection, the dictionary as given (not read by the client first).
        do {
            _ = try await adapter.connection.call(destination: "org.traitd.Layout1", path: "/org/traitd/Layout1/window/mail",
                                                  interface: "org.traitd.Layout1.Window", member: "SetTraitOverrides", [.vardict(overrides)])
            Issue.record("\(overrides) was accepted")
        } catch let error as DBusError {
            #expect(error.name == DBusError.invalidArgsName && error.message.contains(message), "\(error)")
        }
        // gdbus is not the adapter: AccessDenied.
        let other = try await fixture.gdbus("call", ["--dest", "org.traitd.Layout1", "--object-path", "/org/traitd/Layout1/window/mail",
                                                     "--method", "org.traitd.Layout1.Window.SetTraitOverrides", "{'userInterfaceStyle': <'dark'>}"])
        #expect(other.status != 0 && other.stderr.contains("AccessDenied")
                && other.stderr.contains("only a connection that registered an adapter for 'mail' may override its traits"), "\(other)")
        let after = try await adapter.state()
        #expect(after.serial == before.serial && after.windows == before.windows)
    }
}

extension TraitOverrideTests {
    /// An app's overrides are kept with its other declarations: across a restart, and from a state file of this
    /// release's format that holds them (the fixture a later release must still load).
    @Test func overridesAreKeptAcrossARestart() async throws {
        let fixture = try await DaemonFixture()
        let adapter = try TraitClient(bus: .address(fixture.bus.address))
        try await adapter.registerAdapter("probe", for: "mail")
        try await adapter.setTraitOverrides(of: "mail", TraitOverrideRequest(
            system: [.display(.appearance): "dark"], custom: ["com.example.level": .init(override: .integer(3))]))
        adapter.close()
        try await fixture.restart()
        let client = try TraitClient(bus: .address(fixture.bus.address))
        defer { client.close() }
        let mail = try #require(try await client.state().windows.first { $0.app == "mail" })
        #expect(mail.traits.display.isDark && mail.traits.custom == ["com.example.level": .integer(3)])
        #expect(try await client.state().traits.isDark == false)

        try await fixture.restart(withStateFile: "format-1-2026-11-28-trait-overrides.json")
        let again = try TraitClient(bus: .address(fixture.bus.address))
        defer { again.close() }
        #expect(!fixture.daemon.standardError.contains("cannot be loaded"), "\(fixture.daemon.standardError)")
        // The display is dark, mail forced light, its text extra large; its custom traits as the file says.
        let restored = try #require(try await again.state().windows.first { $0.app == "mail" })
        #expect(!restored.traits.display.isDark && restored.traits.display.contentSize == .extraLarge)
        #expect(restored.traits.custom == ["com.example.density": .string("compact"), "com.example.badges": .bool(false)])
    }
}
