import Layout

/// Seed 003: one or two book pages, by the canvas's aspect ratio r = width / height.
///
/// - When `padded-above` < r < `padded-below` (0.85 and 1.25) the canvas gets `padding` (15%) of its width on
///   each side, and r is taken as `squeeze` (0.7) of itself.
/// - The left page shows only when `two-pages-from` <= r <= `two-pages-to` (1.25 to 1.9, after the squeeze).
/// - Two pages split the canvas in halves; one page (the right one) takes it whole.
///
///     1024 x 768: two pages of 512;  768 x 1024: one page;  694 x 768: padding 104.1, one page (104.1,0,485.8,768)
///
/// Extras: `pages` (1 or 2) and `ratio`, the ratio the decision used.
public struct BookPages: LayoutAdapter {
    public struct Settings: Sendable, Equatable {
        public var paddedAbove = 0.85
        public var paddedBelow = 1.25
        public var padding = 0.15
        public var squeeze = 0.7
        public var twoPagesFrom = 1.25
        public var twoPagesTo = 1.9
        public init() {}
    }

    public let name = "book-pages"
    public let app: String
    public var settings: Settings

    public init(app: String, settings: Settings = Settings()) {
        self.app = app
        self.settings = settings
    }

    public func layout(_ window: WindowContext) -> AdapterResult {
        guard window.height > 0 else { return .failed("book-pages: the window has no height, so no aspect ratio") }
        var ratio = window.width / window.height
        var padding = 0.0
        if settings.paddedAbove < ratio && ratio < settings.paddedBelow {
            padding = (settings.padding * window.width * 1e6).rounded() / 1e6
            ratio *= settings.squeeze
        }
        let twoPages = settings.twoPagesFrom <= ratio && ratio <= settings.twoPagesTo
        var layout = LayoutDocument(file: name)
        layout.views("canvas", "leftPage", "rightPage")
        layout.kind(.container, "canvas")
        layout.add(.init("canvas", .left), .equal, 1, .init("super", .left), constant: padding)
        layout.add(.init("canvas", .right), .equal, 1, .init("super", .right), constant: -padding)
        for item in ["canvas", "leftPage", "rightPage"] {
            layout.add(.init(item, .top), .equal, 1, .init("super", .top))
            layout.add(.init(item, .height), .equal, 1, .init("super", .height))
        }
        layout.add(.init("rightPage", .right), .equal, 1, .init("canvas", .right))
        if twoPages {
            layout.add(.init("leftPage", .left), .equal, 1, .init("canvas", .left))
            layout.add(.init("leftPage", .width), .equal, 0.5, .init("canvas", .width))
            layout.add(.init("rightPage", .left), .equal, 1, .init("leftPage", .right))
        } else {
            layout.add(.init("rightPage", .left), .equal, 1, .init("canvas", .left))
            layout.hide("leftPage", when: .any)
        }
        return .solving(layout, in: window, extras: [
            "pages": .number(twoPages ? 2 : 1), "ratio": .number(ratio),
        ])
    }

    static let kind = BuiltInAdapter(
        name: "book-pages", summary: "one or two pages by the canvas's aspect ratio, with side padding near square",
        settings: [
            .init(key: "padded-above", defaultValue: 0.85, range: 0...100, help: "pad the canvas when the ratio is above this ..."),
            .init(key: "padded-below", defaultValue: 1.25, range: 0...100, help: "... and below this"),
            .init(key: "padding", defaultValue: 0.15, range: 0...0.5, help: "the side padding, a share of the width on each side"),
            .init(key: "squeeze", defaultValue: 0.7, range: 0...10, help: "a padded canvas's ratio is taken as this share of it"),
            .init(key: "two-pages-from", defaultValue: 1.25, range: 0...100, help: "the left page shows from this ratio ..."),
            .init(key: "two-pages-to", defaultValue: 1.9, range: 0...100, help: "... up to this one"),
        ],
        make: { app, v in
            var s = Settings()
            s.paddedAbove = v["padded-above"]
            s.paddedBelow = v["padded-below"]
            s.padding = v["padding"]
            s.squeeze = v["squeeze"]
            s.twoPagesFrom = v["two-pages-from"]
            s.twoPagesTo = v["two-pages-to"]
            return BookPages(app: app, settings: s)
        })
}
