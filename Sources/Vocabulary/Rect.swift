/// A rectangle in points.
public struct Rect: Sendable, Hashable, Codable, CustomStringConvertible {
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double

    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    public static let zero = Rect(x: 0, y: 0, width: 0, height: 0)

    public var size: Size { Size(width: width, height: height) }

    /// x, y, width, height: the order of the bus (`(dddd)`) and of scripts' JSON.
    public var values: [Double] { [x, y, width, height] }

    /// Whether every number is finite (not NaN, not infinite).
    public var isFinite: Bool { x.isFinite && y.isFinite && width.isFinite && height.isFinite }

    /// The right and bottom edges.
    public var maxX: Double { x + width }
    public var maxY: Double { y + height }

    /// Whether `other` lies inside this rectangle, give or take `tolerance` points on every edge.
    public func contains(_ other: Rect, tolerance: Double = 0) -> Bool {
        other.x >= x - tolerance && other.y >= y - tolerance
            && other.maxX <= maxX + tolerance && other.maxY <= maxY + tolerance
    }

    /// Whether the two share any area (touching edges do not count).
    public func intersects(_ other: Rect) -> Bool { intersection(other) != nil }

    /// The part both rectangles cover, or nil where they do not meet (touching edges do not meet).
    public func intersection(_ other: Rect) -> Rect? {
        let left = max(x, other.x), top = max(y, other.y)
        let right = min(maxX, other.maxX), bottom = min(maxY, other.maxY)
        guard right > left, bottom > top else { return nil }
        return Rect(x: left, y: top, width: right - left, height: bottom - top)
    }

    public var description: String { "(\(x.compact), \(y.compact), \(width.compact), \(height.compact))" }
}
