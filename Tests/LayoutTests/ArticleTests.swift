import Layout
import Testing
import Vocabulary

/// The file and the code of the DocC article "Writing a layout file" (Sources/Layout/Layout.docc).
@Suite struct ArticleTests {
    static let text = """
        app mail

        view main support

        H:|[main][support]|
        V:|[main]|
        V:|[support]|
        support.width <= 374 @1000
        support.width == 0.5 * super.width @999

        [compact]
        hide support
        H:|[main]|
        """

    @Test func writingALayoutFile() throws {
        let document = try LayoutParser.parse(Self.text, file: "support-panel.layout")
        let wide = try document.solve(
            width: 1366, height: 1024,
            traits: TraitCollection(horizontalSizeClass: .regular, verticalSizeClass: .regular, idiom: .pad, displayScale: 2))
        #expect(wide.frames["support"]?.values == [992, 0, 374, 1024])
        let compact = try document.solve(
            width: 507, height: 768, traits: TraitCollection.pad(.compact, .regular))
        #expect(compact.frames["main"]?.values == [0, 0, 507, 768] && compact.hidden == ["support"])
    }
}
