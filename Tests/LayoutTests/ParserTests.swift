import Layout
import Testing
import Vocabulary

@Suite struct ParserTests {
    let regular = TraitCollection.pad(.regular, .regular)

    func solve(_ text: String, _ width: Double = 400, _ height: Double = 300, traits: TraitCollection? = nil,
               orientation: Orientation = .landscapeLeft) throws -> LayoutResult {
        try LayoutParser.parse(text, file: "t.layout").solve(
            in: LayoutEnvironment(width: width, height: height, traits: traits ?? regular, orientation: orientation))
    }


    /// A constant near the largest double, scaled by a multiplier: the solution overflows. It is refused naming
    /// the constraint's file and line and what was expected, never handed on as `inf` (traitctl's JSON writer
    /// stopped on it with a Foundation error; an adapter would have reported it).
    @Test func aSolutionThatOverflowsIsRefusedNamingTheConstraint() throws {
        let text = """
            view a b
            a.left == 0
            a.top == 0
            a.height == 10
            a.width == 1e308
            b.left == 0
            b.top == 0
            b.height == 10
            b.width == 10 * a.width
            """
        #expect {
            try solve(text)
        } throws: { error in
            let message = "\(error)"
            return message.hasPrefix("t.layout:9: b.width == 10 * a.width: makes b.width inf, not a finite number of points; ")
                && message.contains("expected constants and multipliers")
        }
        // Large but finite values are not refused, and come out as they are.
        let large = try solve("view a\na.left == 0\na.top == 0\na.height == 10\na.width == 1e305\n")
        #expect(large.frames["a"]?.values == [0, 0, 1e305, 10])
    }

    @Test func constraintsWithMultipliersConstantsAndPriorities() throws {
        let r = try solve("""
            view a b
            metric gap = 8
            a.left == super.left + 10
            a.top == 20
            a.width == 0.25 * super.width
            a.height == a.width - 50 @required
            b.left == a.right + gap
            b.top == a.top
            b.right == super.right - 10
            b.height == 1000 @low
            b.height <= super.height @high
            """)
        #expect(r.frames["a"]?.values == [10, 20, 100, 50])
        #expect(r.frames["b"]?.values == [118, 20, 272, 300])
    }

    @Test func centersLeadingTrailingAndGuides() throws {
        let r = try solve("""
            view box
            guide middle
            middle.centerX == super.centerX
            middle.centerY == super.centerY
            middle.width == 0
            middle.height == 0
            box.centerX == middle.centerX
            box.centerY == middle.centerY
            box.width == 100
            box.height == 60
            """)
        #expect(r.frames["box"]?.values == [150, 120, 100, 60] && r.frames["middle"]?.values == [200, 150, 0, 0])
        let lt = try solve("view a\na.leading == 5\na.trailing == super.trailing - 5\na.top == 0\na.bottom == super.bottom")
        #expect(lt.frames["a"]?.values == [5, 0, 390, 300])
    }

    @Test func visualFormatWithStandardSpacingPredicatesAndMetrics() throws {
        let r = try solve("""
            view main support
            metric side = 30
            H:|-[main]-[support(<=374@1000,==main@750)]-|
            V:|-side-[main]-|
            V:|-(>=40)-[support(100)]
            """, 1000, 600)
        // 1000 - 20 - 8 - 20 = 952 shared equally (476 each; <= 374 wins over == main for support).
        #expect(r.frames["support"]?.values[2] == 374)
        #expect(r.frames["main"]?.values == [20, 30, 1000 - 20 - 8 - 20 - 374, 600 - 30 - 20])
        #expect(r.frames["support"]?.values[1] == 40 && r.frames["support"]?.values[3] == 100)
        let flush = try solve("view a b\nH:|[a(100)][b]|\nV:|[a]|\nV:|[b]|")
        #expect(flush.frames["b"]?.values == [100, 0, 300, 300])
    }

    @Test func sectionsAndHide() throws {
        let text = """
            view a b
            H:|[a]|
            V:|[a][b(50)]
            H:|[b]|
            [w:compact landscape]
            hide b
            V:|[a]|
            [portrait]
            a.height == 100
            [landscape]
            V:[b]|
            [any]
            a.left == 0
            """
        let compactLandscape = try solve(text, traits: TraitCollection.pad(.compact, .regular))
        #expect(compactLandscape.hidden == ["b"] && compactLandscape.frames["a"]?.values == [0, 0, 400, 300])
        let regularPortrait = try solve(text, traits: TraitCollection.pad(.regular, .regular), orientation: .portrait)
        #expect(regularPortrait.frames["a"]?.values[3] == 100 && regularPortrait.frames["b"]?.values[3] == 50)
        #expect(try LayoutParser.parse("view a\n[h:compact]\na.left == 0\n[h:regular]\na.left == 5", file: "x")
            .activeConstraints(in: LayoutEnvironment(width: 400, height: 300, traits: TraitCollection.pad(.regular, .compact))).count == 1)
    }

    @Test func conflictsNameTheLinesAsWritten() throws {
        let text = "view a\na.width == 100\na.width >= 200\n"
        do {
            _ = try solve(text)
            Issue.record("must conflict")
        } catch let LayoutError.conflict(_, constraints) {
            #expect(constraints == ["t.layout:2: a.width == 100", "t.layout:3: a.width >= 200"])
        }
    }

    @Test func deactivatedConstraintsTakeNoPart() throws {
        var document = try LayoutParser.parse("view a\nH:|[a]|\na.top == 0\na.height == 50\na.height == 80 @500", file: "t.layout")
        #expect(try document.solve(width: 100, height: 100, traits: regular).frames["a"]?.values == [0, 0, 100, 50])
        #expect(document.setActive(false, where: "a.height == 50") == 1)
        #expect(try document.solve(width: 100, height: 100, traits: regular).frames["a"]?.values == [0, 0, 100, 80])
        #expect(document.setActive(true, where: "a.height == 50") == 1)
        #expect(try document.solve(width: 100, height: 100, traits: regular).frames["a"]?.values[3] == 50)
    }

    @Test func ambiguityIsReported() throws {
        let r = try solve("view a\na.left == 0\na.width == 10")
        #expect(Set(r.ambiguous) == ["a.top", "a.height"])
    }

    @Test(arguments: [
        ("view a\na.width == 10 @1001", "t.layout:2:16: expected a priority from 1 to 1000 (or required, high, low), found 1001"),
        ("view a\na.size == 10", "t.layout:2:3: expected an attribute: left, right, top, bottom, leading, trailing, width, height, centerX, centerY"),
        ("view a\nb.width == 10", "t.layout:2:1: unknown item 'b'; declare it with 'view b' or 'guide b', or use 'super' for the container or a built-in guide ('safe' for the safe area, 'safeHorizontal' and 'safeVertical' for it past the window controls, 'keyboard' for the keyboard)"),
        ("view a\na.width = 10", "t.layout:2:9: expected a relation (==, <= or >=), found '= 10'"),
        ("view a\na.width == 2 * ", "t.layout:2:16: expected an anchor such as main.width, found the end of the line"),
        ("view a\na.width == gap", "t.layout:2:12: unknown metric 'gap'; declare it with 'metric gap = NUMBER'"),
        ("view a\na.width == 10 more", "t.layout:2:15: expected the end of the line, found 'more'"),
        ("view a a", "t.layout:1:8: 'a' is declared twice"),
        ("view super", "t.layout:1:6: 'super' is the container; choose another name"),
        ("metric m 4", "t.layout:1:10: expected '=' after the metric name, found '4'"),
        ("view a\nhide a", "t.layout:2:1: 'hide' belongs in a section such as [compact]; it hides items only there"),
        ("[tiny]", "t.layout:1:2: unknown condition 'tiny'; expected w:compact, w:regular, h:compact, h:regular, compact, regular, portrait, landscape, phone, pad, split, min-width:, max-width:, min-height:, max-height:, min-aspect-ratio:, max-aspect-ratio:, dark, light, left-to-right, right-to-left, high-contrast, bold-text, content-size >=|<=|== CATEGORY, not, '(' or any"),
        ("view a\nH:|-[b]-|", "t.layout:2:6: unknown view 'b'; declare it with 'view b'"),
        ("view a\nH:|-[a", "t.layout:2:7: expected ']' to close the view, found the end of the line"),
        ("view a\nH:|-(>=x)-[a]", "t.layout:2:8: unknown metric 'x'; declare it with 'metric x = NUMBER'"),
        ("view a\nH:|--[a]", "t.layout:2:5: expected a spacing (a number, a metric or '(...)'), found '-[a]'"),
        ("view a\nH:||", "t.layout:2:4: expected a view '[name]' before the closing '|'"),
        ("view a\n???", "t.layout:2:1: expected a declaration (view, guide, metric, app, hide, extra, kind, keyboard, breakpoint), a constraint, a section or an H:/V: line, found '???'"),
        ("view a\nkind button a", "t.layout:2:6: unknown kind 'button'; expected one of: background, container, content, control, text"),
        ("view a\nkind control b", "t.layout:2:14: unknown view 'b'; declare it with 'view b' first"),
        ("view a\nguide g\nkind control g", "t.layout:3:14: 'g' is a guide; guides draw nothing, so they have no kind"),
        ("view a\nkind control a\nkind text a", "t.layout:3:11: 'a' already has the kind control"),
        ("view a\nkind control", "t.layout:2:13: expected at least one view after 'kind control'"),
        ("view a\n[compact]\nkind control a", "t.layout:3:1: a view's kind holds in every section; declare it before the first section or after [any]"),
    ])
    func errorsNameFileLineAndColumn(text: String, expected: String) {
        #expect(parseError(text) == expected)
    }

    /// `kind` lines say what views are; a solved layout reports the kinds of the views it shows. A view named
    /// `kind` is still a view.
    @Test func kindsAreDeclaredAndReportedForShownViews() throws {
        let document = try LayoutParser.parse("view kind a b\nkind control a\nkind text b kind\nkind.width == 10\n", file: "t")
        #expect(document.kinds == ["a": .control, "b": .text, "kind": .text])
        #expect(document.constraints.count == 1)
    }

    @Test func commentsAppAndBlankLines() throws {
        let document = try LayoutParser.parse("# a comment\napp my-app   # trailing\n\nview a # the only view\n", file: "t")
        #expect(document.app == "my-app" && document.views == ["a"])
    }
}

/// What parsing `text` as `t.layout` throws, as printed; "no error" when it parses. The error tests of the parser
/// and of the section conditions compare it with the message a person would read.
func parseError(_ text: String) -> String {
    do {
        _ = try LayoutParser.parse(text, file: "t.layout")
        return "no error"
    } catch {
        return String(describing: error)
    }
}
