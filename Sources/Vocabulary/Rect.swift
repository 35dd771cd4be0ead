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

    public var description: String { "(\(x.compact), \(y.compact), \(width.compact), \(height.compact))" }
}
