import DBus
import Foundation
import TestSupport
import Testing
import TraitClient
import Vocabulary

/// Breakpoints as libadwaita writes them (`SetBreakpoints`) and Android's window size classes, through the real
/// daemon: where each flips, in which signal of which transition, and what is refused.
@Suite struct BreakpointTests {
    /// A `max-width: 500sp` breakpoint flips with the window's width (Split View) and with the text size (`sp` grows with it), announced in the transition that flips it, after the trait signals and
    /// before `ViewWillLayoutSubviews`, as `traitctl watch` prints it.
    @Test func aBreakpointFollowsTheWidthAndTheTextSize() async throws {
        let fixture = try await DaemonFixture()
        let adapter = try TraitClient(bus: .address(fixture.bus.address))
        defer { adapter.close() }
        try await adapter.registerAdapter("probe", for: "mail")
        // mail is 694 pt wide (2/3 of the 9.7-inch iPad in landscape): "wide" (450 pt are 600 points, libadwaita's
        // 96 / 72) holds at once.
        let started = try await adapter.setBreakpoints(of: "mail", ["narrow": "max-width: 500sp", "wide": "min-width: 450pt and min-aspect-ratio: 4/5"])
        #expect(started.count == 1)
        #expect(try await adapter.state().windows.first { $0.app == "mail" }?.breakpoints == ["wide"])
        let watch = try await startTraitctlWatch(fixture, [])
        defer { watch.kill() }
        #expect(try await fixture.traitctl(["set", "arrangement", "split-half", "--wait"]).status == 0)  // 507 pt
        #expect(try await fixture.traitctl(["set", "content-size", "accessibility-medium", "--wait"]).status == 0)
        try await watch.waitForOutput("mail TransitionCompleted #4")
        // Each transition's signals of mail, by its id (the third word), as watch prints them.
        func transition(_ id: Int) -> [String] {
            watch.standardOutput.split(separator: "\n").map { String($0.dropFirst(13)) }
                .filter { $0.hasPrefix("mail ") && $0.split(separator: " ").dropFirst(2).first == "#\(id)" }
        }
        // 694 -> 507: "wide" stops holding, after UIKit's class and Android's width class, before the layout pass.
        #expect(transition(2).suffix(5) == ["mail TraitDidChange #2 horizontalSizeClass=compact previous=regular",
                                            "mail TraitDidChange #2 windowWidthSizeClass=compact previous=medium",
                                            "mail BreakpointUnapplied #2 wide", "mail ViewWillLayoutSubviews #2",
                                            "mail TransitionCompleted #2 reported=[] missed=[probe] failed=[]"], "\(watch.standardOutput)")
        // A larger text: 500 sp is 500 x 28/17 pt (824), more than 507: "narrow" holds, after the text-size signals.
        #expect(transition(4).suffix(4) == ["mail ContentSizeCategoryDidChange #4 accessibility-medium", "mail BreakpointApplied #4 narrow",
                                            "mail ViewWillLayoutSubviews #4", "mail TransitionCompleted #4 reported=[] missed=[probe] failed=[]"],
                "\(watch.standardOutput)")
        #expect(try await adapter.state().windows.first { $0.app == "mail" }?.breakpoints == ["narrow"])
        let status = try await fixture.traitctl(["status"])
        #expect(status.stdout.contains("\nbreakpoints that hold:\n  mail: narrow\n"), "\(status.stdout)")
    }

    /// Swept point by point, a Stage Manager window's Android classes and breakpoints in pt and px flip exactly
    /// where the published thresholds and the conditions say.
    @Test func aWidthSweepFlipsEachClassAndBreakpointAtItsThreshold() async throws {
        let fixture = try await DaemonFixture()
        let client = try TraitClient(bus: .address(fixture.bus.address))
        defer { client.close() }
        try await client.setDevice("ipad-pro-12.9")
        try await client.setWindowing(.stageManager)
        try await client.registerAdapter("probe", for: "mail")
        // 12.9-inch, 1366 pt wide in landscape; 300 pt are 400 points (libadwaita's 96 / 72), px are points.
        try await client.setBreakpoints(of: "mail", ["compact-ish": "max-width: 525pt", "big": "min-width: 900px"])
        var flips: [String] = []
        var last: (WindowWidthSizeClass, [String])?
        for width in stride(from: 500.0, through: 1366, by: 1) {
            _ = try await client.setFrame(Rect(x: 0, y: 0, width: width, height: 700), of: "mail")
            let mail = try #require(try await client.state().windows.first { $0.app == "mail" })
            let now = (mail.traits.windowWidthSizeClass, mail.breakpoints)
            if let last, last.0 != now.0 { flips.append("\(width.compact): \(now.0)") }
            if let last, last.1 != now.1 { flips.append("\(width.compact): [\(now.1.joined(separator: ","))]") }
            last = now
        }
        #expect(flips == ["600: medium", "701: []", "840: expanded", "900: [big]", "1200: large"], "\(flips)")
    }

    /// Mistakes are refused, naming the breakpoint, the column and what was expected, and change nothing; only
    /// the window's adapter's connection may declare.
    @Test func badBreakpointsAreRefusedAndChangeNothing() async throws {
        let fixture = try await DaemonFixture()
        let adapter = try TraitClient(bus: .address(fixture.bus.address))
        defer { adapter.close() }
        try await adapter.registerAdapter("probe", for: "mail")
        try await adapter.setBreakpoints(of: "mail", ["wide": "min-width: 450pt"])
        let serial = try await adapter.state().serial
        await #expect(throws: DBusError.self) { try await adapter.setBreakpoints(of: "mail", ["narrow": "max-width: 500xp"]) }
        do {
            try await adapter.setBreakpoints(of: "mail", ["narrow": "max-width: 500xp"])
        } catch let error as DBusError {
            #expect(error.name == DBusError.invalidArgsName
                    && error.message == "breakpoint 'narrow': unknown unit at column 15: expected px, pt or sp, in 'max-width: 500xp'", "\(error)")
        }
        await #expect(throws: DBusError.self) { try await adapter.setBreakpoints(of: "mail", ["no spaces": "max-width: 5pt"]) }
        let other = try await fixture.gdbus("call", ["--dest", "org.traitd.Layout1", "--object-path", "/org/traitd/Layout1/window/mail",
                                                     "--method", "org.traitd.Layout1.Window.SetBreakpoints", "{'x': 'max-width: 5pt'}"])
        #expect(other.status != 0 && other.stderr.contains("AccessDenied")
                && other.stderr.contains("only a connection that registered an adapter for 'mail' may declare its breakpoints"), "\(other)")
        let after = try await adapter.state()
        #expect(after.serial == serial && after.windows.first { $0.app == "mail" }?.breakpoints == ["wide"])
    }
}

extension BreakpointTests {
    /// An app's breakpoints are kept with its other declarations: across a restart, and from a state file of
    /// this release's format that holds them (the fixture a later release must still load).
    @Test func breakpointsAreKeptAcrossARestart() async throws {
        let fixture = try await DaemonFixture()
        let adapter = try TraitClient(bus: .address(fixture.bus.address))
        try await adapter.registerAdapter("probe", for: "mail")
        try await adapter.setBreakpoints(of: "mail", ["wide": "min-width: 450pt"])
        adapter.close()
        try await fixture.restart()
        let client = try TraitClient(bus: .address(fixture.bus.address))
        defer { client.close() }
        #expect(try await client.state().windows.first { $0.app == "mail" }?.breakpoints == ["wide"])
        try await fixture.restart(withStateFile: "format-1-2026-11-28-breakpoints.json")
        let again = try TraitClient(bus: .address(fixture.bus.address))
        defer { again.close() }
        #expect(!fixture.daemon.standardError.contains("cannot be loaded"), "\(fixture.daemon.standardError)")
        // An iPhone 15 in portrait, 393 x 852 pt: 500 sp holds; 600 pt (800 points) tall or more, and 393/852 above 1/3.
        #expect(try await again.state().windows.first { $0.app == "mail" }?.breakpoints == ["narrow", "tall"])
    }
}

extension BreakpointTests {
    /// Coverage says which of Android's window size classes the windows had and which breakpoints were seen
    /// holding and not; `--json` writes it and `--from` reads it back, as it reads the list of modes that earlier
    /// releases wrote.
    @Test func coverageNamesTheBreakpointsEachWayAndTheWindowSizeClasses() async throws {
        let fixture = try await DaemonFixture(arguments: ["--testing"])
        let adapter = try TraitClient(bus: .address(fixture.bus.address))
        defer { adapter.close() }
        try await adapter.registerAdapter("probe", for: "mail")
        try await adapter.setBreakpoints(of: "mail", ["narrow": "max-width: 500sp", "huge": "min-width: 5000pt"])
        #expect(try await fixture.traitctl(["set", "arrangement", "split-half", "--wait"]).status == 0)
        #expect(try await fixture.traitctl(["set", "content-size", "accessibility-medium", "--wait"]).status == 0)
        let table = try await fixture.traitctl(["coverage"])
        #expect(table.stdout.contains("\nwindow size classes (Android's) driven: width compact, medium; height medium\n"
                                      + "  never: width expanded, large, extra-large; height compact, expanded\n"
                                      + "breakpoints:\n  mail huge: not applied only (never applied)\n  mail narrow: applied and not applied\n"),
                "\(table.stdout)")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("traitd-coverage-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let json = try await fixture.traitctl(["coverage", "--json"])
        let file = folder.appendingPathComponent("coverage.json")
        try json.stdout.write(to: file, atomically: true, encoding: .utf8)
        #expect(try await fixture.traitctl(["coverage", "--from", file.path]).stdout == table.stdout)
        // An earlier release's file: the modes alone, a list.
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let old = folder.appendingPathComponent("old.json")
        try JSONSerialization.data(withJSONObject: try #require(object["modes"])).write(to: old)
        let fromOld = try await fixture.traitctl(["coverage", "--from", old.path])
        #expect(fromOld.status == 0 && fromOld.stdout.contains("modes driven") && !fromOld.stdout.contains("breakpoints:"), "\(fromOld)")
    }
}
