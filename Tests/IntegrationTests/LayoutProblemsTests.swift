import DBus
import Foundation
import TestSupport
import TraitClient
import Testing

/// The layout checks against the real daemon and the real adapter host: a layout file with one planted bug
/// per rule, its problems read back with busctl (sd-bus) and traitctl, the one that shows only in Split View
/// 1/3 found only there, and `--strict-layouts` turning a report with problems into a failed one.
@Suite struct LayoutProblemsTests {
    /// mail's planted bugs, on the 9.7-inch iPad (a 20-pt status bar): the title starts at the window's top
    /// (outside-safe-area), the subtitle half covers it (overlap), undo is 24 pt (small-target), and the
    /// 400-pt sidebar fits a 694 or 507-pt window but not a one-third one (outside-window, there only). The
    /// backdrop fills the window, as a background may; the container holds the rest.
    static let planted = """
        app mail
        view backdrop sidebar title subtitle undo
        kind background backdrop
        kind container sidebar
        kind text title subtitle
        kind control undo
        H:|[backdrop]|
        V:|[backdrop]|
        H:|[sidebar(400)]
        V:|[sidebar]|
        title.left == super.left + 16
        title.top == super.top
        title.width == 200
        title.height == 40
        subtitle.left == title.left
        subtitle.top == title.top + 30
        subtitle.width == 200
        subtitle.height == 30
        undo.left == super.left + 250
        undo.top == safe.top + 100
        undo.width == 24
        undo.height == 24

        """

    /// A daemon (with `arguments`) and a host running the planted file beside the built-in adapters, once the
    /// file's first report is in.
    func start(_ arguments: [String] = [], config: String = "") async throws -> (DaemonFixture, Recorder, HostProcess, URL) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("traitd-planted-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Self.planted.write(to: folder.appendingPathComponent("planted.layout"), atomically: true, encoding: .utf8)
        let fixture = try await DaemonFixture(arguments: arguments, config: "transitions:\n  deadline-ms: 60000\n" + config)
        let recorder = try await Recorder(fixture)
        let host = try HostProcess(fixture, ["--layouts", folder.path])
        try await recorder.until("planted.layout's first report") {
            (try? await recorder.layouts(of: "mail").frames["planted.layout"]) != nil
        }
        return (fixture, recorder, host, folder)
    }

    /// `LayoutProblems` through busctl: (adapter, element, rule) of each problem of the planted file.
    func problems(_ fixture: DaemonFixture) async throws -> [String] {
        let read = try await fixture.busctl(["--json=short", "get-property", "org.traitd.Layout1", TraitClient.windowPath("mail"),
                                             "org.traitd.Layout1.Window", "LayoutProblems"])
        #expect(read.status == 0, "\(read)")
        let json = try JSONSerialization.jsonObject(with: Data(read.stdout.utf8)) as! [String: Any]
        #expect(json["type"] as? String == "a(ssss)")
        let rows = json["data"] as! [[String]]
        return rows.filter { $0[0] == "planted.layout" }.map { "\($0[1]) \($0[2]): \($0[3])" }
    }

    /// The run's own rules (`layout-checks:` in the daemon's config): by WCAG's 24 px the 24-pt undo is large
    /// enough, and overlap is left out, so only the title under the status bar is reported. Left out for one
    /// element: the title's overlap goes (it is either side of it) and its place under the status bar, while
    /// the 24-pt undo stays a small target by Apple's 44 pt.
    @Test func theRunsLayoutChecksAreTheDaemonsConfig() async throws {
        let (fixture, _, host, folder) = try await start(config: "layout-checks:\n  target-size: wcag-24px\n  off: [overlap]\n")
        defer { try? FileManager.default.removeItem(at: folder) }
        let found = try await problems(fixture)
        #expect(found.map { $0.prefix { $0 != ":" } } == ["title outside-safe-area"], "\(found)")
        withExtendedLifetime((fixture, host)) {}
        let (byElement, _, otherHost, otherFolder) = try await start(
            config: "layout-checks:\n  off: [\"overlap title\", \"outside-safe-area title\"]\n")
        defer { try? FileManager.default.removeItem(at: otherFolder) }
        let left = try await problems(byElement)
        #expect(left.map { $0.prefix { $0 != ":" } } == ["undo small-target"], "\(left)")
        withExtendedLifetime((byElement, otherHost)) {}
    }

    @Test func eachPlantedBugIsFoundByItsRuleAndTheOneThirdOnlyThere() async throws {
        let (fixture, recorder, host, folder) = try await start()
        defer { try? FileManager.default.removeItem(at: folder) }
        // 694 x 768 (Split View 2/3): three problems; the sidebar fits.
        var found = try await problems(fixture)
        #expect(found.map { $0.prefix { $0 != ":" } } == [
            "title outside-safe-area", "subtitle & title overlap", "undo small-target"], "\(found)")
        #expect(found[0].hasSuffix("text 'title' (16, 0, 200, 40) reaches 20 pt past the safe area's top edge (safe-area insets top 20, left 0, bottom 0, right 0)"))
        #expect(found[1].hasSuffix("overlap by 200 x 10 pt, and neither holds the other"))
        #expect(found[2].hasSuffix("control 'undo' is 24 x 24 pt; on an iPad a control needs at least 44 x 44 pt to be hit reliably"))
        // The built-in adapters' layouts of mail have none.
        let all = try await recorder.client.state().window("mail")
        #expect(all?.layoutProblems.allSatisfy { $0.adapter == "planted.layout" } == true)

        // Split View 1/3 (mail 320 wide): the sidebar overflows, and only there. Not strict: still reported.
        let oneThird = try await recorder.transition(of: "mail", "split-one-third") {
            let call = try await fixture.gdbus("call", ["--dest", "org.traitd.Layout1", "--object-path", "/org/traitd/Layout1", "--method",
                                                        "org.traitd.Layout1.Display.SetArrangement", "split-one-third"])
            #expect(call.status == 0, "\(call)")
        }
        #expect(oneThird.reported.contains("planted.layout") && oneThird.failed.isEmpty, "\(oneThird)")
        found = try await problems(fixture)
        #expect(found.first == "sidebar outside-window: container 'sidebar' (0, 0, 400, 768) reaches 80 pt past the window's right edge (the window is 320 x 768 pt)", "\(found)")
        #expect(found.count == 4)

        // traitctl status lists them under the table, status --json too.
        let status = try await fixture.traitctl(["status"])
        #expect(status.stdout.contains("layout problems:\n  mail planted.layout sidebar outside-window: container 'sidebar'"), "\(status.stdout)")
        let json = try await fixture.traitctl(["status", "--json"])
        #expect(json.stdout.contains("\"layoutProblems\"") && json.stdout.contains("\"small-target\""), "\(json.stdout)")

        // Back to 2/3: the overflow is gone with the report that had it.
        _ = try await recorder.transition(of: "mail", "split-two-thirds") { try await recorder.client.setArrangement(.splitTwoThirds) }
        #expect(try await problems(fixture).count == 3)
        withExtendedLifetime(host) {}
    }

    @Test func strictLayoutsCompleteAReportWithProblemsAsFailed() async throws {
        let (fixture, recorder, host, folder) = try await start(["--strict-layouts"])
        defer { try? FileManager.default.removeItem(at: folder) }
        let done = try await recorder.transition(of: "mail", "portrait") { try await recorder.client.rotate(to: .portrait) }
        #expect(done.failed == ["planted.layout"], "\(done)")
        #expect(done.reported == ["split-columns", "support-panel", "support-panel.layout"], "\(done)")
        // Its frames are still published, so a person can see what was wrong.
        #expect(try await recorder.layouts(of: "mail").frames["planted.layout"]?["title"] == [16, 0, 200, 40])
        #expect(try await problems(fixture).count == 3)
        withExtendedLifetime(host) {}
    }
}
