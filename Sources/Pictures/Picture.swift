import Foundation
import TraitModel
import Vocabulary

/// A small SVG document, drawn in points: rectangles, lines and text. Text is XML-escaped, so any app or
/// element name is safe to draw. The picture remembers where its text is (`textBoxes`), so that labels can be
/// placed where they overprint nothing (`label`).
public struct Picture: Sendable {
    public let width: Double
    /// Grows when a legend needs room below what was planned (`extend`).
    private(set) var height: Double
    private let background: String
    private var body: [String] = []
    /// The estimated box of every text drawn so far (`Rect(text:...)`).
    private(set) var textBoxes: [Rect] = []

    public init(width: Double, height: Double, background: String = "#f4f4f6") {
        self.width = width.rounded(.up)
        self.height = height.rounded(.up)
        self.background = background
    }

    /// Makes the picture at least `height` tall.
    public mutating func extend(toHeight height: Double) { self.height = max(self.height, height.rounded(.up)) }

    /// `dash`: an SVG dash pattern such as "6 4"; `dashed` is the pattern "6 4".
    public mutating func rect(_ x: Double, _ y: Double, _ w: Double, _ h: Double, fill: String = "none", stroke: String = "none",
                       strokeWidth: Double = 1, radius: Double = 0, dashed: Bool = false, dash: String? = nil,
                       opacity: Double = 1) {
        var attributes = #"x="\#(x.svg)" y="\#(y.svg)" width="\#(max(0, w).svg)" height="\#(max(0, h).svg)" fill="\#(fill)""#
        attributes += #" stroke="\#(stroke)" stroke-width="\#(strokeWidth.svg)""#
        if radius > 0 { attributes += #" rx="\#(radius.svg)""# }
        if let pattern = dash ?? (dashed ? "6 4" : nil) { attributes += #" stroke-dasharray="\#(pattern)""# }
        if opacity < 1 { attributes += #" fill-opacity="\#(opacity.svg)""# }
        body.append("<rect \(attributes)/>")
    }

    public mutating func text(_ x: Double, _ y: Double, _ string: String, size: Double = 12, color: String = "#222",
                       bold: Bool = false, anchor: String = "start") {
        body.append(#"<text x="\#(x.svg)" y="\#(y.svg)" font-family="DejaVu Sans, sans-serif" font-size="\#(size.svg)" fill="\#(color)"\#(bold ? #" font-weight="bold""# : "") text-anchor="\#(anchor)">\#(Self.escape(string))</text>"#)
        textBoxes.append(Rect(text: string, x: x, baseline: y, size: size, bold: bold, anchor: anchor))
    }

    /// Draws `string` at the first of `candidates` (x and baseline, from `LabelCandidates`) whose box lies
    /// within `bounds`, overlaps no text drawn before and none of `avoiding` (what is drawn over the label's
    /// window); returns the box, or nil (and draws nothing) when none does.
    @discardableResult
    public mutating func label(_ string: String, size: Double, color: String, bold: Bool = false,
                        candidates: [(x: Double, baseline: Double)], within bounds: Rect, avoiding: [Rect] = []) -> Rect? {
        for spot in candidates {
            let box = Rect(text: string, x: spot.x, baseline: spot.baseline, size: size, bold: bold)
            guard bounds.contains(box, tolerance: 1e-9), !textBoxes.contains(where: { $0.intersects(box) }),
                  !avoiding.contains(where: { $0.intersects(box) }) else { continue }
            text(spot.x, spot.baseline, string, size: size, color: color, bold: bold)
            return box
        }
        return nil
    }

    /// A group with a title, which SVG viewers show on hover and which names what it holds for readers.
    public mutating func group(_ title: String, _ draw: (inout Picture) -> Void) {
        body.append("<g><title>\(Self.escape(title))</title>")
        draw(&self)
        body.append("</g>")
    }

    /// Draws a PNG stretched over the rectangle (its pixels are the app's, at the device's scale), inline as a
    /// data URI so that the SVG stands alone.
    public mutating func image(png: Data, _ x: Double, _ y: Double, _ w: Double, _ h: Double) {
        body.append(#"<image x="\#(x.svg)" y="\#(y.svg)" width="\#(max(0, w).svg)" height="\#(max(0, h).svg)" preserveAspectRatio="none" href="data:image/png;base64,\#(png.base64EncodedString())"/>"#)
    }

    /// Draws `picture` scaled to fit `box` (keeping its proportions, centred), as a nested SVG: a contact sheet
    /// of whole pictures.
    public mutating func place(_ picture: Picture, in box: Rect) {
        body.append(#"<svg x="\#(box.x.svg)" y="\#(box.y.svg)" width="\#(box.width.svg)" height="\#(box.height.svg)" viewBox="0 0 \#(picture.width.svg) \#(picture.height.svg)">"#)
        body.append(#"<rect x="0" y="0" width="\#(picture.width.svg)" height="\#(picture.height.svg)" fill="\#(picture.background)"/>"#)
        body += picture.body
        body.append("</svg>")
    }

    public var svg: String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <svg xmlns="http://www.w3.org/2000/svg" width="\(width.svg)" height="\(height.svg)" viewBox="0 0 \(width.svg) \(height.svg)">
        <rect x="0" y="0" width="\(width.svg)" height="\(height.svg)" fill="\(background)"/>
        \(body.joined(separator: "\n"))
        </svg>

        """
    }

    public static func escape(_ s: String) -> String {
        var out = ""
        for c in s.unicodeScalars {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            // Characters XML 1.0 cannot hold at all.
            case _ where c.value < 0x20 && c != "\t" && c != "\n" && c != "\r": out += "?"
            default: out.unicodeScalars.append(c)
            }
        }
        return out
    }

    /// Colours for adapters and elements, told apart by index.
    public static let palette = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf", "#8c564b", "#e377c2"]

    /// Writes the SVG to `svg` (when given) and a PNG to `png` (when given) through `rsvg-convert`, `zoom`
    /// pixels a point (the SVG stays one pixel a point); `-` for either means standard output (for one of them only).
    public func write(svg svgPath: String?, png pngPath: String?, zoom: Double = 1) throws {
        if svgPath == "-" && pngPath == "-" {
            throw PictureError("--svg - and --png - both ask for standard output: give one of them a file")
        }
        if svgPath == "-" {
            FileHandle.standardOutput.write(Data(svg.utf8))
        } else if let svgPath {
            try Data(svg.utf8).write(to: URL(fileURLWithPath: svgPath))
        }
        guard let pngPath else { return }
        let source = FileManager.default.temporaryDirectory.appendingPathComponent("traitctl-\(UUID().uuidString).svg")
        try Data(svg.utf8).write(to: source)
        defer { try? FileManager.default.removeItem(at: source) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["rsvg-convert", "--format", "png", "--zoom", "\(zoom)"] + (pngPath == "-" ? [] : ["--output", pngPath]) + [source.path]
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let message = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            let detail = String(decoding: message, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            throw PictureError(process.terminationStatus == 127
                ? "rsvg-convert is not installed (Debian: librsvg2-bin; make deps installs it)"
                : "rsvg-convert failed: \(detail)")
        }
    }
}

public struct PictureError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

extension Double {
    /// A coordinate as SVG text, to a hundredth of a point: 347, 104.1, never 1e-07.
    public var svg: String { ((self * 100).rounded() / 100).compact }
}
