/// An object a solver numbers (a variable: its symbol; a constraint: its place in the solver's `ConstraintTable`),
/// with fields to keep the number of one solver in (see `ObjectSlots`).
protocol SlotHolder: AnyObject {
    /// The solver whose number `slot` is, if one keeps it here.
    var slotOwner: ObjectIdentifier? { get set }
    var slot: Int { get set }
}

/// A number for each of one solver's variables (their symbols) or constraints (their places in its table).
///
/// Every term of every constraint added looks its variable's symbol up, and every add, remove and constant change
/// its constraint, so the number is a field of the object rather than a hash: an object keeps its number in the
/// first solver that gives it one (`SlotHolder.slotOwner`, `slot`) for as long as that solver holds it (the hash
/// lookups and the dictionaries' growth were a tenth of a small form's build). An object held by several solvers
/// at once (the same variable in two layouts' solvers) is found in the others through a dictionary, as every
/// object was before.
///
/// The owning solver gives the fields back when the object leaves it (`remove`), and when the solver starts over
/// or goes away (`removeAll`): a field never names a solver that no longer holds the object, so an identity
/// reused by a later solver cannot mistake it for its own.
struct ObjectSlots<Object: SlotHolder> {
    /// The solver these numbers belong to, set by its `init` (a class cannot name itself before then; until it
    /// does, an identity no object's field can hold).
    var owner = ObjectIdentifier(ObjectSlots.self)
    /// The numbers of objects whose fields belong to another solver.
    private var others: [ObjectIdentifier: Int] = [:]

    subscript(object: Object) -> Int? {
        if object.slotOwner == owner { return object.slot }
        return others.isEmpty ? nil : others[ObjectIdentifier(object)]
    }

    /// Numbers an object that has no number here.
    mutating func insert(_ number: Int, for object: Object) {
        if object.slotOwner == nil {
            object.slotOwner = owner
            object.slot = number
        } else {
            others[ObjectIdentifier(object)] = number
        }
    }

    /// Forgets an object's number here.
    mutating func remove(_ object: Object) {
        if object.slotOwner == owner {
            object.slotOwner = nil
        } else {
            others[ObjectIdentifier(object)] = nil
        }
    }

    /// Forgets every object's number here (`objects`: all of those that have one).
    mutating func removeAll(_ objects: some Sequence<Object>) {
        for object in objects where object.slotOwner == owner { object.slotOwner = nil }
        others = [:]
    }
}
