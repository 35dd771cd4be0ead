/// Auto Layout's priority: 1...1000, where 1000 is required.
///
/// Constraints are satisfied in priority order, from highest to lowest: no number of lower-priority
/// constraints can outweigh a higher one (unlike kiwi's weighted strengths). Within one priority, the solver
/// minimises the total error of that priority's constraints.
public struct Priority: Hashable, Comparable, Sendable, CustomStringConvertible, ExpressibleByIntegerLiteral {
    public let rawValue: Int

    /// Clamps into 1...1000.
    public init(_ value: Int) { rawValue = min(1000, max(1, value)) }
    public init(integerLiteral value: Int) { self.init(value) }

    public static let required = Priority(1000)
    public static let high = Priority(750)
    public static let low = Priority(250)

    public var isRequired: Bool { rawValue == 1000 }

    public static func < (a: Priority, b: Priority) -> Bool { a.rawValue < b.rawValue }

    public var description: String { isRequired ? "required" : "@\(rawValue)" }
}
