import DBus
import Foundation
import TestSupport
import TraitClient
import Testing

/// `traitd-adapters --web`: a plain HTML page in Debian's Chromium, unmodified, as notes' adapter `web`,
/// through Split View widths, dark mode and Reduce Motion; and what happens when the browser dies.
@Suite struct WebBridgeTests {
    static let page = fixture("adaptive.html")

    /// A daemon (transitions wait a minute: completions are the reports') and a host running only the page, once
    /// its first layout is in.
    func start() async throws -> (DaemonFixture, Recorder, HostProcess) {
        let fixture = try await DaemonFixture(config: "transitions:\n  deadline-ms: 60000\n")
        let recorder = try await Recorder(fixture)
        let host = try HostProcess(fixture, ["--only-layouts", "--web", "notes=file://\(Self.page.path)"])
        try await recorder.until("the page's first layout", timeout: 60) {
            (try? await recorder.layouts(of: "notes").frames["web"]) != nil
        }
        return (fixture, recorder, host)
    }

    /// The test page `name` (under Fixtures/web).
    static func fixture(_ name: String) -> URL {
        Binaries.repository.appendingPathComponent("Tests/IntegrationTests/Fixtures/web/\(name)")
    }

    /// A daemon whose transitions wait a minute and a host running only `page` (given by `place`, which may put
    /// it beside files of the test's own in the bus's folder), once its adapter is registered.
    func startHost(_ place: (DaemonFixture) throws -> URL, options: [String] = [], registeredWithin timeout: Double = 30) async throws
        -> (DaemonFixture, Recorder, HostProcess) {
        let fixture = try await DaemonFixture(config: "transitions:\n  deadline-ms: 60000\n")
        let page = try place(fixture)
        let recorder = try await Recorder(fixture)
        let host = try HostProcess(fixture, ["--only-layouts", "--web", "notes=file://\(page.path)"] + options)
        try await registered(recorder, timeout: timeout)
        return (fixture, recorder, host)
    }

    /// Returns once the host's `web` adapter is registered (its page is loaded, or failed to load).
    func registered(_ recorder: Recorder, timeout: Double = 30) async throws {
        try await recorder.until("the web adapter's registration", timeout: timeout) { await recorder.isRegistered("web") }
    }

    func web(_ recorder: Recorder) async throws -> [String: [Double]] {
        try await recorder.layouts(of: "notes").frames["web"] ?? [:]
    }

    @Test func thePageFollowsWidthsAppearanceAndReduceMotion() async throws {
        let (fixture, recorder, host) = try await start()
        // 320 pt (Split View 2/3 gives notes the third): no sidebar; the header under the 20-pt status bar.
        var page = try await web(recorder)
        #expect(page["sidebar"] == nil && page["header"] == [0, 0, 320, 64], "\(page)")
        // 694 pt: past the 678-px media query, the sidebar shows and the content moves right of it.
        var done = try await recorder.transition(of: "notes", "split-one-third") { try await recorder.client.setArrangement(.splitOneThird) }
        #expect(done.reported == ["web"], "\(done)")
        page = try await web(recorder)
        #expect(page["sidebar"] == [0, 100, 300, 400] && page["content"]?[0] == 300, "\(page)")
        // 507 pt: no sidebar again.
        done = try await recorder.transition(of: "notes", "split-half") { try await recorder.client.setArrangement(.splitHalf) }
        page = try await web(recorder)
        #expect(page["sidebar"] == nil && page["header"] == [0, 0, 507, 64], "\(page)")
        // Dark: prefers-color-scheme makes the header taller.
        done = try await recorder.transition(of: "notes", "dark") { try await recorder.client.setTraits([.appearance: "dark"]) }
        #expect(try await web(recorder)["header"] == [0, 0, 507, 80])
        // Reduce Motion, a property and no transition: the page hears it at once and its layout is reported as
        // the window as it is (the spinner goes), with no other command (it once waited for the next transition).
        #expect(try await web(recorder)["spinner"] != nil)
        _ = try await recorder.client.setTraits([.reduceMotion: "on"])
        try await recorder.until("the page's layout without its spinner") { (try? await web(recorder))?["spinner"] == nil }
        page = try await web(recorder)
        #expect(page["spinner"] == nil && page["greeting"] != nil, "\(page)")
        done = try await recorder.transition(of: "notes", "portrait") { try await recorder.client.rotate(to: .portrait) }
        #expect(try await web(recorder)["spinner"] == nil, "still reduced at the next transition")
        // What the page is, from its tags: the button a control (a 60 x 30 one: too small), the header a container.
        let extras = try await recorder.layouts(of: "notes").extras["web"]
        #expect(extras?["kinds"]?.dictionary?["back"]?.unwrapped.string == "control", "\(String(describing: extras))")
        let problems = try await recorder.client.state().window("notes")?.layoutProblems ?? []
        #expect(problems.contains { $0.adapter == "web" && $0.element == "back" && $0.rule == .smallTarget }, "\(problems)")
        withExtendedLifetime((fixture, host)) {}
    }

    /// Elements whose ids an object inherits (`constructor`, `toString`, `__proto__`) are reported as any id is:
    /// the page's frames are gathered in maps with no inherited keys.
    @Test func idsAnObjectInheritsAreReported() async throws {
        let (fixture, recorder, host) = try await startHost { _ in Self.fixture("inherited-ids.html") }
        try await recorder.until("the page's first layout", timeout: 60) {
            (try? await recorder.layouts(of: "notes").frames["web"]) != nil
        }
        let frames = try await web(recorder)
        #expect(frames["constructor"] == [0, 0, 320, 40] && frames["toString"] == [0, 40, 320, 40], "\(frames)")
        #expect(frames["__proto__"] == [0, 80, 320, 40] && frames["hasOwnProperty"] != nil && frames["plain"] != nil, "\(frames)")
        withExtendedLifetime((fixture, host)) {}
    }

    /// Controls without ids (issue 62, item 6: a problem names its culprit) are reported by their role and
    /// accessible name, as the desktop bridge names widgets: a link by its text or `aria-label`, a second button
    /// of the same name as `.2`, a field by its label, an image link by its `alt`. A link inside running text, a
    /// skip link moved off the page and a transparent button are not what a person sees as controls, and are not.
    @Test func controlsWithoutIdsAreNamedByRoleAndName() async throws {
        let (fixture, recorder, host) = try await startHost { _ in Self.fixture("controls.html") }
        try await recorder.until("the page's first layout", timeout: 60) {
            (try? await recorder.layouts(of: "notes").frames["web"]) != nil
        }
        let frames = try await web(recorder)
        let named = Set(frames.keys.filter { $0.contains(":") })
        #expect(named == ["link:Home", "link:About_us", "button:Copy", "button:Copy.2", "textbox:Your_name", "link:Shop"],
                "\(frames)")
        #expect(frames["button:Copy"]?.suffix(2) == [60, 30], "\(frames)")
        let problems = try await recorder.client.state().window("notes")?.layoutProblems ?? []
        #expect(problems.contains { $0.element == "button:Copy.2" && $0.rule == .smallTarget }, "\(problems)")
        withExtendedLifetime((fixture, host)) {}
    }

    /// The page's accessibility snapshot (`--aria-snapshots`, `traitctl aria`), as Playwright writes aria
    /// snapshots: landmarks, a heading's level, text around a `<strong>` as one, a checked box named by its label, a
    /// disabled button, nothing hidden from assistive technology. A golden taken at 694 pt fails at 320 pt, where
    /// the page renames its button, naming the line; a golden that names the button `/^Copy/` matches both.
    @Test func thePagesAccessibilitySnapshotAndItsGolden() async throws {
        let (fixture, recorder, host) = try await startHost({ _ in Self.fixture("aria.html") }, options: ["--aria-snapshots"])
        func aria(_ arguments: [String] = []) async throws -> (status: Int32, stdout: String, stderr: String) {
            try await ChildProcess.run(Binaries.path("traitctl"), ["aria", "notes", "--bus", fixture.bus.address] + arguments)
        }
        _ = try await recorder.transition(of: "notes", "694 pt") { try await recorder.client.setArrangement(.splitOneThird) }
        let wide = try await aria()
        // The page's golden snapshot at 400 px and wider, one file the Python package's test matches too.
        let golden = Self.fixture("aria.yaml").path
        let snapshot = try String(contentsOfFile: golden, encoding: .utf8)
        #expect(wide.status == 0 && wide.stdout == snapshot, "\(wide)")
        let pattern = fixture.bus.folder.appendingPathComponent("notes-pattern.aria.yaml").path
        try snapshot.replacing("button \"Copy\"", with: "button /^Copy/").write(toFile: pattern, atomically: true, encoding: .utf8)
        let same = try await aria(["--check", golden])
        #expect(same.status == 0 && same.stdout == "notes web: matches \(golden)\n", "\(same)")

        _ = try await recorder.transition(of: "notes", "320 pt") { try await recorder.client.setArrangement(.splitTwoThirds) }
        let renamed = try await aria(["--check", golden])
        #expect(renamed.status == 1 && renamed.stdout.contains(
            "notes web: the snapshot differs from \(golden): line 10: the golden has `  - button \"Copy\"`, the snapshot `  - button \"Copy link\"`"),
                "\(renamed)")
        let matched = try await aria(["--check", pattern])
        #expect(matched.status == 0, "\(matched)")
        // An app with no window is said to have none.
        let none = try await ChildProcess.run(Binaries.path("traitctl"), ["aria", "nobody", "--bus", fixture.bus.address])
        #expect(none.status == 1 && none.stderr.contains("nobody has no window"), "\(none)")
        withExtendedLifetime((fixture, host)) {}
    }

    /// A scenario with `aria: true` keeps each step's accessibility snapshot in its golden trace: checked as the
    /// trace is, line for line, except that a golden name written `/pattern/` matches a name it is found in. The
    /// page renames its button at 320 pt; a golden that still says "Copy" there fails, showing the line.
    @Test func aScenarioKeepsTheSnapshotInItsGoldenTrace() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("traitd-aria-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("aria.yaml"), trace = folder.appendingPathComponent("aria.trace").path
        try """
            device: ipad-9.7
            web: { notes: \(Self.fixture("aria.html").path) }
            aria: true
            steps:
              - set: { arrangement: split-one-third }
              - set: { arrangement: split-two-thirds }

            """.write(to: file, atomically: true, encoding: .utf8)
        func scenario(_ arguments: [String]) async throws -> (status: Int32, stdout: String, stderr: String) {
            try await ChildProcess.run(Binaries.path("traitctl"), ["scenario", "run", file.path, "--private"] + arguments, timeout: 120)
        }
        let written = try await scenario(["--update", trace])
        #expect(written.status == 0, "\(written)")
        let text = try String(contentsOfFile: trace, encoding: .utf8)
        #expect(text.contains("aria notes web:\n  - banner:\n    - heading \"Sign up\" [level=1]\n"), "\(text)")
        #expect(text.contains("  - button \"Copy\"\n") && text.contains("  - button \"Copy link\"\n"), "\(text)")
        let same = try await scenario(["--check", trace])
        #expect(same.status == 0, "\(same)")
        // The golden says "Copy" where the page now says "Copy link": the run fails on that line.
        try text.replacing("  - button \"Copy link\"", with: "  - button \"Copy\"").write(toFile: trace, atomically: true, encoding: .utf8)
        let renamed = try await scenario(["--check", trace])
        #expect(renamed.status == 1 && renamed.stdout.contains("-     - button \"Copy\"\n+     - button \"Copy link\""), "\(renamed)")
        // A pattern matches both names.
        try text.replacing("  - button \"Copy link\"", with: "  - button /^Copy/").write(toFile: trace, atomically: true, encoding: .utf8)
        let pattern = try await scenario(["--check", trace])
        #expect(pattern.status == 0, "\(pattern)")
    }

    /// A scenario with `screenshots: true` keeps each step's picture beside its golden trace and checks it as
    /// Playwright's `toHaveScreenshot` does: the same page matches; with the sidebar narrowed from 300 to 200 px
    /// and the content moved with it, the picture differs, and the failure says what the frames say moved and
    /// writes the run's picture and the difference beside the golden for review.
    @Test func aScenariosGoldenPicturesAndWhatTheirFramesSayMoved() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("traitd-pictures-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let page = folder.appendingPathComponent("page.html")
        let original = try String(contentsOf: Self.fixture("adaptive.html"), encoding: .utf8)
        try original.write(to: page, atomically: true, encoding: .utf8)
        let file = folder.appendingPathComponent("pictures.yaml"), trace = folder.appendingPathComponent("pictures.trace").path
        try "device: ipad-9.7\nweb: { notes: page.html }\nscreenshots: true\nsteps:\n  - set: { arrangement: split-one-third }\n"
            .write(to: file, atomically: true, encoding: .utf8)
        func scenario(_ arguments: [String]) async throws -> (status: Int32, stdout: String, stderr: String) {
            try await ChildProcess.run(Binaries.path("traitctl"), ["scenario", "run", file.path, "--private"] + arguments, timeout: 120)
        }
        let written = try await scenario(["--update", trace])
        #expect(written.status == 0 && written.stdout.contains("wrote \(trace).pictures (1 pictures)"), "\(written)")
        let golden = "\(trace).pictures/01-notes-web.png"
        #expect(FileManager.default.fileExists(atPath: golden), "\(written)")
        let same = try await scenario(["--check", trace])
        #expect(same.status == 0 && same.stdout.contains("1 pictures match"), "\(same)")

        try original.replacing("width: 300px", with: "width: 200px").replacing("margin-left: 300px", with: "margin-left: 200px")
            .write(to: page, atomically: true, encoding: .utf8)
        let changed = try await scenario(["--check", trace])
        #expect(changed.status == 1, "\(changed)")
        #expect(changed.stdout.contains("step 1 (set arrangement split-one-third): notes web: ")
                && changed.stdout.contains("pixels differ, in x ")
                && changed.stdout.contains("the frames say content: x 300 -> 200, width 394 -> 494; greeting: x 308 -> 208, "
                                           + "width 378 -> 478; sidebar: width 300 -> 200; spinner: x 308 -> 208 (01-notes-web.actual.png, "
                                           + "01-notes-web.diff.png)"),
                "\(changed)")
        #expect(FileManager.default.fileExists(atPath: "\(trace).pictures/01-notes-web.diff.png")
                && FileManager.default.fileExists(atPath: "\(trace).pictures/01-notes-web.actual.png"))
    }

    /// A page that never finishes loading (its frame reads a named pipe nobody writes): the wait for its load
    /// event gives up at its limit, the bridge registers all the same, and each transition completes `failed`
    /// with the reason at once, while the page is loaded again in the background, never `missed` (once, such a
    /// page kept the host from registering any adapter; then each transition waited out another load, 20 s,
    /// and missed a deadline shorter than that).
    @Test func aPageThatNeverLoadsFailsWithItsReasonInsteadOfGoingSilent() async throws {
        let (fixture, recorder, host) = try await startHost({ fixture in
            let page = fixture.bus.folder.appendingPathComponent("stuck.html")
            try FileManager.default.copyItem(at: Self.fixture("stuck.html"), to: page)
            #expect(mkfifo(fixture.bus.folder.appendingPathComponent("stalled.fifo").path, 0o600) == 0)
            return page
        }, registeredWithin: 60)
        let done = try await recorder.transition(of: "notes", "portrait", timeout: 60) { try await recorder.client.rotate(to: .portrait) }
        #expect(done.failed == ["web"] && done.missed.isEmpty, "\(done)\n\(host.log)")
        let error = try await recorder.layouts(of: "notes").extras["web"]?["error"]?.unwrapped.string
        #expect(error?.contains("the page's load event did not happen within") == true, "\(String(describing: error))")
        #expect(error?.hasSuffix("(loading it again meanwhile)") == true, "\(String(describing: error))")
        #expect(host.log.contains("web for notes is not ready"), "\(host.log)")
        withExtendedLifetime((fixture, host)) {}
    }

    /// A page that opens an alert at every resize: the bridge dismisses it, as Playwright does by default, and
    /// reports the page (a dialog left open stops the page's script, and every call to it waited).
    @Test func aDialogIsDismissedAndThePageReported() async throws {
        let (fixture, recorder, host) = try await startHost { _ in Self.fixture("dialog.html") }
        let done = try await recorder.transition(of: "notes", "portrait") { try await recorder.client.rotate(to: .portrait) }
        #expect(done.reported == ["web"], "\(done)\n\(host.log)")
        #expect(try await web(recorder)["content"] == [0, 0, 320, 40])
        withExtendedLifetime((fixture, host)) {}
    }

    /// A report traitd refuses (an element 30 million pt down, past its coordinates): the bridge reports the
    /// refusal as its failure, and the transition completes `failed` with traitd's words at once.
    @Test func aRefusedReportIsReportedAsTheLayoutsFailure() async throws {
        let (fixture, recorder, host) = try await startHost { _ in Self.fixture("far.html") }
        let done = try await recorder.transition(of: "notes", "portrait", timeout: 60) { try await recorder.client.rotate(to: .portrait) }
        #expect(done.failed == ["web"] && done.missed.isEmpty, "\(done)\n\(host.log)")
        let error = try await recorder.layouts(of: "notes").extras["web"]?["error"]?.unwrapped.string
        #expect(error?.contains("traitd refused the layout") == true && error?.contains("10000000") == true, "\(String(describing: error))")
        withExtendedLifetime((fixture, host)) {}
    }

    /// A page wider than its 320-pt window (a 400-px table, no id): Chromium zooms it out to fit, the bridge
    /// reports what is drawn in the window's points, and traitd says one thing: `reflow`, naming the table. (It
    /// once reported a 400 x 960 viewport, and content 192 pt past the window's bottom edge.)
    @Test func aPageWiderThanItsWindowIsOneReflowProblem() async throws {
        let (fixture, recorder, host) = try await startHost { _ in Self.fixture("wide.html") }
        let done = try await recorder.transition(of: "notes", "portrait") { try await recorder.client.rotate(to: .portrait) }
        #expect(done.reported == ["web"], "\(done)\n\(host.log)")
        let title = try #require(try await web(recorder)["title"])
        // 320 CSS px wide (the device's width), 40 px down, drawn at 320/400 of that.
        #expect(abs(title[1] - 32) < 1 && abs(title[2] - 256) < 1 && abs(title[3] - 32) < 1, "\(title)")
        let problems = try await recorder.client.state().window("notes")?.layoutProblems ?? []
        #expect(problems.map(\.rule) == [.reflow], "\(problems)")
        #expect(problems.first?.element == "body>table" && problems.first?.message.contains("400 pt wide in a 320-pt window") == true,
                "\(problems)")
        // Taller than the window too: the section far down scrolls in the viewport, and its anchor is text.
        let extras = try await recorder.layouts(of: "notes").extras["web"] ?? [:]
        #expect(extras["scrolledIn"]?.unwrapped.dictionary?["deep"]?.string == "viewport", "\(extras)")
        #expect(extras["kinds"]?.unwrapped.dictionary?["deep"]?.string == "text", "\(extras)")
        withExtendedLifetime((fixture, host)) {}
    }

    /// Text a page cuts, each way it can (an ellipsis, a clipped edge, lines clamped, a bar too short for its
    /// button's text), is one `clipped-text` problem each, named by its id or, without one, its place; text that
    /// fits, text a person scrolls, text hidden on purpose for screen readers and a carousel's slide wholly outside
    /// it are not problems.
    @Test func textThePageCutsIsClippedText() async throws {
        let (fixture, recorder, host) = try await startHost { _ in Self.fixture("clipped.html") }
        let done = try await recorder.transition(of: "notes", "portrait") { try await recorder.client.rotate(to: .portrait) }
        #expect(done.reported == ["web"], "\(done)\n\(host.log)")
        let problems = try await recorder.client.state().window("notes")?.layoutProblems ?? []
        let clipped = problems.filter { $0.rule == .clippedText }
        #expect(clipped.map(\.element).sorted() == ["#panel>div", "button:Go", "summary", "title"], "\(problems.map { "\($0.element) \($0.rule): \($0.message)" })")
        let title = try #require(clipped.first { $0.element == "title" })
        #expect(title.message.contains("is cut short with an ellipsis") && title.message.contains("its element 120 x"), "\(title.message)")
        #expect(clipped.first { $0.element == "summary" }?.message.contains("shows fewer lines than it has") == true, "\(clipped)")
        #expect(clipped.first { $0.element == "#panel>div" }?.message.contains("is cut off at an edge (its element's or a container's)") == true, "\(clipped)")
        withExtendedLifetime((fixture, host)) {}
    }

    /// Text whose colours stand out too little from its background is one `low-contrast` problem each (WCAG
    /// 1.4.3), with its ratio and the one asked: grey on white, pale on a pale panel (named by its place), and in
    /// dark mode a colour set for a light page on dark mode's canvas; large text that meets 3:1, text over a
    /// picture and a disabled button's label are not problems. A rule switched off is not reported.
    @Test func textThatStandsOutTooLittleIsLowContrast() async throws {
        let (fixture, recorder, host) = try await startHost { _ in Self.fixture("contrast.html") }
        _ = try await recorder.transition(of: "notes", "portrait") { try await recorder.client.rotate(to: .portrait) }
        var problems = try await recorder.client.state().window("notes")?.layoutProblems.filter { $0.rule == .lowContrast } ?? []
        #expect(problems.map(\.element).sorted() == ["body>div>p", "faint"], "\(problems.map { "\($0.element): \($0.message)" })")
        let faint = try #require(problems.first { $0.element == "faint" })
        #expect(faint.message == "the text of 'faint' stands out from its background by 2.84:1; WCAG 1.4.3 asks 4.5:1 of text of its size",
                "\(faint.message)")
        _ = try await recorder.transition(of: "notes", "dark") { try await recorder.client.setTraits([.appearance: "dark"]) }
        problems = try await recorder.client.state().window("notes")?.layoutProblems.filter { $0.rule == .lowContrast } ?? []
        #expect(problems.map(\.element).contains("dim") && !problems.map(\.element).contains("fine")
                && !problems.map(\.element).contains("large"), "\(problems.map { "\($0.element): \($0.message)" })")
        withExtendedLifetime((fixture, host)) {}
    }

    /// Part of the corpus of docs/measurements.md in every run: Python's own `library/functions.html` (Debian's
    /// python3.11-doc, no one here wrote it) in a 320-pt window at the largest text size. What a person sees on
    /// the screenshot is what traitd says: the page scrolls sideways (`reflow`, 947 pt of text the width of a
    /// 320-pt window; once refused as too tall, leaving every transition `missed`), and the header's four
    /// controls, the menu button (39 pt square), the logo, the search field and its Go button, all too small to
    /// tap, sit under the status bar (only the menu button has an id: the others are named by role and name), and
    /// the bar, 30 px tall, cuts the Go button's text.
    /// Nothing far down the page is outside the window.
    /// Further down, every example's `>>>` toggle (copybutton.js colours it as its code block's pale green
    /// border, on the block's pale green) stands out by 1.77:1: `low-contrast`, true by WCAG's rule.
    @Test func pythonsFunctionsPageAtTheLargestTextSize() async throws {
        let page = URL(fileURLWithPath: "/usr/share/doc/python3.11/html/library/functions.html")
        let (fixture, recorder, host) = try await startHost { _ in page }
        _ = try await recorder.transition(of: "notes", "the largest text") {
            try await recorder.client.setTraits([.contentSize: "accessibility-extra-extra-extra-large"])
        }
        let problems = try await recorder.client.state().window("notes")?.layoutProblems ?? []
        #expect(problems.filter { $0.rule != .lowContrast }.map { "\($0.rule) \($0.element)" }.sorted() == [
            "clipped-text button:Go", "outside-safe-area button:Go", "outside-safe-area link:Logo", "outside-safe-area menuToggler",
            "outside-safe-area textbox:Quick_search", "reflow #built-in-functions>dl.19>dd>div.1>div>pre>span.16",
            "small-target button:Go", "small-target link:Logo", "small-target menuToggler", "small-target textbox:Quick_search",
        ], "\(problems.map { "\($0.rule) \($0.element): \($0.message)" })")
        let toggles = problems.filter { $0.rule == .lowContrast }
        #expect(!toggles.isEmpty && toggles.allSatisfy { $0.element.hasSuffix(">div>span") && $0.message.contains("by 1.77:1") },
                "\(toggles.map { "\($0.element): \($0.message)" })")
        let reflow = try #require(problems.first { $0.rule == .reflow })
        #expect(reflow.message.hasPrefix("the page is 9"), "\(reflow.message)")
        withExtendedLifetime((fixture, host)) {}
    }

    /// The same page from the configuration file traitd and the host both read (`bridges:`), not from --web.
    @Test func thePageFromTheConfigurationFile() async throws {
        let config = "transitions:\n  deadline-ms: 60000\nbridges:\n  web: { notes: \"file://\(Self.page.path)\" }\n"
        let fixture = try await DaemonFixture(config: config)
        let recorder = try await Recorder(fixture)
        let host = try HostProcess(fixture, ["--only-layouts", "--config", fixture.bus.folder.appendingPathComponent("traitd.yaml").path])
        try await recorder.until("the page's first layout", timeout: 60) {
            (try? await recorder.layouts(of: "notes").frames["web"]) != nil
        }
        let done = try await recorder.transition(of: "notes", "split-half") { try await recorder.client.setArrangement(.splitHalf) }
        #expect(done.reported == ["web"], "\(done)")
        #expect(try await web(recorder)["header"] == [0, 0, 507, 64])
        withExtendedLifetime((fixture, host)) {}
    }

    /// The browser killed: the page's next report is `failed`, naming why; the transition completes with it at
    /// once, not at the deadline, and the daemon and host carry on.
    @Test func aKilledBrowserIsReportedFailedAndNothingStalls() async throws {
        let (fixture, recorder, host) = try await start()
        let log = host.log
        let pid = try #require(log.firstMatch(of: /\(pid (\d+)\)/).flatMap { Int32($0.1) }, "\(log)")
        kill(pid, SIGKILL)
        let done = try await recorder.transition(of: "notes", "portrait") { try await recorder.client.rotate(to: .portrait) }
        #expect(done.failed == ["web"] && done.missed.isEmpty, "\(done)")
        let extras = try await recorder.layouts(of: "notes").extras["web"]
        #expect(extras?["error"]?.unwrapped.string?.contains("closed its debugging pipe") == true, "\(String(describing: extras))")
        // Still there for the next command.
        let again = try await recorder.transition(of: "notes", "landscape") { try await recorder.client.rotate(to: .landscapeLeft) }
        #expect(again.failed == ["web"], "\(again)")
        withExtendedLifetime((fixture, host)) {}
    }

    /// Stopped with SIGTERM, the host ends the browser it started and reaps it.
    @Test func stoppingTheHostEndsTheBrowser() async throws {
        let (fixture, _, host) = try await start()
        let browser = try #require(host.log.firstMatch(of: /\(pid (\d+)\)/).flatMap { Int32($0.1) }, "\(host.log)")
        host.process.kill(SIGTERM)
        #expect(await host.process.wait() == 0, "\(host.log)")
        #expect(kill(browser, 0) == -1 && errno == ESRCH, "the browser (pid \(browser)) is still there")
        withExtendedLifetime(fixture) {}
    }
}
