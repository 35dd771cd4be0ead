/// An incremental Cassowary solver (Badros, Borning and Stuckey) with Auto Layout's priorities.
///
///     let solver = Solver()
///     let x = Variable("x")
///     try solver.add(x == 100 ~ 751)
///     for _ in 0..<2000 { try solver.add(x == 0 ~ 750) }
///     solver.updateVariables()          // x.value == 100: priorities are strict
///
/// Adding a constraint substitutes the basic variables into it, picks a subject to make basic (or goes
/// through an artificial variable, phase one), and so keeps every required constraint satisfied at once: a
/// conflict is refused when it is added. The optional constraints are optimised lazily, by the primal simplex
/// on the lexicographic `Objective`, when a result is read (`updateVariables`, `suggestValue`, diagnostics), as
/// Auto Layout defers its layout pass: a build of many constraints optimises once. Changing a suggested value
/// or a constraint's constant only moves row constants and runs the dual simplex.
///
/// Not thread-safe: use one solver from one thread at a time.
public final class Solver {
    /// The symbols that carry one constraint's effect: `marker` always, `other` for optional constraints (the
    /// minus error of an equality, the error of an inequality).
    struct Tag {
        var marker: Symbol
        var other: Symbol?
        /// The coefficient of `marker` in the constraint's row as built from its expression, before any sign
        /// change: what a change of the expression's constant moves the marker by.
        var markerCoefficient: Double
    }

    struct EditInfo {
        var constraint: Constraint
        var tag: Tag
        var constant: Double
    }

    // The hot loops go through this property; one thread at a time (see above), so no dynamic exclusivity check.
    @exclusivity(unchecked) var tableau = Tableau()
    var constraints: [ObjectIdentifier: (constraint: Constraint, tag: Tag)] = [:]
    /// Which constraint a marker or error symbol belongs to (for explanations).
    var owners: [Symbol: Constraint] = [:]
    var variableSymbols: [Variable: Symbol] = [:]
    /// The same pairs in an array: `updateVariables` walks it on every suggest step, and walking a dictionary
    /// retains and releases every key.
    var variableList: [(variable: Variable, symbol: Symbol)] = []
    var edits: [Variable: EditInfo] = [:]
    /// The order constraints were added in (conflict reports and explanations list them in that order).
    var sequence: [ObjectIdentifier: Int] = [:]
    private var nextSequence = 0
    /// Set by add and remove; cleared when the objective is optimised.
    var needsOptimization = false
    /// False in the probe solvers of `conflict(for:)`, which only need to know whether a set can hold.
    var explainsConflicts = true

    public init() {}

    // MARK: - Constraints

    /// Adds a constraint. A required constraint that cannot hold is refused with the constraints it conflicts
    /// with, and the solver is left as it was.
    public func add(_ constraint: Constraint) throws {
        let id = ObjectIdentifier(constraint)
        guard constraints[id] == nil else { throw SolverError.duplicateConstraint(constraint) }
        let knownVariables = variableSymbols.count
        var (row, tag) = makeRow(constraint)
        var subject = chooseSubject(row, tag)
        if subject == nil, row.symbols.allSatisfy({ tableau.kinds[$0] == .dummy }) {
            if !row.constant.isNearZero {
                forgetVariables(since: knownVariables, of: constraint)
                throw SolverError.unsatisfiable(constraint, conflict: conflict(for: constraint))
            }
            subject = tag.marker
        }
        if let subject {
            row.solve(for: subject)
            tableau.substitute(subject, with: row)
            tableau.setRow(subject, row)
        } else {
            // Only a required constraint gets here (an optional one always has an error to make basic), and
            // phase one may fail after pivoting: keep a copy to go back to.
            let saved = tableau
            if !tableau.addWithArtificialVariable(row) {
                tableau = saved
                forgetVariables(since: knownVariables, of: constraint)
                throw SolverError.unsatisfiable(constraint, conflict: conflict(for: constraint))
            }
        }
        constraints[id] = (constraint, tag)
        sequence[id] = nextSequence
        nextSequence += 1
        owners[tag.marker] = constraint
        if let other = tag.other { owners[other] = constraint }
        needsOptimization = true
    }

    /// Removes a constraint added before.
    public func remove(_ constraint: Constraint) throws {
        let id = ObjectIdentifier(constraint)
        guard let (_, tag) = constraints.removeValue(forKey: id) else { throw SolverError.unknownConstraint(constraint) }
        sequence[id] = nil
        owners[tag.marker] = nil
        if let other = tag.other { owners[other] = nil }
        if let error = tag.other {
            // An optional constraint's errors leave the objective: both of an equality, the one of an
            // inequality (whose marker is a slack, never in the objective).
            if constraint.relation == .equal { tableau.removeErrorEffect(tag.marker, priority: constraint.priority.rawValue) }
            tableau.removeErrorEffect(error, priority: constraint.priority.rawValue)
        }
        tableau.removeMarker(tag.marker)
        needsOptimization = true
    }

    public func contains(_ constraint: Constraint) -> Bool { constraints[ObjectIdentifier(constraint)] != nil }

    /// Changes the constant of a constraint already added, without removing it: `x == 10` becomes `x == 20` by
    /// moving row constants and re-solving with the dual simplex. Throws, and changes nothing, when a required
    /// constraint could not hold with the new constant.
    public func setConstant(of constraint: Constraint, to constant: Double) throws {
        guard let (_, tag) = constraints[ObjectIdentifier(constraint)] else {
            throw SolverError.unknownConstraint(constraint)
        }
        let delta = constant - constraint.expression.constant
        guard !delta.isNearZero else { return }
        optimizeIfNeeded()
        let saved = tableau
        tableau.shiftConstant(marker: tag.marker, markerCoefficient: tag.markerCoefficient, by: delta)
        let brokenDummy = tableau.kinds.indices.contains {
            tableau.kinds[$0] == .dummy && !(tableau.rows[$0]?.constant ?? 0).isNearZero
        }
        if brokenDummy || !tableau.dualOptimize() {
            tableau = saved
            let changed = copy(of: constraint)
            changed.expression.constant = constant
            throw SolverError.unsatisfiable(constraint, conflict: conflict(for: changed, replacing: constraint).dropLast() + [constraint])
        }
        constraint.expression.constant = constant
    }

    /// Copies the solution into every variable's `value`.
    public func updateVariables() {
        optimizeIfNeeded()
        for entry in variableList {
            entry.variable.value = tableau.value(of: entry.symbol)
        }
    }

    /// The total error of the constraints at `priority` (0 when all of them hold), read from their error symbols.
    public func error(at priority: Priority) -> Double {
        optimizeIfNeeded()
        var total = 0.0
        for (constraint, tag) in constraints.values where constraint.priority == priority && !priority.isRequired {
            if constraint.relation == .equal { total += tableau.rows[tag.marker]?.constant ?? 0 }
            total += tableau.rows[tag.other!]?.constant ?? 0
        }
        return total
    }

    /// Runs the primal simplex if constraints were added or removed since it last ran.
    func optimizeIfNeeded() {
        guard needsOptimization else { return }
        needsOptimization = false
        tableau.optimize()
    }

    // MARK: - Building rows

    func symbol(for variable: Variable) -> Symbol {
        if let s = variableSymbols[variable] { return s }
        let s = tableau.newSymbol(.external)
        variableSymbols[variable] = s
        variableList.append((variable, s))
        return s
    }

    /// The constraint's row with basic variables substituted, plus its marker (and error) symbols; an optional
    /// constraint's errors enter the objective at its priority.
    private func makeRow(_ constraint: Constraint) -> (Row, Tag) {
        var row = Row(constant: constraint.expression.constant)
        for term in constraint.expression.terms where !term.coefficient.isNearZero {
            let s = symbol(for: term.variable)
            if let basic = tableau.rows[s] {
                row.add(basic, times: term.coefficient)
            } else {
                row.insert(s, term.coefficient)
            }
        }
        let priority = constraint.priority.rawValue
        let tag: Tag
        switch constraint.relation {
        case .lessOrEqual, .greaterOrEqual:
            let k: Double = constraint.relation == .lessOrEqual ? 1 : -1
            let slack = tableau.newSymbol(.slack)
            row.insert(slack, k)
            if constraint.priority.isRequired {
                tag = Tag(marker: slack, other: nil, markerCoefficient: k)
            } else {
                let error = tableau.newSymbol(.error)
                row.insert(error, -k)
                tableau.objective.insert(error, 1, priority: priority)
                tag = Tag(marker: slack, other: error, markerCoefficient: k)
            }
        case .equal:
            if constraint.priority.isRequired {
                let dummy = tableau.newSymbol(.dummy)
                row.insert(dummy, 1)
                tag = Tag(marker: dummy, other: nil, markerCoefficient: 1)
            } else {
                let plus = tableau.newSymbol(.error)
                let minus = tableau.newSymbol(.error)
                row.insert(plus, -1)
                row.insert(minus, 1)
                tableau.objective.insert(plus, 1, priority: priority)
                tableau.objective.insert(minus, 1, priority: priority)
                tag = Tag(marker: plus, other: minus, markerCoefficient: -1)
            }
        }
        if row.constant < 0 { row.negate() }
        return (row, tag)
    }

    /// A symbol to make basic: an external variable if there is one, else the marker or error if its coefficient
    /// is negative (so that it enters at a value >= 0).
    private func chooseSubject(_ row: Row, _ tag: Tag) -> Symbol? {
        if let external = row.symbols.first(where: { tableau.kinds[$0] == .external }) { return external }
        if tableau.kinds[tag.marker].isPivotable, row.coefficient(for: tag.marker) < 0 { return tag.marker }
        if let other = tag.other, tableau.kinds[other].isPivotable, row.coefficient(for: other) < 0 { return other }
        return nil
    }

    /// Unregisters the variables that a refused constraint introduced (their symbols stay, unused).
    private func forgetVariables(since count: Int, of constraint: Constraint) {
        guard variableSymbols.count > count else { return }
        for term in constraint.expression.terms {
            guard let s = variableSymbols[term.variable], tableau.rows[s] == nil, tableau.columns[s].isEmpty else { continue }
            let used = constraints.values.contains { $0.constraint.expression.terms.contains { $0.variable === term.variable } }
            if !used {
                variableSymbols[term.variable] = nil
                variableList.removeAll { $0.symbol == s }
            }
        }
    }
}
