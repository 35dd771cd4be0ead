import Vocabulary
import Cassowary

/// An anchor of a layout item, as `NSLayoutConstraint.Attribute`. Leading and trailing follow the layout
/// direction (Auto Layout's rule): left and right in a left-to-right layout, right and left in a right-to-left
/// one; left, right and the centres never flip.
public enum Attribute: String, Sendable, CaseIterable {
    /// The left edge, `x`.
    case left
    /// The right edge, `x + width`.
    case right
    /// The top edge, `y`.
    case top
    /// The bottom edge, `y + height`.
    case bottom
    /// The edge where reading starts: the left edge left to right, the right edge right to left.
    case leading
    /// The edge where reading ends: the right edge left to right, the left edge right to left.
    case trailing
    /// The width.
    case width
    /// The height.
    case height
    /// The horizontal centre, `x + width / 2`.
    case centerX
    /// The vertical centre, `y + height / 2`.
    case centerY

    /// Every attribute's name, comma-separated: what an error message lists as expected.
    public static var names: String { allCases.map(\.rawValue).joined(separator: ", ") }
}

/// A view or a layout guide: a rectangle the solver places, four variables (x, y, width, height).
public final class LayoutItem {
    /// The name layout files and reports use (`mail-list`, `content`).
    public let name: String
    /// Whether it is a layout guide: solved and reported like a view, but it draws nothing.
    public let isGuide: Bool
    let x: Variable, y: Variable, width: Variable, height: Variable

    /// A new item, its four variables named after it (`name.left`, `name.top`, `name.width`, `name.height`).
    public init(_ name: String, isGuide: Bool = false) {
        self.name = name
        self.isGuide = isGuide
        x = Variable("\(name).left")
        y = Variable("\(name).top")
        width = Variable("\(name).width")
        height = Variable("\(name).height")
    }

    /// The anchor as a linear expression of the item's four variables. In a right-to-left layout of a window
    /// `rightToLeftWidth` points wide, leading and trailing are measured from the window's right edge, growing
    /// leftwards (`width - right edge`, `width - left edge`): Auto Layout's rule that a leading constant of 20
    /// puts the view 20 pt in from the right. Every constraint on leading and trailing then holds for the
    /// layout mirrored about the window's centre, as UIKit mirrors it.
    public func expression(_ attribute: Attribute, rightToLeftWidth: Double? = nil) -> Expression {
        switch attribute {
        case .leading:
            if let w = rightToLeftWidth { return Expression(constant: w) - (x + width) }
            return Expression(x)
        case .trailing:
            if let w = rightToLeftWidth { return Expression(constant: w) - Expression(x) }
            return x + width
        case .left: return Expression(x)
        case .top: return Expression(y)
        case .width: return Expression(width)
        case .height: return Expression(height)
        case .right: return x + width
        case .bottom: return y + height
        case .centerX: return Expression(x) + 0.5 * Expression(width)
        case .centerY: return Expression(y) + 0.5 * Expression(height)
        }
    }

    /// The solved frame (x, y, width, height), once the solver has updated its variables: rounded to 1e-6 pt so
    /// that floating-point noise (346.99999999, -0) never reaches a report.
    public var frame: Rect {
        // Rounded to a millionth of a point; a value too large for that (scaling it would overflow) is kept as it is.
        func rounded(_ v: Variable) -> Double { abs(v.value) < 1e15 ? (v.value * 1e6).rounded() / 1e6 + 0 : v.value }
        return Rect(x: rounded(x), y: rounded(y), width: rounded(width), height: rounded(height))
    }

    var variables: [Variable] { [x, y, width, height] }
}
