import Synchronization

/// An unknown the solver finds a value for (a view's left edge, a width, ...).
///
/// Identity matters (two variables with the same name are different unknowns), so it is a class; the solver
/// writes `value` in `updateVariables()`.
public final class Variable: CustomStringConvertible {
    /// What the variable stands for (`mail.left`), shown in constraints' descriptions and conflict reports.
    public let name: String
    /// The value the solver last found; 0 until a `Solver.updateVariables()` after the variable joined it.
    //
    // Written once per variable on every `updateVariables`; the solver is single-threaded, so the dynamic
    // exclusivity check (a measurable share of a suggest step) is turned off for this one property.
    @exclusivity(unchecked) public internal(set) var value: Double = 0

    /// Its place in the order this process made its variables: the order `Solver.add(contentsOf:)` adds a batch
    /// of constraints by. A layout makes a view's variables together and its views in the order of its tree, so
    /// variables made one after another are usually related.
    let serial = Variable.serials.wrappingAdd(1, ordering: .relaxed).oldValue
    private static let serials = Atomic<UInt64>(0)

    /// The solver that keeps this variable's symbol in `slot`, if one does (see `ObjectSlots`).
    @exclusivity(unchecked) var slotOwner: ObjectIdentifier?
    @exclusivity(unchecked) var slot: Symbol = 0

    /// A new unknown named `name`; the name need not be unique.
    public init(_ name: String) { self.name = name }

    /// The name.
    public var description: String { name }
}

extension Variable: SlotHolder {}

extension Variable: Hashable {
    /// The same object: two variables of one name are still two unknowns.
    public static func == (a: Variable, b: Variable) -> Bool { a === b }
    /// Hashes the identity, as `==` compares it.
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}
