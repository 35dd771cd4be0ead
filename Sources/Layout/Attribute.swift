import Vocabulary
import Cassowary

/// An anchor of a layout item, as `NSLayoutConstraint.Attribute`. Leading and trailing are left and right
/// (traitd lays out left to right).
public enum Attribute: String, Sendable, CaseIterable {
    /// The left edge, `x`.
    case left
    /// The right edge, `x + width`.
    case right
    /// The top edge, `y`.
    case top
    /// The bottom edge, `y + height`.
    case bottom
    /// The left edge (`leading` in a left-to-right layout).
    case leading
    /// The right edge (`trailing` in a left-to-right layout).
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

    /// The anchor as a linear expression of the item's four variables.
    public func expression(_ attribute: Attribute) -> Expression {
        switch attribute {
        case .left, .leading: return Expression(x)
        case .top: return Expression(y)
        case .width: return Expression(width)
        case .height: return Expression(height)
        case .right, .trailing: return x + width
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
