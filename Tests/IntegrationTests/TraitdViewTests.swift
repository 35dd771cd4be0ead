import Foundation
import TestSupport
import TraitClient
import Testing

/// tools/traitd-view under Xvfb, driven with xdotool as a person would: a mouse drag of the divider moves the
/// daemon's divider and ends in the split it was let go at, a key rotates the device, and each time the window
/// shows exactly the picture `traitctl render` makes of the same state (screenshots in .build/view-screenshots).
@Suite(.serialized) struct TraitdViewTests {
    static let screenshots = Binaries.repository.appendingPathComponent(".build/view-screenshots")

    @Test func aMouseDragMovesTheDividerAndTheViewShowsRendersPicture() async throws {
        let screen = try await GtkClientTests.VirtualScreen()
        let fixture = try await DaemonFixture()
        let recorder = try await Recorder(fixture)
        try? FileManager.default.removeItem(at: Self.screenshots)
        try FileManager.default.createDirectory(at: Self.screenshots, withIntermediateDirectories: true)
        var environment = fixture.bus.environment
        environment["DISPLAY"] = screen.display
        environment["GDK_BACKEND"] = "x11"
        environment["GSK_RENDERER"] = "cairo"
        environment["NO_AT_BRIDGE"] = "1"
        let view = try ChildProcess("/usr/bin/python3", [Binaries.repository.appendingPathComponent("tools/traitd-view").path,
                                                          "--traitctl", Binaries.path("traitctl")], environment: environment)
        defer { view.kill(SIGTERM) }
        try await view.waitForOutput("drawn serial 1\n")
        func xdotool(_ arguments: [String]) async throws -> String {
            let run = try await ChildProcess.run("xdotool", arguments, environment: environment)
            #expect(run.status == 0, "xdotool \(arguments): \(run.stderr)")
            return run.stdout
        }
        let window = try await xdotool(["search", "--onlyvisible", "--name", "traitd-view"])
            .split(separator: "\n").first.map(String.init)
        let id = try #require(window, "no traitd-view window on \(screen.display)")
        let geometry = try await xdotool(["getwindowgeometry", "--shell", id])
        let values = Dictionary(uniqueKeysWithValues: geometry.split(separator: "\n").compactMap { line -> (String, Int)? in
            let parts = line.split(separator: "=")
            return parts.count == 2 ? (String(parts[0]), Int(parts[1]) ?? 0) : nil
        })
        let (x, y) = (values["X"] ?? 0, values["Y"] ?? 0)
        try await compare("before", view, environment, recorder)

        // The divider's left edge is at 694 pt in the 2/3 split; render puts the screen at (36, 70) in the picture.
        let start = (x + 36 + 694 + 5, y + 70 + 300)
        var moves: [String] = ["mousemove", "\(start.0)", "\(start.1)", "mousedown", "1"]
        for dx in [30, 80, 130, 180, 190] { moves += ["mousemove", "\(start.0 - dx)", "\(start.1)"] }
        _ = try await xdotool(moves + ["mouseup", "1"])
        let events = try await recorder.wait("the drag's release") { events in
            events.contains { event in
                if case .displayChanged(let changes) = event { changes.values["Dragging"] == .boolean(false) } else { false }
            }
        }
        #expect(events.contains { if case .displayChanged(let c) = $0 { c.values["Dragging"] == .boolean(true) } else { false } })
        #expect(try await recorder.client.property(Layout1.Display.arrangement) == .splitHalf, "let go near 507: split-half")
        try await compare("after-drag", view, environment, recorder)

        _ = try await xdotool(["key", "--window", id, "r"])
        _ = try await recorder.wait("the rotation") { events in
            events.contains { if case .displayChanged(let c) = $0 { c.values["Orientation"] == .string("portrait") } else { false } }
        }
        try await compare("after-rotate", view, environment, recorder)

        // k: the keyboard docks, and the view draws it as render does.
        _ = try await xdotool(["key", "--window", id, "k"])
        _ = try await recorder.wait("the keyboard") { events in
            events.contains { if case .displayChanged(let c) = $0 { c.values["Keyboard"] == .string("docked") } else { false } }
        }
        try await compare("after-keyboard", view, environment, recorder)
    }

    /// Waits until the view has drawn the daemon's current serial, then compares a screenshot of it with
    /// render's picture of the same state: the same pixels.
    func compare(_ name: String, _ view: ChildProcess, _ environment: [String: String], _ recorder: Recorder) async throws {
        // The view prints the serial it drew once the picture is on screen.
        let serial = try await recorder.client.property(Layout1.Display.serial)
        try await view.waitForOutput("drawn serial \(serial)\n")
        let render = Self.screenshots.appendingPathComponent("\(name)-render.png")
        let run = try await ChildProcess.run(Binaries.path("traitctl"), ["render", "--png", render.path], environment: environment)
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
    }
}
