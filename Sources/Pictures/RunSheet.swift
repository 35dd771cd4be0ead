import Foundation
import Vocabulary

/// The contact sheet of a matrix run (`traitctl scenario run --matrix --sheet FILE`): each combination's final
/// screen as `traitctl render` draws it (windows, safe areas, every adapter's reported frames), every one at
/// the same scale (the largest fills its card), so that sizes compare at a glance, and titled with the
/// combination's name; the windows' real pixels where their adapters sent some, the frames drawn over them. A
/// failed run's card is framed red and titled FAILED; one that failed before its end is a red card. Four cards
/// a row, in the matrix's order.
public struct RunSheet {
    public static let columns = 4
    public static let card = (width: 420.0, height: 360.0)
    public static let title = 26.0
    public static let margin = 16.0

    public let title: String
    public let runs: [Run]

    /// One card: the combination's name, its final screen (nil when it never got there), and whether it passed.
    public struct Run: Sendable {
        public var name: String
        public var picture: Picture?
        public var passed: Bool

        public init(name: String, picture: Picture?, passed: Bool) {
            self.name = name
            self.picture = picture
            self.passed = passed
        }
    }

    public init(title: String, runs: [Run]) {
        self.title = title
        self.runs = runs
    }

    public var picture: Picture {
        let columns = min(Self.columns, max(runs.count, 1))
        let rows = (runs.count + columns - 1) / columns
        var sheet = Picture(width: Self.margin + Double(columns) * (Self.card.width + Self.margin),
                            height: 40 + Double(rows) * (Self.card.height + Self.title + Self.margin), background: "#ffffff")
        let failed = runs.filter { !$0.passed }.count
        sheet.text(Self.margin, 26, "\(title): \(runs.count) runs" + (failed > 0 ? ", \(failed) failed" : ""), size: 16, bold: true)
        let pictures = runs.map(\.picture)
        let scale = pictures.compactMap { $0 }.map { min(Self.card.width / $0.width, Self.card.height / $0.height) }.min() ?? 1
        for (index, run) in runs.enumerated() {
            let x = Self.margin + Double(index % columns) * (Self.card.width + Self.margin)
            let y = 40 + Double(index / columns) * (Self.card.height + Self.title + Self.margin)
            sheet.text(x, y + 17, (run.passed ? "" : "FAILED ") + run.name, size: 13, color: run.passed ? "#222" : "#d62728", bold: true)
            let box = Rect(x: x, y: y + Self.title, width: Self.card.width, height: Self.card.height)
            if let picture = pictures[index] {
                let placed = Rect(x: box.x, y: box.y, width: picture.width * scale, height: picture.height * scale)
                sheet.place(picture, in: placed)
                if !run.passed { sheet.rect(placed.x - 2, placed.y - 2, placed.width + 4, placed.height + 4, stroke: "#d62728", strokeWidth: 4) }
            } else {
                sheet.rect(box.x, box.y, box.width, box.height, fill: "#fde8e8", stroke: "#d62728")
                sheet.text(box.x + 12, box.y + 24, "the run failed (see its output)", size: 12, color: "#d62728")
            }
        }
        return sheet
    }
}
