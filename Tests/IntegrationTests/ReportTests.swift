import Foundation
import Pixels
import TestSupport
import Testing

@testable import RunReport

/// `--report DIR`: a report people open in a browser. A page's matrix whose dark combinations changed is
/// reported failing, opened in Chromium (every card, the failed ones marked and first, an element's frame on
/// selection, the differences with their pictures, no error, no missing image), accepted back to green, and
/// its shards merged into the whole.
@Suite struct ReportTests {
    func traitctl(_ arguments: [String]) async throws -> (status: Int32, stdout: String, stderr: String) {
        try await ChildProcess.run(Binaries.path("traitctl"), arguments, timeout: 180)
    }

    /// The scenario's folder: the web bridge's test page and a matrix of two devices in two appearances.
    func pageMatrix() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("traitd-report-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: Binaries.repository.appendingPathComponent("Tests/IntegrationTests/Fixtures/web/adaptive.html"),
                                         to: folder.appendingPathComponent("page.html"))
        try """
            device: ipad-9.7
            web: { mail: page.html }
            screenshots: true
            matrix:
              device: [ipad-9.7, iphone-15]
              appearance: [light, dark]
            steps:
              - set: { arrangement: full }

            """.write(to: folder.appendingPathComponent("page.yaml"), atomically: true, encoding: .utf8)
        return folder
    }

    /// The report's runs but for what two runs of one suite do not share: their times, and the folder their
    /// accept commands name.
    func timeless(_ folder: String) throws -> [Report.Run] {
        try ReportFolder(existing: folder).read().runs.map { run in
            var run = run
            run.seconds = 0
            run.check?.accept = ""
            return run
        }
    }

    @Test func aFailingPageMatrixIsReportedAcceptedAndMerged() async throws {
        let folder = try pageMatrix()
        defer { try? FileManager.default.removeItem(at: folder) }
        let scenario = folder.appendingPathComponent("page.yaml").path, goldens = folder.appendingPathComponent("goldens").path
        let written = try await traitctl(["scenario", "run", scenario, "--private", "--matrix", "--update", goldens])
        #expect(written.status == 0, "\(written)")
        // The dark header (60 px under the 20-pt status bar) grows by 10 px: the dark combinations' traces and pictures differ.
        let page = folder.appendingPathComponent("page.html")
        try String(contentsOf: page, encoding: .utf8).replacingOccurrences(of: "#header { height: 60px; }", with: "#header { height: 70px; }")
            .write(to: page, atomically: true, encoding: .utf8)
        let report = folder.appendingPathComponent("report").path
        let checked = try await traitctl(["scenario", "run", scenario, "--private", "--matrix", "--check", goldens, "--report", report])
        #expect(checked.status == 1 && checked.stdout.contains("4 combinations: 2 passed, 2 failed (ipad-9.7+dark, iphone-15+dark)"), "\(checked)")
        #expect(checked.stdout.contains("wrote \(report)/index.html (4 runs, 2 failed)"), "\(checked.stdout)")

        let runs = try ReportFolder(existing: report).read().runs
        #expect(runs.map(\.id) == ["page+ipad-9.7+light", "page+ipad-9.7+dark", "page+iphone-15+light", "page+iphone-15+dark"])
        let dark = try #require(runs.first { $0.id == "page+ipad-9.7+dark" })
        let check = try #require(dark.check)
        #expect(!check.traceMatches && check.traceDiff.contains { $0.hasPrefix("+ layouts mail web:") }, "\(check.traceDiff)")
        let picture = try #require(check.pictures.first)
        #expect(picture.golden != nil && picture.diff != nil && picture.moved.contains("header: height 80 -> 90"), "\(picture)")
        let header = try #require(dark.steps.last?.windows.first?.elements.first { $0.name == "header" })
        #expect(header.frame.height == 90 && header.kind == .container, "\(header)")
        #expect(dark.steps.last?.windows.first?.picture != nil)

        try await inChromium(report, folder: folder)

        // Accepted, the same run passes; nothing else was touched.
        let accepted = try await traitctl(["accept", report])
        #expect(accepted.status == 0 && accepted.stdout.split(separator: "\n").count == 2, "\(accepted)")
        let whole = folder.appendingPathComponent("whole").path
        let again = try await traitctl(["scenario", "run", scenario, "--private", "--matrix", "--check", goldens, "--report", whole])
        #expect(again.status == 0 && again.stdout.contains("4 combinations: 4 passed, 0 failed"), "\(again)")

        // Two shards, each its own report, merged: the whole run's report.
        var shards: [String] = []
        for index in 1...2 {
            let shard = folder.appendingPathComponent("shard-\(index)").path
            let ran = try await traitctl(["scenario", "run", scenario, "--private", "--matrix", "--check", goldens, "--shard", "\(index)/2", "--report", shard])
            #expect(ran.status == 0 && ran.stdout.contains("2 combinations: 2 passed"), "\(ran)")
            shards.append(shard)
        }
        let merged = folder.appendingPathComponent("merged").path
        let merging = try await traitctl(["report", "merge", merged] + shards.reversed())
        #expect(merging.status == 0 && merging.stdout.contains("4 runs from 2 reports, 0 failed"), "\(merging)")
        #expect(try timeless(merged) == timeless(whole))
        #expect(try ReportFolder(existing: merged).read().coverage == ReportFolder(existing: whole).read().coverage)
    }

    /// The failing report as a person sees it in Chromium.
    func inChromium(_ report: String, folder: URL) async throws {
        let browser = try await ReportBrowser("file://\(report)/index.html", log: folder.appendingPathComponent("chromium.log").path)
        defer { browser.close() }
        // The index: a card per run, the two failed ones first and marked.
        let cards: [[String]] = try await browser.evaluate("[...document.querySelectorAll('.card')].map(c => [c.dataset.run, c.className])")
        #expect(cards.map { $0[0] } == ["page+ipad-9.7+dark", "page+iphone-15+dark", "page+ipad-9.7+light", "page+iphone-15+light"], "\(cards)")
        #expect(cards.map { $0[1].contains("failed") } == [true, true, false, false], "\(cards)")
        // Drawn: the failed cards' red is on the screen (a card with no picture, or all grey, would not show it).
        let index = try RGBAImage(png: try await browser.screenshot())
        let red = stride(from: 0, to: index.pixels.count, by: 4).filter { i in
            index.pixels[i] > 180 && index.pixels[i + 1] < 90 && index.pixels[i + 2] < 90
        }.count
        #expect(red > 500, "the failed cards' red: \(red) pixels")

        // A failed run, its header selected: its frame and its kind in the inspector.
        try await browser.show("#run=page+ipad-9.7+dark&step=1&el=mail/web/header")
        let selected: [String] = try await browser.evaluate(
            "[...document.querySelectorAll('rect.el.selected')].map(r => r.dataset.name).concat([document.getElementById('inspector').textContent])")
        #expect(selected.first == "header" && selected.last?.contains("× 90") == true, "\(selected)")
        // Its differences: the trace side by side, the pictures (golden, this run's, the difference).
        try await browser.show("#run=page+ipad-9.7+dark&diff")
        let shown: [String] = try await browser.evaluate("[...document.querySelectorAll('img')].map(i => i.getAttribute('src'))")
        #expect(shown.filter { $0.hasPrefix("files/") }.count >= 3, "\(shown)")
        let errors = try await browser.problems()
        #expect(errors.isEmpty, "\(errors)")
    }

    /// A scenario with an unmodified desktop app (GNOME Calculator, read over the accessibility bus): each step's
    /// real picture with the widgets' frames and kinds, and the dark step drawn dark (libadwaita hears dark mode
    /// from traitd's settings portal, which a scenario's private daemon runs for its apps: before, the report's
    /// "dark" picture was the light one again).
    @Test func aDesktopAppsScenarioIsReportedWithItsPictures() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("traitd-report-desktop-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let scenario = folder.appendingPathComponent("calculator.yaml").path
        try """
            device: ipad-9.7
            orientation: landscape-left
            apps: { notes: gnome-calculator }
            steps:
              - set: { arrangement: split-half }
              - set: { appearance: dark }

            """.write(toFile: scenario, atomically: true, encoding: .utf8)
        let report = folder.appendingPathComponent("report").path
        let run = try await traitctl(["scenario", "run", scenario, "--private", "--report", report])
        #expect(run.status == 0 && run.stdout.contains("wrote \(report)/index.html (1 run, 0 failed)"), "\(run)")
        let steps = try #require(try ReportFolder(existing: report).read().runs.first?.steps)
        #expect(steps.map(\.title) == ["the start", "set arrangement split-half", "set appearance dark"], "\(steps.map(\.title))")
        func brightness(_ step: Report.Step) throws -> Double {
            let window = try #require(step.windows.first { $0.app == "notes" && $0.adapter == "desktop" })
            let image = try RGBAImage(png: try ReportFolder(existing: report).contents(of: try #require(window.picture)))
            var sum = 0
            for index in stride(from: 0, to: image.pixels.count, by: 4) {
                sum += Int(image.pixels[index]) + Int(image.pixels[index + 1]) + Int(image.pixels[index + 2])
            }
            return Double(sum) / Double(image.pixels.count / 4 * 3)
        }
        let light = try brightness(steps[1]), dark = try brightness(steps[2])
        #expect(dark < light / 2, "mean brightness \(light) light, \(dark) dark")
        let keys = steps[1].windows.first { $0.adapter == "desktop" }?.elements.filter { $0.kind == .control } ?? []
        #expect(keys.contains { $0.name == "button:7_7" } && keys.count >= 20, "\(keys.map(\.name))")
    }
}
