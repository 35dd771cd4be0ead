import DBus
import Foundation
import TestSupport
import TraitClient
import Testing

/// A real desktop toolkit driven by traitd: examples/gtk/traitd_gtk.py (GTK 4 through PyGObject) under Xvfb
/// follows mail's simulated window, and reports the allocations GTK gave its widgets. Each transition is checked
/// against the window's frame and size class as traitd publishes them, and the screen is saved as a PNG
/// (`.build/gtk-screenshots/`, the README's pictures).
@Suite(.serialized) struct GtkClientTests {
    /// Xvfb on a display it picks itself (-displayfd), torn down with the test.
    final class VirtualScreen {
        let process: ChildProcess
        let display: String

        init() async throws {
            process = try ChildProcess("Xvfb", ["-displayfd", "1", "-screen", "0", "1400x1400x24", "-nolisten", "tcp"])
            // Xvfb writes the display's number and a newline to -displayfd once it accepts clients.
            try await process.waitForOutput("\n")
            let number = process.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
            guard Int(number) != nil else { throw TestFailure("Xvfb printed no display number: '\(number)'") }
            display = ":" + number
        }

        deinit { process.kill(SIGTERM) }
    }

    static let screenshots = Binaries.repository.appendingPathComponent(".build/gtk-screenshots")

    @Test func gtkFollowsRotationsAndSplitsAndReportsItsOwnAllocations() async throws {
        let screen = try await VirtualScreen()
        // A generous deadline: GTK's first layout under a loaded test run must not be counted as missed.
        let fixture = try await DaemonFixture(config: "transitions: { deadline-ms: 5000 }\n")
        let recorder = try await Recorder(fixture)
        try? FileManager.default.removeItem(at: Self.screenshots)
        var environment = fixture.bus.environment
        environment["DISPLAY"] = screen.display
        environment["GDK_BACKEND"] = "x11"
        environment["GSK_RENDERER"] = "cairo"  // Xvfb has no GPU
        environment["NO_AT_BRIDGE"] = "1"
        let app = try ChildProcess(
            "/usr/bin/python3",
            [Binaries.repository.appendingPathComponent("examples/gtk/traitd_gtk.py").path, "--app", "mail",
             "--screenshots", Self.screenshots.path],
            environment: environment)
        defer { app.kill(SIGTERM) }
        try await recorder.until("the GTK app reports its first layout", timeout: 30) {
            (try? await recorder.layouts(of: "mail").frames["gtk"]) != nil
        }
        try await checkLayout(recorder, app, transition: 0, step: "start")

        let steps: [(String, () async throws -> Void)] = [
            ("rotate to portrait", { try await recorder.client.rotate(to: .portrait) }),
            ("rotate to landscape-left", { try await recorder.client.rotate(to: .landscapeLeft) }),
            ("split-half", { try await recorder.client.setArrangement(.splitHalf) }),
            ("split-one-third", { try await recorder.client.setArrangement(.splitOneThird) }),
            ("iPad Pro 12.9", { try await recorder.client.setDevice("ipad-pro-12.9") }),
            ("split-half on the 12.9 (regular there)", { try await recorder.client.setArrangement(.splitHalf) }),
            // Regular, but the app's breakpoint says narrow: 550 sp are 906 pt at this text size, more than 678.
            ("accessibility-medium text: narrow though regular", {
                _ = try await recorder.client.setTraits([.contentSize: "accessibility-medium"])
            }),
            ("dark, right to left, extra-large text", {
                _ = try await recorder.client.setTraits(
                    [.appearance: "dark", .direction: "right-to-left", .contentSize: "extra-large"])
            }),
            ("compact in right to left", { try await recorder.client.setArrangement(.splitOneThird) }),
        ]
        var rightToLeft = false
        for (what, command) in steps {
            let last = try await recorder.transition(of: "mail", what, timeout: 20, command)
            #expect(last.reported.contains("gtk") && !last.missed.contains("gtk") && !last.failed.contains("gtk"),
                    "\(what): \(last) \(app.standardOutput)")
            if what.hasPrefix("accessibility-medium") {
                // The step the breakpoint and the size class disagree on: GTK took the breakpoint's side.
                #expect(try await recorder.client.property(Layout1.Window.horizontalSizeClass, of: "mail") == .regular)
                #expect(try await recorder.client.property(Layout1.Window.breakpoints, of: "mail") == ["narrow"])
            }
            if what.hasPrefix("dark") {
                // GTK took the settings from the window's Traits before it laid out and reported.
                #expect(app.standardOutput.contains(
                    "traits appearance=dark direction=right-to-left content-size=extra-large"), "\(app.standardOutput)")
                rightToLeft = true
            }
            try await checkLayout(recorder, app, transition: last.id, step: what, rightToLeft: rightToLeft)
        }

        // A live resize in Stage Manager across the size-class threshold: GTK's real window follows the steps it
        // is given (faster ones coalesce), and the last one, the size let go at, is the one it lays out and reports.
        try await recorder.client.setWindowing(.stageManager)
        let resize = try await fixture.traitctl(["resize", "mail", "800", "700", "--live", "8", "--wait"])
        #expect(resize.status == 0, "\(resize)")
        let final = try #require(Recorder.transitionIDs(of: "mail", in: recorder.all).last)
        let completion = try await recorder.completion(of: final)
        #expect(completion.reported == ["gtk"], "\(completion) \(app.standardOutput)")
        #expect(try await recorder.client.property(Layout1.Window.frame, of: "mail").size == Size(width: 800, height: 700))
        try await checkLayout(recorder, app, transition: final, step: "live resize to 800 x 700", rightToLeft: true)
    }

    /// What GTK reported for mail against traitd's own frame and size class of the window, and the screenshot.
    /// In right to left the sidebar is on the trailing side, the right (GTK mirrors as UIKit does).
    func checkLayout(
        _ recorder: Recorder, _ app: ChildProcess, transition: UInt64, step: String, rightToLeft: Bool = false
    ) async throws {
        let frame = try await recorder.client.property(Layout1.Window.frame, of: "mail")
        // The app lays out by its breakpoint (max-width: 550sp), as traitd judges it for the window.
        let narrow = try await recorder.client.property(Layout1.Window.breakpoints, of: "mail").contains("narrow")
        let (width, height) = (frame.width, frame.height)
        let layouts = try await recorder.layouts(of: "mail")
        let frames = try #require(layouts.frames["gtk"], "\(step): no gtk layout")
        let extras = try #require(layouts.extras["gtk"], "\(step): no gtk extras")
        // GTK's window took the simulated frame's size, and the layout follows the breakpoint.
        #expect(extras["window"]?.doubles == [width, height], "\(step): GTK window \(String(describing: extras["window"])) for a \(width) x \(height) frame")
        #expect(extras["layout"]?.string == (narrow ? "stacked" : "split"), "\(step): narrow \(narrow)")
        if !narrow {
            let sidebar = try #require(frames["sidebar"], "\(step): \(frames)")
            let content = try #require(frames["content"], "\(step): \(frames)")
            if rightToLeft {
                #expect(sidebar == [width - 320, 0, 320, height], "\(step): sidebar \(sidebar)")
                #expect(content[0] == 0 && content[2] <= width - 320 && content[1] == 0 && content[3] == height,
                        "\(step): content \(content) in \(width) x \(height)")
            } else {
                #expect(sidebar == [0, 0, 320, height], "\(step): sidebar \(sidebar)")
                #expect(content[0] >= 320 && content[0] + content[2] == width && content[1] == 0 && content[3] == height,
                        "\(step): content \(content) in \(width) x \(height)")
            }
        } else {
            let header = try #require(frames["header"], "\(step): \(frames)")
            let content = try #require(frames["content"], "\(step): \(frames)")
            #expect(header[0] == 0 && header[1] == 0 && header[2] == width && header[3] > 0, "\(step): header \(header)")
            #expect(content == [0, header[3], width, height - header[3]], "\(step): content \(content) under \(header)")
        }
        // The screen grab after the report: a PNG exactly the window's size.
        let png = Self.screenshots.appendingPathComponent("\(transition).png")
        try await app.waitForOutput("saved \(png.path)")
        let (pngWidth, pngHeight) = try pngSize(try Data(contentsOf: png))
        #expect(Double(pngWidth) == width && Double(pngHeight) == height, "\(step): screenshot \(pngWidth) x \(pngHeight)")
    }
}
