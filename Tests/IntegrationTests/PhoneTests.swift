import DBus
import Foundation
import TestSupport
import TraitClient
import Testing

/// iPhones, safe areas and the half turn, on a private bus with the real daemon, driven by TraitClient,
/// dbus-send, busctl and gdbus.
@Suite struct PhoneTests {
    @Test func aPlusPhoneTurnsBothSizeClassesInOneTransition() async throws {
        let fixture = try await DaemonFixture()
        let recorder = try await Recorder(fixture)
        #expect(try await fixture.traitctl(["set", "device", "iphone-8-plus"]).status == 0)
        try await recorder.wait("the device change") { $0.contains { $0.member == "TransitionCompleted" && $0.app == "mail" } }
        for (orientation, classes) in [("portrait", ("compact", "regular")), ("landscape-right", ("regular", "compact"))] {
            try await recorder.clear()
            #expect(try await fixture.dbusSend("Rotate", ["string:\(orientation)"]).status == 0)
            let seen = try await recorder.wait("the rotation to \(orientation)") {
                $0.contains { $0.member == "TransitionCompleted" && $0.app == "mail" }
            }
            let mail = seen.filter { $0.app == "mail" }
            #expect(mail.map(\.member) == ["WillTransitionToTraitCollection", "ViewWillTransitionToSize", "PropertiesChanged",
                                           // UIKit's two size classes, and Android's two window size classes.
                                           "DidUpdateEffectiveGeometry", "TraitCollectionDidChange", "TraitDidChange", "TraitDidChange",
                                           "TraitDidChange", "TraitDidChange", "ViewSafeAreaInsetsDidChange", "ViewWillLayoutSubviews",
                                           "TransitionCompleted"])
            let will = try #require(mail.first?.traits)
            #expect(will.horizontalSizeClass.rawValue == classes.0 && will.verticalSizeClass.rawValue == classes.1)
            let did = try #require(mail.first { $0.member == "TraitCollectionDidChange" }?.traits)
            #expect(did.horizontalSizeClass.rawValue == classes.1 && did.verticalSizeClass.rawValue == classes.0,
                    "the previous traits: both classes were the other way round")
            // The status bar shows in portrait only: 20 pt at the top.
            let insets = mail.first { $0.member == "ViewSafeAreaInsetsDidChange" }?.insets?.values
            #expect(insets == (orientation == "portrait" ? [20, 0, 0, 0] : [0, 0, 0, 0]))
        }
        // The display says what the phone is.
        let scale = try await fixture.busctl(["get-property", "org.traitd.Layout1", "/org/traitd/Layout1",
                                        "org.traitd.Layout1.Display", "Scale"])
        #expect(scale.stdout == "d 3\n")
        let traits = try await fixture.gdbus("call", ["--dest", "org.traitd.Layout1", "--object-path", "/org/traitd/Layout1/window/mail",
                                                "--method", "org.freedesktop.DBus.Properties.Get", "org.traitd.Layout1.Window", "Traits"])
        #expect(traits.stdout.contains("'idiom': <'phone'>"))
    }

    @Test func anOrientationThePhoneDoesNotOfferIsRefusedAndChangesNothing() async throws {
        let fixture = try await DaemonFixture()
        #expect(try await fixture.traitctl(["set", "device", "iphone-x"]).status == 0)
        let before = try await fixture.traitctl(["status"]).stdout
        let serial = try await fixture.busctl(["get-property", "org.traitd.Layout1", "/org/traitd/Layout1", "org.traitd.Layout1.Display", "Serial"])
        let refused = try await fixture.dbusSend("Rotate", ["string:portrait-upside-down"])
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("Error org.traitd.Layout1.Error.NotOffered: iphone-x does not offer portrait-upside-down; "
                                        + "offered orientations: portrait, landscape-left, landscape-right"))
        let again = try await fixture.busctl(["get-property", "org.traitd.Layout1", "/org/traitd/Layout1", "org.traitd.Layout1.Display", "Serial"])
        let after = try await fixture.traitctl(["status"]).stdout
        #expect(again.stdout == serial.stdout && after == before)
        // A split is not offered either, and opening a second app beside the primary is refused.
        let split = try await fixture.dbusSend("SetArrangement", ["string:split-half"])
        #expect(split.stderr.contains("Error org.traitd.Layout1.Error.NotOffered: iphone-x does not offer split-half in "))
        let open = try await fixture.dbusSend("OpenApp", ["string:maps", "string:secondary"])
        #expect(open.stderr.contains("Error org.traitd.Layout1.Error.NotOffered: iphone-x shows one app at a time"))
        // Picture in Picture is allowed.
        #expect(try await fixture.dbusSend("OpenApp", ["string:video", "string:pip"]).status == 0)
    }

    @Test func aPhoneSendsTheSecondaryToTheBackgroundAndOpenAppBringsItBack() async throws {
        let fixture = try await DaemonFixture()
        let client = try TraitClient(bus: .address(fixture.bus.address))
        defer { client.close() }
        let recorder = try await Recorder(fixture)
        try await client.setRestorationState(["draft": .string("half a sentence")], for: "notes")
        try await client.setDevice("iphone-12")
        let seen = try await recorder.wait("notes leaving") { $0.contains { $0.member == "InterfacesRemoved" } }
        #expect(seen.filter { $0.app == "notes" && $0.member != "PropertiesChanged" }.map(\.member).prefix(2)
                    == ["WillResignActive", "DidEnterBackground"])
        var state = try await client.state()
        #expect(state.arrangement == "full" && state.windows.map(\.app) == ["mail"] && state.backgroundApps == ["notes"])
        #expect(state.window("mail")?.frame == [0, 0, 844, 390] && state.window("mail")?.safeAreaInsets == [0, 47, 21, 47])
        // Back on an iPad, notes waits in the background (no window object: its restoration state is kept, and
        // readable again once it opens) until it is opened again.
        try await client.setDevice("ipad-9.7")
        state = try await client.state()
        #expect(state.windows.map(\.app) == ["mail"] && state.backgroundApps == ["notes"])
        try await recorder.clear()
        _ = try await client.openApp("notes", role: .secondary)
        try await recorder.wait("notes returning") { $0.contains { $0.app == "notes" && $0.member == "DidBecomeActive" } }
        state = try await client.state()
        #expect(state.arrangement == "split-two-thirds" && state.backgroundApps.isEmpty)
        #expect(try await client.restorationState(of: "notes") == ["draft": .string("half a sentence")])
    }

    @Test func aHalfTurnWaitsForTheAdapters() async throws {
        // A deadline far beyond the adapter's delay: on a loaded machine the default 500 ms could pass first.
        let fixture = try await DaemonFixture(config: AdapterProtocolTests.longDeadline)
        let recorder = try await Recorder(fixture)
        let adapter = try await ScriptedAdapter(fixture, app: "mail", name: "slow", behaviour: .delayed(seconds: 0.3))
        defer { withExtendedLifetime(adapter) {} }
        #expect(try await fixture.traitctl(["set", "orientation", "landscape-right"]).status == 0)
        let seen = try await recorder.wait("the half turn") { $0.contains { $0.member == "TransitionCompleted" && $0.app == "mail" } }
        let size = try #require(seen.first { $0.app == "mail" && $0.member == "ViewWillTransitionToSize" })
        #expect(size.size == [694, 768], "the unchanged size")
        #expect(size.context?.orientation == .landscapeRight)
        #expect(!seen.contains { $0.member == "WillTransitionToTraitCollection" || $0.member == "TraitCollectionDidChange" })
        let id = try #require(size.transition)
        let completion = try await recorder.completion(of: id)
        #expect(completion.reported == ["slow"] && completion.missed.isEmpty, "completed when the adapter reported, not at once")
    }

    @Test func safeAreaInsetsArePublishedAndSignalledOnEveryChange() async throws {
        let fixture = try await DaemonFixture()
        let recorder = try await Recorder(fixture)
        let path = "/org/traitd/Layout1/window/mail"
        func insets() async throws -> String {
            try await fixture.busctl(["get-property", "org.traitd.Layout1", path, "org.traitd.Layout1.Window", "SafeAreaInsets"]).stdout
        }
        // ipad-9.7 split: the primary touches the top (status bar, 20) and the bottom (0).
        #expect(try await insets() == "(dddd) 20 0 0 0\n")
        // ipad-pro-11 (Face ID): status bar and home indicator.
        #expect(try await fixture.traitctl(["set", "device", "ipad-pro-11"]).status == 0)
        var seen = try await recorder.wait("the device change") { $0.contains { $0.member == "TransitionCompleted" && $0.app == "mail" } }
        #expect(seen.first { $0.app == "mail" && $0.member == "ViewSafeAreaInsetsDidChange" }?.insets == [24, 0, 20, 0])
        #expect(try await insets() == "(dddd) 24 0 20 0\n")
        // The new insets arrive with the transition's context too.
        let context = seen.first { $0.app == "mail" && $0.member == "ViewWillTransitionToSize" }?.context
        #expect(context?.safeAreaInsets == [24, 0, 20, 0])
        // The phone in landscape: the sensor housing on both sides, the home indicator below.
        for (command, expected) in [(["set", "device", "iphone-xr"], [0.0, 44, 24, 44]), (["set", "orientation", "portrait"], [44, 0, 34, 0])] {
            try await recorder.clear()
            #expect(try await fixture.traitctl(command).status == 0)
            seen = try await recorder.wait("\(command)") { $0.contains { $0.member == "TransitionCompleted" && $0.app == "mail" } }
            let mail = seen.filter { $0.app == "mail" }.map(\.member)
            let signal = try #require(mail.firstIndex(of: "ViewSafeAreaInsetsDidChange"), "\(command): \(mail)")
            #expect(mail.firstIndex(of: "PropertiesChanged")! < signal && signal == mail.count - 3
                        && mail.suffix(2) == ["ViewWillLayoutSubviews", "TransitionCompleted"],
                    "after the properties hold the new insets, just before ViewWillLayoutSubviews: \(mail)")
            #expect(seen.first { $0.member == "ViewSafeAreaInsetsDidChange" }?.insets?.values == expected)
            let changed = seen.first { $0.app == "mail" && $0.member == "PropertiesChanged" }?.changes
            #expect(changed?[Layout1.Window.safeAreaInsets]?.values == expected)
        }
        // traitctl status shows them; gdbus's introspection has the property and the signal.
        #expect(try await fixture.traitctl(["status"]).stdout.contains("active  44, 0, 34, 0"))
        let xml = try await fixture.gdbus("introspect", ["--dest", "org.traitd.Layout1", "--object-path", path]).stdout
        #expect(xml.contains("readonly (dddd) SafeAreaInsets") && xml.contains("ViewSafeAreaInsetsDidChange(t transition,"))
    }
}
