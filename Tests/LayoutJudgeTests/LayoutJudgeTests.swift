import LayoutJudge
import Testing
import Vocabulary

/// Each rule found where it applies and not where it does not, with the numbers in its sentence; scrolled
/// content and elements holding others told apart from overflow and overlap.
@Suite struct LayoutJudgeTests {
    /// An iPhone X in portrait: 375 x 812, the sensor housing's 44 on top and the home indicator's 34 below.
    static let phone = PublishedWindow(size: Size(width: 375, height: 812),
                                       safeAreaInsets: EdgeInsets(top: 44, left: 0, bottom: 34, right: 0), idiom: .phone)
    /// A 320-pt Split View column on an iPad, no insets.
    static let column = PublishedWindow(size: Size(width: 320, height: 768), safeAreaInsets: .zero, idiom: .pad)

    func problems(_ frames: [String: Rect], kinds: [String: ElementKind] = [:], scrolledIn: [String: String] = [:],
                  in window: PublishedWindow = column) throws -> [LayoutProblem] {
        LayoutJudge.problems(of: try ReportedLayout(frames: frames, kinds: kinds, scrolledIn: scrolledIn),
                             adapter: "test", in: window)
    }

    func rect(_ x: Double, _ y: Double, _ w: Double, _ h: Double) -> Rect { Rect(x: x, y: y, width: w, height: h) }

    @Test func aLayoutInsideItsWindowHasNoProblem() throws {
        let frames = ["sidebar": rect(0, 0, 320, 768), "title": rect(16, 16, 200, 30), "done": rect(250, 10, 60, 44)]
        #expect(try problems(frames, kinds: ["sidebar": .container, "title": .text, "done": .control]).isEmpty)
    }

    @Test func aSidebarOverflowingAOneThirdColumnIsOutsideTheWindow() throws {
        let found = try problems(["sidebar": rect(0, 0, 440, 768)], kinds: ["sidebar": .container])
        #expect(found.map(\.rule) == [.outsideWindow])
        #expect(found[0].element == "sidebar")
        #expect(found[0].message == "container 'sidebar' (0, 0, 440, 768) reaches 120 pt past the window's right edge (the window is 320 x 768 pt)")
    }

    /// An app that will not shrink below 389 pt in a 320-pt column: one `minimum-size` problem naming both
    /// sizes, first; the widgets it carries past the edge within its own size are that problem, not one each; a
    /// widget past the app's own edge is still outside.
    @Test func anAppLargerThanItsWindowIsOneMinimumSizeProblem() throws {
        let frames = ["window": rect(0, 0, 389, 768), "header": rect(0, 0, 389, 46), "close": rect(340, 4, 44, 44),
                      "stray": rect(380, 100, 40, 40)]
        let layout = try ReportedLayout(frames: frames, kinds: ["window": .container, "header": .container, "close": .control,
                                                                "stray": .content],
                                        minimumSize: Size(width: 389, height: 768))
        let found = LayoutJudge.problems(of: layout, adapter: "desktop", in: Self.column)
        #expect(found.map(\.rule) == [.minimumSize, .outsideWindow], "\(found)")
        #expect(found[0].element == "window")
        #expect(found[0].message == "the app is at least 389 x 768 pt; its window is 320 x 768 pt, and what the app draws 69 pt past the window's right edge is cut off")
        #expect(found[1].element == "stray")
        // An app that fits says nothing of its size.
        let fits = try ReportedLayout(frames: ["window": rect(0, 0, 320, 768)], minimumSize: Size(width: 320, height: 768))
        #expect(LayoutJudge.problems(of: fits, adapter: "desktop", in: Self.column).isEmpty)
    }

    /// A page 400 pt wide in a 320-pt window (drawn zoomed out to fit): one `reflow` problem naming its widest
    /// element (WCAG 1.4.10), and no edge problem for what the page carries across within its width.
    @Test func aPageWiderThanItsWindowIsOneReflowProblem() throws {
        let layout = try ReportedLayout(frames: ["title": rect(0, 0, 256, 40), "cell": rect(300, 50, 80, 20)],
                                        kinds: ["title": .text, "cell": .text], reflow: Reflow(element: "body>table.2", width: 400))
        let found = LayoutJudge.problems(of: layout, adapter: "web", in: Self.column)
        #expect(found.map(\.rule) == [.reflow], "\(found)")
        #expect(found[0].element == "body>table.2")
        #expect(found[0].message.hasPrefix("the page is 400 pt wide in a 320-pt window, so it scrolls sideways (WCAG 1.4.10 Reflow"))
        #expect(throws: ReportedLayout.Invalid.self) { _ = try ReportedLayout(frames: [:], reflow: Reflow(element: "x", width: .nan)) }
    }

    /// WCAG's 24 px instead of Apple's 44 pt: a 30-pt button passes; a 20-pt one fails unless a 24-pt circle
    /// around it meets no other control nor another small one's circle (its spacing); a rule left out of the run is
    /// not reported.
    @Test func targetSizeByTheRunsRuleAndRulesLeftOut() throws {
        let layout = try ReportedLayout(
            frames: ["ok": rect(0, 100, 30, 30), "alone": rect(200, 300, 20, 20), "a": rect(0, 500, 20, 20), "b": rect(22, 500, 20, 20)],
            kinds: ["ok": .control, "alone": .control, "a": .control, "b": .control])
        let apple = LayoutJudge.problems(of: layout, adapter: "t", in: Self.column)
        #expect(apple.map(\.element).sorted() == ["a", "alone", "b", "ok"], "\(apple)")
        #expect(apple.first?.message.hasSuffix("on an iPad a control needs at least 44 x 44 pt to be hit reliably") == true)
        let wcag = LayoutJudge.problems(of: layout, adapter: "t", in: Self.column, checks: LayoutChecks(targetSize: .wcag24px))
        #expect(wcag.map(\.element).sorted() == ["a", "b"], "spaced and large enough pass: \(wcag)")
        #expect(wcag.first?.message.contains("WCAG 2.5.8 (Target Size, Minimum) asks for at least 24 x 24 CSS px") == true)
        let off = LayoutJudge.problems(of: layout, adapter: "t", in: Self.column, checks: LayoutChecks(off: [.smallTarget, .overlap]))
        #expect(off.isEmpty, "\(off)")
    }

    /// Text the adapter measured against its background: one `low-contrast` problem each, the lowest contrast
    /// first, with WCAG's ratio for its size; a ratio that meets the one required, or is not a ratio, is refused.
    @Test func textThatStandsOutTooLittleIsLowContrast() throws {
        let layout = try ReportedLayout(
            frames: ["note": rect(0, 0, 120, 20)], kinds: ["note": .text],
            lowContrast: ["note": LowContrast(ratio: 2.847, required: 4.5), "body>h1": LowContrast(ratio: 2.5, required: 3)])
        let found = LayoutJudge.problems(of: layout, adapter: "web", in: Self.column)
        #expect(found.map(\.element) == ["note", "body>h1"], "\(found)")
        #expect(found.allSatisfy { $0.rule == .lowContrast })
        #expect(found[0].message == "the text of 'note' stands out from its background by 2.84:1; WCAG 1.4.3 asks 4.5:1 of text of its size")
        #expect(found[1].message == "the text of 'body>h1' stands out from its background by 2.5:1; WCAG 1.4.3 asks 3:1 of large text (24 px, or 18.66 px bold)")
        #expect(LayoutJudge.problems(of: layout, adapter: "web", in: Self.column, checks: LayoutChecks(off: [.lowContrast])).isEmpty)
        let oneLeftOut = LayoutChecks(offElements: [.init(.lowContrast, "note")])
        #expect(LayoutJudge.problems(of: layout, adapter: "web", in: Self.column, checks: oneLeftOut).map(\.element) == ["body>h1"])
        for low in [LowContrast(ratio: 4.5, required: 4.5), LowContrast(ratio: 0.5, required: 3), LowContrast(ratio: .nan, required: 4.5)] {
            #expect(throws: ReportedLayout.Invalid.self) { _ = try ReportedLayout(frames: [:], lowContrast: ["a": low]) }
        }
    }

    /// Text the adapter measured as cut: one `clipped-text` problem each, by name (with its element's size) or
    /// by place (the report has no frame for it), the worst first; a place with a space, or a size that is not a
    /// size, is refused naming the key.
    @Test func textThatDoesNotFitIsClippedText() throws {
        let layout = try ReportedLayout(
            frames: ["title": rect(0, 0, 120, 20)], kinds: ["title": .text],
            clippedText: ["title": ClippedText(cut: .ellipsized, needed: Size(width: 260, height: 20)),
                          "#panel>div": ClippedText(cut: .clipped, needed: Size(width: 150, height: 20))])
        let found = LayoutJudge.problems(of: layout, adapter: "web", in: Self.column)
        #expect(found.map(\.element) == ["title", "#panel>div"], "\(found)")
        #expect(found.allSatisfy { $0.rule == .clippedText })
        #expect(found[0].message == "the text of 'title' is cut short with an ellipsis: it needs 260 x 20 pt, its element 120 x 20 pt")
        #expect(found[1].message == "the text of '#panel>div' is cut off at an edge (its element's or a container's): it needs 150 x 20 pt")
        #expect(throws: ReportedLayout.Invalid.self) {
            _ = try ReportedLayout(frames: [:], clippedText: ["a b": ClippedText(cut: .clamped, needed: Size(width: 1, height: 1))])
        }
        #expect(throws: ReportedLayout.Invalid.self) {
            _ = try ReportedLayout(frames: [:], clippedText: ["a": ClippedText(cut: .clamped, needed: Size(width: .infinity, height: 1))])
        }
    }

    @Test func aButtonUnderTheHomeIndicatorIsOutsideTheSafeArea() throws {
        let found = try problems(["buy": rect(16, 760, 343, 44)], kinds: ["buy": .control], in: Self.phone)
        #expect(found.map(\.rule) == [.outsideSafeArea])
        #expect(found[0].message.contains("reaches 26 pt past the safe area's bottom edge"))
        #expect(found[0].message.contains("bottom 34"))
    }

    /// A row of a list scrolled under the home indicator is not a problem: a person scrolls it up. One under the
    /// sensor housing at the top, and a button that does not scroll, are.
    @Test func scrolledContentUnderTheHomeIndicatorIsNotOutsideTheSafeArea() throws {
        let frames = ["list": rect(0, 0, 375, 812), "row": rect(0, 760, 375, 44), "header": rect(0, 20, 375, 44), "buy": rect(16, 760, 343, 44)]
        let found = try problems(frames, kinds: ["list": .container, "row": .text, "header": .text, "buy": .control],
                                 scrolledIn: ["row": "list", "header": "list"], in: Self.phone)
        #expect(found.map { "\($0.rule) \($0.element)" }.sorted() == ["outside-safe-area buy", "outside-safe-area header"], "\(found)")
    }

    @Test func backgroundsAndContainersMayFillTheWindowUnderTheSafeArea() throws {
        let frames = ["backdrop": rect(0, 0, 375, 812), "list": rect(0, 0, 375, 812)]
        #expect(try problems(frames, kinds: ["backdrop": .background, "list": .container], in: Self.phone).isEmpty)
        // The same frame as content (the default kind) is outside the safe area.
        #expect(try problems(["photo": rect(0, 0, 375, 812)], in: Self.phone).map(\.rule) == [.outsideSafeArea])
    }

    @Test func anElementOutsideTheWindowIsNotAlsoCountedOutsideTheSafeArea() throws {
        let found = try problems(["label": rect(-10, 800, 100, 30)], kinds: ["label": .text], in: Self.phone)
        #expect(found.map(\.rule) == [.outsideWindow])
        #expect(found[0].message.contains("10 pt past the window's left edge and 18 pt past its bottom edge"))
    }

    @Test func twoLabelsPartlyOverlappingAreAnOverlap() throws {
        let found = try problems(["title": rect(16, 16, 200, 40), "subtitle": rect(16, 40, 200, 30)],
                                 kinds: ["title": .text, "subtitle": .text])
        #expect(found.map(\.rule) == [.overlap])
        #expect(found[0].element == "subtitle & title")
        #expect(found[0].message.hasSuffix("overlap by 200 x 16 pt, and neither holds the other"))
    }

    /// An element that holds another (a label on a card, a knob in its track) is not an overlap; neither is
    /// a background or container under what it holds, nor two elements that only touch.
    @Test func anElementHoldingAnotherIsNotAnOverlap() throws {
        let frames = ["card": rect(10, 10, 300, 200), "caption": rect(20, 150, 200, 30), "same": rect(10, 10, 300, 200),
                      "next": rect(10, 210, 300, 100), "backdrop": rect(0, 100, 320, 300)]
        #expect(try problems(frames, kinds: ["caption": .text, "backdrop": .background]).isEmpty)
    }

    @Test func aSmallControlIsASmallTargetOnAPhoneAndAnIPad() throws {
        for window in [Self.phone, Self.column] {
            let found = try problems(["undo": rect(100, 100, 24, 24)], kinds: ["undo": .control], in: window)
            #expect(found.map(\.rule) == [.smallTarget])
            #expect(found[0].message == "control 'undo' is 24 x 24 pt; on \(window.idiom == .pad ? "an iPad" : "a phone") a control needs at least 44 x 44 pt to be hit reliably")
        }
        // Text and content of that size are not targets.
        #expect(try problems(["icon": rect(100, 100, 24, 24)]).isEmpty)
    }

    /// A control known only by its content box (GTK 4 gives no padding) is judged by it, and the sentence says the
    /// size is inside its padding; the other rules see it as any control. Two controls that share a 1-pt border
    /// touch, they do not overlap.
    @Test func aControlKnownByItsContentBoxIsJudgedSayingSo() throws {
        let frames = ["add": rect(131, 455, 126, 24), "close": rect(280, 10, 24, 24), "left": rect(0, 100, 17, 26), "right": rect(16, 100, 17, 26)]
        let layout = try ReportedLayout(frames: frames, kinds: ["add": .control, "close": .control], contentBoxes: ["add"])
        let found = LayoutJudge.problems(of: layout, adapter: "test", in: Self.column)
        #expect(found.map(\.element) == ["add", "close"], "\(found)")
        #expect(found.first?.message == "control 'add' is 126 x 24 pt inside its padding (its content box: the toolkit does not give the padding); "
                + "on an iPad a control needs at least 44 x 44 pt to be hit reliably")
        let past = try ReportedLayout(frames: ["add": rect(300, 455, 126, 24)], kinds: ["add": .control], contentBoxes: ["add"])
        #expect(LayoutJudge.problems(of: past, adapter: "test", in: Self.column).map(\.rule) == [.outsideWindow, .smallTarget])
        let refused = #expect(throws: ReportedLayout.Invalid.self) { try ReportedLayout(frames: frames, contentBoxes: ["gone"]) }
        #expect(refused?.message == "contentBoxes names element 'gone', which the report has no frame for")
    }

    /// Rows of a list scrolled out of its scroll view are not outside the window; the part of a row that
    /// shows is judged; a list that overflows the window itself is.
    @Test func scrolledContentIsJudgedByWhatShowsThroughItsScrollView() throws {
        let frames = ["list": rect(0, 100, 320, 600), "row-1": rect(0, 100, 320, 44), "row-40": rect(0, 1800, 320, 44),
                      "row-14": rect(0, 680, 320, 44)]
        let scrolled = ["row-1": "list", "row-40": "list", "row-14": "list"]
        #expect(try problems(frames, kinds: ["list": .container], scrolledIn: scrolled).isEmpty)
        // The same rows not declared scrolled: row-40 overflows the window.
        let unscrolled = try problems(frames, kinds: ["list": .container])
        #expect(unscrolled.map(\.element) == ["row-40"])
        #expect(unscrolled.map(\.rule) == [.outsideWindow])
        // A scrolled row's visible part still overlaps what lies over it.
        let over = try problems(frames.merging(["badge": rect(300, 690, 40, 40)]) { a, _ in a },
                                kinds: ["list": .container, "badge": .content], scrolledIn: scrolled)
        #expect(over.map(\.rule) == [.outsideWindow, .overlap])
        #expect(over.map(\.element) == ["badge", "badge & row-14"])
    }

    @Test func aReportNamingWhatItDoesNotHoldOrScrollingInCirclesIsRefused() {
        let frames = ["a": rect(0, 0, 10, 10), "b": rect(0, 0, 10, 10)]
        #expect(throws: ReportedLayout.Invalid.self) { try ReportedLayout(frames: frames, scrolledIn: ["a": "missing"]) }
        #expect(throws: ReportedLayout.Invalid.self) { try ReportedLayout(frames: frames, scrolledIn: ["missing": "a"]) }
        let circle = #expect(throws: ReportedLayout.Invalid.self) {
            try ReportedLayout(frames: frames, scrolledIn: ["a": "b", "b": "a"])
        }
        #expect(circle?.message == "element 'a' scrolls in itself (through 'a')")
    }

    /// The solver's rounding is not a layout's mistake.
    @Test func roundingWithinAHundredthOfAPointIsNoProblem() throws {
        let frames = ["a": rect(-0.004, 0, 320.008, 768), "b": rect(0, 0, 160.005, 44), "c": rect(160, 0, 160, 44)]
        #expect(try problems(frames, kinds: ["a": .background, "b": .control, "c": .control]).isEmpty)
    }

    /// under-keyboard: a control or text that a docked keyboard covers; content may run under it (a scroll
    /// view insets its content), and an undocked keyboard is nobody's rule.
    @Test func aSendButtonUnderTheDockedKeyboardIsFound() throws {
        var window = Self.column
        window.dockedKeyboard = rect(0, 370, 320, 398)
        let frames = ["list": rect(0, 0, 320, 768), "send": rect(250, 700, 60, 44), "field": rect(10, 300, 230, 44)]
        let found = try problems(frames, kinds: ["list": .content, "send": .control, "field": .text], in: window)
        #expect(found.map(\.rule) == [.underKeyboard] && found[0].element == "send")
        #expect(found[0].message == "control 'send' (250, 700, 60, 44) lies 44 pt under the docked keyboard (its top at 370 pt in the window); lay it out on the keyboard guide")
        #expect(try problems(frames, kinds: ["list": .content, "send": .control, "field": .text]).isEmpty)
    }
}
