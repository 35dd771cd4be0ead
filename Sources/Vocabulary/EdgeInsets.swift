/// Distances in points from a window's edges to the area its content should stay inside, as `UIEdgeInsets`:
/// the window's safe area (`safeAreaInsets`). On the bus: `(dddd)` in the order top, left, bottom, right.
public struct EdgeInsets: Sendable, Hashable, Codable, CustomStringConvertible {
    public var top: Double
    public var left: Double
    public var bottom: Double
    public var right: Double

    public init(top: Double, left: Double, bottom: Double, right: Double) {
        self.top = top
        self.left = left
        self.bottom = bottom
        self.right = right
    }

    public static let zero = EdgeInsets(top: 0, left: 0, bottom: 0, right: 0)

    /// Top, left, bottom, right: the order of the bus, the reference table and `UIEdgeInsets`.
    public var values: [Double] { [top, left, bottom, right] }

    /// `rect` shrunk by the insets (the safe area's frame in the same coordinates as `rect`).
    public func inset(_ rect: Rect) -> Rect {
        Rect(x: rect.x + left, y: rect.y + top,
             width: max(0, rect.width - left - right), height: max(0, rect.height - top - bottom))
    }

    public var description: String { "(\(top.compact), \(left.compact), \(bottom.compact), \(right.compact))" }
}
