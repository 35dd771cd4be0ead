import Foundation
import TestSupport
import Testing

@testable import RunReport

/// `traitctl explore` end to end: the private bus, traitd --testing and the adapter host started by traitctl,
/// the walks and their shrinking by Hypothesis (`python3 -m traitd.explore`), and what it leaves behind.
@Suite struct ExploreTests {
    /// A sidebar 400 pt wide: it fits every window mail takes but one a third of the screen wide.
    static let sidebar = """
        app mail
        view sidebar content
        kind container sidebar content
        H:|[sidebar(400)]
        V:|[sidebar]|
        H:|[content]|
        V:|[content]|

        """

    func folder(_ name: String, layout: String) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("traitd-explore-\(name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("layouts"), withIntermediateDirectories: true)
        try layout.write(to: folder.appendingPathComponent("layouts/\(name).layout"), atomically: true, encoding: .utf8)
        return folder
    }

    func explore(_ folder: URL, seed: Int, steps: Int, report: String? = nil) async throws -> (status: Int32, stdout: String, stderr: String) {
        try await ChildProcess.run(Binaries.path("traitctl"), [
            "explore", "--private", "--seed", String(seed), "--steps", String(steps),
            "--out", folder.appendingPathComponent("out").path, "--layouts", folder.appendingPathComponent("layouts").path,
            // Adapters that miss are a finding: on a busy machine a layout file must never miss for want of time.
            "--deadline-ms", "60000",
        ] + (report.map { ["--report", $0] } ?? []))
    }

    /// The planted overflow is found, shrunk to a walk of one step (a divider drag or an arrangement that makes
    /// mail one third wide), written as a strict scenario that fails on its own and matches its trace.
    @Test func aPlantedOverflowIsFoundShrunkAndWrittenAsAScenarioThatFails() async throws {
        let folder = try folder("sidebar", layout: Self.sidebar)
        defer { try? FileManager.default.removeItem(at: folder) }
        let report = folder.appendingPathComponent("report").path
        let run = try await explore(folder, seed: 1, steps: 300, report: report)
        #expect(run.status == 1, "\(run)")
        // Its report: the shrunk walk, failed, the sidebar's frame pointing at its problem.
        let data = try Data(contentsOf: URL(fileURLWithPath: report + "/report.json"))
        let shown = try #require(try JSONDecoder().decode(Report.self, from: data).runs.first)
        let sidebar = shown.steps.last?.windows.first { $0.adapter == "sidebar.layout" }?.elements.first { $0.name == "sidebar" }
        #expect(!shown.passed && shown.failures.contains { $0.contains("sidebar outside-window") }, "\(shown.failures)")
        #expect(sidebar.map { $0.problems.map { shown.problems[$0].rule } } == ["outside-window"], "\(String(describing: sidebar))")
        #expect(run.stdout.contains("the shortest failing walk: 1 step(s)"), "\(run.stdout)")
        // The seed is tied to the Hypothesis version, so the version is said; the walks are the reproduction: the
        // shortest replayed on its own (no Hypothesis), and the walk as first found kept beside it.
        let version = try #require(run.stdout.firstMatch(of: /seed 1 with Hypothesis ([0-9.]+),/)?.1, "\(run.stdout)")
        #expect(run.stdout.contains("replayed on its own (traitctl scenario run, no Hypothesis): it fails the same way"), "\(run.stdout)")
        let found = try String(contentsOf: folder.appendingPathComponent("out/found.yaml"), encoding: .utf8)
        #expect(found.contains("# The first failing walk traitctl explore --seed 1 with Hypothesis \(version) found")
                && found.split(separator: "\n").filter { $0.hasPrefix("  - ") }.count >= 1, "\(found)")
        #expect(run.stdout.contains("layout problem: mail sidebar.layout sidebar outside-window: container 'sidebar' (0, 0, 400, 768) "
                                    + "reaches 80 pt past the window's right edge (the window is 320 x 768 pt)"), "\(run.stdout)")
        let scenario = folder.appendingPathComponent("out/failure.yaml")
        let text = try String(contentsOf: scenario, encoding: .utf8)
        let steps = text.split(separator: "\n").filter { $0.hasPrefix("  - ") }
        #expect(steps.count == 1, "\(text)")
        #expect(text.contains("layouts: [\(folder.appendingPathComponent("layouts").path)]") && text.contains("strict: true"), "\(text)")
        // On its own: it matches its golden trace and fails, naming the problem.
        let replay = try await ChildProcess.run(Binaries.path("traitctl"), [
            "scenario", "run", scenario.path, "--private", "--check", folder.appendingPathComponent("out/failure.trace").path,
        ])
        #expect(replay.status == 1 && replay.stdout.contains("matches"), "\(replay)")
        #expect(replay.stderr.contains("(strict): step") && replay.stderr.contains("sidebar outside-window"), "\(replay)")
    }

    /// A layout with no problem: the steps run out with none, and the same seed walks the same way twice.
    @Test func aCleanLayoutExploresWithNoFailureTheSameWayTwice() async throws {
        let folder = try folder("fill", layout: "app mail\nview content\nkind container content\nH:|[content]|\nV:|[content]|\n")
        defer { try? FileManager.default.removeItem(at: folder) }
        let first = try await explore(folder, seed: 7, steps: 40)
        let second = try await explore(folder, seed: 7, steps: 40)
        #expect(first.status == 0 && second.status == 0, "\(first)\(second)")
        func walks(_ out: String) -> String? { out.split(separator: "\n").last.map { String($0).replacing(/\([0-9.]+ steps\/s\)/, with: "") } }
        #expect(walks(first.stdout)?.contains("no failure (walks ") == true && first.stdout.contains(" with Hypothesis "), "\(first.stdout)")
        #expect(walks(first.stdout) == walks(second.stdout), "\(first.stdout)\n\(second.stdout)")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("out/failure.yaml").path))
    }

    @Test func withoutPrivateOrAdaptersItSaysWhatIsMissing() async throws {
        let noPrivate = try await ChildProcess.run(Binaries.path("traitctl"), ["explore", "--out", "/tmp/x", "--adapters"])
        #expect(noPrivate.status == 64 && noPrivate.stderr.contains("explore runs on a private bus (--private)"), "\(noPrivate)")
        let nothing = try await ChildProcess.run(Binaries.path("traitctl"), ["explore", "--private", "--out", "/tmp/x"])
        #expect(nothing.status == 64 && nothing.stderr.contains("nothing to explore: give --layouts DIR"), "\(nothing)")
    }
}
