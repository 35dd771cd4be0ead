import Foundation
import TraitClient
import TraitModel
import Vocabulary

/// The drawing of one `DisplaySnapshot`.
///
/// Frames are drawn at their exact size, one SVG pixel a point. Labels never overprint other text: each
/// goes where it fits (inside its element, else beside it, within its window; `LabelCandidates`), and one
/// that fits nowhere goes to the legend below the device, numbered, with its frame's coordinates, and its
/// number is drawn beside the element where that fits. Frames are drawn as far as they lie in their window (a
/// long page reports elements thousands of points below it), and the legend numbers at most `legendLimit`
/// labels: a picture is read at a glance, and every frame is in `traitctl get Layouts --app APP`.
public struct ScreenPicture: Sendable {
    public static let legendLimit = 24
    public static let bezel = 36.0
    public static let header = 34.0
    /// How adapters' frames are told apart when they coincide: a colour and a dash pattern each.
    public static let dashes: [String?] = [nil, "6 4", "2 3", "10 3 2 3"]
    public let state: DisplaySnapshot
    /// An external display, drawn to the right of the device with its windows.
    public struct External: Sendable {
        let id: String
        let profile: String
        let size: Size
        let scale: Double

        public init(id: String, profile: String, size: Size, scale: Double) {
            self.id = id
            self.profile = profile
            self.size = size
            self.scale = scale
        }
    }
    public let externals: [External]

    public init(_ state: DisplaySnapshot, externals: [External] = []) {
        self.state = state
        self.externals = externals
    }

    /// One element's label, waiting for a place.
    private struct Pending {
        let text: String
        let color: String
        let target: Rect
        let window: Rect
        /// The windows drawn over this one.
        let covered: [Rect]
        let frame: Rect
        let app: String
    }

    /// The display is dark (`Appearance`): the picture shows it so.
    public var dark: Bool { state.traits.isDark }

    public var picture: Picture {
        let screenW = state.screenSize.width, screenH = state.screenSize.height
        let settings = DisplayTrait.all.filter { state.traits[$0] != $0.defaultValue }.map { "\($0.word) \(state.traits[$0])" }
        // External displays sit to the right of the device, each in a monitor's frame of its own.
        let externalsWidth = externals.map { $0.size.width + 3 * Self.bezel }.reduce(0, +)
        let tallest = max(screenH, externals.map(\.size.height).max() ?? 0)
        var p = Picture(width: screenW + 2 * Self.bezel + externalsWidth, height: Self.header + tallest + 2 * Self.bezel)
        p.text(Self.bezel, 22, "\(state.device) · \(state.orientation) · \(state.windowing.isFreeForm ? state.windowing.rawValue : state.arrangement.rawValue) · \(screenW.svg)×\(screenH.svg) pt @\(state.scale.svg)x · serial \(state.serial)"
               + (settings.isEmpty ? "" : " · " + settings.joined(separator: ", ")),
               size: 15, bold: true)
        // The device: a rounded body, the screen inside it.
        let ox = Self.bezel, oy = Self.header + Self.bezel
        p.rect(ox - Self.bezel * 0.8, oy - Self.bezel * 0.8, screenW + Self.bezel * 1.6, screenH + Self.bezel * 1.6,
               fill: "#2b2b30", radius: 28)
        // The screen as the display's appearance has it: white in light, near black in dark (UIKit's system
        // backgrounds), and the window tints and captions to match.
        // Its title says where the screen is in the picture: traitd-view maps the mouse to points with it.
        p.group("screen at \(ox.svg),\(oy.svg), 1 px a point") { p in
            p.rect(ox, oy, screenW, screenH, fill: dark ? "#1c1c1e" : "#ffffff")
        }
        // Every window and its frames first, so that the labels placed after them avoid every caption.
        // The split's windows and its divider, then the windows that float over them (Slide Over, PiP); a label
        // stays off the windows drawn after its own.
        // Free-form windows overlap: they are drawn back to front, as `Stacking` orders them.
        let onScreen = (state.windowing.isFreeForm ? state.windowsBackToFront : state.windows.filter { $0.state != .background })
            .filter { $0.display == "device" }
        let split = onScreen.filter { $0.role == .primary || $0.role == .secondary }
        let order = split + onScreen.filter { !split.contains($0) }
        let frames = order.map { Rect(x: ox + $0.frame.x, y: oy + $0.frame.y, width: $0.frame.width, height: $0.frame.height) }
        var pending: [Pending] = []
        // Per window, the frames outside it (not drawn), for the legend.
        var outside: [(app: String, names: [String])] = []
        // Draws a window, keeping its labels to place and its frames outside it for the legend.
        func drawKeeping(_ window: WindowSnapshot, bounds: Rect, covered: [Rect]) {
            let drawn = draw(window, into: &p, bounds: bounds, covered: covered)
            pending += drawn.labels
            if !drawn.outside.isEmpty { outside.append((window.app, drawn.outside)) }
        }
        func drawWindow(_ index: Int) { drawKeeping(order[index], bounds: frames[index], covered: Array(frames[(index + 1)...])) }
        split.indices.forEach(drawWindow)
        if let secondary = split.first(where: { $0.role == .secondary }), state.dividerPosition > 0 {
            let gap = max(2, secondary.frame.x - state.dividerPosition)
            p.group("divider at \(state.dividerPosition.svg)\(state.dragging ? " (dragging)" : "")") { p in
                p.rect(ox + state.dividerPosition, oy, gap, screenH, fill: state.dragging ? "#ff9500" : "#3a3a3c")
            }
        }
        (split.count..<order.count).forEach(drawWindow)
        // The software keyboard, over every window (translucent: the frames under it show through).
        if let k = state.keyboardFrame {
            p.group("keyboard \(state.keyboard) at \(k.x.svg),\(k.y.svg),\(k.width.svg),\(k.height.svg)") { p in
                // A split keyboard is its two halves at the side edges; the frame is their bounding box.
                let halves = state.keyboard == .split
                    ? [Rect(x: k.x, y: k.y, width: KeyboardTable.splitHalfWidth, height: k.height),
                       Rect(x: k.x + k.width - KeyboardTable.splitHalfWidth, y: k.y, width: KeyboardTable.splitHalfWidth, height: k.height)]
                    : [k]
                for h in halves {
                    p.rect(ox + h.x, oy + h.y, h.width, h.height, fill: "#8e8e93", stroke: "#3a3a3c", radius: 6, opacity: 0.55)
                }
                p.text(ox + k.x + 8, oy + k.y + 16, "keyboard \(state.keyboard) · \(k.width.svg)×\(k.height.svg)", size: 11,
                       color: "#1c1c1e", bold: true)
            }
        }
        // Each external display and its windows, back to front; in Split View it mirrors the device (no windows).
        var ex = ox + screenW + 3 * Self.bezel
        for external in externals {
            let size = external.size
            p.rect(ex - Self.bezel * 0.5, oy - Self.bezel * 0.5, size.width + Self.bezel, size.height + Self.bezel,
                   fill: "#3a3a3c", radius: 10)
            // Its title, like the device's screen's, says where it is in the picture (for traitd-view's mouse).
            p.group("display \(external.id) at \(ex.svg),\(oy.svg), 1 px a point") { p in
                p.rect(ex, oy, size.width, size.height, fill: dark ? "#1c1c1e" : "#ffffff")
            }
            let caption = "\(external.id) · \(external.profile) · \(size.width.svg)×\(size.height.svg) pt @\(external.scale.svg)x"
                + (state.windowing.isFreeForm ? "" : " · mirrors the device (split-view)")
            p.text(ex, oy - Self.bezel * 0.5 - 6, caption, size: 13, bold: true)
            let windows = state.windowsBackToFront.filter { $0.display == external.id }
            let bounds = windows.map { Rect(x: ex + $0.frame.x, y: oy + $0.frame.y, width: $0.frame.width, height: $0.frame.height) }
            for index in windows.indices {
                drawKeeping(windows[index], bounds: bounds[index], covered: Array(bounds[(index + 1)...]))
            }
            ex += size.width + 3 * Self.bezel
        }
        // The legend below the device: the key, apps off screen, then labels that fit nowhere on it.
        var y = oy + tallest + Self.bezel + 14
        func legendLine(_ text: String, color: String = "#555") {
            p.text(Self.bezel, y, text, size: 12, color: color)
            y += 16
        }
        let divider = state.dividerPosition > 0
            ? " · dark bar: the Split View divider at \(state.dividerPosition.svg) pt\(state.dragging ? " (orange: being dragged)" : "")" : ""
        legendLine("dashed green: each window's safe area\(divider) · coloured: each adapter's frames")
        for window in state.windows where window.state == .background {
            legendLine("\(window.app) (\(window.role), in the background): not on screen", color: "#666")
        }
        if !state.backgroundApps.isEmpty {
            legendLine("background apps: \(state.backgroundApps.joined(separator: ", "))", color: "#666")
        }
        for (app, names) in outside {
            let shown = names.prefix(3).joined(separator: ", ") + (names.count > 3 ? ", …" : "")
            legendLine("\(app): \(names.count) frame(s) outside its window, not drawn (\(shown)); "
                       + "traitctl get Layouts --app \(app) lists every frame", color: "#666")
        }
        var tag = 0
        var unplaced = 0
        for label in pending {
            let candidates = LabelCandidates.around(label.target, text: label.text, size: 10)
            if p.label(label.text, size: 10, color: label.color, candidates: candidates, within: label.window,
                       avoiding: label.covered) != nil { continue }
            guard tag < Self.legendLimit else {
                unplaced += 1
                continue
            }
            tag += 1
            let f = label.frame
            let entry = "[\(tag)] \(label.text) in \(label.app): (\(f.x.svg), \(f.y.svg)) \(f.width.svg)×\(f.height.svg)"
            // The tag where it fits; where even it does not, the entry's coordinates find the frame.
            let tagCandidates = LabelCandidates.around(label.target, text: "\(tag)", size: 9, bold: true)
            p.label("\(tag)", size: 9, color: label.color, bold: true, candidates: tagCandidates, within: label.window,
                    avoiding: label.covered)
            legendLine(entry, color: label.color)
        }
        if unplaced > 0 {
            legendLine("and \(unplaced) more label(s) that fit nowhere on the picture, not listed "
                       + "(traitctl get Layouts --app APP lists every frame)", color: "#666")
        }
        p.extend(toHeight: y)
        return p
    }

    /// Draws the window (at `bounds` in the picture), its safe area, its caption and its adapters' frames as far
    /// as they lie in it; returns the frames' labels, to be placed off `covered` (the windows drawn after it),
    /// and the frames wholly outside it ("ADAPTER: ELEMENT"), which are not drawn.
    private func draw(_ window: WindowSnapshot, into p: inout Picture, bounds: Rect, covered: [Rect])
        -> (labels: [Pending], outside: [String]) {
        let f = window.frame
        let (x, y) = (bounds.x, bounds.y)
        // The window's own appearance, not the display's: an app may force its window dark (SetTraitOverrides).
        let dark = window.traits.display.isDark
        let tint: String = switch (window.role, dark) {
        case (.primary, false): "#e8f0fe"
        case (.secondary, false): "#e9f7ef"
        case (.slideOver, false): "#fff4e5"
        case (.pip, false): "#fde8ef"
        case (.window, false): "#eef0ff"
        case (.primary, true): "#1f2a44"
        case (.secondary, true): "#1d3527"
        case (.slideOver, true): "#3a2c14"
        case (.pip, true): "#3a1d29"
        case (.window, true): "#262a44"
        }
        let classes = "\(window.horizontalSizeClass)/\(window.verticalSizeClass)"
        var caption: Pending?
        p.group("window \(window.app): \(window.role), frame \(f.x.svg),\(f.y.svg),\(f.width.svg),\(f.height.svg), \(classes)") { p in
            p.rect(x, y, f.width, f.height, fill: tint, stroke: "#555", strokeWidth: 1.5)
            // The app's own pixels, where a bridge sent them (the first adapter's, by name).
            if let png = window.screenshots.keys.sorted().lazy.compactMap({ FileManager.default.contents(atPath: window.screenshots[$0]!) }).first {
                p.image(png: png, x, y, f.width, f.height)
            }
            // The safe area (UIKit's safeAreaLayoutGuide): what the status bar, the sensor housing and the home
            // indicator leave of the window, dashed.
            let s = window.safeAreaInsets
            if s != .zero {
                let safe = s.inset(f)
                p.rect(x + s.left, y + s.top, safe.width, safe.height, stroke: "#34c759", strokeWidth: 1, dashed: true)
            }
            // iPadOS 26's window controls at the top leading corner: three dots in a pill.
            if let c = window.windowControls {
                p.rect(x + c.x + 4, y + c.y + 6, c.width - 8, c.height - 12, fill: dark ? "#3a3a3c" : "#d1d1d6", radius: 10)
                for (index, colour) in ["#ff5f57", "#febc2e", "#28c840"].enumerated() {
                    p.rect(x + c.x + 12 + Double(index) * 22, y + c.y + 10, 12, 12, fill: colour, radius: 6)
                }
            }
            // The caption: inside the window where it fits (a picture-in-picture window is small).
            let title = "\(window.app) · \(window.role)"
            let detail = "(\(f.x.svg), \(f.y.svg)) \(f.width.svg)×\(f.height.svg) · \(classes)"
            let canvas = Rect(x: 0, y: 0, width: p.width, height: .greatestFiniteMagnitude)
            // Past the window controls, where the window has them at its left.
            let left = x + 8 + (window.windowControls.map { $0.x <= 0 ? $0.width : 0 } ?? 0)
            // Off the windows drawn over this one: a window behind another keeps its caption where it shows, or in
            // the legend (below), never under the window in front.
            let titled = p.label(title, size: 14, color: dark ? "#f2f2f7" : "#222", bold: true,
                                 candidates: [(left, y + 18)] + LabelCandidates.around(bounds, text: title, size: 14, bold: true),
                                 within: canvas, avoiding: covered)
            if titled != nil {
                p.label(detail, size: 11, color: dark ? "#c7c7cc" : "#444",
                        candidates: [(left, y + 34)] + LabelCandidates.around(bounds, text: detail, size: 11), within: canvas,
                        avoiding: covered)
            } else {
                caption = Pending(text: "\(title) · \(classes)", color: dark ? "#f2f2f7" : "#222", target: bounds, window: bounds,
                                  covered: covered, frame: f, app: window.app)
            }
        }
        var pending: [Pending] = caption.map { [$0] } ?? []
        var outside: [String] = []
        let inWindow = Rect(x: 0, y: 0, width: f.width, height: f.height)
        for (index, adapter) in window.layouts.keys.sorted().enumerated() {
            let color = Picture.palette[index % Picture.palette.count]
            let elements = window.layouts[adapter]!
            p.group("adapter \(adapter) of \(window.app)") { p in
                for name in elements.keys.sorted() {
                    let e = elements[name]!
                    // The part inside the window (an empty frame: where it is); one wholly outside is listed instead.
                    guard let shown = e.width > 0 && e.height > 0 ? e.intersection(inWindow) : (inWindow.contains(e) ? e : nil) else {
                        outside.append("\(adapter): \(name)")
                        continue
                    }
                    p.rect(x + shown.x, y + shown.y, shown.width, shown.height, stroke: color, strokeWidth: 1.5,
                           dash: Self.dashes[index % Self.dashes.count])
                    let target = Rect(x: x + shown.x, y: y + shown.y, width: max(0, shown.width), height: max(0, shown.height))
                    pending.append(Pending(text: "\(adapter): \(name)", color: color, target: target, window: bounds,
                                           covered: covered, frame: e, app: window.app))
                }
            }
        }
        return (pending, outside)
    }
}
