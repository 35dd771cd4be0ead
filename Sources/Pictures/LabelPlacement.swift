import TraitModel
import Vocabulary

/// Where text may go in a picture without overprinting other text: boxes are TraitModel's `Rect`s.
///
/// SVG has no text metrics, so a text's box is estimated from its font size: each character at most
/// `characterWidth` em wide (DejaVu Sans, the font the pictures ask for, averages about 0.55 em for the
/// lower-case names drawn here), from `ascent` em above the baseline to `descent` em below it. The tests
/// estimate boxes from the SVG's own coordinates the same way and check that no two intersect.
public enum TextMetrics {
    public static let characterWidth = 0.62
    public static let boldCharacterWidth = 0.68
    public static let ascent = 0.85
    public static let descent = 0.25

    /// The estimated width of `string` at `size`.
    public static func width(_ string: String, size: Double, bold: Bool = false) -> Double {
        Double(string.count) * size * (bold ? boldCharacterWidth : characterWidth)
    }
}

extension Rect {
    /// The box of `string` drawn at (x, baseline) with `anchor` start, middle or end.
    public init(text string: String, x: Double, baseline: Double, size: Double, bold: Bool = false, anchor: String = "start") {
        let width = TextMetrics.width(string, size: size, bold: bold)
        self.init(x: anchor == "middle" ? x - width / 2 : anchor == "end" ? x - width : x,
                  y: baseline - size * TextMetrics.ascent, width: width,
                  height: size * (TextMetrics.ascent + TextMetrics.descent))
    }
}

/// The places tried for a label of `target`, best first: inside its top-left corner and down line by line
/// (then the same on the right) when the label is narrower than the target, then just below it, just above
/// it, to its right and to its left. The first that lies within the allowed area and overlaps no text wins
/// (`Picture.label`).
public enum LabelCandidates {
    public static let padding = 4.0

    public static func around(_ target: Rect, text: String, size: Double, bold: Bool = false) -> [(x: Double, baseline: Double)] {
        let width = TextMetrics.width(text, size: size, bold: bold)
        let line = size * (TextMetrics.ascent + TextMetrics.descent) + 2
        let ascent = size * TextMetrics.ascent
        var result: [(x: Double, baseline: Double)] = []
        // Inside, from the top, when the label is narrower than its target.
        var baseline = target.y + padding + ascent
        while width <= target.width - 2 * padding, baseline + size * TextMetrics.descent <= target.maxY - padding + 1e-9 {
            result.append((target.x + padding, baseline))
            result.append((target.maxX - padding - width, baseline))
            baseline += line
        }
        // Below and above, a few lines each; then beside.
        for row in 0..<4 {
            result.append((target.x, target.maxY + 2 + ascent + Double(row) * line))
            result.append((target.x, target.y - 2 - size * TextMetrics.descent - Double(row) * line))
        }
        for row in 0..<4 {
            result.append((target.maxX + padding, target.y + ascent + Double(row) * line))
            result.append((target.x - padding - width, target.y + ascent + Double(row) * line))
        }
        return result
    }
}
