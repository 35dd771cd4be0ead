/// Auto Layout's priority: 1...1000, where 1000 is required.
///
/// Constraints are satisfied in priority order, from highest to lowest: no number of lower-priority
/// constraints can outweigh a higher one (unlike kiwi's weighted strengths). Within one priority, the solver
/// minimises the total error of that priority's constraints.
public struct Priority: Hashable, Comparable, Sendable, CustomStringConvertible, ExpressibleByIntegerLiteral {
    /// The number, 1...1000.
    public let rawValue: Int

    /// Clamps into 1...1000.
    public init(_ value: Int) { rawValue = min(1000, max(1, value)) }
    /// `750` where a priority is expected; clamps like ``init(_:)``.
    public init(integerLiteral value: Int) { self.init(value) }

    /// 1000: the constraint holds, or adding it fails.
    public static let required = Priority(1000)
    /// 750, Auto Layout's `defaultHigh`.
    public static let high = Priority(750)
    /// 250, Auto Layout's `defaultLow`.
    public static let low = Priority(250)

    /// Whether it is 1000.
    public var isRequired: Bool { rawValue == 1000 }

    /// Lower priority first.
    public static func < (a: Priority, b: Priority) -> Bool { a.rawValue < b.rawValue }

    /// `required` or `@750`.
    public var description: String { isRequired ? "required" : "@\(rawValue)" }
}
