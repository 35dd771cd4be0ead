import Pictures
import ScenarioTraces
import TraitClient
import Vocabulary
import Testing

/// What traitctl draws and records, reached without the executable: the pictures' labels and text, a
/// scenario's trace lines, the diff of two traces, a value written as text.
@Suite struct ToolLibrariesTests {
    /// A label goes to the first spot where it overprints no text drawn before, and any name is safe to draw.
    @Test func labelsNeverOverprintAndTextIsEscaped() {
        var picture = Picture(width: 400, height: 200)
        let target = Rect(x: 20, y: 20, width: 200, height: 60)
        let first = picture.label("sidebar", size: 12, color: "#000",
                                  candidates: LabelCandidates.around(target, text: "sidebar", size: 12), within: Rect(x: 0, y: 0, width: 400, height: 200))
        let second = picture.label("sidebar", size: 12, color: "#000",
                                   candidates: LabelCandidates.around(target, text: "sidebar", size: 12), within: Rect(x: 0, y: 0, width: 400, height: 200))
        let (a, b) = (try! #require(first), try! #require(second))
        #expect(!a.intersects(b), "\(a) \(b)")
        // Nowhere left within a tiny bound: nothing drawn.
        #expect(picture.label("x", size: 12, color: "#000", candidates: [(0, 0)], within: Rect(x: 0, y: 0, width: 1, height: 1)) == nil)
        picture.text(10, 150, "<script>&\"app\"</script>")
        #expect(picture.svg.contains("&lt;script&gt;&amp;&quot;app&quot;&lt;/script&gt;") && !picture.svg.contains("<script>"))
    }

    /// A step's signals as trace lines: the completions last, in id order; the layouts' and adapters' property
    /// changes (which come in the adapters' own time) left out.
    @Test func aStepsSignalsAreNormalised() {
        let outcome = TransitionOutcome(reported: ["main"], missed: [], failed: [])
        let lines = ScenarioRecorder.normalised([
            .transitionCompleted(app: "notes", transition: 9, outcome: outcome),
            .viewWillLayoutSubviews(app: "mail", transition: 8),
            .transitionCompleted(app: "mail", transition: 8, outcome: outcome),
            .viewWillLayoutSubviews(app: "notes", transition: 9),
        ])
        #expect(lines.count == 4)
        #expect(lines[0].contains("mail") && lines[1].contains("notes"), "\(lines)")
        #expect(lines[2].contains("#8") && lines[3].contains("#9"), "\(lines)")
    }

    /// A line diff: `-` for a golden line the run lacks, `+` for one it adds, two lines of context.
    @Test func traceDiffShowsWhatMovedWithContext() {
        let old = ["a", "b", "c", "d", "e", "f", "g"].joined(separator: "\n")
        let new = ["a", "b", "c", "D", "e", "f", "g"].joined(separator: "\n")
        #expect(TraceDiff.lines(old, new) == ["  b", "  c", "- d", "+ D", "  e", "  f"].joined(separator: "\n"))
        #expect(TraceDiff.lines(old, old).isEmpty)
        // Two changes far apart: the lines the same between their contexts are counted, not hidden.
        let far = (1...12).map { "l\($0)" }
        var changed = far
        changed[1] = "L2"
        changed[10] = "L11"
        #expect(TraceDiff.lines(far.joined(separator: "\n"), changed.joined(separator: "\n")).split(separator: "\n").map(String.init)
                == ["  l1", "- l2", "+ L2", "  l3", "  l4", "… 4 lines the same", "  l9", "  l10", "- l11", "+ L11", "  l12"])
    }

    @Test func aValueWrittenAsTextIsTypedByItsForm() {
        #expect(TextValue.value("42") == .int64(42))
        #expect(TextValue.value("1.5") == .double(1.5))
        #expect(TextValue.value("true") == .boolean(true))
        #expect(TextValue.value("string:42") == .string("42"))
        #expect(TextValue.value("inbox") == .string("inbox"))
    }
}

/// The baseline file (`--baseline`), as traitctl and the Python package read and write it.
@Suite struct ProblemBaselineTests {
    @Test func aBaselineReadsItsLinesSkipsCommentsAndWritesThemSorted() throws {
        let text = "# known\n\nmail overlap a & b  \n  notes small-target button:Close\nmail clipped-text label:Title\n"
        let baseline = try ProblemBaseline(reading: text, file: "b.txt")
        #expect(baseline.problems == [.init(app: "mail", rule: .overlap, element: "a & b"),
                                      .init(app: "notes", rule: .smallTarget, element: "button:Close"),
                                      .init(app: "mail", rule: .clippedText, element: "label:Title")])
        #expect(baseline.text.hasSuffix("mail clipped-text label:Title\nmail overlap a & b\nnotes small-target button:Close\n"))
        #expect(try ProblemBaseline(reading: baseline.text, file: "again") == baseline)
        let comparison = baseline.compare([.init(app: "mail", rule: .overlap, element: "a & b"), .init(app: "mail", rule: .reflow, element: "table")])
        #expect(comparison.new.map(\.description) == ["mail reflow table"])
        #expect(comparison.known.map(\.description) == ["mail overlap a & b"])
        #expect(comparison.resolved.map(\.description) == ["mail clipped-text label:Title", "notes small-target button:Close"])
    }

    @Test func aLineThatIsNotAProblemIsRefusedAtItsLineAndColumn() {
        #expect { try ProblemBaseline(reading: "mail overlap\n", file: "b.txt") } throws: {
            "\($0)" == "b.txt:1:1: expected a problem as APP RULE ELEMENT (`mail overlap a & b`), got 'mail overlap'"
        }
        #expect { try ProblemBaseline(reading: "# x\n  mail small-targets button\n", file: "b.txt") } throws: {
            "\($0)".hasPrefix("b.txt:2:8: 'small-targets' is not a rule: did you mean small-target? expected one of minimum-size, ")
        }
    }
}
