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

    public var description: String { "(\(x.compact), \(y.compact), \(width.compact), \(height.compact))" }
}

/// A size in points.
public struct Size: Sendable, Hashable, Codable, CustomStringConvertible {
    public var width: Double
    public var height: Double

    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }

    public var description: String { "\(width.compact) x \(height.compact)" }
}

extension Double {
    /// `1024` rather than `1024.0`; `561.5` stays.
    public var compact: String {
        self == rounded() && abs(self) < 1e15 ? String(Int64(self)) : String(self)
    }
}

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
