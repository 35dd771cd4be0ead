import Testing
import TraitModel
import Vocabulary

/// libadwaita's breakpoint conditions, parsed and judged as `adw_breakpoint_condition_parse` and
/// `check_condition` do (libadwaita 1.4's src/adw-breakpoint.c), and Android's window size classes.
@Suite struct BreakpointConditionTests {
    func parse(_ text: String) throws(BreakpointCondition.SyntaxError) -> BreakpointCondition { try BreakpointCondition(parsing: text) }

    /// libadwaita's documented examples, written back as `adw_breakpoint_condition_to_string` writes them.
    @Test func libadwaitasExamplesParseAndWriteBack() throws {
        let examples = [
            ("min-width: 500px", "min-width: 500px"), ("min-height: 400pt", "min-height: 400pt"),
            ("max-width: 100sp", "max-width: 100sp"), ("max-height: 500", "max-height: 500px"),
            ("min-aspect-ratio: 4/3", "min-aspect-ratio: 4/3"), ("max-aspect-ratio: 1", "max-aspect-ratio: 1"),
            ("min-width: 400px and max-aspect-ratio: 4/3", "min-width: 400px and max-aspect-ratio: 4/3"),
            ("max-width: 360sp or max-width: 360px", "max-width: 360sp or max-width: 360px"),
            ("min-width: 400px and (max-aspect-ratio: 4/3 or max-height: 400px)",
             "min-width: 400px and (max-aspect-ratio: 4/3 or max-height: 400px)"),
            ("  max-width:550.5sp  ", "max-width: 550.5sp"), ("min-aspect-ratio: 16 / 9", "min-aspect-ratio: 16/9"),
            ("max-aspect-ratio: 3/1", "max-aspect-ratio: 3"), ("max-width: 1e3", "max-width: 1000px"),
        ]
        for (text, written) in examples {
            #expect(try parse(text).description == written, "\(text)")
            #expect(try parse(written) == parse(text), "\(written) reads back")
        }
    }

    /// "If parentheses are omitted, the first operator takes priority": each operator applies to all before it.
    @Test func andAndOrApplyLeftToRight() throws {
        let condition = try parse("max-width: 100px or max-width: 200px and min-height: 300px")
        #expect(condition.description == "(max-width: 100px or max-width: 200px) and min-height: 300px")
        let window = BreakpointCondition.Window(width: 50, height: 10, displayScale: 1, textScale: 1)
        #expect(!condition.holds(in: window), "a or (b and c) would hold")
    }

    /// libadwaita's own table of texts and what each parses to (nil: refused), from its tests/test-breakpoint.c.
    @Test func libadwaitasParseTableHolds() {
        let table: [(String, String?)] = [
            ("", nil), ("()", nil), ("foo", nil),
            ("max-width: 400px", "max-width: 400px"), ("max-width: 400", "max-width: 400px"), ("max-width: 400pt", "max-width: 400pt"),
            ("max-width:400pt", "max-width: 400pt"), ("max-width: 400.0px", "max-width: 400px"), ("max-width: 400.5px", "max-width: 400.5px"),
            ("      max-width        :        400     pt       ", "max-width: 400pt"),
            ("max-width:", nil), ("max-width: px", nil), ("max-length: 400px", nil), ("max-width 400px", nil), ("max-width: -1px", nil),
            ("max-width: 400p", nil), ("max-width: 400px;", nil),
            ("max-aspect-ratio: 4/3", "max-aspect-ratio: 4/3"), ("max-aspect-ratio: 2", "max-aspect-ratio: 2"),
            ("max-aspect-ratio: 2/1", "max-aspect-ratio: 2"), ("max-aspect-ratio: 0/3", "max-aspect-ratio: 0"),
            ("max-aspect-ratio:4/3", "max-aspect-ratio: 4/3"), ("       max-aspect-ratio   :         4/3       ", "max-aspect-ratio: 4/3"),
            ("max-aspect-ratio:", nil), ("max-aspect-ratio: 4/3px", nil), ("max-aspect-ratio: 4px", nil), ("max-aspect-ratio: -4", nil),
            ("max-aspect-ratio: -4/3", nil), ("max-aspect-ratio: 4/0", nil), ("max-aspect-ratio: 4/3;", nil),
            ("(max-width: 100px)", "max-width: 100px"), ("(((max-width: 100px)))", "max-width: 100px"),
            ("   (   max-width   :   100px   )   ", "max-width: 100px"),
            ("(max-width: 100px", nil), ("(max-width: 100px(", nil), ("(max-width): 100px", nil), ("(max-width: 100px))", nil),
            ("max-width: 100px and max-height: 200px", "max-width: 100px and max-height: 200px"),
            ("max-width: 100px or max-height: 200px", "max-width: 100px or max-height: 200px"),
            ("   max-width   :   100px   or   max-height   :   200px   ", "max-width: 100px or max-height: 200px"),
            ("(max-width: 100px) and max-height: 200px", "max-width: 100px and max-height: 200px"),
            ("max-width: 100px and (max-height: 200px)", "max-width: 100px and max-height: 200px"),
            ("(max-width: 100px) and (max-height: 200px)", "max-width: 100px and max-height: 200px"),
            ("(max-width: 100px and max-height: 200px)", "max-width: 100px and max-height: 200px"),
            ("(max-width: 100px and max-height: 200px) or max-aspect-ratio: 3/2",
             "(max-width: 100px and max-height: 200px) or max-aspect-ratio: 3/2"),
            ("max-width: 100px and (max-height: 200px or max-aspect-ratio: 3/2)",
             "max-width: 100px and (max-height: 200px or max-aspect-ratio: 3/2)"),
            ("max-width: 100px and max-height: 200px and max-aspect-ratio: 3/2 and min-aspect-ratio: 1/2",
             "max-width: 100px and max-height: 200px and max-aspect-ratio: 3/2 and min-aspect-ratio: 1/2"),
            ("max-width: 100px or max-height: 200px or max-aspect-ratio: 3/2 or min-aspect-ratio: 1/2",
             "max-width: 100px or max-height: 200px or max-aspect-ratio: 3/2 or min-aspect-ratio: 1/2"),
            ("max-width: 100px and max-height: 200px or max-aspect-ratio: 3/2 and min-aspect-ratio: 1/2",
             "((max-width: 100px and max-height: 200px) or max-aspect-ratio: 3/2) and min-aspect-ratio: 1/2"),
            ("max-width: 100pxor max-height: 200px", nil), ("max-width: 100px ormax-height: 200px", nil),
            ("max-width: 100px max-height: 200px", nil), ("max-width: 100px or max-height", nil), ("max-width: 100px o", nil),
            ("max-width: 100px or ()", nil), ("() or max-height: 200px", nil),
        ]
        for (text, expected) in table {
            let parsed = try? parse(text)
            #expect(parsed?.description == expected, "'\(text)'")
        }
    }

    /// Each mistake where libadwaita's parser stops, and what it expected, by column (from 1) of the text.
    @Test func mistakesAreRefusedWhereTheParserStops() {
        let mistakes: [(String, String, Int)] = [
            ("max-width: 500xp", "unknown unit", 15), ("min-widht: 5", "unknown type", 1), ("", "unknown type", 1),
            ("max-width 5", "unexpected character", 11), ("max-width: -5", "value is out of range", 12),
            ("max-width: 5px xor min-width: 1px", "unknown operator", 16), ("(max-width: 5", "unexpected character", 14),
            ("max-width: 5px)", "unexpected character", 15), ("min-aspect-ratio: 4/0", "value is out of range", 21),
            ("max-width: wide", "unable to parse value", 12), ("max-width: 5px and", "unexpected character", 19),
            ("max-width: 5px andmin-width: 3px", "unexpected character", 19),
            // As libadwaita's parser has it: a value without a unit is followed by a unit, ')' or the end only.
            ("max-width: 5 or min-width: 1px", "unknown unit", 14), ("max-width: 5pxx", "unexpected character", 15),
            ("min-aspect-ratio: 4.5", "unexpected character", 20),
        ]
        for (text, problem, column) in mistakes {
            #expect(throws: BreakpointCondition.SyntaxError.self, "\(text)") { try parse(text) }
            do {
                _ = try parse(text)
            } catch {
                #expect(error.problem == problem && error.column == column, "\(text): \(error)")
            }
        }
    }

    /// `min-` and `max-` are inclusive; as libadwaita converts lengths: `px` a point (GTK's logical pixel, the
    /// display's scale aside), `sp` a point times the text scale, `pt` 4/3 of that.
    @Test func unitsAndBoundsAreJudgedInPoints() throws {
        func holds(_ text: String, width: Double, height: Double = 768, scale: Double = 2, text textScale: Double = 1) throws -> Bool {
            try parse(text).holds(in: .init(width: width, height: height, displayScale: scale, textScale: textScale))
        }
        #expect(try holds("max-width: 500px", width: 500) && !holds("max-width: 500px", width: 500.5))
        #expect(try holds("min-width: 500px", width: 500) && !holds("min-width: 500px", width: 499.5))
        #expect(try holds("max-width: 500", width: 500, scale: 3) && !holds("max-width: 500", width: 501, scale: 1))
        #expect(try holds("max-width: 300pt", width: 400) && !holds("max-width: 300pt", width: 400.5))
        // 500 sp is 500 pt at the default text size, 700 at a text 1.4 times as large (and 300 pt 560 then).
        #expect(try !holds("max-width: 500sp", width: 600) && holds("max-width: 500sp", width: 600, text: 1.4))
        #expect(try holds("max-width: 300pt", width: 560, text: 1.4) && !holds("max-width: 300pt", width: 561, text: 1.4))
        #expect(try holds("min-aspect-ratio: 4/3", width: 1024, height: 768) && !holds("min-aspect-ratio: 4/3", width: 1023, height: 768))
    }

    /// A text from the bus or a file is held to a size no stack minds: a thousand parentheses are refused, not
    /// recursed into.
    @Test func aConditionTooDeepOrTooLongIsRefused() {
        #expect(throws: BreakpointCondition.SyntaxError.self) { try parse(String(repeating: "(", count: 1000) + "max-width: 5px") }
        #expect(throws: BreakpointCondition.SyntaxError.self) { try parse(Array(repeating: "max-width: 5px", count: 40).joined(separator: " and ")) }
        #expect(throws: BreakpointCondition.SyntaxError.self) { try parse("max-width: " + String(repeating: "1", count: 2000)) }
        let widest = try? parse(Array(repeating: "max-width: 5px", count: 32).joined(separator: " or "))
        #expect(widest?.holds(in: .init(width: 1, height: 1, displayScale: 1, textScale: 1)) == true)
    }

    /// Android's classes, swept point by point: each flips exactly at its published threshold.
    @Test func windowSizeClassesFlipAtTheirThresholds() {
        var widthFlips: [(Double, WindowWidthSizeClass)] = [], heightFlips: [(Double, WindowHeightSizeClass)] = []
        var lastWidth = WindowWidthSizeClass(width: 0), lastHeight = WindowHeightSizeClass(height: 0)
        for point in 1...2000 {
            let width = WindowWidthSizeClass(width: Double(point)), height = WindowHeightSizeClass(height: Double(point))
            if width != lastWidth { widthFlips.append((Double(point), width)) }
            if height != lastHeight { heightFlips.append((Double(point), height)) }
            (lastWidth, lastHeight) = (width, height)
        }
        #expect(widthFlips.map(\.0) == [600, 840, 1200, 1600] && widthFlips.map(\.1) == [.medium, .expanded, .large, .extraLarge])
        #expect(heightFlips.map(\.0) == [480, 900] && heightFlips.map(\.1) == [.medium, .expanded])
        #expect(WindowWidthSizeClass(width: 599.5) == .compact && WindowWidthSizeClass.extraLarge.rawValue == "extra-large")
    }
}
