import Adapters
import Testing
import Vocabulary

/// Free-form windows have any size: the four seed adapters lay out at every width from the minimum window to
/// the widest iPad screen, at three heights, with the size class a free window has there, and their frames
/// tile the window as the seeds describe (no gap, no overlap, nothing outside).
@Suite struct FreeFormSweepTests {
    static let widths = Array(stride(from: 320.0, through: 1376, by: 8))
    static let heights = [320.0, 700, 1032]

    func window(_ width: Double, _ height: Double) -> WindowContext {
        WindowContext(width: width, height: height,
                      traits: TraitCollection(horizontalSizeClass: .horizontal(width: width), verticalSizeClass: .regular,
                                              idiom: .pad, displayScale: 2),
                      orientation: .landscapeLeft, screenWidth: 1376, screenHeight: 1032)
    }

    func frames(_ adapter: some LayoutAdapter, _ width: Double, _ height: Double) -> [String: Rect] {
        guard case .laidOut(let frames, _, _, _, _, _, _, _) = adapter.layout(window(width, height)) else {
            Issue.record("\(adapter.name) did not lay out \(width) x \(height)")
            return [:]
        }
        for (name, f) in frames {
            #expect(f.x >= -1e-6 && f.y >= -1e-6 && f.x + f.width <= width + 1e-6 && f.y + f.height <= height + 1e-6
                    && f.width >= 0 && f.height >= 0, "\(adapter.name) \(name) \(f) outside \(width) x \(height)")
        }
        return frames
    }

    func near(_ a: Double, _ b: Double) -> Bool { abs(a - b) < 1e-6 }

    @Test(arguments: heights) func everySeedTilesEveryWidth(height: Double) throws {
        for width in Self.widths {
            let panel = frames(SupportPanel(app: "mail"), width, height)
            let main = try #require(panel["main"])
            if let support = panel["support"] {
                #expect(near(main.x, 0) && near(support.x, main.x + main.width) && near(support.x + support.width, width),
                        "support-panel at \(width): \(panel)")
            } else {
                #expect(main == Rect(x: 0, y: 0, width: width, height: height), "support-panel at \(width): \(panel)")
            }

            let columns = frames(SplitColumns(app: "mail"), width, height)
            let primary = try #require(columns["primary"])
            let end = columns["secondary"].map { secondary in
                #expect(near(secondary.x, primary.x + primary.width), "split-columns at \(width): \(columns)")
                return secondary.x + secondary.width
            } ?? primary.x + primary.width
            #expect(near(primary.x, 0) && near(end, width), "split-columns at \(width): \(columns)")

            let book = frames(BookPages(app: "notes"), width, height)
            let canvas = try #require(book["canvas"]), right = try #require(book["rightPage"])
            #expect(near(right.x + right.width, canvas.x + canvas.width), "book-pages at \(width): \(book)")
            #expect(near(book["leftPage"].map { $0.x + $0.width } ?? canvas.x, right.x), "book-pages at \(width): \(book)")

            let xy = frames(XYSlider(app: "notes"), width, height)
            let slider = try #require(xy["slider"]), knob = try #require(xy["knob"])
            #expect(knob.x >= slider.x - 1e-6 && knob.x + knob.width <= slider.x + slider.width + 1e-6
                    && knob.y >= slider.y - 1e-6 && knob.y + knob.height <= slider.y + slider.height + 1e-6,
                    "xy-slider at \(width): \(xy)")
        }
    }
}
