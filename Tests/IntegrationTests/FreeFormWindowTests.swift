import DBus
import Foundation
import TestSupport
import TraitClient
import Testing

/// Free-form windows on a real bus: the windowing mode, frames, tiles, raising and live resizes through busctl,
/// gdbus, dbus-send and traitctl; the coalescing of live-resize steps behind an adapter that has not reported;
/// the stage's limit with its app-state signals; and the whole of it across a restart.
@Suite(.serialized) struct FreeFormWindowTests {
    /// A size-class change inside a live resize comes in UIKit's order; the window stays active throughout
    /// (iPadOS 26) and says it is resizing: InteractivelyResizing true before the first step, false after the
    /// last, and every step's context says so.
    @Test func aLiveResizeAcrossTheThresholdThroughTraitctl() async throws {
        let fixture = try await DaemonFixture()
        let recorder = try await Recorder(fixture)
        #expect(try await fixture.traitctl(["set", "windowing", "stage-manager", "--wait"]).status == 0)
        #expect(try await fixture.traitctl(["frame", "notes", "100", "50", "600", "500", "--wait"]).status == 0)
        try await recorder.clear()
        // 600 -> 700 in 4 steps of 25: 625, 650, 675 compact; 700 regular.
        let resize = try await fixture.traitctl(["resize", "notes", "700", "500", "--live", "4", "--wait"])
        #expect(resize.status == 0, "\(resize)")
        // InteractivelyResizing=false comes after the last step, before traitctl's EndResize reply.
        @Sendable func resizing(_ event: TraitEvent) -> Bool? {
            guard case .windowChanged("notes", let changes) = event else { return nil }
            return changes[Layout1.Window.interactivelyResizing]
        }
        let events = try await recorder.wait("the resize's end") { events in events.contains { resizing($0) == false } }
        let lines = events.filter { $0.app == "notes" }.compactMap { event -> String? in
            if let flag = resizing(event) { return "resizing \(flag)" }
            switch event {
            case .willResignActive: return "inactive"
            case .didBecomeActive: return "active"
            case .willTransitionToTraitCollection(_, _, let traits): return "will \(traits.horizontalSizeClass)"
            case .viewWillTransitionToSize(_, _, let size, let context):
                return "size \(Int(size.width)) \(context.reason) \(context.duration)\(context.interactivelyResizing ? " interactive" : "")"
            case .traitDidChange(_, _, let trait, let value, _): return "\(trait)=\(value.string ?? "")"
            default: return nil
            }
        }
        // BeginResize brings notes to the front: it looks active (a trait transition) as it starts resizing.
        #expect(lines == [
            "will compact", "resizing true", "activeAppearance=active", "size 625 resize 0.0 interactive", "size 650 resize 0.0 interactive", "size 675 resize 0.0 interactive",
            "will regular", "size 700 resize 0.0 interactive", "horizontalSizeClass=regular", "resizing false",
        ])
        #expect(try await recorder.client.property(Layout1.Window.state, of: "notes") == .active)
        #expect(try await recorder.client.property(Layout1.Window.frame, of: "notes") == [100, 50, 700, 500])
    }

    /// Steps that come while the window's transition waits for an adapter wait too; only the latest is applied,
    /// when that transition completes, in the transition every waiting step's reply named. An EndResize that
    /// comes while a step waits ends the resize once the step is applied, and never cuts the open transition
    /// short.
    @Test func stepsFasterThanTheAdaptersCoalesce() async throws {
        let fixture = try await DaemonFixture(config: "transitions: { deadline-ms: 60000 }\n")
        let recorder = try await Recorder(fixture)
        let adapter = try TraitClient(bus: .address(fixture.bus.address))
        defer { adapter.close() }
        try await adapter.registerAdapter("by-hand", for: "mail")
        let client = recorder.client
        try await client.setWindowing(.stageManager)
        try await client.setFrame([0, 0, 500, 500], of: "mail")
        let first = try await recorder.wait("the frame's transition") { events in events.contains { if case .viewWillLayoutSubviews("mail", _) = $0 { true } else { false } } }
        let open = try #require(Recorder.transitionIDs(of: "mail", in: first).last)
        try await adapter.reportLayout(app: "mail", transition: open, adapter: "by-hand", frames: [:], extras: [:])
        _ = try await recorder.completion(of: open)

        try await client.beginResize("mail")
        let step = try await client.resize("mail", to: [550, 500])
        #expect(step.count == 1, "the first step starts a transition")
        // The adapter has not reported: these wait, each replacing the last; each is told the transition that
        // will carry the latest.
        var waiting: [UInt64] = []
        for width in [600.0, 650, 720] { waiting += try await client.resize("mail", to: [width, 500]) }
        #expect(waiting.count == 3 && Set(waiting).count == 1 && waiting[0] > step[0], "\(waiting)")
        #expect(try await client.property(Layout1.Window.frame, of: "mail") == [0, 0, 550, 500])
        try await recorder.clear()
        try await adapter.reportLayout(app: "mail", transition: step[0], adapter: "by-hand", frames: [:], extras: [:])
        let after = try await recorder.wait("the waiting step, applied") { events in
            events.contains { if case .viewWillTransitionToSize("mail", _, _, _) = $0 { true } else { false } }
        }
        let sizes = after.compactMap { event -> Double? in
            if case .viewWillTransitionToSize("mail", _, let size, _) = event { size.width } else { nil }
        }
        #expect(sizes == [720], "only the latest step")
        #expect(Recorder.transitionIDs(of: "mail", in: after) == [waiting[0]], "in the transition the replies named")
        #expect(try await recorder.completion(of: step[0]).reported == ["by-hand"])
        #expect(try await client.property(Layout1.Window.frame, of: "mail") == [0, 0, 720, 500])
        // A step still waiting at EndResize: the end waits for it (the call too), and names its transition.
        let last = try await client.resize("mail", to: [800, 500])
        #expect(last.count == 1 && last[0] > waiting[0], "last step \(last)")
        // EndResize, then the report, on one connection: the daemon gets them in that order. (The reply goes to
        // the adapter's connection unread; traitctl's test below reads what EndResize names.)
        try adapter.connection.send(try Message.methodCall(
            destination: "org.traitd.Layout1", path: "/org/traitd/Layout1/window/mail",
            interface: "org.traitd.Layout1.Window", member: "EndResize"))
        #expect(try await adapter.property(Layout1.Window.frame, of: "mail") == [0, 0, 720, 500])
        #expect(try await adapter.property(Layout1.Window.interactivelyResizing, of: "mail") == true, "the end waits for the step")
        try await adapter.reportLayout(app: "mail", transition: waiting[0], adapter: "by-hand", frames: [:], extras: [:])
        #expect(try await recorder.completion(of: waiting[0]).reported == ["by-hand"], "not cut short by the end")
        _ = try await recorder.wait("the last step applied") { events in
            events.contains { if case .viewWillTransitionToSize("mail", last[0], _, _) = $0 { true } else { false } }
        }
        #expect(try await client.property(Layout1.Window.frame, of: "mail") == [0, 0, 800, 500])
        #expect(try await client.property(Layout1.Window.interactivelyResizing, of: "mail") == false)
        #expect(try await client.property(Layout1.Window.state, of: "mail") == .active)
        try await adapter.reportLayout(app: "mail", transition: last[0], adapter: "by-hand", frames: [:], extras: [:])
        #expect(try await recorder.completion(of: last[0]).reported == ["by-hand"])
    }

    /// A live resize through `traitctl resize --live --wait --strict` against an adapter slower than the steps
    /// (`test-adapter`, 40 ms a layout), 50 times: every transition the resize started is named to it, so the
    /// wait returns only after the last layout (before, the last waiting step began a transition no reply named,
    /// and the wait returned without it), and the adapter, which always reports within its deadline, is never
    /// counted missed (before, EndResize cut the open transition short).
    @Test func aLiveResizeWaitsForEveryLayoutAndMissesNoAdapter() async throws {
        let fixture = try await DaemonFixture(config: "transitions: { deadline-ms: 60000 }\n")
        let recorder = try await Recorder(fixture)
        #expect(try await fixture.traitctl(["set", "windowing", "stage-manager", "--wait"]).status == 0)
        let slow = try ChildProcess(Binaries.path("test-adapter"), [fixture.bus.address, "mail", "slow", "40"])
        defer { slow.kill(SIGKILL) }
        try await recorder.until("the slow adapter's registration") { await recorder.isRegistered("slow") }
        for run in 0..<50 {
            try await recorder.clear()
            let (width, height) = run.isMultiple(of: 2) ? ("700", "600") : ("420", "380")
            let resize = try await fixture.traitctl(["resize", "mail", width, height, "--live", "6", "--wait", "--strict"])
            try #require(resize.status == 0, "run \(run): \(resize)")
            // Everything the daemon sent before this reply has reached the recorder (one connection, in order).
            _ = try await recorder.client.state()
            let begun = Set(recorder.transitionIDs(of: "mail"))
            let waited = Set(StageAndWaitTests.waitedFor(resize.stdout))
            try #require(begun.isSubset(of: waited), "run \(run): transitions \(begun.subtracting(waited)) began but --wait did not wait for them:\n\(resize.stdout)")
            let completions = recorder.completions.filter { $0.app == "mail" }
            try #require(completions.allSatisfy { $0.missed.isEmpty && $0.reported == ["slow"] || $0.reported.isEmpty && $0.missed.isEmpty },
                         "run \(run): \(completions)")
        }
    }

    /// The independent implementations: busctl sets the mode and tiles, gdbus sets a frame, dbus-send raises;
    /// refusals are named and change nothing.
    @Test func otherImplementationsDriveWindowsAndRefusalsChangeNothing() async throws {
        let fixture = try await DaemonFixture()
        let display = ["org.traitd.Layout1", "/org/traitd/Layout1", "org.traitd.Layout1.Display"]
        let mail = ["org.traitd.Layout1", "/org/traitd/Layout1/window/mail", "org.traitd.Layout1.Window"]
        #expect(try await fixture.busctl(["call"] + display + ["SetWindowing", "s", "stage-manager"]).status == 0)
        let tile = try await fixture.busctl(["call"] + mail + ["Tile", "s", "left-half"])
        #expect(tile.status == 0 && tile.stdout.hasPrefix("at 1 "), "\(tile)")
        let gdbus = try await fixture.gdbus("call", ["--dest", "org.traitd.Layout1", "--object-path", "/org/traitd/Layout1/window/notes",
                                                     "--method", "org.traitd.Layout1.Window.SetFrame", "(517.0, 0.0, 507.0, 768.0)"])
        #expect(gdbus.status == 0, "\(gdbus)")
        let raise = try await fixture.dbusSend("Raise", [], path: "/org/traitd/Layout1/window/mail", interface: "org.traitd.Layout1.Window")
        #expect(raise.status == 0, "\(raise)")
        let stacking = try await fixture.busctl(["get-property"] + display + ["Stacking"])
        #expect(stacking.stdout == "ao 2 \"/org/traitd/Layout1/window/mail\" \"/org/traitd/Layout1/window/notes\"\n")
        let status = try await fixture.traitctl(["status"])
        #expect(status.stdout.contains("stage-manager") && status.stdout.contains("mail   window  0, 0, 507 x 768"), "\(status.stdout)")

        let serial = try await fixture.traitctl(["get", "Serial"]).stdout
        let refusals: [([String], String)] = [
            (["call"] + mail + ["SetFrame", "(dddd)", "0", "0", "100", "100"],
             "a window's size must be from 320 x 320 to the screen's 1024 x 768 pt; got 100 x 100"),
            (["call"] + mail + ["SetFrame", "(dddd)", "800", "0", "400", "400"],
             "a 400 x 400 window must lie inside the 1024 x 768 screen: x from 0 to 624, y from 0 to 368; got x 800, y 0"),
            (["call"] + mail + ["Tile", "s", "middle"],
             "unknown tile position 'middle'; expected one of: full, left-half, right-half, top-left, top-right, bottom-left, bottom-right"),
            (["call"] + mail + ["ResizeTo", "(dd)", "600", "600"], "window 'mail' is not being resized; no window is (start with its BeginResize)"),
            (["call"] + display + ["SetArrangement", "s", "split-half"], "arrangements are Split View's; the display is in stage-manager windowing: size windows with SetFrame, Tile or a live resize, or SetWindowing('split-view') first"),
            (["call"] + display + ["SetWindowing", "s", "floating"], "unknown windowing mode 'floating'; expected one of: split-view, stage-manager, windowed"),
        ]
        for (arguments, message) in refusals {
            let refused = try await fixture.busctl(arguments)
            #expect(refused.status != 0 && refused.stderr.contains(message), "\(arguments): \(refused.stderr)")
        }
        let named = try await fixture.dbusSend("SetFrame", ["string:x"], path: "/org/traitd/Layout1/window/mail", interface: "org.traitd.Layout1.Window")
        #expect(named.stderr.contains("org.freedesktop.DBus.Error.InvalidArgs"), "\(named.stderr)")
        let range = try await fixture.gdbus("call", ["--dest", "org.traitd.Layout1", "--object-path", "/org/traitd/Layout1/window/mail",
                                                     "--method", "org.traitd.Layout1.Window.SetFrame", "(0.0, 0.0, 10.0, 10.0)"])
        #expect(range.stderr.contains("org.traitd.Layout1.Error.OutOfRange"), "\(range.stderr)")
        #expect(try await fixture.traitctl(["get", "Serial"]).stdout == serial, "nothing changed")
    }

    /// A fifth window on the stage sends the one at the back to the background, with its app-state signals;
    /// frames, stacking and mode come back after a restart.
    @Test func theStageLimitAndARestart() async throws {
        let fixture = try await DaemonFixture()
        let recorder = try await Recorder(fixture)
        let client = recorder.client
        try await client.setWindowing(.stageManager)
        for app in ["maps", "music"] { try await client.openApp(app, role: .window) }
        for (app, tile) in [("mail", TilePosition.topLeft), ("notes", .topRight), ("maps", .bottomLeft), ("music", .bottomRight)] {
            try await client.tile(app, tile)
        }
        try await recorder.clear()
        try await client.openApp("photos", role: .window)
        let events = try await recorder.wait("notes to the background") { events in
            events.contains { if case .windowClosed("notes") = $0 { true } else { false } }
        }
        let notes = events.filter { $0.app == "notes" }.map(\.member)
        #expect(notes.prefix(2) == ["WillResignActive", "DidEnterBackground"], "\(notes)")
        var state = try await client.state()
        #expect(state.stacking == ["photos", "music", "maps", "mail"] && state.backgroundApps == ["notes"])

        try await fixture.restart()
        let after = try TraitClient(bus: .address(fixture.bus.address))
        defer { after.close() }
        state = try await after.state()
        #expect(state.windowing == .stageManager && state.stacking == ["photos", "music", "maps", "mail"])
        #expect(state.window("music")?.frame == [517, 389, 507, 379] && state.window("mail")?.frame == [0, 0, 507, 379])
        #expect(state.backgroundApps == ["notes"])
        // notes comes back where it was tiled, and the window at the back goes.
        try await after.openApp("notes", role: .window)
        state = try await after.state()
        #expect(state.window("notes")?.frame == [517, 0, 507, 379] && state.backgroundApps == ["mail"])
    }

    /// A state file written with free-form windows (kept as a fixture: this release's format) loads whole.
    @Test func aStateFileWithFreeFormWindowsLoads() async throws {
        let fixture = try await DaemonFixture()
        try await fixture.restart(withStateFile: "format-1-2026-11-25-free-form.json")
        #expect(!fixture.daemon.standardError.contains("cannot be loaded"), "\(fixture.daemon.standardError)")
        let client = try TraitClient(bus: .address(fixture.bus.address))
        defer { client.close() }
        let state = try await client.state()
        #expect(state.device == "ipad-pro-11-m4" && state.windowing == .stageManager && state.traits.isDark)
        #expect(state.stacking == ["maps", "mail", "notes"])
        #expect(state.window("maps")?.frame == [64, 64, 807, 626] && state.window("mail")?.frame == [0, 0, 600, 834])
        #expect(state.window("notes")?.frame == [700, 40, 400, 500] && state.window("mail")?.horizontalSizeClass == .compact)
        #expect(try await client.restorationState(of: "maps") == ["region": .string("alps"), "zoom": .int64(12)])
    }

    /// A state file written by traitd with four windows on a 13" iPad's stage and one on a 4K monitor (this
    /// release's format, kept as a fixture) loads whole: before, the load counted all five against one stage's
    /// limit and moved the file aside.
    @Test func aStateFileWithAMonitorLoads() async throws {
        let fixture = try await DaemonFixture()
        try await fixture.restart(withStateFile: "format-1-2026-11-26-stage-with-monitor.json")
        #expect(!fixture.daemon.standardError.contains("cannot be loaded"), "\(fixture.daemon.standardError)")
        let client = try TraitClient(bus: .address(fixture.bus.address))
        defer { client.close() }
        let state = try await client.state()
        #expect(state.device == "ipad-pro-13-m4" && state.windowing == .stageManager && state.traits.isDark)
        #expect(state.displays == ["external-1"] && state.window("photos")?.display == "external-1")
        #expect(state.stacking == ["books", "music", "maps", "photos", "mail"] && state.backgroundApps == ["notes"])
        #expect(state.window("maps")?.frame == [693, 0, 683, 1032])
        #expect(try await client.restorationState(of: "photos") == ["album": .string("summer")])
    }

    /// A 2560 x 1440 @2x monitor through busctl and traitctl: connected (its object and DisplayConnected), a
    /// window moved to it and back (transitions with reason display), kept across a restart, disconnected
    /// (DisplayDisconnected before its window comes back).
    @Test func aWindowMovesToASecondDisplayAndBack() async throws {
        let fixture = try await DaemonFixture()
        let recorder = try await Recorder(fixture)
        let display = ["org.traitd.Layout1", "/org/traitd/Layout1", "org.traitd.Layout1.Display"]
        #expect(try await fixture.traitctl(["set", "windowing", "stage-manager", "--wait"]).status == 0)
        let connect = try await fixture.busctl(["call"] + display + ["ConnectDisplay", "s", "external-1440p"])
        #expect(connect.stdout == "s \"external-1\"\n", "\(connect)")
        let size = try await fixture.busctl(["get-property", "org.traitd.Layout1", "/org/traitd/Layout1/display/external_2d1",
                                             "org.traitd.Layout1.ExternalDisplay", "ScreenSize", "Scale", "Profile"])
        #expect(size.stdout == "(dd) 1280 720\nd 2\ns \"external-1440p\"\n", "\(size)")
        _ = try await recorder.wait("DisplayConnected") { $0.contains { if case .displayConnected("external-1") = $0 { true } else { false } } }

        let moved = try await fixture.traitctl(["display", "move", "notes", "external-1", "--wait"])
        #expect(moved.status == 0, "\(moved)")
        var state = try await recorder.client.state()
        #expect(state.window("notes")?.display == "external-1" && state.window("notes")?.frame == [704, 0, 320, 720])
        #expect(state.window("notes")?.safeAreaInsets == [0, 0, 0, 0])
        let list = try await fixture.traitctl(["display", "list"])
        #expect(list.stdout == "device  ipad-9.7  1024 x 768 pt @2x  mail\nexternal-1  external-1440p  1280 x 720 pt @2x  notes\n", "\(list)")

        try await fixture.restart()
        let watch = try await Recorder(fixture)
        let after = watch.client
        state = try await after.state()
        #expect(state.displays == ["external-1"] && state.window("notes")?.display == "external-1")

        #expect(try await fixture.traitctl(["display", "disconnect", "external-1", "--wait"]).status == 0)
        let events = try await watch.wait("notes back on the device") { events in
            events.contains { if case .transitionCompleted("notes", _, _) = $0 { true } else { false } }
        }
        let order = events.compactMap { event -> String? in
            switch event {
            case .displayDisconnected(let id): return "disconnected \(id)"
            case .viewWillTransitionToSize("notes", _, _, let context): return "notes \(context.reason)"
            default: return nil
            }
        }
        #expect(order == ["disconnected external-1", "notes display"])
        state = try await after.state()
        #expect(state.displays.isEmpty && state.window("notes")?.display == "device" && state.window("notes")?.frame == [704, 0, 320, 720])
    }
}
