/// The constraints of one solver: those in its tableau, with their symbols, and the optional ones still waiting
/// to go in (`Solver.add`).
///
/// A constraint is looked up on every add, remove and constant change, so it keeps its place in the table in
/// fields of its own (`ObjectSlots`), and the lookup is a field read, not a hash.
struct ConstraintTable {
    struct Entry {
        let constraint: Constraint
        /// Its symbols in the tableau; nil while it waits to go in.
        var tag: Solver.Tag?
        /// When it was added, among the solver's constraints: conflict reports and explanations list
        /// constraints in that order, and a rebuild adds them again in it.
        var order: Int
    }

    /// The solver this table belongs to, set by its `init` (see `ObjectSlots.owner`).
    var owner: ObjectIdentifier {
        get { slots.owner }
        set { slots.owner = newValue }
    }
    private var entries: [Entry?] = []
    /// Slots of `entries` emptied by removals, used again first.
    private var freeSlots: [Int] = []
    /// Each constraint's slot of `entries`.
    private var slots = ObjectSlots<Constraint>()
    /// How many constraints the table holds, waiting or in.
    var count: Int { entries.count - freeSlots.count }

    subscript(constraint: Constraint) -> Entry? {
        slots[constraint].flatMap { entries[$0] }
    }

    /// The constraints in the tableau (not those waiting), in no particular order.
    var inserted: some Sequence<(constraint: Constraint, tag: Solver.Tag, order: Int)> {
        entries.lazy.compactMap { entry in entry.flatMap { entry in entry.tag.map { (entry.constraint, $0, entry.order) } } }
    }

    /// Adds a constraint the table does not hold.
    mutating func insert(_ constraint: Constraint, tag: Solver.Tag?, order: Int) {
        let slot: Int
        if let reused = freeSlots.popLast() {
            slot = reused
            entries[slot] = Entry(constraint: constraint, tag: tag, order: order)
        } else {
            slot = entries.count
            entries.append(Entry(constraint: constraint, tag: tag, order: order))
        }
        slots.insert(slot, for: constraint)
    }

    /// Sets the symbols of a constraint the table holds (when it goes in, or in a rebuild).
    mutating func setTag(_ tag: Solver.Tag, of constraint: Constraint) {
        entries[slots[constraint]!]!.tag = tag
    }

    /// Takes a constraint out; nil if the table does not hold it.
    @discardableResult
    mutating func remove(_ constraint: Constraint) -> Entry? {
        guard let slot = slots[constraint] else { return nil }
        slots.remove(constraint)
        let entry = entries[slot]
        entries[slot] = nil
        freeSlots.append(slot)
        return entry
    }

    /// Takes every constraint out (the solver goes away).
    mutating func removeAll() {
        slots.removeAll(entries.lazy.compactMap { $0?.constraint })
        entries = []
        freeSlots = []
    }
}
