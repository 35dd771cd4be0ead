@testable import Bridges
import Foundation
import Testing
import Vocabulary

/// What the desktop bridge reports from an app's accessibility tree, without the app: trees as GTK and Qt give them.
@Suite struct DesktopElementsTests {
    @Test func aWidgetWhollyOutsideItsAncestorsIsNotReported() {
        let window = AccessibleNode.test("frame", "app", Rect(x: 0, y: 0, width: 320, height: 768), [
            .test("push button", "OK", Rect(x: 10, y: 10, width: 80, height: 44)),
            .test("push button", "Gone", Rect(x: 400, y: 10, width: 80, height: 44)),
        ])
        let frames = DesktopApp.elements(of: window).frames
        #expect(frames.keys.sorted() == ["push-button:OK", "window"])
    }

    /// A bar whose items are all hidden (GNOME Clocks' bottom switcher bar at 834 pt, its tabs left at stale
    /// extents outside it) is still a container, as it was before the tree was pruned to what is drawn: a
    /// container may lie under the home indicator, content may not. Its items are not in the snapshot either.
    @Test func aBarWhoseItemsAreHiddenIsStillAContainer() {
        let window = AccessibleNode.test("frame", "", Rect(x: 0, y: 0, width: 834, height: 1194), [
            .test("panel", "bar", Rect(x: 0, y: 1149, width: 834, height: 45), [
                .test("label", "World", Rect(x: 900, y: 1160, width: 45, height: 16)),
            ]),
        ])
        let elements = DesktopApp.elements(of: window)
        #expect(elements.kinds["panel:bar"] == .container && elements.frames["label:World"] == nil, "\(elements.kinds)")
        #expect(DesktopApp.drawn(window).children.first?.children.isEmpty == true)
    }

    /// Qt hides a menu bar's items that do not fit it behind its "»" button, leaving their extents where they
    /// would be: KCalc at the largest text, Settings 160 pt wide from x 168 in a 320-pt bar, is not drawn.
    @Test func aMenuItemThatDoesNotFitItsBarIsNotDrawn() {
        let window = AccessibleNode.test("frame", "", Rect(x: 0, y: 0, width: 320, height: 768), [
            .test("menu bar", "", Rect(x: 0, y: 0, width: 320, height: 49), [
                .test("menu item", "File", Rect(x: 6, y: 0, width: 70, height: 49)),
                .test("menu item", "Edit", Rect(x: 82, y: 0, width: 80, height: 49)),
                .test("menu item", "Settings", Rect(x: 168, y: 0, width: 160, height: 49)),
            ]),
        ])
        let frames = DesktopApp.elements(of: window).frames
        #expect(frames["menu-item:Edit"] != nil && frames["menu-item:Settings"] == nil, "\(frames.keys.sorted())")
    }

    /// A widget a point past the window (GTK 4's header bar border) is drawn to its edge; one 29 pt past (a GTK 3
    /// app's column in a window narrower than its content) is reported whole, cut off as a person sees it.
    @Test func aBorderPastTheWindowIsTrimmedAndContentCutOffIsNot() {
        let window = AccessibleNode.test("frame", "", Rect(x: 0, y: 0, width: 507, height: 768), [
            .test("panel", "header", Rect(x: -1, y: -1, width: 509, height: 48)),
            .test("combo box", "emblem", Rect(x: 392, y: 237, width: 144, height: 34)),
        ])
        let frames = DesktopApp.elements(of: window).frames
        #expect(frames["panel:header"] == Rect(x: 0, y: 0, width: 507, height: 47))
        #expect(frames["combo-box:emblem"] == Rect(x: 392, y: 237, width: 144, height: 34))
    }

    /// A tab bar scrolls its tabs: a tab it cuts (qt6ct's "Troubleshooting", 431 + 120 pt in a 507-pt window, its
    /// bar ending at the arrows) scrolls in the bar, so the judge sees what the bar shows of it.
    @Test func aTabScrollsInItsTabBar() {
        let window = AccessibleNode.test("frame", "", Rect(x: 0, y: 0, width: 507, height: 768), [
            .test("page tab list", "Appearance", Rect(x: 6, y: 54, width: 495, height: 26), [
                .test("page tab", "Appearance", Rect(x: 6, y: 54, width: 96, height: 26)),
                .test("page tab", "Troubleshooting", Rect(x: 431, y: 54, width: 120, height: 26)),
            ]),
        ])
        let found = DesktopApp.elements(of: window)
        let (frames, scrolledIn) = (found.frames, found.scrolledIn)
        #expect(frames["page-tab:Troubleshooting"] == Rect(x: 431, y: 54, width: 120, height: 26))
        #expect(scrolledIn == ["page-tab:Appearance": "page-tab-list:Appearance", "page-tab:Troubleshooting": "page-tab-list:Appearance"])
    }

    /// Qt 5 lists a closed combo box's popup rows, SHOWING and 753 pt wide, under a list of size 0 (as KCharSelect
    /// 22.12 does): nothing under a widget with no area is drawn, so none of them is reported; the combo box is.
    @Test func aWidgetUnderOneWithNoAreaIsNotReported() {
        let window = AccessibleNode.test("frame", "", Rect(x: 0, y: 0, width: 507, height: 768), [
            .test("combo box", "Basic Latin", Rect(x: 272, y: 67, width: 150, height: 23), [
                .test("list", "", Rect(x: 0, y: 0, width: 0, height: 0), [
                    .test("list item", "Basic Latin", Rect(x: 0, y: 0, width: 753, height: 23)),
                    .test("list item", "Latin-1 Supplement", Rect(x: 0, y: 23, width: 753, height: 23)),
                ]),
            ]),
        ])
        let frames = DesktopApp.elements(of: window).frames
        #expect(frames.keys.sorted() == ["combo-box:Basic_Latin", "window"], "\(frames.keys.sorted())")
    }
}

/// GNOME Clocks 43 (GTK 4.8, libadwaita 1.2) from Debian 12, read from its accessibility bus in a 320-pt and a
/// 507-pt window (`Fixtures/gnome-clocks-43-*.json`: role, name, extents in window coordinates, states, children;
/// its window stays 389 pt wide, its minimum). GTK 4.8 marks no widget but the window SHOWING.
@Suite struct RealAppTreeTests {
    static func tree(_ name: String) throws -> AccessibleNode {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/\(name).json")
        return try JSONDecoder().decode(Recorded.self, from: Data(contentsOf: url)).node!
    }

    /// The view switcher, squeezed out below about 510 pt (its tabs move to a bottom bar), keeps its last
    /// extents (509 pt wide, in a 69-pt squeezer): it was reported at every width, 361 pt past the window's edge
    /// and over the title shown in its place. The title is reported; the switcher and its tabs are not.
    @Test(arguments: ["gnome-clocks-43-320pt", "gnome-clocks-43-507pt"])
    func aSqueezedOutSwitcherIsNotReportedAndTheTitleShownInItsPlaceIs(fixture: String) throws {
        let window = try Self.tree(fixture)
        let frames = DesktopApp.elements(of: window).frames
        // The tabs reported are the bottom bar's, where libadwaita moves them; none of the header's.
        #expect(frames["tab:World"]?.y == 724 && frames["tab:World.2"] == nil, "\(frames.filter { $0.key.hasPrefix("tab") })")
        #expect(frames.filter { $0.key.hasPrefix("tab") }.values.allSatisfy { $0.y > 700 }, "\(frames.filter { $0.key.hasPrefix("tab") })")
        #expect(frames["label:Clocks"] != nil, "\(frames.keys.sorted())")
        // What the window shows of each: the header bar's 1-pt border outside the window is not reported.
        let bounds = try #require(frames["window"])
        #expect(frames.values.allSatisfy { bounds.contains($0) }, "\(frames.filter { !bounds.contains($0.value) })")
        #expect(frames["button:Close"] != nil && frames.count > 20)
    }
}

extension RealAppTreeTests {
    /// GNOME Clocks' header at 1024 pt, back from 507 (the frames its accessibility bus gave, read in a run of
    /// Debian's gnome-clocks 43): the squeezer shows the wide view switcher, which fits; the title it showed at
    /// 507 keeps its 187-pt extents inside the squeezer, and was reported over the switcher's tabs ("text
    /// 'label:Clocks' (258, 15, 163, 16) and content 'image:GtkImage.2' overlap"). At 507 the title is the child
    /// that fits, and is reported.
    @Test func aSqueezersHiddenChildIsNotReportedThoughItsStaleExtentsFitInside() {
        func header(width: Double, squeezer: Rect, title: Rect, label: Rect) -> AccessibleNode {
            let tabs = (0..<4).map { AccessibleNode.test("page tab", ["World", "Alarms", "Stopwatch", "Timer"][$0],
                                                          Rect(x: 258 + Double($0) * 128, y: 6, width: 125, height: 34)) }
            return .test("frame", "Clocks", Rect(x: 0, y: 0, width: width, height: 768), [
                .test("widget", "AdwSqueezer", squeezer, [
                    .test("page tab list", "AdwViewSwitcher", Rect(x: 258, y: 0, width: 509, height: 46), tabs),
                    .test("page tab list", "AdwViewSwitcher", Rect(x: squeezer.x, y: 0, width: 0, height: 0)),
                    .test("widget", "AdwWindowTitle", title, [.test("label", "Clocks", label)]),
                ]),
            ])
        }
        let wide = header(width: 1024, squeezer: Rect(x: 246, y: 0, width: 533, height: 46),
                          title: Rect(x: 246, y: 0, width: 187, height: 46), label: Rect(x: 258, y: 15, width: 163, height: 16))
        let frames = DesktopApp.elements(of: wide).frames
        #expect(frames["label:Clocks"] == nil && frames["widget:AdwWindowTitle"] == nil, "\(frames.keys.sorted())")
        #expect(frames["page-tab:World"] != nil && frames["page-tab-list:AdwViewSwitcher"] != nil, "\(frames.keys.sorted())")
        let narrow = header(width: 507, squeezer: Rect(x: 160, y: 0, width: 187, height: 46),
                            title: Rect(x: 160, y: 0, width: 187, height: 46), label: Rect(x: 172, y: 15, width: 163, height: 16))
        let shown = DesktopApp.elements(of: narrow).frames
        #expect(shown["label:Clocks"] != nil && shown["page-tab:World"] == nil, "\(shown.keys.sorted())")
    }
}

/// A node as the fixtures record it; nodes without VISIBLE are dropped, as the reader drops them.
private struct Recorded: Decodable {
    let role: String
    let name: String
    let frame: [Double]
    let states: [String]
    let children: [Recorded]

    var node: AccessibleNode? {
        guard states.contains("VISIBLE") else { return nil }
        return AccessibleNode(role: role, name: name, frame: Rect(x: frame[0], y: frame[1], width: frame[2], height: frame[3]),
                              children: children.compactMap(\.node))
    }
}

/// What each widget is for the layout checks.
@Suite struct DesktopKindsTests {
    /// GTK 3 names an entry `text`, as it names a label: the one a person types into is a control (zenity's form
    /// fields, 34 pt tall, were never judged small targets).
    @Test func editableTextIsAControlAndALabelIsText() {
        var field = AccessibleNode.test("text", "", Rect(x: 91, y: 37, width: 204, height: 34))
        field.editable = true
        #expect(DesktopApp.kind(of: field) == .control)
        #expect(DesktopApp.kind(of: .test("text", "Name", Rect(x: 10, y: 37, width: 60, height: 20))) == .text)
        #expect(DesktopApp.kind(of: .test("push button", "OK", Rect(x: 0, y: 0, width: 80, height: 30))) == .control)
    }

    /// Drawn over others by design: a scroll bar over its rows, GTK 4's nameless AdwGizmo dot; a named widget is not.
    @Test func scrollBarsAndNamelessPiecesAreBackground() {
        #expect(DesktopApp.kind(of: .test("scroll bar", "", Rect(x: 1002, y: 87, width: 6, height: 241))) == .background)
        #expect(DesktopApp.kind(of: .test("widget", "AdwGizmo", Rect(x: 214, y: 12, width: 6, height: 6))) == .background)
        #expect(DesktopApp.kind(of: .test("widget", "Volume 3", Rect(x: 0, y: 0, width: 60, height: 60))) == .content)
    }
}

extension AccessibleNode {
    static func test(_ role: String, _ name: String, _ frame: Rect, _ children: [AccessibleNode] = []) -> AccessibleNode {
        AccessibleNode(role: role, name: name, frame: frame, children: children)
    }
}
