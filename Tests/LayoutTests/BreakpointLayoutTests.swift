import Layout
import Testing
import Vocabulary

/// `breakpoint NAME CONDITION` in a layout file: libadwaita's conditions, named, switching sections as the
/// daemon judges the window's breakpoints (the text size for `sp`), and their mistakes at file:line:column.
@Suite struct BreakpointLayoutTests {
    static let file = """
        app mail
        view list detail
        breakpoint narrow max-width: 500sp
        V:|[list]|
        V:|[detail]|
        [narrow]
        hide detail
        H:|[list]|
        [not narrow]
        H:|[list(300)][detail]|
        [not narrow and dark]
        extra theme = night
        """

    func environment(_ width: Double, text: ContentSizeCategory = .large, dark: Bool = false) -> LayoutEnvironment {
        var traits = TraitCollection(horizontalSizeClass: .compact, verticalSizeClass: .regular, idiom: .pad, displayScale: 2)
        traits.display.contentSize = text
        if dark { traits.display[.appearance] = "dark" }
        return LayoutEnvironment(width: width, height: 768, traits: traits)
    }

    /// One column at 500 sp and narrower, two past it; a larger text moves the breakpoint (500 sp are 824 pt at
    /// accessibility-medium), as the daemon's `Breakpoints` would say for the same window.
    @Test func aBreakpointSwitchesItsSections() throws {
        let document = try LayoutParser.parse(Self.file, file: "t.layout")
        #expect(document.breakpoints.mapValues(\.description) == ["narrow": "max-width: 500sp"])
        #expect(try document.solve(in: environment(500)).frames.keys.sorted() == ["list"])
        #expect(try document.solve(in: environment(501)).frames.keys.sorted() == ["detail", "list"])
        #expect(try document.solve(in: environment(694, text: .accessibilityMedium)).frames.keys.sorted() == ["list"])
        #expect(document.extras(in: environment(694, dark: true))["theme"] == .string("night"))
        #expect(document.extras(in: environment(400, dark: true))["theme"] == nil)
        let condition = try #require(document.constraints.last?.condition)
        #expect(condition.description == "[not narrow]")
    }

    @Test(arguments: [
        ("breakpoint narrow max-width: 500xp", "t.layout:1:33: unknown unit: expected px, pt or sp (libadwaita's breakpoint condition)"),
        ("breakpoint dark max-width: 5pt", "t.layout:1:12: 'dark' is a condition already; name the breakpoint otherwise"),
        ("breakpoint narrow max-width: 5pt\nbreakpoint narrow min-width: 9pt", "t.layout:2:12: the breakpoint 'narrow' is declared twice"),
        ("[phone]\nbreakpoint narrow max-width: 5pt", "t.layout:2:1: 'breakpoint' declares a breakpoint for the whole file; put it before the first section"),
        ("breakpoint", "t.layout:1:11: expected the breakpoint's name (letters, digits, '-' and '_': a word a section can name), found the end of the line"),
        ("breakpoint com.x max-width: 5pt", "t.layout:1:12: expected the breakpoint's name (letters, digits, '-' and '_': a word a section can name), found '.x max-width'"),
        ("[any]\nbreakpoint narrow max-width: 5pt", "t.layout:2:1: 'breakpoint' declares a breakpoint for the whole file; put it before the first section"),
        ("breakpoint narrow max-width: 5é", "t.layout:1:31: unknown unit: expected px, pt or sp (libadwaita's breakpoint condition)"),
        ("breakpoint min-width max-width: 5pt", "t.layout:1:12: 'min-width' is a condition already; name the breakpoint otherwise"),
        ((0...64).map { "breakpoint b\($0) max-width: 5pt" }.joined(separator: "\n"), "t.layout:65:1: a layout has at most 64 breakpoints (what SetBreakpoints takes)"),
        ("breakpoint narrow max-width: 5pt\n[wide]", "t.layout:2:2: unknown condition 'wide'; expected w:compact, w:regular, h:compact, h:regular, compact, regular, portrait, landscape, phone, pad, split, min-width:, max-width:, min-height:, max-height:, min-aspect-ratio:, max-aspect-ratio:, dark, light, left-to-right, right-to-left, high-contrast, bold-text, content-size >=|<=|== CATEGORY, not, '(' or any, or a breakpoint: narrow"),
    ])
    func mistakesNameFileLineAndColumn(text: String, expected: String) {
        #expect(parseError(text) == expected)
    }
}
