/// An unknown the solver finds a value for (a view's left edge, a width, ...).
///
/// Identity matters (two variables with the same name are different unknowns), so it is a class; the solver
/// writes `value` in `updateVariables()`.
public final class Variable: CustomStringConvertible {
    public let name: String
    // Written once per variable on every `updateVariables`; the solver is single-threaded, so the dynamic
    // exclusivity check (a measurable share of a suggest step) is turned off for this one property.
    @exclusivity(unchecked) public internal(set) var value: Double = 0

    public init(_ name: String) { self.name = name }

    public var description: String { name }
}

extension Variable: Hashable {
    public static func == (a: Variable, b: Variable) -> Bool { a === b }
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}
