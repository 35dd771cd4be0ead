import Foundation
import TestSupport
import TraitClient
import Testing

/// tools/traitd-view under Xvfb, driven with xdotool as a person would: a mouse drag of the divider moves the
/// daemon's divider and ends in the split it was let go at, a key rotates the device, and each time the window
/// shows exactly the picture `traitctl render` makes of the same state (screenshots in .build/view-screenshots).
@Suite(.serialized) struct TraitdViewTests {
    static let screenshots = Binaries.repository.appendingPathComponent(".build/view-screenshots")

    /// The view on a virtual screen, its window found, with what drives it.
    struct Session {
        let screen: GtkClientTests.VirtualScreen
        let fixture: DaemonFixture
        let recorder: Recorder
        let view: ChildProcess
        let environment: [String: String]
        /// The view's X window, and where it is on the screen.
        let id: String
        let x: Int, y: Int

        init() async throws {
            screen = try await GtkClientTests.VirtualScreen()
            fixture = try await DaemonFixture()
            recorder = try await Recorder(fixture)
            var environment = fixture.bus.environment
            environment["DISPLAY"] = screen.display
            environment["GDK_BACKEND"] = "x11"
            environment["GSK_RENDERER"] = "cairo"
            environment["NO_AT_BRIDGE"] = "1"
            self.environment = environment
            view = try ChildProcess("/usr/bin/python3", [Binaries.repository.appendingPathComponent("tools/traitd-view").path,
                                                         "--traitctl", Binaries.path("traitctl")], environment: environment)
            // The iPad's landscape picture fits Xvfb's 1400 x 1400 screen: one pixel a point.
            try await view.waitForOutput("drawn serial 1 zoom 1\n")
            let found = try await Self.xdotool(["search", "--onlyvisible", "--name", "traitd-view"], environment)
            id = try #require(found.split(separator: "\n").first.map(String.init), "no traitd-view window on \(screen.display)")
            let geometry = try await Self.xdotool(["getwindowgeometry", "--shell", id], environment)
            let values = Dictionary(uniqueKeysWithValues: geometry.split(separator: "\n").compactMap { line -> (String, Int)? in
                let parts = line.split(separator: "=")
                return parts.count == 2 ? (String(parts[0]), Int(parts[1]) ?? 0) : nil
            })
            (x, y) = (values["X"] ?? 0, values["Y"] ?? 0)
        }

        @discardableResult
        func xdotool(_ arguments: [String]) async throws -> String { try await Self.xdotool(arguments, environment) }

        static func xdotool(_ arguments: [String], _ environment: [String: String]) async throws -> String {
            let run = try await ChildProcess.run("xdotool", arguments, environment: environment)
            #expect(run.status == 0, "xdotool \(arguments): \(run.stderr)")
            return run.stdout
        }

        /// The screen pixel of a point of a screen in the picture (render puts the device's screen at (36, 70)).
        func pixel(_ point: (Double, Double), screenAt origin: (Double, Double) = (36, 70), zoom: Double = 1) -> (Int, Int) {
            (x + Int(((origin.0 + point.0) * zoom).rounded()), y + Int(((origin.1 + point.1) * zoom).rounded()))
        }

        /// Presses at `from`, moves to `to` in five steps and lets go.
        func drag(from: (Int, Int), to: (Int, Int)) async throws {
            var moves = ["mousemove", "\(from.0)", "\(from.1)", "mousedown", "1"]
            for step in 1...5 {
                moves += ["mousemove", "\(from.0 + (to.0 - from.0) * step / 5)", "\(from.1 + (to.1 - from.1) * step / 5)"]
            }
            try await xdotool(moves + ["mouseup", "1"])
        }

        func stop() { view.kill(SIGTERM) }

        /// Waits until the view has drawn the daemon's current serial: the picture, and the places of the
        /// screens and windows the mouse is read against, are then those of the daemon's state. Returns the line
        /// it printed (`drawn serial N zoom Z`).
        @discardableResult
        func drawnNow() async throws -> String {
            let serial = try await recorder.client.property(Layout1.Display.serial)
            try await view.waitForOutput("drawn serial \(serial) zoom ")
            return try #require(view.standardOutput.split(separator: "\n").last { $0.hasPrefix("drawn serial \(serial) zoom ") }
                .map(String.init))
        }
    }

    @Test func aMouseDragMovesTheDividerAndTheViewShowsRendersPicture() async throws {
        let session = try await Session()
        defer { session.stop() }
        let recorder = session.recorder
        try? FileManager.default.removeItem(at: Self.screenshots)
        try FileManager.default.createDirectory(at: Self.screenshots, withIntermediateDirectories: true)
        try await compare("before", session)

        // The divider's left edge is at 694 pt in the 2/3 split: grabbed 5 pt into it, let go 190 pt to the left.
        try await session.drag(from: session.pixel((699, 300)), to: session.pixel((509, 300)))
        let events = try await recorder.wait("the drag's release") { events in
            events.contains { event in
                if case .displayChanged(let changes) = event { changes.values["Dragging"] == .boolean(false) } else { false }
            }
        }
        #expect(events.contains { if case .displayChanged(let c) = $0 { c.values["Dragging"] == .boolean(true) } else { false } })
        #expect(try await recorder.client.property(Layout1.Display.arrangement) == .splitHalf, "let go near 507: split-half")
        try await compare("after-drag", session)

        try await session.xdotool(["key", "--window", session.id, "r"])
        _ = try await recorder.wait("the rotation") { events in
            events.contains { if case .displayChanged(let c) = $0 { c.values["Orientation"] == .string("portrait") } else { false } }
        }
        try await compare("after-rotate", session)

        // k: the keyboard docks, and the view draws it as render does.
        try await session.xdotool(["key", "--window", session.id, "k"])
        _ = try await recorder.wait("the keyboard") { events in
            events.contains { if case .displayChanged(let c) = $0 { c.values["Keyboard"] == .string("docked") } else { false } }
        }
        try await compare("after-keyboard", session)
    }

    /// Stage Manager and a monitor from the keys, free-form windows from the mouse, the picture fitted to the
    /// window, and a refusal on the status line: `w` turns Stage Manager on, `a` (arrangements are Split View's)
    /// says why nothing changed, a drag moves a window and a drag of its corner resizes it live, `m` plugs in a
    /// 1080p monitor (the picture, now 3,124 points wide, is drawn smaller to fit), `n` moves the front window to
    /// it and a drag there moves it by the pointer's distance over the zoom.
    @Test func aStageAndAMonitorDrivenFromTheKeysAndTheMouse() async throws {
        let session = try await Session()
        defer { session.stop() }
        let (view, recorder) = (session.view, session.recorder)
        let client = recorder.client
        try FileManager.default.createDirectory(at: Self.screenshots, withIntermediateDirectories: true)

        try await session.xdotool(["key", "--window", session.id, "w"])
        try await recorder.until("Stage Manager") { (try? await client.property(Layout1.Display.windowing)) == .stageManager }
        let serial = try await client.property(Layout1.Display.serial)
        try await session.xdotool(["key", "--window", session.id, "a"])
        try await view.waitForOutput("status: SetArrangement: nothing else is offered here: ")
        #expect(view.standardOutput.contains("status: SetArrangement: nothing else is offered here: NotOffered: "),
                "the refusal's name and message: \(view.standardOutput)")
        #expect(try await client.property(Layout1.Display.serial) == serial, "a refusal changes nothing")

        // notes, behind mail, is raised by the press and moved 200 points left by the drag, once the view shows
        // Stage Manager (before, the press lands on Split View's picture, where notes has the same frame).
        try await session.drawnNow()
        let notes = try await client.property(Layout1.Window.frame, of: "notes")
        #expect(notes == [704, 0, 320, 768])
        try await session.drag(from: session.pixel((864, 400)), to: session.pixel((664, 400)))
        try await recorder.until("notes moved by the mouse") {
            (try? await client.property(Layout1.Window.frame, of: "notes")) == [504, 0, 320, 768]
        }
        #expect(try await client.property(Layout1.Display.stacking).first.map { "\($0)" }?.hasSuffix("/notes") == true,
                "the press raised notes")
        // Its bottom-right corner, dragged 100 points right and 168 up: a live resize to 420 x 600 (once the view
        // shows notes where it moved).
        try await session.drawnNow()
        try await session.drag(from: session.pixel((820, 764)), to: session.pixel((920, 596)))
        try await recorder.until("notes resized by the mouse") {
            (try? await client.property(Layout1.Window.frame, of: "notes")) == [504, 0, 420, 600]
        }
        _ = try await recorder.wait("the live resize's start and end") { events in
            let resizing = events.compactMap { event -> Bool? in
                if case .windowChanged(let app, let changes) = event, app == "notes",
                   case .boolean(let value) = changes.values["InteractivelyResizing"] { value } else { nil }
            }
            return resizing == [true, false]
        }
        let stage = try await compare("stage", session)
        #expect(stage == "1")

        try await session.xdotool(["key", "--window", session.id, "m"])
        try await recorder.until("a monitor") { (try? await client.property(Layout1.Display.displays)) == ["external-1"] }
        try await session.xdotool(["key", "--window", session.id, "n"])
        try await recorder.until("notes on the monitor") {
            (try? await client.property(Layout1.Window.display, of: "notes")) == "external-1"
        }
        let zoom = try await compare("monitor", session)
        let factor = try #require(Double(zoom))
        #expect(factor < 0.5, "the 3,124-point picture fits the 1,096-pixel window: zoom \(zoom)")

        // On the monitor (render draws its screen three bezels right of the device's: at 36 + 1024 + 108 = 1168).
        let onMonitor = try await client.property(Layout1.Window.frame, of: "notes")
        let start = session.pixel((onMonitor.x + 200, onMonitor.y + 300), screenAt: (1168, 70), zoom: factor)
        try await session.drag(from: start, to: (start.0 + 100, start.1))
        let moved = Rect(x: onMonitor.x + (100 / factor).rounded(), y: onMonitor.y, width: onMonitor.width, height: onMonitor.height)
        try await recorder.until("notes moved on the monitor") {
            (try? await client.property(Layout1.Window.frame, of: "notes")) == moved
        }
    }

    /// Waits until the view has drawn the daemon's current serial, then compares a screenshot of it with
    /// render's picture of the same state at the view's zoom: the same pixels. Returns that zoom.
    @discardableResult
    func compare(_ name: String, _ session: Session) async throws -> String {
        let environment = session.environment
        // The view prints the serial it drew, and at what zoom, once the picture is on screen.
        let zoom = String(try await session.drawnNow().split(separator: " ").last ?? "1")
        let render = Self.screenshots.appendingPathComponent("\(name)-render.png")
        let run = try await ChildProcess.run(Binaries.path("traitctl"), ["render", "--png", render.path, "--zoom", zoom],
                                             environment: environment)
        #expect(run.status == 0, "\(run.stderr)")
        let (width, height) = try pngSize(try Data(contentsOf: render))
        let shot = Self.screenshots.appendingPathComponent("\(name)-view.png")
        let grab = try await ChildProcess.run("/usr/bin/python3", ["-c", """
            import sys; sys.path.insert(0, "\(Binaries.repository.appendingPathComponent("examples/gtk").path)")
            import x11_screenshot; x11_screenshot.save("\(shot.path)", \(width), \(height))
            """], environment: environment)
        #expect(grab.status == 0, "\(grab.stderr)")
        let diff = try await ChildProcess.run("/usr/bin/python3", [Binaries.repository.appendingPathComponent("tools/compare_png.py").path,
                                                                  shot.path, render.path])
        #expect(diff.stdout.hasPrefix("differing 0.00"), "\(name): the view differs from render's picture: \(diff.stdout)\(diff.stderr)")
        return zoom
    }
}
