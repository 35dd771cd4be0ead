import Layout
import Testing
import Vocabulary

/// The section conditions of the layout language (`Condition`), the extras a section sets, and the `safe` guide.
@Suite struct ConditionTests {
    static let regular = TraitCollection.pad(.regular, .regular)

    /// The condition of the first section of `text` (`[...]` on its first line).
    func condition(_ section: String) throws -> Condition {
        let document = try LayoutParser.parse("view a\n[\(section)]\na.width == 1\n", file: "t.layout")
        return try #require(document.constraints.first?.condition)
    }

    func environment(_ width: Double, _ height: Double, horizontal: SizeClass = .regular,
                     vertical: SizeClass = .regular, idiom: Idiom = .pad, split: Bool = false) -> LayoutEnvironment {
        let traits = TraitCollection(horizontalSizeClass: horizontal, verticalSizeClass: vertical, idiom: idiom, displayScale: 2)
        return LayoutEnvironment(width: width, height: height, traits: traits, isSplit: split)
    }

    // (section, environments where it holds, environments where it does not)
    @Test func everyTestHoldsWhereItShould() throws {
        let cases: [(String, [LayoutEnvironment], [LayoutEnvironment])] = [
            ("w:compact", [environment(320, 768, horizontal: .compact)], [environment(1024, 768)]),
            ("compact", [environment(320, 768, horizontal: .compact)], [environment(1024, 768)]),
            ("h:compact", [environment(812, 375, vertical: .compact)], [environment(1024, 768)]),
            ("h:regular", [environment(1024, 768)], [environment(812, 375, vertical: .compact)]),
            ("landscape", [environment(1024, 768)], [environment(768, 1024)]),
            ("portrait", [environment(768, 1024)], [environment(1024, 768)]),
            ("phone", [environment(375, 812, idiom: .phone)], [environment(375, 812)]),
            ("pad", [environment(375, 812)], [environment(375, 812, idiom: .phone)]),
            ("split", [environment(694, 768, split: true)], [environment(1024, 768)]),
            ("min-width: 600", [environment(600, 100), environment(601, 100)], [environment(599.5, 100)]),
            ("max-width: 600pt", [environment(600, 100), environment(10, 100)], [environment(600.5, 100)]),
            ("min-height: 500", [environment(100, 500)], [environment(100, 499)]),
            ("max-height: 500", [environment(100, 500)], [environment(100, 501)]),
            ("min-aspect-ratio: 4/3", [environment(1024, 768), environment(2000, 100)], [environment(1000, 768)]),
            ("max-aspect-ratio: 1.25", [environment(125, 100), environment(768, 1024)], [environment(126, 100)]),
            ("not phone", [environment(375, 812)], [environment(375, 812, idiom: .phone)]),
            ("w:regular landscape", [environment(1024, 768)], [environment(768, 1024), environment(1024, 768, horizontal: .compact)]),
            ("w:regular, landscape", [environment(1024, 768)], [environment(768, 1024)]),
            ("w:regular and landscape", [environment(1024, 768)], [environment(768, 1024)]),
            ("phone or split", [environment(375, 812, idiom: .phone), environment(694, 768, split: true)], [environment(1024, 768)]),
            // `and` binds tighter than `or`; parentheses change that.
            ("phone or split and portrait", [environment(812, 375, idiom: .phone), environment(694, 768, split: true)],
             [environment(1000, 768, split: true)]),
            ("(phone or split) and portrait", [environment(375, 812, idiom: .phone)], [environment(812, 375, idiom: .phone)]),
            ("not (min-aspect-ratio: 1.25 and max-aspect-ratio: 1.9)", [environment(768, 1024), environment(2000, 768)],
             [environment(1024, 768)]),
            ("not max-aspect-ratio: 0.85 and not min-aspect-ratio: 1.25", [environment(694, 768)],
             [environment(1024, 768), environment(768, 1024)]),
            ("any", [environment(1, 1), environment(375, 812, idiom: .phone)], []),
        ]
        for (section, holds, fails) in cases {
            let c = try condition(section)
            for e in holds { #expect(c.holds(in: e), "[\(section)] holds in \(e.width)x\(e.height)") }
            for e in fails { #expect(!c.holds(in: e), "[\(section)] fails in \(e.width)x\(e.height)") }
        }
    }

    @Test func conditionsPrintAsTheyAreWritten() throws {
        #expect(try condition("w:compact and (phone or split)").description == "[w:compact and (phone or split)]")
        #expect(try condition("not (landscape or max-width: 320)").description == "[not (landscape or max-width: 320)]")
        #expect(try condition("min-aspect-ratio: 3/2").description == "[min-aspect-ratio: 1.5]")
        #expect(try condition("w:regular landscape") == Condition(horizontal: .regular, landscape: true))
    }

    @Test(arguments: [
        ("[min-width 600]", "t.layout:1:12: expected ':' and a number of points after 'min-width', found '600]'"),
        ("[min-width: wide]", "t.layout:1:13: expected a number of points after 'min-width:', found 'wide]'"),
        ("[max-aspect-ratio: 4/0]", "t.layout:1:20: the ratio's second number must not be 0"),
        ("[min-aspect-ratio: 0]", "t.layout:1:20: min-aspect-ratio must be a positive ratio, not 0"),
        ("[min-aspect-ratio: 4/]", "t.layout:1:22: expected a number after '/', found ']'"),
        ("[phone and]", "t.layout:1:11: expected a condition (w:compact, w:regular, h:compact, h:regular, compact, regular, portrait, landscape, phone, pad, split, min-width:, max-width:, min-height:, max-height:, min-aspect-ratio:, max-aspect-ratio:, dark, light, left-to-right, right-to-left, high-contrast, bold-text, content-size >=|<=|== CATEGORY, not, '(' or any), found ']'"),
        ("[(phone or split]", "t.layout:1:17: expected ')' to close the '(', found ']'"),
        ("[phone or split", "t.layout:1:16: expected ']' or 'and', 'or' after the condition, found the end of the line"),
        ("[w:tall]", "t.layout:1:4: expected compact or regular after 'w:'"),
        ("[any and phone]", "t.layout:1:2: 'any' cannot be combined with other conditions"),
        ("[not any]", "t.layout:1:2: 'any' cannot be combined with other conditions"),
        ("[phone] x", "t.layout:1:9: expected the end of the line after ']', found 'x'"),
        ("[max-width: 200000]", "t.layout:1:13: max-width must be at most 100000 points, not 200000"),
        ("[sideways]", "t.layout:1:2: unknown condition 'sideways'; expected w:compact, w:regular, h:compact, h:regular, compact, regular, portrait, landscape, phone, pad, split, min-width:, max-width:, min-height:, max-height:, min-aspect-ratio:, max-aspect-ratio:, dark, light, left-to-right, right-to-left, high-contrast, bold-text, content-size >=|<=|== CATEGORY, not, '(' or any"),
        ("view a\nextra = 3", "t.layout:2:7: expected the extra's name, found '= 3'"),
        ("view a\nextra k 3", "t.layout:2:9: expected '=' after the extra's name, found '3'"),
        ("view a\nextra k = 2 * depth", "t.layout:2:15: expected width, height or aspect-ratio after '*'"),
        ("view a\nextra k = \"open", "t.layout:2:16: expected '\"' to close the string, found the end of the line"),
        ("view a\nextra k =", "t.layout:2:10: expected a value: a number, true, false, a word, a \"quoted string\", or [NUMBER *] width, height or aspect-ratio, found the end of the line"),
        ("[" + String(repeating: "(", count: 40) + "phone" + String(repeating: ")", count: 40) + "]",
         "t.layout:1:34: conditions nest at most 32 deep (not and parentheses)"),
        ("[" + String(repeating: "not ", count: 5000) + "phone]", "t.layout:1:130: conditions nest at most 32 deep (not and parentheses)"),
        ("view safe", "t.layout:1:6: 'safe' is a guide there in every layout ('safe' for the safe area, 'safeHorizontal' and 'safeVertical' for it past the window controls, 'keyboard' for the keyboard); choose another name"),
    ])
    func errorsNameFileLineAndColumn(text: String, expected: String) {
        #expect(parseError(text) == expected)
    }

    @Test func sectionsSetExtrasAndTheLastOneWins() throws {
        let document = try LayoutParser.parse("""
            view a
            H:|[a]|
            V:|[a]|
            extra presentation = popover
            extra pages = 1
            extra label = "two words"
            extra ratio = aspect-ratio
            [max-width: 320]
            extra presentation = fullScreen
            extra compact = true
            extra ratio = 0.5 * aspect-ratio
            extra half = 0.5 * width
            """, file: "t.layout")
        let wide = document.extras(in: environment(1000, 500))
        #expect(wide == ["presentation": .string("popover"), "pages": .number(1), "label": .string("two words"),
                         "ratio": .number(2)])
        let narrow = document.extras(in: environment(300, 600))
        #expect(narrow["presentation"] == .string("fullScreen") && narrow["compact"] == .bool(true))
        #expect(narrow["ratio"] == .number(0.25) && narrow["half"] == .number(150))
    }

    @Test func theSafeGuideFollowsTheInsetsAndTheContainerDoesNot() throws {
        let document = try LayoutParser.parse("""
            view bar content
            H:|-[bar]-|
            bar.top == safe.top
            bar.height == 44
            content.left == safe.left
            content.right == safe.right
            content.top == bar.bottom
            content.bottom == safe.bottom
            """, file: "t.layout")
        var e = environment(812, 375, vertical: .compact, idiom: .phone)
        e.safeArea = EdgeInsets(top: 0, left: 44, bottom: 21, right: 44)
        let result = try document.solve(in: e)
        // The visual format's `|-` stays relative to the window (20 pt from its edge), as in UIKit.
        #expect(result.frames["bar"]?.values == [20, 0, 772, 44])
        #expect(result.frames["content"]?.values == [44, 44, 724, 310])
        #expect(result.frames["safe"] == nil, "the built-in guide is not an element of the layout")
        #expect(result.ambiguous.isEmpty)
        e.safeArea = EdgeInsets(top: 47, left: 0, bottom: 34, right: 0)
        let portrait = try document.solve(in: e)
        #expect(portrait.frames["bar"]?.values == [20, 47, 772, 44] && portrait.frames["content"]?.values == [0, 91, 812, 250])
    }
}
