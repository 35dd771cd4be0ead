import DBus
import Foundation
import TestSupport
import TraitClient
import Testing

/// The display-wide settings on a real bus: changed through SetTraits, Properties.Set (dbus-send, busctl,
/// gdbus) and traitctl; refused all or nothing; announced in UIKit's order, one `TraitDidChange` per trait for
/// clients that subscribe to some only; kept across restarts.
@Suite struct TraitSettingsTests {
    /// An appearance change alone: each window on screen gets WillTransitionToTraitCollection, the new values,
    /// TraitCollectionDidChange, one TraitDidChange, ViewWillLayoutSubviews and TransitionCompleted, and no
    /// ViewWillTransitionToSize; the display publishes Appearance with the new Serial.
    @Test func anAppearanceChangeIsATraitTransitionInUIKitsOrder() async throws {
        let fixture = try await DaemonFixture()
        let recorder = try await Recorder(fixture)
        let client = try TraitClient(bus: .address(fixture.bus.address))
        defer { client.close() }
        let started = try await client.setTraits([.appearance: "dark"])
        #expect(started.count == 2)
        let seen = try await recorder.wait("both transitions") { $0.filter { $0.member == "TransitionCompleted" }.count == 2 }
        for app in ["mail", "notes"] {
            #expect(seen.filter { $0.app == app }.map(\.member) == [
                "WillTransitionToTraitCollection", "PropertiesChanged", "TraitCollectionDidChange", "TraitDidChange",
                "ViewWillLayoutSubviews", "TransitionCompleted",
            ], "\(app)")
            let change = try #require(seen.first { $0.app == app && $0.member == "TraitDidChange" })
            guard case .traitDidChange(_, _, let trait, let value, let previous) = change else { continue }
            #expect(trait == "userInterfaceStyle" && value == .string("dark") && previous == .string("light"))
        }
        let display = try #require(seen.first { $0.app == nil && $0.member == "PropertiesChanged" })
        guard case .displayChanged(let changes) = display else { return }
        #expect(changes.names == ["Appearance", "Serial"])
        let state = try await client.state()
        #expect(state.traits[.appearance] == "dark")
        #expect(state.windows.allSatisfy { $0.traits.display.isDark })
    }

    /// A text size change also says the new category, as `UIContentSizeCategory.didChangeNotification`.
    @Test func aTextSizeChangeSaysTheNewCategory() async throws {
        let fixture = try await DaemonFixture()
        let recorder = try await Recorder(fixture)
        #expect(try await fixture.traitctl(["set", "content-size", "accessibility-large", "--wait"]).status == 0)
        let seen = try await recorder.wait("the text size change") { $0.filter { $0.member == "TransitionCompleted" }.count == 2 }
        let categories = seen.compactMap { event -> String? in
            if case .contentSizeCategoryDidChange(let app, _, let category) = event { return "\(app) \(category)" } else { return nil }
        }
        #expect(categories == ["mail accessibility-large", "notes accessibility-large"])
        // increment and decrement step through the twelve categories, as simctl's do.
        #expect(try await fixture.traitctl(["set", "content-size", "increment"]).status == 0)
        #expect(try await fixture.traitctl(["get", "content-size"]).stdout == "accessibility-extra-large\n")
        #expect(try await fixture.traitctl(["set", "content-size", "decrement"]).status == 0)
        #expect(try await fixture.traitctl(["set", "content-size"]).stdout == "accessibility-large\n", "no value: the current one")
    }

    /// Every setting through another D-Bus implementation: dbus-send and gdbus set the properties, busctl calls
    /// SetTraits; traitctl get reads each back.
    @Test func everySettingThroughDbusSendBusctlAndGdbus() async throws {
        let fixture = try await DaemonFixture()
        func set(_ property: String, _ value: String) async throws {
            let reply = try await fixture.dbusSend(
                "Set", ["string:org.traitd.Layout1.Display", "string:\(property)", value], interface: "org.freedesktop.DBus.Properties")
            #expect(reply.status == 0, "\(property): \(reply.stderr)")
        }
        try await set("Appearance", "variant:string:dark")
        try await set("ReduceMotion", "variant:boolean:true")
        let busctl = try await fixture.busctl(["call", "org.traitd.Layout1", "/org/traitd/Layout1", "org.traitd.Layout1.Display",
                                               "SetTraits", "a{sv}", "2", "LayoutDirection", "s", "right-to-left",
                                               "Contrast", "s", "high"])
        #expect(busctl.status == 0 && busctl.stdout.hasPrefix("at 2 "), "\(busctl)")
        let gdbus = try await fixture.gdbus("call", ["--dest", "org.traitd.Layout1", "--object-path", "/org/traitd/Layout1",
                                                     "--method", "org.freedesktop.DBus.Properties.Set", "org.traitd.Layout1.Display",
                                                     "LegibilityWeight", "<'bold'>"])
        #expect(gdbus.status == 0, "\(gdbus)")
        #expect(try await fixture.traitctl(["set", "content-size", "small"]).status == 0)
        var got: [String: String] = [:]
        for word in DisplayTrait.all.map(\.word) { got[word] = try await fixture.traitctl(["get", word]).stdout }
        #expect(got == ["appearance": "dark\n", "content-size": "small\n", "direction": "right-to-left\n",
                        "contrast": "high\n", "legibility": "bold\n", "reduce-motion": "on\n"])
        let status = try await fixture.traitctl(["status"])
        #expect(status.stdout.contains("appearance dark, content-size small, direction right-to-left, contrast high, legibility bold, reduce-motion on"))
        let traits = try await fixture.busctl(["get-property", "org.traitd.Layout1", "/org/traitd/Layout1/window/mail",
                                               "org.traitd.Layout1.Window", "Traits"])
        for entry in [#""userInterfaceStyle" s "dark""#, #""layoutDirection" s "right-to-left""#,
                      #""preferredContentSizeCategory" s "small""#, #""legibilityWeight" s "bold""#] {
            #expect(traits.stdout.contains(entry), "\(traits.stdout)")
        }
    }

    /// All or nothing: an unknown key, a value of the wrong type or an unknown value is refused with InvalidArgs
    /// naming the key and what it accepts, and nothing changes (not even the valid part of the call).
    @Test(arguments: [
        (["Appearance", "s", "dark", "Contrast", "s", "extreme"], "unknown Contrast 'extreme'; expected one of: normal, high"),
        (["Appearance", "s", "dark", "Sparkle", "s", "on"], "unknown setting 'Sparkle'; the settings are: Appearance, ContentSizeCategory, LayoutDirection, Contrast, LegibilityWeight, ReduceMotion"),
        (["Appearance", "s", "dark", "ReduceMotion", "s", "on"], "ReduceMotion must be 'b' (true or false), but it is 's'"),
        (["Appearance", "u", "1", "Contrast", "s", "high"], "Appearance must be 's' (light, dark), but it is 'u'"),
    ])
    func aRefusedCallChangesNothing(entries: [String], message: String) async throws {
        let fixture = try await DaemonFixture()
        let refused = try await fixture.busctl(["call", "org.traitd.Layout1", "/org/traitd/Layout1", "org.traitd.Layout1.Display",
                                                "SetTraits", "a{sv}", "2"] + entries)
        #expect(refused.status != 0 && refused.stderr.contains(message), "\(refused.stderr)")
        let badSet = try await fixture.dbusSend(
            "Set", ["string:org.traitd.Layout1.Display", "string:Appearance", "variant:string:purple"],
            interface: "org.freedesktop.DBus.Properties")
        #expect(badSet.stderr.contains("org.freedesktop.DBus.Error.InvalidArgs") && badSet.stderr.contains("unknown Appearance 'purple'"))
        let serial = try await fixture.busctl(["get-property", "org.traitd.Layout1", "/org/traitd/Layout1", "org.traitd.Layout1.Display", "Serial"])
        #expect(serial.stdout == "t 1\n")
        #expect(try await fixture.traitctl(["get", "appearance"]).stdout == "light\n")
    }

    /// `registerForTraitChanges` over the bus: a match rule on TraitDidChange's second argument. dbus-monitor,
    /// subscribed to userInterfaceStyle only, sees nothing of a contrast change and the appearance change after it.
    @Test func aClientSubscribedToOneTraitHearsOnlyThatOne() async throws {
        let fixture = try await DaemonFixture()
        let monitor = try ChildProcess("/usr/bin/dbus-monitor", [
            "--address", fixture.bus.address,
            "type='signal',interface='org.traitd.Layout1.Window',member='TraitDidChange',arg1='userInterfaceStyle'",
        ])
        defer { monitor.kill() }
        // dbus-monitor prints the NameAcquired (or NameLost) of its own monitor connection once it is listening.
        try await monitor.waitForOutput("member=NameLost")
        #expect(try await fixture.traitctl(["set", "contrast", "high", "--wait"]).status == 0)
        #expect(try await fixture.traitctl(["set", "appearance", "dark", "--wait"]).status == 0)
        try await monitor.waitForOutput(#"string "userInterfaceStyle""#, occurrences: 2)
        let output = monitor.standardOutput
        #expect(!output.contains("accessibilityContrast"), "\(output)")
        #expect(output.components(separatedBy: "member=TraitDidChange").count - 1 == 2, "one for each window: \(output)")
    }

    /// A state file written before the settings existed (kept as a fixture) loads whole: display, apps, the app
    /// in the background and the restoration state; the settings at their defaults. The settings saved after it
    /// survive a restart.
    @Test func aStateFileFromBeforeTheSettingsLoadsAndTheSettingsSurviveARestart() async throws {
        let fixture = try await DaemonFixture()
        try await fixture.restart(withStateFile: "format-1-2026-11-24-before-traits.json")
        #expect(!fixture.daemon.standardError.contains("cannot be loaded"), "\(fixture.daemon.standardError)")
        let client = try TraitClient(bus: .address(fixture.bus.address))
        defer { client.close() }
        var state = try await client.state()
        #expect(state.device == "ipad-pro-11" && state.orientation == .landscapeLeft && state.arrangement == .full)
        #expect(state.windows.map(\.app) == ["mail", "video"] && state.windows.map(\.role) == [.primary, .pip])
        #expect(state.backgroundApps == ["notes"])
        #expect(try await client.restorationState(of: "mail")
            == ["selection": .string("inbox/42"), "scroll": .int32(1200), "draft": .string("Dear Ann,")])
        #expect(state.traits == DisplayTraits())
        try await client.setTraits([.appearance: "dark", .reduceMotion: "on", .contentSize: "extra-large"])
        try await fixture.restart()
        state = try await client.state()
        #expect(state.traits[.appearance] == "dark" && state.traits.reducesMotion && state.traits.contentSize == .extraLarge)
        #expect(state.backgroundApps == ["notes"])
    }
}
