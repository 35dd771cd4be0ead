import ArgumentParser
import Foundation
import TraitClient

/// `traitctl render --svg FILE [--png FILE]`: the simulated screen to scale, 1 px a point.
struct Render: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Draw the simulated screen to scale: windows, divider and every adapter's reported frames.",
        discussion: """
            One SVG pixel is one point. The picture shows the device outline, each window on screen with its app, \
            role, frame and size classes, its safe area (dashed, green), the Split View divider, and each adapter's latest frames (from the window's \
            Layouts property) labelled ADAPTER: ELEMENT. --png converts the same picture with rsvg-convert (Debian's \
            librsvg2-bin, which make deps installs).
            """)
    @OptionGroup var options: BusOptions
    @Option(help: ArgumentHelp("Write the SVG here (- for standard output).", valueName: "file")) var svg: String?
    @Option(help: ArgumentHelp("Write a PNG here (through rsvg-convert; - for standard output).", valueName: "file")) var png: String?

    func validate() throws {
        if svg == nil && png == nil { throw ValidationError("give --svg FILE, --png FILE, or both") }
    }

    func run() async throws {
        try await reportingFailures {
            let state = try await options.withClient { try await $0.state() }
            do {
                try ScreenPicture(state).picture.write(svg: svg, png: png)
            } catch {
                throw Failure(error)
            }
        }
    }
}

/// The drawing of one `DisplaySnapshot`.
struct ScreenPicture {
    static let bezel = 36.0
    static let header = 34.0
    let state: DisplaySnapshot

    init(_ state: DisplaySnapshot) { self.state = state }

    var picture: Picture {
        let screenW = state.screenSize.first ?? 0, screenH = state.screenSize.count > 1 ? state.screenSize[1] : 0
        let offscreen = state.windows.filter { $0.state == "background" }
        let legend = Double(offscreen.count + (state.backgroundApps.isEmpty ? 0 : 1)) * 16
        var p = Picture(width: screenW + 2 * Self.bezel, height: Self.header + screenH + 2 * Self.bezel + legend)
        p.text(Self.bezel, 22, "\(state.device) · \(state.orientation) · \(state.arrangement) · \(screenW.svg)×\(screenH.svg) pt @\(state.scale.svg)x · serial \(state.serial)",
               size: 15, bold: true)
        // The device: a rounded body, the screen inside it.
        let ox = Self.bezel, oy = Self.header + Self.bezel
        p.rect(ox - Self.bezel * 0.8, oy - Self.bezel * 0.8, screenW + Self.bezel * 1.6, screenH + Self.bezel * 1.6,
               fill: "#2b2b30", radius: 28)
        p.rect(ox, oy, screenW, screenH, fill: "#ffffff")
        for window in state.windows where window.state != "background" && window.frame.count == 4 {
            draw(window, into: &p, origin: (ox, oy))
        }
        if let secondary = state.windows.first(where: { $0.role == "secondary" && $0.state != "background" }),
           state.dividerPosition > 0, secondary.frame.count == 4 {
            let gap = max(2, secondary.frame[0] - state.dividerPosition)
            p.group("divider at \(state.dividerPosition.svg)\(state.dragging ? " (dragging)" : "")") { p in
                p.rect(ox + state.dividerPosition, oy, gap, screenH, fill: state.dragging ? "#ff9500" : "#3a3a3c")
            }
        }
        var y = oy + screenH + Self.bezel + 12
        for window in offscreen {
            p.text(Self.bezel, y, "\(window.app) (\(window.role), in the background): not on screen", size: 12, color: "#666")
            y += 16
        }
        if !state.backgroundApps.isEmpty {
            p.text(Self.bezel, y, "background apps: \(state.backgroundApps.joined(separator: ", "))", size: 12, color: "#666")
        }
        return p
    }

    func draw(_ window: WindowSnapshot, into p: inout Picture, origin: (x: Double, y: Double)) {
        let f = window.frame
        let (x, y) = (origin.x + f[0], origin.y + f[1])
        let tint = ["primary": "#e8f0fe", "secondary": "#e9f7ef", "slide-over": "#fff4e5", "pip": "#fde8ef"][window.role] ?? "#eeeeee"
        let classes = "\(window.horizontalSizeClass)/\(window.verticalSizeClass)"
        p.group("window \(window.app): \(window.role), frame \(f.map(\.svg).joined(separator: ",")), \(classes)") { p in
            p.rect(x, y, f[2], f[3], fill: tint, stroke: "#555", strokeWidth: 1.5)
            // The safe area (UIKit's safeAreaLayoutGuide): what the status bar, the sensor housing and the home
            // indicator leave of the window, dashed.
            let s = window.safeAreaInsets
            if s.count == 4, s.contains(where: { $0 > 0 }) {
                p.rect(x + s[1], y + s[0], f[2] - s[1] - s[3], f[3] - s[0] - s[2], stroke: "#34c759", strokeWidth: 1,
                       dashed: true)
            }
            p.text(x + 8, y + 18, "\(window.app) · \(window.role)", size: 14, bold: true)
            p.text(x + 8, y + 34, "(\(f[0].svg), \(f[1].svg)) \(f[2].svg)×\(f[3].svg) · \(classes)", size: 11, color: "#444")
        }
        // Labels that would start at the same place go on the next line instead.
        var labelsAt: [String: Int] = [:]
        for (index, adapter) in window.layouts.keys.sorted().enumerated() {
            let color = Picture.palette[index % Picture.palette.count]
            let elements = window.layouts[adapter]!
            p.group("adapter \(adapter) of \(window.app)") { p in
                for name in elements.keys.sorted() {
                    let e = elements[name]!
                    guard e.count == 4 else { continue }
                    let inset = Double(index) * 1.5
                    p.rect(x + e[0] + inset, y + e[1] + inset, e[2] - 2 * inset, e[3] - 2 * inset, stroke: color,
                           strokeWidth: 1.5, dashed: index % 2 == 1)
                    let spot = "\(e[0].svg),\(e[1].svg)"
                    let line = labelsAt[spot, default: 0]
                    labelsAt[spot] = line + 1
                    p.text(x + e[0] + 6, y + e[1] + 52 + Double(line) * 13, "\(adapter): \(name)", size: 10, color: color)
                }
            }
        }
    }
}
