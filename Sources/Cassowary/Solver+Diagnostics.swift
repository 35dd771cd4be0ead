/// Why a layout is the way it is: conflicts, ambiguity, explanations.
extension Solver {
    /// The constraints that pin `variable`'s value: those whose marker or error symbols appear in its row.
    /// Each of them holds exactly (is tight) in the current solution, and together they fix the value. Empty
    /// when the variable is not determined at all.
    public func explain(_ variable: Variable) -> [Constraint] {
        startTrackingEqualities()  // the required equalities are named by their dummies in the row
        optimizeIfNeeded()
        guard let symbol = variableSymbols[variable], let row = tableau.rows[symbol] else {
            return []
        }
        var seen = Set<ObjectIdentifier>()
        return row.symbols.compactMap { owners[$0] }.filter { seen.insert(ObjectIdentifier($0)).inserted }
            .sorted { order(of: $0) < order(of: $1) }
    }

    /// Whether any constraint added so far mentions `variable`.
    public func knows(_ variable: Variable) -> Bool {
        optimizeIfNeeded()
        return variableSymbols[variable] != nil
    }

    /// Variables whose value the constraints do not pin down: another value would leave every constraint, and
    /// the error of every priority level, as it is (Auto Layout's "ambiguous layout").
    ///
    /// A variable is ambiguous when it is not basic (nothing defines it), or its row holds a free direction:
    /// another variable that nothing defines, or a slack or error that costs nothing at any level and could
    /// grow without making a row infeasible.
    public func ambiguousVariables() -> [Variable] {
        optimizeIfNeeded()
        return variableList.compactMap { variable, symbol -> Variable? in
            guard let row = tableau.rows[symbol] else { return variable }
            for s in row.symbols {
                switch tableau.kinds[s] {
                case .external: return variable
                case .dummy: continue
                case .slack, .error:
                    if tableau.objective.isFree(s) && canGrow(s) { return variable }
                }
            }
            return nil
        }.sorted { $0.name < $1.name }
    }

    /// Whether the non-basic restricted symbol `s` can increase from 0 without a restricted row going negative.
    private func canGrow(_ s: Symbol) -> Bool {
        tableau.columns[s].allSatisfy { basic in
            guard tableau.kinds[basic].isRestricted else { return true }
            let row = tableau.rows[basic]!
            return row.coefficient(for: s) >= 0 || row.constant > 1e-8
        }
    }

    /// A set of required constraints that cannot hold together with `constraint` (included last), minimal when
    /// it is small: take away any one of them and the rest can.
    ///
    /// It starts from the tableau's infeasibility certificate: the row that proved the failure is a sum of
    /// a few constraints, and only those can take part (the earlier way, a filter over every required constraint
    /// connected to `constraint`, is the whole layout on a grid: 40 s for one refusal of a 20 x 20 grid). A
    /// deletion filter then makes a certificate of at most `minimalConflictLimit` constraints minimal. A longer
    /// one is returned as it is, once a probe solver has confirmed that it conflicts: proving it minimal costs a
    /// probe per constraint on long rows (0.2 s for a chain of 200 equalities on a 50 x 50 grid), and the
    /// simplex's certificate is a basic solution of the Farkas system, which was minimal already in every case
    /// measured. Should rounding make the certificate hold after all, the filter runs over the connected
    /// constraints after all.
    ///
    /// `replacing` is a constraint in the solver that `constraint` stands in for (a constant being changed).
    static let minimalConflictLimit = 64

    func conflict(for constraint: Constraint, replacing original: Constraint? = nil) -> [Constraint] {
        guard explainsConflicts else { return [constraint] }
        let candidate = copy(of: constraint)  // the probes' own object: theirs to add and remove
        let certified = certificateConstraints(excluding: constraint, original)
        if certified.count > Self.minimalConflictLimit {
            if !Self.canHold(certified + [candidate]) { return certified + [constraint] }
        } else if let conflict = minimalConflict(among: certified, with: candidate) {
            return conflict + [constraint]
        }
        var related = Set(constraint.expression.terms.map(\.variable))
        var pool = constraints.inserted.map(\.constraint)
            .filter { $0.priority.isRequired && $0 !== constraint && $0 !== original }
            .sorted { order(of: $0) < order(of: $1) }
        // Only constraints connected to the failing one can take part in the conflict.
        var component: [Constraint] = []
        var grew = true
        while grew {
            grew = false
            pool.removeAll { c in
                guard c.expression.terms.contains(where: { related.contains($0.variable) }) else { return false }
                component.append(c)
                related.formUnion(c.expression.terms.map(\.variable))
                grew = true
                return true
            }
        }
        component.sort { order(of: $0) < order(of: $1) }
        return (minimalConflict(among: component, with: candidate) ?? component) + [constraint]
    }

    /// The required constraints that own a symbol of the tableau's last infeasibility certificate, in the order
    /// they were added.
    private func certificateConstraints(excluding constraint: Constraint, _ original: Constraint?) -> [Constraint] {
        var seen = Set<ObjectIdentifier>()
        return tableau.infeasibilityCertificate.compactMap { owners[$0] }
            .filter { $0.priority.isRequired && $0 !== constraint && $0 !== original && seen.insert(ObjectIdentifier($0)).inserted }
            .sorted { order(of: $0) < order(of: $1) }
    }

    /// The deletion filter: drops each constraint of `set` without which the rest still cannot hold with
    /// `candidate`; what is left is minimal. Nil when `set` and `candidate` can hold together (no conflict among
    /// them). One probe solver holds the set, and each test is a remove, a trial add of the candidate and, when
    /// the candidate went in, a re-add: a few incremental operations per constraint instead of a fresh solve of
    /// the whole set. A trial add that fails comes with its own certificate; when that names fewer constraints
    /// than are left, the filter starts again on those (on a grid, hundreds of chained equalities shrink to a
    /// few in one step).
    private func minimalConflict(among set: [Constraint], with candidate: Constraint) -> [Constraint]? {
        var set = set
        var isKnownConflict = false
        restart: while true {
            let probe = Solver()
            probe.explainsConflicts = false
            probe.startTrackingEqualities()  // its certificates are read
            let copies = set.map { probe.copy(of: $0) }
            for c in copies { try? probe.add(c) }  // they hold together: they are all in this solver
            if (try? probe.add(candidate)) != nil {
                return isKnownConflict ? set : nil  // rounding: keep the larger set that was shown to conflict
            }
            isKnownConflict = true
            let index = Dictionary(uniqueKeysWithValues: copies.enumerated().map { (ObjectIdentifier($1), $0) })
            func certified() -> [Int] {
                Set(probe.tableau.infeasibilityCertificate.compactMap { probe.owners[$0].flatMap { index[ObjectIdentifier($0)] } }).sorted()
            }
            var smaller = certified()
            if smaller.count < copies.filter(probe.contains).count {
                set = smaller.map { set[$0] }
                continue restart
            }
            for c in copies where probe.contains(c) {
                try? probe.remove(c)
                if (try? probe.add(candidate)) != nil {
                    // Without `c` the candidate holds: `c` is part of the conflict.
                    try? probe.remove(candidate)
                    try? probe.add(c)
                } else {
                    smaller = certified()
                    if smaller.count < copies.filter(probe.contains).count {
                        set = smaller.map { set[$0] }
                        continue restart
                    }
                }
            }
            return set.indices.filter { probe.contains(copies[$0]) }.map { set[$0] }
        }
    }

    /// Whether the constraints can all hold (in a fresh solver that does not explain its failures).
    static func canHold(_ list: [Constraint]) -> Bool {
        let probe = Solver()
        probe.explainsConflicts = false
        for c in list {
            do { try probe.add(probe.copy(of: c)) } catch { return false }
        }
        return true
    }

    func copy(of c: Constraint) -> Constraint {
        Constraint(c.expression, c.relation, priority: c.priority, label: c.label)
    }

    func order(of c: Constraint) -> Int { constraints[c]?.order ?? Int.max }
}

extension Solver {
    /// The size of the solver's tableau: how many symbol ids are allocated, how many rows are basic, and how
    /// many constraints are in. A long churn should keep all three flat.
    public struct Statistics: Sendable {
        /// Symbol ids allocated (the tableau's columns, in use or free).
        public var symbols: Int
        /// Symbol ids given back and free for reuse.
        public var freeSymbols: Int
        /// Basic rows in the tableau.
        public var rows: Int
        /// Constraints in the solver, edit constraints included.
        public var constraints: Int
        /// Cells in all rows: how dense the tableau is.
        public var cells: Int
        /// Cells in the longest row.
        public var longestRow: Int
        /// Pivots made since the solver was made.
        public var pivots: Int
        /// Of those, the pivots made under Bland's rule (after a stall).
        public var blandPivots: Int
        /// Rows rewritten since the solver was made because a symbol in them became basic: a build's work beyond
        /// making a row for each constraint, the part that depends on the order they come in.
        public var rewrittenRows: Int
        /// Drift checks made.
        public var driftChecks: Int
        /// Rebuilds of the tableau from the constraints (after drift, or an operation out of pivots).
        public var rebuilds: Int
        /// The largest coefficient found left over for a symbol given back (rounding noise; 0 in exact arithmetic).
        public var largestResidue: Double
        /// How far the tableau has drifted from its constraints (`Solver.drift()`), now.
        public var drift: Double
    }

    /// The tableau's size and the work done so far, measured now.
    public var statistics: Statistics {
        optimizeIfNeeded()
        return Statistics(symbols: tableau.kinds.count, freeSymbols: tableau.freeSymbols.count, rows: tableau.rows.lazy.filter { $0 != nil }.count, constraints: constraints.count,
                   cells: tableau.rows.reduce(0) { $0 + ($1?.count ?? 0) },
                   longestRow: tableau.rows.reduce(0) { max($0, $1?.count ?? 0) },
                   pivots: retiredPivots.all + tableau.pivots, blandPivots: retiredPivots.bland + tableau.blandPivots,
                   rewrittenRows: retiredPivots.rewrittenRows + tableau.rewrittenRows,
                   driftChecks: driftChecks, rebuilds: rebuilds,
                   largestResidue: tableau.largestResidue, drift: drift())
    }
}

extension Solver: CustomDebugStringConvertible {
    /// The tableau, one row a line (`s12 = 3 + 1*s4 - 0.5*s9`), with each external symbol's variable named.
    public var debugDescription: String {
        optimizeIfNeeded()
        var names: [Symbol: String] = [:]
        for (variable, symbol) in variableList { names[symbol] = variable.name }
        func name(_ s: Symbol) -> String { names[s] ?? "\(tableau.kinds[s])\(s)" }
        var lines: [String] = []
        for (basic, row) in tableau.rows.enumerated() {
            guard let row else { continue }
            lines.append("\(name(basic)) = \(row.constant)" + row.cells.map { " + \($0.coefficient)*\(name($0.symbol))" }.joined())
        }
        for (symbol, constraint) in owners.entries {
            lines.append("# \(name(symbol)): \(constraint)")
        }
        return lines.joined(separator: "\n")
    }
}

extension Solver {
    /// What is wrong with the tableau's bookkeeping (empty when nothing is): each constraint's marker must take
    /// part in it (basic, or in some row), and the column index must match the rows. For tests; O(tableau).
    public func invariantViolations() -> [String] {
        optimizeIfNeeded()
        var problems: [String] = []
        for (constraint, tag, _) in constraints.inserted {
            // An untracked dummy is in no row by design (`startTrackingEqualities()`).
            let tracked = tracksEqualities || !constraint.isRequiredEquality
            for s in (tracked ? [tag.marker] : []) + (tag.other.map { [$0] } ?? [])
            where tableau.rows[s] == nil && tableau.columns[s].isEmpty {
                problems.append("the symbol \(s) of \(constraint) is in no row: the constraint was lost")
            }
        }
        for (basic, row) in tableau.rows.enumerated() {
            guard let row else { continue }
            for s in row.symbols where !tableau.columns[s].contains(basic) {
                problems.append("row \(basic) holds \(s) but the column index does not say so")
            }
        }
        for (s, column) in tableau.columns.enumerated() {
            for basic in column where tableau.rows[basic]?.contains(s) != true {
                problems.append("the column index puts \(s) in row \(basic), which does not hold it")
            }
        }
        return problems
    }
}
