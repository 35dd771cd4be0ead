import Adapters
import Layout
import Testing
import Vocabulary

/// The seed cases of issue 5, straight from the adapters (no bus): the frames each built-in adapter computes.
@Suite struct BuiltInAdapterTests {
    func window(_ w: Double, _ h: Double, _ horizontal: SizeClass, screen: (Double, Double)? = nil)
        -> WindowContext {
        let screen = screen ?? (w, h)
        return WindowContext(width: w, height: h,
                             traits: TraitCollection(horizontalSizeClass: horizontal, verticalSizeClass: .regular,
                                                     idiom: .pad, displayScale: 2),
                             orientation: screen.0 > screen.1 ? .landscapeLeft : .portrait,
                             screenWidth: screen.0, screenHeight: screen.1)
    }

    /// A frame in window coordinates, as the adapters report them.
    func frame(_ x: Double, _ y: Double, _ width: Double, _ height: Double) -> Rect {
        Rect(x: x, y: y, width: width, height: height)
    }

    func frames(_ result: AdapterResult) -> [String: Rect]? {
        if case .laidOut(let frames, _, _, _, _, _, _, _) = result { return frames }
        return nil
    }

    func extras(_ result: AdapterResult) -> [String: Extra]? {
        if case .laidOut(_, let extras, _, _, _, _, _, _) = result { return extras }
        return nil
    }

    @Test(arguments: [
        (1366.0, 1024.0, SizeClass.regular, 992.0, 374.0),
        (694, 768, .regular, 347, 347),
        (678, 1024, .regular, 339, 339),
    ])
    func supportPanelSplitsRegularWindows(w: Double, h: Double, c: SizeClass, main: Double, support: Double) {
        let result = SupportPanel(app: "mail").layout(window(w, h, c))
        #expect(frames(result) == ["main": frame(0, 0, main, h), "support": frame(main, 0, support, h)])
    }

    @Test func supportPanelHidesTheSupportWhenCompact() {
        #expect(frames(SupportPanel(app: "mail").layout(window(507, 768, .compact))) == ["main": frame(0, 0, 507, 768)])
    }

    @Test func supportPanelSettingsChangeTheCap() {
        let result = SupportPanel(app: "mail", maxWidth: 300).layout(window(1024, 768, .regular))
        #expect(frames(result)?["support"] == frame(724, 0, 300, 768))
    }

    /// 9.7-inch iPad, landscape (screen 1024 x 768) unless said otherwise.
    @Test(arguments: [
        ("landscape full", 1024.0, 768.0, SizeClass.regular, 1024.0, 768.0, 320.0, "regular", "popover"),
        ("2/3", 694, 768, .regular, 1024, 768, 170, "compact", "popover"),
        ("portrait full", 768, 1024, .regular, 768, 1024, 170, "compact", "popover"),
    ])
    func splitColumnsInRegularWindows(_ label: String, w: Double, h: Double, c: SizeClass, sw: Double,
                                      sh: Double, column: Double, cells: String, presentation: String) {
        let result = SplitColumns(app: "mail").layout(window(w, h, c, screen: (sw, sh)))
        #expect(frames(result) == ["primary": frame(0, 0, column, h), "secondary": frame(column, 0, w - column, h)], "\(label)")
        #expect(extras(result) == ["cellStyle": .string(cells), "presentation": .string(presentation), "collapsed": .bool(false)],
                "\(label)")
    }

    @Test(arguments: [(507.0, "popover"), (320, "fullScreen")])
    func splitColumnsCollapseWhenCompact(w: Double, presentation: String) {
        let result = SplitColumns(app: "mail").layout(window(w, 768, .compact, screen: (1024, 768)))
        #expect(frames(result) == ["primary": frame(0, 0, w, 768)])
        #expect(extras(result)?["presentation"] == .string(presentation))
        #expect(extras(result)?["collapsed"] == .bool(true))
    }

    @Test(arguments: [(0.5, 0.5, 490.0, 362.0), (0, 0, 20, 20), (1, 1, 960, 704)])
    func xySliderPlacesTheKnob(x: Double, y: Double, knobX: Double, knobY: Double) {
        let result = XYSlider(app: "notes", x: x, y: y).layout(window(1024, 768, .regular))
        #expect(frames(result) == ["slider": frame(20, 20, 984, 728), "knob": frame(knobX, knobY, 44, 44)])
    }

    @Test func bookPagesByAspectRatio() {
        let pages = BookPages(app: "notes")
        #expect(frames(pages.layout(window(1024, 768, .regular))) == [
            "canvas": frame(0, 0, 1024, 768), "leftPage": frame(0, 0, 512, 768), "rightPage": frame(512, 0, 512, 768),
        ])
        #expect(frames(pages.layout(window(768, 1024, .regular))) == [
            "canvas": frame(0, 0, 768, 1024), "rightPage": frame(0, 0, 768, 1024),
        ])
        let padded = pages.layout(window(694, 768, .regular))
        #expect(frames(padded) == ["canvas": frame(104.1, 0, 485.8, 768), "rightPage": frame(104.1, 0, 485.8, 768)])
        #expect(extras(padded)?["pages"] == .number(1))
    }

    @Test func bookPagesWithNoHeightFails() {
        guard case .failed(let reason) = BookPages(app: "notes").layout(window(100, 0, .compact)) else {
            Issue.record("a window with no height has no aspect ratio")
            return
        }
        #expect(reason.contains("no height"))
    }

    @Test func everyBuiltInAdapterMakesItsDefaults() {
        #expect(BuiltInAdapter.all.map(\.name) == ["support-panel", "split-columns", "xy-slider", "book-pages"])
        for kind in BuiltInAdapter.all {
            let adapter = kind.make(app: "mail")
            #expect(adapter.name == kind.name && adapter.app == "mail")
            #expect(kind.check("no-such-setting", 1)?.contains("unknown setting") == true)
            for setting in kind.settings { #expect(kind.check(setting.key, setting.defaultValue) == nil) }
        }
    }
}
