import Layout

/// Seed 000: a main view and a support panel side by side. The panel is half the window but never wider than
/// `max-width` (the required cap wins over the 999 preference); in a horizontally compact window it is hidden
/// and the main view takes the whole window.
///
///     1366 regular -> main 992, support 374;  694 -> 347 + 347;  678 -> 339 + 339;  507 compact -> main 507
public struct SupportPanel: LayoutAdapter {
    public let name = "support-panel"
    public let app: String
    let document: LayoutDocument

    public init(app: String, maxWidth: Double = 374, fraction: Double = 0.5) {
        self.app = app
        var layout = LayoutDocument(file: name)
        layout.views("main", "support")
        layout.kind(.container, "main", "support")
        let compact = Condition(horizontal: .compact), regular = Condition(horizontal: .regular)
        // main | support, both the window's full height.
        layout.add(.init("main", .left), .equal, 1, .init("super", .left))
        layout.add(.init("support", .left), .equal, 1, .init("main", .right), when: regular)
        layout.add(.init("support", .right), .equal, 1, .init("super", .right), when: regular)
        layout.add(.init("main", .right), .equal, 1, .init("super", .right), when: compact)
        for item in ["main", "support"] {
            layout.add(.init(item, .top), .equal, 1, .init("super", .top))
            layout.add(.init(item, .height), .equal, 1, .init("super", .height))
        }
        layout.add(.init("support", .width), .lessOrEqual, constant: maxWidth, priority: 1000)
        layout.add(.init("support", .width), .equal, fraction, .init("super", .width), priority: 999)
        layout.hide("support", when: compact)
        document = layout
    }

    public func layout(_ window: WindowContext) -> AdapterResult { .solving(document, in: window) }

    static let kind = BuiltInAdapter(
        name: "support-panel", summary: "main and support side by side; support <= max-width, half the window @999, hidden when compact",
        settings: [
            .init(key: "max-width", defaultValue: 374, range: 0...100_000, help: "the support panel's widest (required)"),
            .init(key: "fraction", defaultValue: 0.5, range: 0...1, help: "the support panel's share of the window (priority 999)"),
        ],
        make: { app, v in SupportPanel(app: app, maxWidth: v["max-width"], fraction: v["fraction"]) })
}
