import Foundation
import TestSupport
import Testing

/// `traitctl scenario run --matrix`: a scenario once per combination of its matrix, each on a private daemon
/// and against its own golden trace (`Tests/Scenarios/matrix/`), with a contact sheet and coverage.
@Suite struct ScenarioMatrixTests {
    static let folder = Binaries.repository.appendingPathComponent("Tests/Scenarios/matrix")

    func run(_ arguments: [String]) async throws -> (status: Int32, stdout: String, stderr: String) {
        try await ChildProcess.run(Binaries.path("traitctl"), ["scenario", "run"] + arguments)
    }

    func temporaryFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("traitd-matrix-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// 4 devices x 2 orientations x 2 appearances: 16 runs, each matching its trace; the sheet is a PNG of one
    /// card each; the coverage names what ran (the 12.9" iPad's regular full screen, an iPhone X-class phone
    /// compact both ways in landscape) and what never did (an iPad mini, a monitor).
    @Test func theSeedMatrixMatchesItsTracesWithASheetAndCoverage() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let sheet = folder.appendingPathComponent("sheet.png").path
        let result = try await run([Self.folder.appendingPathComponent("split-columns.yaml").path, "--private", "--matrix",
                                    "--check", Self.folder.path, "--sheet", sheet, "--coverage"])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("16 combinations: 16 passed, 0 failed"), "\(result.stdout)")
        #expect(result.stdout.contains("] iphone-15-pro-max+landscape-left+dark: ok"), "\(result.stdout)")
        let png = try Data(contentsOf: URL(fileURLWithPath: sheet))
        #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]), "a PNG")
        let lines = result.stdout.split(separator: "\n").map { $0.split(separator: " ").joined(separator: " ") }
        #expect(lines.contains("pad-13 portrait full regular x regular appearance=dark"), "\(result.stdout)")
        #expect(lines.contains("phone-max landscape full regular x compact default"), "\(result.stdout)")
        #expect(lines.contains { $0.hasPrefix("device class: pad-mini") }, "\(result.stdout)")
        #expect(lines.contains { $0.hasPrefix("placement: ") && $0.contains("monitor") }, "\(result.stdout)")
    }

    /// A combination whose trace differs fails alone, named, with its diff; a combination a device cannot run
    /// (a split on a phone) fails with the daemon's refusal; the others pass.
    @Test func aFailingCombinationIsNamedAndTheOthersPass() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let scenario = folder.appendingPathComponent("split.yaml")
        try """
            device: ipad-9.7
            matrix:
              device: [ipad-9.7, iphone-8]
              appearance: [light, dark]
            steps:
              - set: { arrangement: split-half }

            """.write(to: scenario, atomically: true, encoding: .utf8)
        let traces = folder.appendingPathComponent("traces").path
        let written = try await run([scenario.path, "--private", "--matrix", "--jobs", "1", "--update", traces])
        #expect(written.status == 1 && written.stdout.contains("4 combinations: 2 passed, 2 failed (iphone-8+light, iphone-8+dark)"),
                "\(written)")
        #expect(written.stderr.contains("[iphone-8+light]: org.traitd.Layout1.Error.NotOffered: step 2 (set arrangement split-half, line 6): iphone-8 does not offer split-half"),
                "\(written.stderr)")
        let dark = traces + "/split+ipad-9.7+dark.trace"
        let golden = try String(contentsOfFile: dark, encoding: .utf8)
        #expect(golden.hasPrefix("# start: ipad-9.7\n# set appearance dark\n"), "\(golden)")
        try golden.replacingOccurrences(of: "Appearance=dark", with: "Appearance=light").write(toFile: dark, atomically: true, encoding: .utf8)
        let sheet = folder.appendingPathComponent("sheet.svg").path
        let checked = try await run([scenario.path, "--private", "--matrix", "--check", traces, "--sheet", sheet])
        #expect(checked.status == 1 && checked.stdout.contains("split.yaml [ipad-9.7+dark]: the run differs from \(dark)"), "\(checked)")
        #expect(checked.stdout.contains("] ipad-9.7+light: ok"), "\(checked.stdout)")
        // The sheet marks the failed cards: titled FAILED (and framed red), the passed one not.
        let drawn = try String(contentsOfFile: sheet, encoding: .utf8)
        #expect(drawn.contains(": 4 runs, 3 failed</text>") && drawn.contains(">FAILED ipad-9.7+dark</text>")
                && drawn.contains(">ipad-9.7+light</text>") && !drawn.contains(">FAILED ipad-9.7+light</text>"), "\(drawn.prefix(2000))")
    }

    /// Matrix mistakes are the file's, located, before anything runs (65); a matrix scenario without --matrix,
    /// and --matrix without --private, are refused with what to do.
    /// `width:` sizes a free-form window to each width, as documented (it once sent a live-resize step and
    /// every combination failed with NotDragging); a matrix larger than --max-combinations is refused before
    /// anything starts, saying how many it has.
    @Test func widthsSizeAFreeWindowAndALargeMatrixIsRefused() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let scenario = folder.appendingPathComponent("widths.yaml")
        try """
            device: ipad-9.7
            matrix:
              windowing: [stage-manager]
              width: { mail: [400, 700, 1024] }

            """.write(to: scenario, atomically: true, encoding: .utf8)
        let traces = folder.appendingPathComponent("traces")
        let result = try await run([scenario.path, "--private", "--matrix", "--update", traces.path])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("3 combinations: 3 passed, 0 failed"), "\(result.stdout)")
        let wide = try String(contentsOf: traces.appendingPathComponent("widths+stage-manager+mail=1024.trace"), encoding: .utf8)
        #expect(wide.contains("Frame=(0,0,1024,"), "\(wide)")
        try """
            device: ipad-9.7
            matrix:
              orientation: [portrait, landscape-left]
              appearance: [light, dark]
              content-size: [extra-small, small, medium, large, extra-large, extra-extra-large, extra-extra-extra-large]
              direction: [left-to-right, right-to-left]
              contrast: [normal, high]
              legibility: [regular, bold]
              reduce-motion: [on, off]

            """.write(to: scenario, atomically: true, encoding: .utf8)
        let large = try await run([scenario.path, "--private", "--matrix"])
        #expect(large.status == 64 && large.stderr.contains("has 448 combinations, more than --max-combinations 256"), "\(large.stderr)")
    }

    @Test func matrixMistakesAreLocatedAndMisuseRefused() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("bad.yaml")
        try "device: ipad-9.7\nmatrix:\n  appearance: [light, purple]\n".write(to: file, atomically: true, encoding: .utf8)
        let bad = try await run([file.path, "--private", "--matrix"])
        #expect(bad.status == 65 && bad.stderr.contains("bad.yaml:3:23: unknown appearance 'purple'; expected one of: light, dark"), "\(bad.stderr)")
        try "device: ipad-9.7\nmatrix:\n  colour: [red]\n".write(to: file, atomically: true, encoding: .utf8)
        let key = try await run([file.path, "--private", "--matrix"])
        #expect(key.status == 65 && key.stderr.contains("bad.yaml:3:3: unknown key 'colour' in the matrix"), "\(key.stderr)")
        try "device: ipad-9.7\nmatrix:\n  appearance: [light, dark]\n".write(to: file, atomically: true, encoding: .utf8)
        let without = try await run([file.path, "--private"])
        #expect(without.status == 64 && without.stderr.contains("has a matrix: run it with --matrix --private"), "\(without.stderr)")
        let shared = try await run([file.path, "--matrix"])
        #expect(shared.status != 0 && shared.stderr.contains("--matrix runs each combination on a daemon of its own: add --private"),
                "\(shared.stderr)")
    }
}
