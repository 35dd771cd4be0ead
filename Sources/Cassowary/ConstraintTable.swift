/// The constraints of one solver: those in its tableau, with their symbols, and the optional ones still waiting
/// to go in (`Solver.add`).
///
/// A constraint is looked up on every add, remove and constant change, so it keeps its place in the table
/// itself (`Constraint.tableOwner`, `Constraint.tableSlot`) for as long as the solver that gave it holds it,
/// and the lookup is a field read, not a hash: the hashes and the dictionaries' growth were 5 % of a small form's
/// build. A constraint held by several solvers at once is found in the others through a dictionary. As with
/// `VariableSymbols`, the owning solver gives the field back when the constraint leaves (`remove`) or the solver
/// goes away (`removeAll`), so a field never names a solver that no longer holds it.
struct ConstraintTable {
    struct Entry {
        let constraint: Constraint
        /// Its symbols in the tableau; nil while it waits to go in.
        var tag: Solver.Tag?
        /// When it was added, among the solver's constraints: conflict reports and explanations list
        /// constraints in that order, and a rebuild adds them again in it.
        var order: Int
    }

    /// The solver this table belongs to, set by its `init` (until then, an identity no constraint's field holds).
    var owner = ObjectIdentifier(ConstraintTable.self)
    private var entries: [Entry?] = []
    /// Slots of `entries` emptied by removals, used again first.
    private var freeSlots: [Int] = []
    /// The slots of constraints whose field belongs to another solver.
    private var others: [ObjectIdentifier: Int] = [:]
    /// How many constraints the table holds, waiting or in.
    private(set) var count = 0

    subscript(constraint: Constraint) -> Entry? {
        slot(of: constraint).flatMap { entries[$0] }
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
        if constraint.tableOwner == nil {
            constraint.tableOwner = owner
            constraint.tableSlot = slot
        } else {
            others[ObjectIdentifier(constraint)] = slot
        }
        count += 1
    }

    /// Sets the symbols of a constraint the table holds (when it goes in, or in a rebuild).
    mutating func setTag(_ tag: Solver.Tag, of constraint: Constraint) {
        entries[slot(of: constraint)!]!.tag = tag
    }

    /// Takes a constraint out; nil if the table does not hold it.
    @discardableResult
    mutating func remove(_ constraint: Constraint) -> Entry? {
        guard let slot = slot(of: constraint) else { return nil }
        if constraint.tableOwner == owner {
            constraint.tableOwner = nil
        } else {
            others[ObjectIdentifier(constraint)] = nil
        }
        let entry = entries[slot]
        entries[slot] = nil
        freeSlots.append(slot)
        count -= 1
        return entry
    }

    /// Takes every constraint out (the solver goes away).
    mutating func removeAll() {
        for case let entry? in entries where entry.constraint.tableOwner == owner { entry.constraint.tableOwner = nil }
        entries = []
        freeSlots = []
        others = [:]
        count = 0
    }

    /// Room for `more` constraints beyond those held, in one growth.
    mutating func reserveCapacity(_ more: Int) {
        entries.reserveCapacity(entries.count + max(0, more - freeSlots.count))
    }

    private func slot(of constraint: Constraint) -> Int? {
        if constraint.tableOwner == owner { return constraint.tableSlot }
        return others.isEmpty ? nil : others[ObjectIdentifier(constraint)]
    }
}
