import Adapters
import Foundation
import Layout
import Testing
import Vocabulary

@Suite struct LayoutFileLoaderTests {
    @Test func aGoodFileBecomesAnAdapterNamedAfterTheFile() throws {
        let result = LayoutFileLoader.load([(path: "/x/panel.layout", text: "app mail\nview a\nH:|[a]|\nV:|[a]|\n")])
        #expect(result.problems.isEmpty)
        let adapter = try #require(result.adapters.first)
        #expect(adapter.name == "panel.layout" && adapter.app == "mail")
        #expect(adapter.layout(WindowContext(width: 300, height: 200)) == .laidOut(frames: ["a": Rect(x: 0, y: 0, width: 300, height: 200)], extras: [:]))
    }

    @Test func brokenFilesAreSkippedWithFileLineColumn() {
        let result = LayoutFileLoader.load([
            (path: "/x/good.layout", text: "app mail\nview a\nH:|[a]|\nV:|[a]|\n"),
            (path: "/x/broken.layout", text: "app mail\nview a\na.width == b.width\n"),
            (path: "/x/noapp.layout", text: "view a\n"),
            (path: "/x/unreadable.layout", text: nil),
        ])
        #expect(result.adapters.map(\.name) == ["good.layout"])
        #expect(result.problems.contains { $0.hasPrefix("/x/broken.layout:3:12: unknown item 'b'") }, "\(result.problems)")
        #expect(result.problems.contains { $0.hasPrefix("/x/noapp.layout:1:1: expected an 'app NAME' line") })
        #expect(result.problems.contains("/x/unreadable.layout:1:1: cannot read the file"))
    }

    @Test func aLaterFileOfTheSameNameReplacesTheEarlier() {
        let result = LayoutFileLoader.load([
            (path: "/a/same.layout", text: "app mail\nview a\n"), (path: "/b/same.layout", text: "app notes\nview a\n"),
        ])
        #expect(result.adapters.map(\.app) == ["notes"])
        #expect(result.replaced == ["/b/same.layout replaces /a/same.layout"])
    }

    @Test func aConflictReportsFailedWithTheLinesNeverAFrame() {
        let text = "app mail\nview a\nH:|[a]|\nV:|[a]|\na.width >= 500\n"
        let adapter = LayoutFileLoader.load([(path: "/x/wide.layout", text: text)]).adapters[0]
        #expect(adapter.layout(WindowContext(width: 600, height: 100)) == .laidOut(frames: ["a": Rect(x: 0, y: 0, width: 600, height: 100)], extras: [:]))
        guard case .failed(let reason) = adapter.layout(WindowContext(width: 320, height: 100)) else {
            Issue.record("a 320 pt window cannot hold a.width >= 500")
            return
        }
        #expect(reason.contains("wide.layout:5: a.width >= 500"), "\(reason)")
    }

    /// A solution that overflows a double is a failed layout with the constraint's line, never an `inf` frame.
    @Test func anOverflowingLayoutReportsFailedNamingTheConstraint() {
        let text = "app mail\nview a b\nH:|[a]|\nV:|[a(10)]\nb.left == 0\nb.top == 0\nb.height == 1\nb.width == 1e308 * a.width\n"
        let adapter = LayoutFileLoader.load([(path: "/x/huge.layout", text: text)]).adapters[0]
        guard case .failed(let reason) = adapter.layout(WindowContext(width: 600, height: 100)) else {
            Issue.record("1e308 times 600 is not a frame")
            return
        }
        #expect(reason.hasPrefix("huge.layout:8: b.width == 1e308 * a.width: makes b.width inf"), "\(reason)")
    }

    @Test func ambiguousLayoutsNameTheFreeAnchors() {
        let adapter = LayoutFileLoader.load([(path: "/x/loose.layout", text: "app mail\nview a\na.width == 10\n")]).adapters[0]
        guard case .laidOut(_, let extras, _, _, _, _, _, _) = adapter.layout(WindowContext(width: 100, height: 100)) else {
            Issue.record("an ambiguous layout still lays out")
            return
        }
        #expect(extras["ambiguous"]?.description.contains("a.left") == true)
    }
}
