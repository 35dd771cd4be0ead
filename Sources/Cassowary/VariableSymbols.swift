/// Each variable's external symbol in one solver.
///
/// Every term of every constraint added looks its variable's symbol up, so the lookup is a field of the variable
/// rather than a hash: a variable keeps its symbol in the first solver that gives it one (`Variable.symbolOwner`,
/// `Variable.ownedSymbol`) for as long as that solver holds it. A variable held by several solvers at once (the
/// conflict probes build solvers from the caller's constraints) is found in the others through a dictionary, as
/// every variable was before (the hash lookups and the dictionary's growth were 5 % of a small form's build).
///
/// The owning solver gives the field back when the variable leaves it (`remove`), and when the solver starts over
/// or goes away (`removeAll`): a field never names a solver that no longer holds the variable, so an identity
/// reused by a later solver cannot mistake it for its own.
struct VariableSymbols {
    /// The solver this table belongs to, set by its `init` (a class cannot name itself before then; until it does,
    /// an identity no variable's field can hold).
    var owner = ObjectIdentifier(VariableSymbols.self)
    /// The variables whose field belongs to another solver.
    private var others: [ObjectIdentifier: Symbol] = [:]

    subscript(variable: Variable) -> Symbol? {
        if variable.symbolOwner == owner { return variable.ownedSymbol }
        return others.isEmpty ? nil : others[ObjectIdentifier(variable)]
    }

    /// Gives a variable that has no symbol here its symbol.
    mutating func insert(_ symbol: Symbol, for variable: Variable) {
        if variable.symbolOwner == nil {
            variable.symbolOwner = owner
            variable.ownedSymbol = symbol
        } else {
            others[ObjectIdentifier(variable)] = symbol
        }
    }

    /// Forgets a variable's symbol here.
    mutating func remove(_ variable: Variable) {
        if variable.symbolOwner == owner {
            variable.symbolOwner = nil
        } else {
            others[ObjectIdentifier(variable)] = nil
        }
    }

    /// Forgets every variable's symbol here (`variables`: all of those that have one).
    mutating func removeAll(_ variables: some Sequence<Variable>) {
        for variable in variables where variable.symbolOwner == owner { variable.symbolOwner = nil }
        others = [:]
    }
}
