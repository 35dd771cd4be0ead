import Foundation
import Testing
import Vocabulary

@testable import RunReport

/// A report's folder: its files kept once, its page unbroken by any name, merged and accepted.
@Suite struct ReportFolderTests {
    /// A fresh folder under the temporary directory, removed at the end of `body`.
    func withFolder(_ body: (String) throws -> Void) throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("report-test-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try body(path)
    }

    /// A run of one step whose window has one element with one problem.
    func run(_ id: String, order: Int, picture: String?, passed: Bool = true, check: Report.Check? = nil) -> Report.Run {
        let problem = Report.Problem(step: 0, app: "mail", LayoutProblem(adapter: "web", element: "header", rule: .overlap, message: "</script><b>x</b>"))
        let window = Report.Window(app: "mail", adapter: "web", frame: Rect(x: 0, y: 0, width: 320, height: 480), picture: picture,
                                   elements: [Report.Element(name: "header", frame: Rect(x: 0, y: 0, width: 320, height: 44), kind: .container, problems: [0])])
        return Report.Run(id: id, title: id, source: "page.yaml", order: order, settings: [["appearance", "dark"]], passed: passed,
                          steps: [Report.Step(number: 0, title: "the start", signals: ["mail TransitionCompleted #1"], screen: nil, windows: [window])],
                          problems: [problem], check: check)
    }

    @Test func equalPicturesAreOneFile() throws {
        try withFolder { path in
            let folder = try ReportFolder(path)
            let a = try folder.store([1, 2, 3], as: "png"), b = try folder.store([1, 2, 3], as: "png"), c = try folder.store([3, 2, 1], as: "png")
            #expect(a == b)
            #expect(a != c)
            #expect(try FileManager.default.contentsOfDirectory(atPath: "\(path)/files").count == 2)
        }
    }

    /// A message or a name from a page can hold `</script>`: the embedded data must not end there.
    @Test func noStringOfAPageEndsTheEmbeddedData() throws {
        try withFolder { path in
            let folder = try ReportFolder(path)
            try folder.write(Report(title: "t", runs: [run("a", order: 0, picture: nil)]))
            let page = try String(contentsOfFile: "\(path)/index.html", encoding: .utf8)
            #expect(!page.contains("</script><b>"))
            #expect(page.contains(#"\u003c/script>\u003cb>x\u003c/b>"#))
            #expect(!page.contains(ReportFolder.placeholder))
            #expect(try folder.read().runs.first?.problems.first?.message == "</script><b>x</b>")
        }
    }

    @Test func twoHalvesMergeIntoTheWhole() throws {
        try withFolder { path in
            let whole = try ReportFolder("\(path)/whole"), first = try ReportFolder("\(path)/1"), second = try ReportFolder("\(path)/2")
            var runs: [Report.Run] = []
            for index in 0..<4 {
                let picture = [UInt8](repeating: UInt8(index % 2), count: 10)  // two runs share each picture
                runs.append(run("r\(index)", order: index, picture: try whole.store(picture, as: "png")))
                _ = try (index < 2 ? first : second).store(picture, as: "png")
            }
            try whole.write(Report(title: "m", runs: runs))
            try first.write(Report(title: "m", runs: Array(runs[..<2])))
            try second.write(Report(title: "m", runs: Array(runs[2...])))
            // Given in the other order: the suite's order comes back.
            let merged = try ReportFolder.merge([second, first], into: "\(path)/merged")
            #expect(merged.runs == runs)
            #expect(merged.title == "m")
            #expect(try FileManager.default.contentsOfDirectory(atPath: "\(path)/merged/files").sorted()
                    == FileManager.default.contentsOfDirectory(atPath: "\(path)/whole/files").sorted())
            #expect(throws: ReportError.self) { try ReportFolder.merge([first, first], into: "\(path)/again") }
            #expect(!FileManager.default.fileExists(atPath: "\(path)/again"), "a refused merge writes nothing")
            let other = try ReportFolder("\(path)/other")
            try other.write(Report(title: "another suite", runs: [run("x", order: 0, picture: nil)]))
            #expect(throws: ReportError.self) { try ReportFolder.merge([first, other], into: "\(path)/mixed") }
            #expect(try ReportFolder.merge([first, other], into: "\(path)/mixed", title: "both").runs.count == 3)
        }
    }

    @Test func acceptWritesTheRunsTraceAndPicturesAndNothingOnAnError() throws {
        try withFolder { path in
            let folder = try ReportFolder("\(path)/report")
            try FileManager.default.createDirectory(atPath: "\(path)/goldens", withIntermediateDirectories: true)
            let golden = "\(path)/goldens/page.trace"
            try "old\n".write(toFile: golden, atomically: true, encoding: .utf8)
            var check = Report.Check(golden: golden, traceMatches: false, traceDiff: ["- old", "+ new"],
                                     trace: try folder.store(Array("new\n".utf8), as: "trace"), pictures: [],
                                     newPictures: ["00-mail-web.png": try folder.store([9, 9], as: "png")], accept: "")
            check.goldenContent = ReportFolder.contentName(Array("old\n".utf8))
            try folder.write(Report(title: "t", runs: [run("a", order: 0, picture: nil, passed: false, check: check),
                                                       run("b", order: 1, picture: nil)]))
            #expect(throws: ReportError.self) { try ReportAcceptance.accept(folder, runs: ["a", "nope"]) }
            #expect(try String(contentsOfFile: golden, encoding: .utf8) == "old\n")
            #expect(throws: ReportError.self) { try ReportAcceptance.accept(folder, runs: ["b"]) }  // not checked
            // A golden edited since the run read it is not written over, unless forced.
            try "edited\n".write(toFile: golden, atomically: true, encoding: .utf8)
            #expect(throws: ReportError.self) { try ReportAcceptance.accept(folder, runs: []) }
            #expect(try String(contentsOfFile: golden, encoding: .utf8) == "edited\n")
            let lines = try ReportAcceptance.accept(folder, runs: [], force: true)
            #expect(lines.count == 1)
            #expect(try String(contentsOfFile: golden, encoding: .utf8) == "new\n")
            #expect(FileManager.default.contents(atPath: "\(path)/goldens/page.trace.pictures/00-mail-web.png") == Data([9, 9]))
        }
    }
}
