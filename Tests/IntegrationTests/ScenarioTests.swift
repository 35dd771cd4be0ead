import Foundation
import TestSupport
import Testing

/// The seed scenarios and their golden traces (`Tests/Scenarios/`), run by `traitctl scenario run --private`:
/// a change of behaviour shows up as a trace diff to review (`--update` rewrites the trace).
@Suite struct ScenarioTests {
    static let folder = Binaries.repository.appendingPathComponent("Tests/Scenarios")
    static let seeds = ["support-panel", "split-columns", "xy-slider", "book-pages", "multitasking", "web-page", "every-step", "breakpoints"]

    func run(_ arguments: [String]) async throws -> (status: Int32, stdout: String, stderr: String) {
        try await ChildProcess.run(Binaries.path("traitctl"), ["scenario", "run"] + arguments)
    }

    @Test(arguments: seeds) func aSeedScenarioMatchesItsTrace(name: String) async throws {
        let scenario = Self.folder.appendingPathComponent(name + ".yaml").path
        let trace = Self.folder.appendingPathComponent(name + ".trace").path
        let result = try await run([scenario, "--private", "--check", trace])
        #expect(result.status == 0 && result.stdout.hasSuffix("matches \(trace)\n"), "\(result.stdout)\(result.stderr)")
    }

    /// One expected line changed: the check fails and shows that line against the run's, in context.
    @Test func aChangedTraceFailsWithADiff() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("traitd-scenario-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let golden = try String(contentsOf: Self.folder.appendingPathComponent("xy-slider.trace"), encoding: .utf8)
        let original = "layouts notes xy-slider: knob=(231.5,362,44,44) slider=(20,20,467,728)"
        #expect(golden.contains(original))
        let changed = folder.appendingPathComponent("xy-slider.trace")
        try golden.replacingOccurrences(of: original, with: "layouts notes xy-slider: knob=(0,0,44,44) slider=(20,20,467,728)")
            .write(to: changed, atomically: true, encoding: .utf8)
        let result = try await run([Self.folder.appendingPathComponent("xy-slider.yaml").path, "--private", "--check", changed.path])
        #expect(result.status == 1, "\(result)")
        #expect(result.stdout.contains("- layouts notes xy-slider: knob=(0,0,44,44) slider=(20,20,467,728)"), "\(result.stdout)")
        #expect(result.stdout.contains("+ " + original), "\(result.stdout)")
        // --update writes what the run gives: the golden trace again.
        let updated = try await run([Self.folder.appendingPathComponent("xy-slider.yaml").path, "--private", "--update", changed.path])
        let rewritten = try String(contentsOf: changed, encoding: .utf8)
        #expect(updated.status == 0 && rewritten == golden, "\(updated)")
    }

    /// A mistake in a scenario file: exit 65 with file:line:column and what was expected; nothing runs.
    @Test func aBadScenarioIsLocated() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("traitd-scenario-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("bad.yaml")
        try "device: ipad-9.7\nsteps:\n  - set: { orientation: sideways }\n".write(to: file, atomically: true, encoding: .utf8)
        let result = try await run([file.path, "--private"])
        #expect(result.status == 65, "\(result)")
        #expect(result.stderr.contains("bad.yaml:3:25: unknown orientation 'sideways'; expected one of: portrait"), "\(result.stderr)")
        try "device: ipad-9.7\nsteps:\n  - jump: 3\n".write(to: file, atomically: true, encoding: .utf8)
        let unknown = try await run([file.path, "--private"])
        #expect(unknown.status == 65 && unknown.stderr.contains("bad.yaml:3:5: unknown key 'jump'"), "\(unknown.stderr)")
    }

    /// Unmodified software in a scenario: GNOME Calculator as notes' adapter desktop and the test page as mail's
    /// adapter web. Their layouts are in the trace, and a second run matches the first (their pixels hang on the
    /// machine's fonts and the app's version, so no golden trace of them is committed: the run is checked
    /// against itself).
    @Test func aScenarioWithADesktopAppAndAWebPageIsReproducible() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("traitd-scenario-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let page = Binaries.repository.appendingPathComponent("Tests/IntegrationTests/Fixtures/web/adaptive.html").path
        let scenario = folder.appendingPathComponent("software.yaml")
        try """
            device: ipad-9.7
            orientation: landscape-left
            apps: { notes: gnome-calculator }
            web: { mail: \(page) }
            steps:
              - set: { arrangement: split-half }
              - set: { appearance: dark }

            """.write(to: scenario, atomically: true, encoding: .utf8)
        let trace = folder.appendingPathComponent("software.trace").path
        let first = try await run([scenario.path, "--private", "--update", trace])
        #expect(first.status == 0, "\(first)")
        let text = try String(contentsOfFile: trace, encoding: .utf8)
        #expect(text.contains("layouts notes desktop: ") && text.contains("button:Undo=(") && text.contains("layouts mail web: "), "\(text)")
        #expect(text.contains("notes TransitionCompleted #") && text.contains("reported=[desktop]"), "\(text)")
        let second = try await run([scenario.path, "--private", "--check", trace])
        #expect(second.status == 0 && second.stdout.hasSuffix("matches \(trace)\n"), "\(second)")
    }

    /// A scenario fails early and says where: an unknown device at its line before anything runs (65), a step
    /// the daemon refuses by its number, title and line, and a scenario that needs adapters against a daemon
    /// that has none.
    /// A matrix without steps is its start: when an adapter's layout fails there (600 pt wanted in a 320-pt
    /// window), the run ends at once and fails, naming the adapter and why (the wait for its frames once never
    /// ended: a failed report has none).
    @Test func aStartWhoseLayoutFailsEndsAndSaysWhy() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("traitd-scenario-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("layouts"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try "app notes\nview wide\nH:|[wide]|\nV:|[wide]|\nwide.width >= 600\n"
            .write(to: folder.appendingPathComponent("layouts/wide.layout"), atomically: true, encoding: .utf8)
        let file = folder.appendingPathComponent("start.yaml")
        try "device: ipad-9.7\nstrict: true\nlayouts: [layouts]\nmatrix:\n  device: [ipad-9.7]\n".write(to: file, atomically: true, encoding: .utf8)
        let result = try await run([file.path, "--private", "--matrix"])
        #expect(result.status == 1, "\(result)")
        #expect(result.stderr.contains("the start: notes wide.layout failed:") && result.stderr.contains("wide.width >= 600"), "\(result)")
    }

    @Test func scenariosFailEarlyAndSayWhere() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("traitd-scenario-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("early.yaml")
        try "device: ipad-9.7\nsteps:\n  - set: { arrangement: full }\n  - set: { device: ipad-97 }\n".write(to: file, atomically: true, encoding: .utf8)
        let unknown = try await run([file.path, "--private"])
        #expect(unknown.status == 65 && unknown.stderr.contains("early.yaml:4:20: unknown device 'ipad-97'; did you mean ipad-9.7? traitctl devices lists the 30 there are"), "\(unknown)")
        #expect(unknown.stdout.isEmpty, "nothing ran")
        try "device: iphone-8\nsteps:\n  - set: { appearance: dark }\n  - set: { arrangement: split-half }\n".write(to: file, atomically: true, encoding: .utf8)
        let refused = try await run([file.path, "--private"])
        #expect(refused.status == 1 && refused.stderr.contains("step 2 (set arrangement split-half, line 4): iphone-8 does not offer split-half"), "\(refused)")
        // Against a daemon with no adapter host: refused, saying so, instead of a trace without them.
        let fixture = try await DaemonFixture()
        try "device: ipad-9.7\nadapters: true\nsteps:\n  - set: { arrangement: full }\n".write(to: file, atomically: true, encoding: .utf8)
        let bare = try await run([file.path, "--bus", fixture.bus.address])
        #expect(bare.status == 1 && bare.stderr.contains("needs adapters (adapters: true or layouts:) but the daemon on the \(fixture.bus.address) bus has none registered for any app"), "\(bare)")
    }

    /// A baseline of known problems (`--baseline`): written by `--update-baseline` from a layout with planted
    /// problems (two views overlapping, both under the status bar), the same run then passes and says so; with
    /// the second view replaced by a third, its problems are new and fail the run, named, and the second's are
    /// resolved; a line that is not a problem is refused at its line and column before anything runs.
    @Test func aBaselineFailsOnlyOnNewProblemsAndSaysWhichAreKnownAndResolved() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("traitd-baseline-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("layouts"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let layout = folder.appendingPathComponent("layouts/planted.layout")
        func plant(_ views: [String]) throws {
            let lines = views.enumerated().map { "H:|-\($0.offset * 100)-[\($0.element)(200)]\nV:|[\($0.element)(100)]" }
            try ("app notes\nview " + views.joined(separator: " ") + "\n" + lines.joined(separator: "\n") + "\n")
                .write(to: layout, atomically: true, encoding: .utf8)
        }
        try plant(["a", "b"])
        let file = folder.appendingPathComponent("planted.yaml")
        try "device: ipad-9.7\nlayouts: [layouts]\nsteps:\n  - set: { arrangement: full }\n".write(to: file, atomically: true, encoding: .utf8)
        let baseline = folder.appendingPathComponent("baseline.txt").path
        let written = try await run([file.path, "--private", "--baseline", baseline, "--update-baseline"])
        #expect(written.status == 0 && written.stdout.contains("wrote \(baseline) (3 problems)"), "\(written)")
        let text = try String(contentsOfFile: baseline, encoding: .utf8)
        #expect(text.hasSuffix("notes outside-safe-area a\nnotes outside-safe-area b\nnotes overlap a & b\n"), "\(text)")
        // One file for both: the Python package (the pytest plugin's --traitd-baseline) reads what traitctl wrote,
        // and writes it again byte for byte.
        var environment = ProcessInfo.processInfo.environment
        environment["PYTHONPATH"] = Binaries.repository.appendingPathComponent("clients/python").path
        environment["PYTHONDONTWRITEBYTECODE"] = "1"
        let python = try await ChildProcess.run("/usr/bin/python3", [
            "-c", "import sys; from traitd import baseline; sys.stdout.write(baseline.text(baseline.read(sys.argv[1])))", baseline,
        ], environment: environment)
        #expect(python.status == 0 && python.stdout == text, "\(python)")

        let same = try await run([file.path, "--private", "--baseline", baseline])
        #expect(same.status == 0 && same.stdout.contains("baseline \(baseline): 0 new, 3 known, 0 resolved"), "\(same)")
        try plant(["a", "c"])
        let changed = try await run([file.path, "--private", "--baseline", baseline])
        #expect(changed.status == 1, "\(changed)")
        #expect(changed.stdout.contains("baseline \(baseline): 2 new, 1 known, 2 resolved\n  new: notes outside-safe-area c\n"
                                        + "  new: notes overlap a & c\n  resolved: notes outside-safe-area b\n  resolved: notes overlap a & b"),
                "\(changed)")
        #expect(changed.stderr.contains("(not in the baseline): step 1 (set arrangement full): layout problem: notes planted.layout"), "\(changed)")

        try "# known\nnotes overlap a & b\nnotes overlaps a\n".write(toFile: baseline, atomically: true, encoding: .utf8)
        let bad = try await run([file.path, "--private", "--baseline", baseline])
        #expect(bad.status == 65 && bad.stderr.contains("\(baseline):3:7: 'overlaps' is not a rule: did you mean overlap?"), "\(bad)")
        #expect(bad.stdout.isEmpty, "nothing ran")
    }
}
