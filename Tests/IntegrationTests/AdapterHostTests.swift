import DBus
import Foundation
import TestSupport
import TraitClient
import Testing

/// `traitd-adapters` with its embedded default config, beside the real daemon on a private bus: the built-in
/// adapters' frames for the seed cases, read back from the windows' `Layouts`; layout files, SIGHUP, broken
/// files; a host killed mid-transition.
@Suite struct AdapterHostTests {
    static let mailAdapters = ["split-columns", "support-panel", "support-panel.layout"]
    static let notesAdapters = ["book-pages", "xy-slider", "xy-slider.layout"]

    /// A daemon (deadline 5 s, so completions come from reports) and a host, once the host has reported for
    /// every open window.
    func start(config: String = "", hostArguments: [String] = [], deadlineMs: Int = 5000) async throws
        -> (DaemonFixture, Recorder, HostProcess) {
        let fixture = try await DaemonFixture(config: "transitions:\n  deadline-ms: \(deadlineMs)\n" + config)
        let recorder = try await Recorder(fixture)
        let host = try HostProcess(fixture, hostArguments)
        try await recorder.until("the host's first reports") {
            await recorder.isRegistered("support-panel.layout")
        }
        return (fixture, recorder, host)
    }

    @Test func supportPanelAndSplitColumnsOnTheSeedCases() async throws {
        let (fixture, recorder, host) = try await start()
        let client = recorder.client
        // At start (9.7-inch, landscape, 2/3): mail is 694 wide. Transition 0 carries the first layouts.
        try await recorder.until("mail's first layouts") {
            (try? await fixture.busctl(["get-property", "org.traitd.Layout1", TraitClient.windowPath("mail"),
                                         "org.traitd.Layout1.Window", "Layouts"]).stdout.contains("support-panel.layout")) == true
        }
        var mail = try await recorder.layouts(of: "mail")
        #expect(mail.frames["support-panel"] == ["main": [0, 0, 347, 768], "support": [347, 0, 347, 768]])
        #expect(mail.frames["support-panel.layout"] == mail.frames["support-panel"], "the layout file agrees with the Swift adapter")
        #expect(mail.frames["split-columns"] == ["primary": [0, 0, 170, 768], "secondary": [170, 0, 524, 768]])
        #expect(mail.extras["split-columns"]?["cellStyle"] == .string("compact"))
        #expect(mail.extras["split-columns"]?["presentation"] == .string("popover"))

        // Each step: the transition completes with all three of mail's adapters reported.
        func step(_ what: String, _ command: @escaping () async throws -> Void) async throws {
            let done = try await recorder.transition(of: "mail", what, command)
            #expect(done.reported == Self.mailAdapters && done.missed.isEmpty && done.failed.isEmpty, "\(what): \(done)")
            mail = try await recorder.layouts(of: "mail")
        }
        try await step("full screen") { try await client.setArrangement(.full) }
        #expect(mail.frames["split-columns"] == ["primary": [0, 0, 320, 768], "secondary": [320, 0, 704, 768]])
        #expect(mail.extras["split-columns"]?["cellStyle"] == .string("regular"))
        #expect(mail.extras["split-columns"]?["presentation"] == .string("popover"))

        try await step("1/2") { try await client.setArrangement(.splitHalf) }
        #expect(mail.frames["support-panel"] == ["main": [0, 0, 507, 768]], "507 is compact: no support panel")
        #expect(mail.frames["split-columns"] == ["primary": [0, 0, 507, 768]])
        #expect(mail.extras["split-columns"]?["collapsed"] == .boolean(true))
        #expect(mail.extras["split-columns"]?["presentation"] == .string("popover"))

        try await step("1/3") { try await client.setArrangement(.splitOneThird) }
        #expect(mail.frames["split-columns"] == ["primary": [0, 0, 320, 768]])
        #expect(mail.extras["split-columns"]?["presentation"] == .string("fullScreen"))

        try await step("full again") { try await client.setArrangement(.full) }
        try await step("portrait full") { try await client.rotate(to: .portrait) }
        // gdbus (GDBus) reads the same frames.
        let gdbus = try await fixture.gdbus("call", ["--dest", "org.traitd.Layout1", "--object-path", TraitClient.windowPath("mail"),
                                                "--method", "org.freedesktop.DBus.Properties.Get",
                                                "org.traitd.Layout1.Window", "Layouts"])
        #expect(gdbus.stdout.contains("'split-columns': {'primary': (0.0, 0.0, 170.0, 1024.0), 'secondary': (170.0, 0.0, 598.0, 1024.0)}"),
                "\(gdbus.stdout)")
        mail = try await recorder.layouts(of: "mail")
        #expect(mail.frames["split-columns"] == ["primary": [0, 0, 170, 1024], "secondary": [170, 0, 598, 1024]])

        try await step("landscape") {
            try await client.rotate(to: .landscapeLeft)
        }
        try await step("12.9-inch full") { try await client.setDevice("ipad-pro-12.9") }
        #expect(mail.frames["support-panel"] == ["main": [0, 0, 992, 1024], "support": [992, 0, 374, 1024]])
        try await step("12.9-inch 1/2") { try await client.setArrangement(.splitHalf) }
        #expect(mail.frames["support-panel"] == ["main": [0, 0, 339, 1024], "support": [339, 0, 339, 1024]])
        #expect(!host.log.contains("refused"), "\(host.log)")
    }

    @Test func xySliderAndBookPagesOnTheSeedCases() async throws {
        // notes is the primary app here, so that it can take the whole 1024 x 768 screen.
        let (fixture, recorder, host) = try await start(config: """
            display: { arrangement: full }
            apps:
              - { name: notes, role: primary }
              - { name: mail, role: secondary }
            """)
        let client = recorder.client
        try await recorder.until("notes's first layouts") {
            (try? await recorder.layouts(of: "notes").frames.count) == 3
        }
        var notes = try await recorder.layouts(of: "notes")
        #expect(notes.frames["xy-slider"] == ["slider": [20, 20, 984, 728], "knob": [490, 362, 44, 44]])
        #expect(notes.frames["xy-slider.layout"] == notes.frames["xy-slider"])
        #expect(notes.frames["book-pages"] == ["canvas": [0, 0, 1024, 768], "leftPage": [0, 0, 512, 768], "rightPage": [512, 0, 512, 768]])
        #expect(notes.extras["book-pages"]?["pages"] == .double(2))

        var done = try await recorder.transition(of: "notes", "portrait") { try await client.rotate(to: .portrait) }
        #expect(done.reported == Self.notesAdapters, "\(done)")
        notes = try await recorder.layouts(of: "notes")
        #expect(notes.frames["book-pages"] == ["canvas": [0, 0, 768, 1024], "rightPage": [0, 0, 768, 1024]])

        _ = try await recorder.transition(of: "notes", "landscape") { try await client.rotate(to: .landscapeLeft) }
        done = try await recorder.transition(of: "notes", "2/3") { try await client.setArrangement(.splitTwoThirds) }
        #expect(done.reported == Self.notesAdapters, "\(done)")
        notes = try await recorder.layouts(of: "notes")
        #expect(notes.frames["book-pages"] == ["canvas": [104.1, 0, 485.8, 768], "rightPage": [104.1, 0, 485.8, 768]])
        withExtendedLifetime((fixture, host)) {}  // the bus and the host live to the end
    }

    @Test func aLayoutFileDroppedInIsPickedUpOnSIGHUPAndABrokenOneIsNamed() async throws {
        let layouts = FileManager.default.temporaryDirectory.appendingPathComponent("traitd-layouts-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: layouts, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: layouts) }
        let (_, recorder, host) = try await start(hostArguments: ["--layouts", layouts.path])
        // Two files appear: one good, one with an unknown item on line 3, column 1.
        try "app mail\nview banner\nbanner.left == super.left\nbanner.top == 0\nbanner.width == super.width\nbanner.height == 44\n"
            .write(to: layouts.appendingPathComponent("banner.layout"), atomically: true, encoding: .utf8)
        try "app notes\nview a\nghost.width == 10\n"
            .write(to: layouts.appendingPathComponent("broken.layout"), atomically: true, encoding: .utf8)
        host.process.kill(SIGHUP)
        try await recorder.until("banner.layout's report") {
            (try? await recorder.layouts(of: "mail").frames["banner.layout"]) == ["banner": [0, 0, 694, 44]]
        }
        let log = host.log
        #expect(log.contains("\(layouts.path)/broken.layout:3:1: unknown item 'ghost'"), "\(log)")
        // The others keep working: the next transition has every adapter of both windows reported.
        let done = try await recorder.transition(of: "mail", "portrait") { try await recorder.client.rotate(to: .portrait) }
        #expect(done.reported == (Self.mailAdapters + ["banner.layout"]).sorted(), "\(done)")
        let mail = try await recorder.layouts(of: "mail")
        #expect(mail.frames["banner.layout"] == ["banner": [0, 0, 438, 44]])
        // The file goes, SIGHUP again: its registration goes too.
        try FileManager.default.removeItem(at: layouts.appendingPathComponent("banner.layout"))
        host.process.kill(SIGHUP)
        try await recorder.until("banner.layout's registration to end") {
            await recorder.isRegistered("banner.layout") == false
        }
        #expect(host.process.isRunning)
    }

    @Test func aLayoutThatConflictsReportsFailedWithTheConflict() async throws {
        let layouts = FileManager.default.temporaryDirectory.appendingPathComponent("traitd-layouts-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: layouts, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: layouts) }
        // 600 pt wide at least: fine full screen (1024), impossible in 2/3 (694 is fine) ... and at 1/3 (320).
        try "app mail\nview wide\nH:|[wide]|\nV:|[wide]|\nwide.width >= 600\n"
            .write(to: layouts.appendingPathComponent("wide.layout"), atomically: true, encoding: .utf8)
        let (fixture, recorder, host) = try await start(hostArguments: ["--layouts", layouts.path])
        try await recorder.until("wide.layout's first report") {
            (try? await recorder.layouts(of: "mail").frames["wide.layout"]) == ["wide": [0, 0, 694, 768]]
        }
        let done = try await recorder.transition(of: "mail", "1/3") { try await recorder.client.setArrangement(.splitOneThird) }
        #expect(done.failed == ["wide.layout"], "\(done)")
        #expect(done.reported == Self.mailAdapters)
        let mail = try await recorder.layouts(of: "mail")
        #expect(mail.frames["wide.layout"] == nil, "a failed layout publishes no frames")
        let error = mail.extras["wide.layout"]?["error"]?.string ?? ""
        #expect(error.contains("wide.layout:5: wide.width >= 600"), "\(error)")
        withExtendedLifetime((fixture, host)) {}
    }

    /// A layout file's breakpoints are declared for its app's window once the host registers it: the window's
    /// `Breakpoints` (read with busctl) says which hold, and the file's sections follow the same condition.
    @Test func aLayoutFilesBreakpointsAreTheWindows() async throws {
        let layouts = FileManager.default.temporaryDirectory.appendingPathComponent("traitd-layouts-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: layouts, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: layouts) }
        // The seed scenario's layout (one column where "narrow", max-width: 500sp, holds; two elsewhere).
        try FileManager.default.copyItem(at: Binaries.repository.appendingPathComponent("Tests/Scenarios/breakpoint-layouts/columns.layout"),
                                         to: layouts.appendingPathComponent("columns.layout"))
        let (fixture, recorder, host) = try await start(hostArguments: ["--layouts", layouts.path])
        try await recorder.until("columns.layout's first report") {
            (try? await recorder.layouts(of: "mail").frames["columns.layout"]?.keys.sorted()) == ["detail", "list"]
        }
        // 694 pt: two columns, no breakpoint; a third of the screen (320 pt): narrow holds, one column.
        let declared = try await fixture.busctl(["get-property", "org.traitd.Layout1", TraitClient.windowPath("mail"),
                                                 "org.traitd.Layout1.Window", "Breakpoints"])
        #expect(declared.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "as 0", "\(declared)")
        _ = try await recorder.transition(of: "mail", "1/3") { try await recorder.client.setArrangement(.splitOneThird) }
        let narrow = try await fixture.busctl(["get-property", "org.traitd.Layout1", TraitClient.windowPath("mail"),
                                               "org.traitd.Layout1.Window", "Breakpoints"])
        #expect(narrow.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "as 1 \"narrow\"", "\(narrow)")
        #expect(try await recorder.layouts(of: "mail").frames["columns.layout"]?.keys.sorted() == ["list"])
        // mail closed and opened again: a new window has no declarations, and the host declares the file's again.
        _ = try await recorder.client.closeApp("mail")
        _ = try await recorder.client.openApp("mail", role: .secondary)
        try await recorder.until("mail's breakpoints declared again") {
            host.log.components(separatedBy: "declared mail's breakpoints: narrow").count - 1 == 2
        }
        let again = try await fixture.busctl(["get-property", "org.traitd.Layout1", TraitClient.windowPath("mail"),
                                              "org.traitd.Layout1.Window", "Breakpoints"])
        #expect(again.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "as 1 \"narrow\"", "mail is 320 pt again: \(again)")
        withExtendedLifetime((fixture, host)) {}
    }

    @Test func aHostKilledMidTransitionIsMissedAndARestartedHostReportsAgain() async throws {
        // The host waits a minute before each report, so the kill always lands while the transition waits for it
        // (with 1.5 s, a loaded machine once let the reports through first), and the daemon's deadline is as
        // long: a completion at all means the host's leaving caused it.
        let (_, recorder, host) = try await start(hostArguments: ["--delay-ms", "60000"], deadlineMs: 60_000)
        let before = Set(recorder.transitionIDs(of: "mail"))
        try await recorder.client.rotate(to: .portrait)
        try await recorder.wait("the rotation's first signal") { Recorder.transitionIDs(of: "mail", in: $0).contains { !before.contains($0) } }
        let id = recorder.transitionIDs(of: "mail").first { !before.contains($0) }!
        host.process.kill(SIGKILL)
        let done = try await recorder.completion(of: id)
        #expect(done.missed == Self.mailAdapters && done.reported.isEmpty, "\(done)")
        try await recorder.until("the registrations to end") {
            await recorder.isRegistered("support-panel") == false
        }
        // A new host (no delay) registers, reports the window as it is, and reports the next transition.
        try await host.restart(after: SIGKILL, options: [])
        try await recorder.until("the new host's registrations") {
            await recorder.isRegistered("support-panel.layout") == true
        }
        try await recorder.until("the new host's layouts for the portrait window") {
            (try? await recorder.layouts(of: "mail").frames["support-panel"]) == ["main": [0, 0, 438, 1024]]
        }
        let next = try await recorder.transition(of: "mail", "landscape") { try await recorder.client.rotate(to: .landscapeLeft) }
        #expect(next.reported.count == 3 && next.missed.isEmpty, "\(next)")
    }

    @Test func theHostFollowsADaemonRestart() async throws {
        let (fixture, recorder, host) = try await start()
        try await fixture.restart()
        try await recorder.until("the host to register again") {
            await recorder.isRegistered("support-panel.layout") == true
        }
        try await recorder.until("mail's layouts again") {
            (try? await recorder.layouts(of: "mail").frames["support-panel"]) == ["main": [0, 0, 347, 768], "support": [347, 0, 347, 768]]
        }
        #expect(host.log.contains("traitd left the bus"))
    }

    @Test func badOptionsAndConfigsAreRefusedWithReasons() async throws {
        let missing = try await ChildProcess.run(Binaries.path("traitd-adapters"), ["--layouts", "/nonexistent/dir", "--list"])
        #expect(missing.status == 64 && missing.stderr.contains("--layouts /nonexistent/dir: no such directory"))
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("traitd-host-\(UUID().uuidString).yaml")
        defer { try? FileManager.default.removeItem(at: folder) }
        try "adapters:\n  support-panel: { app: mail, max-width: -3 }\n".write(to: folder, atomically: true, encoding: .utf8)
        let bad = try await ChildProcess.run(Binaries.path("traitd-adapters"), ["--config", folder.path, "--list"])
        #expect(bad.status == 78)
        #expect(bad.stderr.contains("\(folder.path):2:42: support-panel's max-width must be between 0 and 100000, not -3"), "\(bad.stderr)")
        let list = try await ChildProcess.run(Binaries.path("traitd-adapters"), ["--list"])
        #expect(list.status == 0)
        #expect(list.stdout.contains("support-panel for mail") && list.stdout.contains("max-width = 374"))
        #expect(list.stdout.contains("xy-slider.layout for notes"))
        #expect(list.stdout.contains("Bridges (the configuration's bridges: section, --web and --app):\n  none"), "\(list.stdout)")
        // A located mistake in bridges:, and --only-layouts with nothing to run.
        try "bridges:\n  web: { mail: https://example.com }\n".write(to: folder, atomically: true, encoding: .utf8)
        let remote = try await ChildProcess.run(Binaries.path("traitd-adapters"), ["--config", folder.path, "--list"])
        #expect(remote.status == 78 && remote.stderr.contains("\(folder.path):2:16: mail's page https://example.com: the URL must be"),
                "\(remote.stderr)")
        let nothing = try await ChildProcess.run(Binaries.path("traitd-adapters"), ["--only-layouts", "--list"])
        #expect(nothing.status == 64 && nothing.stderr.contains("--only-layouts needs at least one --layouts directory"), "\(nothing.stderr)")
    }

    /// The bridges of the configuration file, with the command line's in place of theirs for the same app (listed,
    /// not started: --list starts no browser and no display).
    @Test func theConfigurationsBridgesAndTheOptionsOverThem() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("traitd-bridges-\(UUID().uuidString).yaml")
        defer { try? FileManager.default.removeItem(at: file) }
        try """
            bridges:
              web: { mail: "file:///srv/inbox.html", notes: "file:///srv/notes.html" }
              apps: { music: "gnome-calculator --mode basic" }

            """.write(to: file, atomically: true, encoding: .utf8)
        let list = try await ChildProcess.run(Binaries.path("traitd-adapters"),
                                              ["--config", file.path, "--web", "notes=http://localhost:8000/", "--list"])
        #expect(list.status == 0, "\(list.stderr)")
        #expect(list.stdout.contains("""
              web for mail: file:///srv/inbox.html
              web for notes: http://localhost:8000/
              desktop for music: gnome-calculator --mode basic
            """), "\(list.stdout)")
    }
}
