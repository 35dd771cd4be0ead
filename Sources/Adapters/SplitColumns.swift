import Vocabulary
import Layout

/// Seed 001: a master/detail split, as `UISplitViewController` shows it.
///
/// - The primary column is `narrow-column` (170 pt) when the window is narrower than the screen (Split View,
///   Slide Over) or the device is in portrait, `wide-column` (320 pt) otherwise; the secondary column fills the
///   rest.
/// - Horizontally compact, the split collapses to one column: the primary at the window's full width, the
///   secondary hidden.
/// - Extras: `cellStyle` is `compact` when the primary column is `compact-cell-width` (180 pt) or narrower,
///   else `regular`; `presentation` is `popover` when the window is wider than `popover-width` (320 pt), else
///   `fullScreen`; `collapsed` says whether the split collapsed.
///
/// On the 9.7-inch iPad: landscape full 320/704; 2/3 170/524; 1/2 and 1/3 collapsed; portrait full 170/598.
public struct SplitColumns: LayoutAdapter {
    public let name = "split-columns"
    public let app: String
    public var narrowColumn: Double
    public var wideColumn: Double
    public var compactCellWidth: Double
    public var popoverWidth: Double

    public init(app: String, narrowColumn: Double = 170, wideColumn: Double = 320, compactCellWidth: Double = 180,
                popoverWidth: Double = 320) {
        self.app = app
        self.narrowColumn = narrowColumn
        self.wideColumn = wideColumn
        self.compactCellWidth = compactCellWidth
        self.popoverWidth = popoverWidth
    }

    public func layout(_ window: WindowContext) -> AdapterResult {
        let collapsed = window.traits.horizontalSizeClass == .compact
        let narrow = window.isNarrowerThanScreen || !window.orientation.isLandscape
        let column = narrow ? narrowColumn : wideColumn
        var layout = LayoutDocument(file: name)
        layout.views("primary", "secondary")
        layout.kind(.container, "primary", "secondary")
        layout.metrics["column"] = column
        for item in ["primary", "secondary"] {
            layout.add(.init(item, .top), .equal, 1, .init("super", .top))
            layout.add(.init(item, .height), .equal, 1, .init("super", .height))
        }
        layout.add(.init("primary", .left), .equal, 1, .init("super", .left))
        if collapsed {
            layout.add(.init("primary", .right), .equal, 1, .init("super", .right))
            layout.hide("secondary", when: .init(horizontal: .compact))
        } else {
            layout.add(.init("primary", .width), .equal, constant: column)
            layout.add(.init("secondary", .left), .equal, 1, .init("primary", .right))
            layout.add(.init("secondary", .right), .equal, 1, .init("super", .right))
        }
        let primaryWidth = collapsed ? window.width : column
        let extras: [String: Extra] = [
            "cellStyle": .string(primaryWidth <= compactCellWidth ? "compact" : "regular"),
            "presentation": .string(window.width > popoverWidth ? "popover" : "fullScreen"),
            "collapsed": .bool(collapsed),
        ]
        return .solving(layout, in: window, extras: extras)
    }

    static let kind = BuiltInAdapter(
        name: "split-columns", summary: "master/detail columns; collapse when compact; cell style and popover extras",
        settings: [
            .init(key: "narrow-column", defaultValue: 170, range: 0...100_000,
                  help: "the primary column in a window narrower than the screen or in portrait"),
            .init(key: "wide-column", defaultValue: 320, range: 0...100_000, help: "the primary column otherwise"),
            .init(key: "compact-cell-width", defaultValue: 180, range: 0...100_000,
                  help: "cells take their compact form in a primary column this wide or narrower"),
            .init(key: "popover-width", defaultValue: 320, range: 0...100_000,
                  help: "popovers stay popovers in windows wider than this, else full screen"),
        ],
        make: { app, v in
            SplitColumns(app: app, narrowColumn: v["narrow-column"], wideColumn: v["wide-column"],
                         compactCellWidth: v["compact-cell-width"], popoverWidth: v["popover-width"])
        })
}
