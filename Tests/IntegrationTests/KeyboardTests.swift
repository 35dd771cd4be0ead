import DBus
import Foundation
import TestSupport
import TraitClient
import Testing

/// The software keyboard (`SetKeyboard`): its notifications to every visible window of the device's screen, in
/// order and with the reference's heights, through busctl; what a device does not offer; a layout file whose
/// bottom bar rides the `keyboard` guide in each mode; a rotation that re-announces it; and a restart that keeps it.
@Suite(.serialized) struct KeyboardTests {
    static let display = ["org.traitd.Layout1", "/org/traitd/Layout1", "org.traitd.Layout1.Display"]

    /// The keyboard's notices of `app` in `events`, as `KIND begin end [local]` lines.
    func notices(of app: String, in events: [TraitEvent]) -> [String] {
        events.compactMap { event in
            guard case .keyboard(app, _, let n) = event else { return nil }
            return "\(n.kind.rawValue) \(n.begin.values) \(n.end.values)\(n.local ? " local" : "")"
        }
    }

    /// A 9.7" iPad in landscape, mail 2/3 beside notes: docked 398 pt (348 keys + 50 bar), the notices in order
    /// to both windows, local in mail's (the primary) only; floating is a hide; the display's properties follow.
    @Test func aDockedKeyboardIsAnnouncedToEveryVisibleWindow() async throws {
        let fixture = try await DaemonFixture()
        let recorder = try await Recorder(fixture)
        let call = try await fixture.busctl(["call"] + Self.display + ["SetKeyboard", "s", "docked"])
        #expect(call.status == 0 && call.stdout == "at 2 1 2\n", "\(call)")
        let events = try await recorder.wait("both windows' KeyboardDidShow") { events in
            events.filter { if case .keyboard(_, _, let n) = $0 { n.kind == .didShow } else { false } }.count == 2
        }
        let docked = "[0.0, 768.0, 1024.0, 398.0] [0.0, 370.0, 1024.0, 398.0]"
        #expect(notices(of: "mail", in: events) == [
            "KeyboardWillChangeFrame \(docked) local", "KeyboardWillShow \(docked) local",
            "KeyboardDidChangeFrame \(docked) local", "KeyboardDidShow \(docked) local",
        ])
        #expect(notices(of: "notes", in: events) == [
            "KeyboardWillChangeFrame \(docked)", "KeyboardWillShow \(docked)", "KeyboardDidChangeFrame \(docked)", "KeyboardDidShow \(docked)",
        ])
        // The Will notices before the window lays out, the Did ones after.
        let mail = events.filter { $0.app == "mail" }.map(\.member)
        #expect(mail.firstIndex(of: "KeyboardWillShow")! < mail.firstIndex(of: "ViewWillLayoutSubviews")!
                && mail.firstIndex(of: "ViewWillLayoutSubviews")! < mail.firstIndex(of: "KeyboardDidShow")!, "\(mail)")
        let properties = try await fixture.busctl(["get-property", "org.traitd.Layout1", "/org/traitd/Layout1",
                                                   "org.traitd.Layout1.Display", "Keyboard", "KeyboardFrame"])
        #expect(properties.stdout == "s \"docked\"\n(dddd) 0 370 1024 398\n", "\(properties)")
        // Floating: apps are told it hid; the frame is the 320 x 260 keyboard near the bottom.
        try await recorder.clear()
        #expect(try await fixture.traitctl(["set", "keyboard", "floating", "--wait"]).status == 0)
        let floating = notices(of: "mail", in: recorder.all)
        #expect(floating.first == "KeyboardWillChangeFrame [0.0, 370.0, 1024.0, 398.0] [352.0, 488.0, 320.0, 260.0] local", "\(floating)")
        #expect(floating.map { $0.split(separator: " ")[0] } == ["KeyboardWillChangeFrame", "KeyboardWillHide", "KeyboardDidChangeFrame", "KeyboardDidHide"])
        let status = try await fixture.traitctl(["status"])
        #expect(status.stdout.contains("; keyboard floating at 352, 488, 320 x 260\n"), "\(status.stdout)")
    }

    /// What a device lacks is refused, naming what it offers, and changes nothing: no split keyboard on the 11"
    /// iPad Pro, no floating one on a phone. An iPhone in landscape docks its 209-pt keyboard (172 + 37).
    @Test func devicesOfferTheirOwnKeyboards() async throws {
        let fixture = try await DaemonFixture()
        #expect(try await fixture.traitctl(["set", "device", "ipad-pro-11", "--wait"]).status == 0)
        let split = try await fixture.busctl(["call"] + Self.display + ["SetKeyboard", "s", "split"])
        #expect(split.status != 0 && split.stderr.contains("ipad-pro-11 does not offer a split keyboard; offered: hidden, docked, undocked, floating, hardware"), "\(split)")
        let unknown = try await fixture.busctl(["call"] + Self.display + ["SetKeyboard", "s", "sideways"])
        #expect(unknown.status != 0 && unknown.stderr.contains("unknown keyboard mode 'sideways'"), "\(unknown)")
        #expect(try await fixture.traitctl(["set", "device", "iphone-15", "--wait"]).status == 0)
        #expect(try await fixture.traitctl(["set", "orientation", "landscape-left", "--wait"]).status == 0)
        let floating = try await fixture.traitctl(["set", "keyboard", "floating"])
        #expect(floating.status == 1 && floating.stderr.contains("org.traitd.Layout1.Error.NotOffered: iphone-15 does not offer a floating keyboard"), "\(floating)")
        #expect(try await fixture.traitctl(["set", "keyboard", "docked", "--wait"]).status == 0)
        let json = try await fixture.traitctl(["status", "--json"])
        #expect(json.stdout.contains(#""keyboard" : "docked""#) && json.stdout.contains(#""keyboardFrame" : ["#), "\(json.stdout)")
        let state = try TraitClient(bus: .address(fixture.bus.address))
        defer { state.close() }
        #expect(try await state.state().keyboardFrame == Rect(x: 0, y: 184, width: 852, height: 209))
    }

    /// A layout file's bottom bar on `keyboard.top`, and the same with `keyboard follows-undocked`, in mail's
    /// 694 x 768 window: hidden and undocked, the safe area's bottom; docked, the keyboard's top; floating only
    /// the follower moves; the hardware keyboard's 55-pt shortcut bar.
    @Test func aBottomBarRidesTheKeyboardGuide() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("traitd-keyboard-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let bar = "view bar\nbar.left == super.left\nbar.right == super.right\nbar.height == 44\nbar.bottom == keyboard.top\n"
        try ("app mail\n" + bar).write(to: folder.appendingPathComponent("docked.layout"), atomically: true, encoding: .utf8)
        try ("app mail\nkeyboard follows-undocked\n" + bar).write(to: folder.appendingPathComponent("follows.layout"), atomically: true, encoding: .utf8)
        try ("app notes\nview send\nkind control send\nsend.right == super.right\nsend.width == 60\nsend.height == 44\nsend.bottom == super.bottom\n")
            .write(to: folder.appendingPathComponent("pinned.layout"), atomically: true, encoding: .utf8)
        let fixture = try await DaemonFixture(config: "transitions:\n  deadline-ms: 60000\n")
        let recorder = try await Recorder(fixture)
        let host = try HostProcess(fixture, ["--only-layouts", "--layouts", folder.path])
        try await recorder.until("both files' first layouts") {
            let frames = try? await recorder.layouts(of: "mail").frames
            return frames?["docked.layout"] != nil && frames?["follows.layout"] != nil
        }
        func bars() async throws -> [Double] {
            let frames = try await recorder.layouts(of: "mail").frames
            return [frames["docked.layout"]?["bar"]?[1] ?? -1, frames["follows.layout"]?["bar"]?[1] ?? -1]
        }
        #expect(try await bars() == [724, 724])  // hidden: the bottom (no bottom inset on a home-button iPad)
        for (mode, expected) in [("docked", [326.0, 326]), ("floating", [724, 444]), ("undocked", [724, 206]),
                                 ("hardware", [669, 669]), ("hidden", [724, 724])] {
            let done = try await recorder.transition(of: "mail", mode) {
                _ = try await recorder.client.setKeyboard(Layout1.Display.setKeyboard.input([.string(mode)]))
            }
            #expect(done.reported == ["docked.layout", "follows.layout"], "\(mode): \(done)")
            #expect(try await bars() == expected, "\(mode)")
            // notes' send button, pinned to the window's bottom: under a docked keyboard, a layout problem; the
            // bars that ride the guide never are.
            let state = try await recorder.client.state()
            #expect(state.window("mail")?.layoutProblems.isEmpty == true, "\(mode)")
            let under = state.window("notes")?.layoutProblems.filter { $0.rule == .underKeyboard }.map(\.element) ?? []
            #expect(under == (["docked", "hardware"].contains(mode) ? ["send"] : []), "\(mode): \(under)")
        }
        withExtendedLifetime(host) {}
    }

    /// Docked, then a rotation: the rotation's transition re-announces the keyboard with its portrait frame
    /// (313 = 263 + 50); the keyboard is kept across a restart (the state file), and a file of this release's
    /// format with a docked keyboard loads.
    @Test func aRotationReannouncesItAndARestartKeepsIt() async throws {
        let fixture = try await DaemonFixture()
        let recorder = try await Recorder(fixture)
        #expect(try await fixture.traitctl(["set", "keyboard", "docked", "--wait"]).status == 0)
        try await recorder.clear()
        #expect(try await fixture.traitctl(["set", "orientation", "portrait", "--wait"]).status == 0)
        let rotation = recorder.all.filter { $0.app == "mail" }.map(\.member)
        #expect(rotation.contains("ViewWillTransitionToSize") && rotation.contains("KeyboardWillShow"), "\(rotation)")
        #expect(notices(of: "mail", in: recorder.all).first == "KeyboardWillChangeFrame [0.0, 370.0, 1024.0, 398.0] [0.0, 711.0, 768.0, 313.0] local")
        try await fixture.restart()
        let client = try TraitClient(bus: .address(fixture.bus.address))
        defer { client.close() }
        var state = try await client.state()
        #expect(state.keyboard == .docked && state.keyboardFrame == Rect(x: 0, y: 711, width: 768, height: 313))
        try await fixture.restart(withStateFile: "format-1-2026-11-26-keyboard-and-declarations.json")
        let again = try TraitClient(bus: .address(fixture.bus.address))
        defer { again.close() }
        state = try await again.state()
        #expect(!fixture.daemon.standardError.contains("cannot be loaded"), "\(fixture.daemon.standardError)")
        // An iPhone 15 in portrait with a hardware keyboard: the 55-pt shortcut bar above the 34-pt home indicator;
        // mail's declarations kept.
        #expect(state.device == "iphone-15" && state.keyboard == .hardware && state.keyboardFrame == Rect(x: 0, y: 763, width: 393, height: 89))
        #expect(state.window("mail")?.supportedOrientations == [.portrait])
        #expect(state.window("mail")?.sizeRestrictions == SizeRestrictions(minimum: Size(width: 320, height: 480), maximum: Size(width: 1024, height: 1366)))
    }
}
