@testable import Bridges
import Testing
import Vocabulary

/// What the desktop bridge reports from an app's accessibility tree, without the app: trees as GTK and Qt give them.
@Suite struct DesktopElementsTests {
    @Test func aWidgetWhollyOutsideItsAncestorsIsNotReported() {
        let window = AccessibleNode.test("frame", "app", Rect(x: 0, y: 0, width: 320, height: 768), [
            .test("push button", "OK", Rect(x: 10, y: 10, width: 80, height: 44)),
            .test("push button", "Gone", Rect(x: 400, y: 10, width: 80, height: 44)),
        ])
        let (frames, _) = DesktopApp.elements(of: window)
        #expect(frames.keys.sorted() == ["push-button:OK", "window"])
    }
}

extension AccessibleNode {
    static func test(_ role: String, _ name: String, _ frame: Rect, _ children: [AccessibleNode] = []) -> AccessibleNode {
        AccessibleNode(role: role, name: name, frame: frame, children: children)
    }
}
