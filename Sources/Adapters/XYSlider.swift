import Layout

/// Seed 002: a two-directional slider built from layout guides.
///
/// The slider fills the window inset by `inset`. Margin guides half the knob wide run along each edge of the
/// slider; the draggable area lies between them; a position guide starts at the area's top-left corner and is
/// `x` (`y`) of its width (height); the knob's centre sits on the position guide's bottom-right corner, so at
/// 0 or 1 the knob is still wholly inside the slider.
///
///     1024 x 768 at (0.5, 0.5): knob (490, 362, 44, 44); at (0, 0): (20, 20); at (1, 1): (960, 704)
public struct XYSlider: LayoutAdapter {
    public let name = "xy-slider"
    public let app: String
    let document: LayoutDocument

    public init(app: String, inset: Double = 20, knob: Double = 44, x: Double = 0.5, y: Double = 0.5) {
        self.app = app
        var layout = LayoutDocument(file: name)
        layout.views("slider", "knob")
        layout.kind(.container, "slider")
        layout.kind(.control, "knob")
        layout.guides("leftMargin", "rightMargin", "topMargin", "bottomMargin", "area", "position")
        layout.pin("slider", inset: inset)
        layout.add(.init("knob", .width), .equal, constant: knob)
        layout.add(.init("knob", .height), .equal, constant: knob)
        // Vertical margins run the slider's height at its left and right edges; horizontal ones its width.
        for (guide, edge) in [("leftMargin", Attribute.left), ("rightMargin", .right)] {
            layout.add(.init(guide, .width), .equal, 0.5, .init("knob", .width))
            layout.add(.init(guide, edge), .equal, 1, .init("slider", edge))
            layout.add(.init(guide, .top), .equal, 1, .init("slider", .top))
            layout.add(.init(guide, .height), .equal, 1, .init("slider", .height))
        }
        for (guide, edge) in [("topMargin", Attribute.top), ("bottomMargin", .bottom)] {
            layout.add(.init(guide, .height), .equal, 0.5, .init("knob", .height))
            layout.add(.init(guide, edge), .equal, 1, .init("slider", edge))
            layout.add(.init(guide, .left), .equal, 1, .init("slider", .left))
            layout.add(.init(guide, .width), .equal, 1, .init("slider", .width))
        }
        layout.add(.init("area", .left), .equal, 1, .init("leftMargin", .right))
        layout.add(.init("area", .right), .equal, 1, .init("rightMargin", .left))
        layout.add(.init("area", .top), .equal, 1, .init("topMargin", .bottom))
        layout.add(.init("area", .bottom), .equal, 1, .init("bottomMargin", .top))
        layout.add(.init("position", .left), .equal, 1, .init("area", .left))
        layout.add(.init("position", .top), .equal, 1, .init("area", .top))
        layout.add(.init("position", .width), .equal, x, .init("area", .width))
        layout.add(.init("position", .height), .equal, y, .init("area", .height))
        layout.add(.init("knob", .centerX), .equal, 1, .init("position", .right))
        layout.add(.init("knob", .centerY), .equal, 1, .init("position", .bottom))
        document = layout
    }

    public func layout(_ window: WindowContext) -> AdapterResult { .solving(document, in: window) }

    static let kind = BuiltInAdapter(
        name: "xy-slider", summary: "a knob at a fraction (x, y) of a slider's draggable area, laid out with guides",
        settings: [
            .init(key: "inset", defaultValue: 20, range: 0...10_000, help: "the slider's inset in the window"),
            .init(key: "knob", defaultValue: 44, range: 0...10_000, help: "the knob's width and height"),
            .init(key: "x", defaultValue: 0.5, range: 0...1, help: "the knob's position across the draggable area"),
            .init(key: "y", defaultValue: 0.5, range: 0...1, help: "the knob's position down the draggable area"),
        ],
        make: { app, v in XYSlider(app: app, inset: v["inset"], knob: v["knob"], x: v["x"], y: v["y"]) })
}
