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
    /// The form of the tableau's rows (see `Row`): what each new tableau (a rebuild's too) is made with.
    private(set) var rowForm = RowForm.automatic
    /// Every constraint in the solver: with its symbols once it is in the tableau, and the order it was added in.
    var constraints = ConstraintTable()
    /// Which constraint a marker or error symbol belongs to (for explanations).
    var owners = SymbolMap<Constraint>()
    /// Each variable's symbol (`variableList` holds the variables).
    var variableSymbols = ObjectSlots<Variable>()
    /// The same pairs in an array: `updateVariables` walks it on every suggest step, and walking a dictionary
    /// retains and releases every key.
    var variableList: [(variable: Variable, symbol: Symbol)] = []
    /// For an external symbol: how many terms of constraints in the solver use its variable, and where it is in
    /// `variableList`. A variable no constraint uses any more gives its symbol back.
    var variableUses = SymbolMap<(count: Int, index: Int)>()
    /// The edit variables, by the variable's identity: an `ObjectIdentifier` hashes in one step, where a class's
    /// `hash(into:)` goes through a whole `Hasher`, and it is not reused while its entry lives (the edit
    /// constraint holds the variable).
    var edits: [ObjectIdentifier: EditInfo] = [:]
    /// Optional constraints added since the tableau last settled, not in it yet, in the order they came. One
    /// removed meanwhile (or removed and added again, with a later order) is no longer waiting with this order in
    /// `constraints`, and is passed over.
    var pending: [(constraint: Constraint, order: Int)] = []
    private var nextOrder = 0
    /// `makeRow`'s terms as symbols and coefficients, kept between calls (no allocation per constraint).
    private var makeRowTerms: [(symbol: Symbol, coefficient: Double)] = []
    /// Set by add and remove; cleared when the objective is optimised.
    var needsOptimization = false
    /// False in the probe solvers of `conflict(for:)`, which only need to know whether a set can hold.
    var explainsConflicts = true
    /// Whether the rows carry the dummy symbols of required equalities (see `startTrackingEqualities()`).
    private(set) var tracksEqualities = false
    /// How many times the tableau was rebuilt from the constraints (worn by rounding, or out of pivots), and
    /// the pivots and rewritten rows of the tableaus rebuilt away.
    var rebuilds = 0
    var retiredPivots = (all: 0, bland: 0, rewrittenRows: 0)
    var driftChecks = 0

    /// An empty solver: no constraints, no edit variables.
    public init() {
        variableSymbols.owner = ObjectIdentifier(self)
        constraints.owner = ObjectIdentifier(self)
    }

    deinit {
        variableSymbols.removeAll(variableList.lazy.map(\.variable))
        constraints.removeAll()
    }

    /// How the tableau keeps its rows: `automatic` always, except in the tests that compare the two forms (both
    /// must give the same pivots and the same values, bit for bit).
    enum RowForm {
        /// Sparse rows while a tableau is built; one of fewer than `Tableau.defaultDenseSymbolLimit` symbols
        /// turns dense when it is first optimized or changed (`Tableau.makeDenseIfSmall()`).
        case automatic
        /// Sparse rows only.
        case sparse
        /// Dense rows from the first constraint on, until the tableau outgrows the limit.
        case dense

        func makeTableau() -> Tableau {
            switch self {
            case .automatic: Tableau()
            case .sparse: Tableau(denseSymbolLimit: 0)
            case .dense: Tableau(dense: true)
            }
        }
    }

    /// An empty solver whose tableau keeps its rows in `rowForm`.
    convenience init(rowForm: RowForm) {
        self.init()
        self.rowForm = rowForm
        tableau = rowForm.makeTableau()
    }

    /// Every pivot leaves a little rounding in the rows it touches, and over a long churn it grows (on the enaml
    /// form, from 1e-13 to 1e-9 in a few thousand operations, and by 100 times in one unlucky pivot) until a cell
    /// of noise is taken for a coefficient and a constraint is lost. So every `driftCheckInterval` pivots the
    /// tableau is checked against the constraints (`drift()`), and rebuilt from them when it has drifted past
    /// `driftLimit`, as LP solvers refactor their basis.
    var driftCheckInterval: Int { 256 + tableau.liveSymbols }
    static let driftLimit = 1e-11
    /// Pivots at the last drift check.
    var pivotsAtDriftCheck = 0

    /// Checks the tableau for drift if it has pivoted enough since the last check, and rebuilds it if it drifted.
    func rebuildIfDrifted() {
        guard tableau.pivots - pivotsAtDriftCheck >= driftCheckInterval else { return }
        pivotsAtDriftCheck = tableau.pivots
        driftChecks += 1
        if drift() > Self.driftLimit { rebuild() }
    }

    /// How far the tableau is from its constraints: for each constraint, its expression with every basic symbol
    /// replaced by its row, plus its marker and error terms (also replaced), must be 0 in every coefficient and in
    /// the constant. The largest difference, relative to the size of what was added up. O(constraints × row
    /// length): about as much as a few pivots.
    func drift() -> Double {
        var sums = [Double](repeating: 0, count: tableau.kinds.count)
        var scales = [Double](repeating: 0, count: tableau.kinds.count)
        var touched: [Symbol] = []
        var worst = 0.0
        for (constraint, tag, _) in constraints.inserted {
            var constant = constraint.expression.constant
            var constantScale = max(1, abs(constant))
            func add(_ symbol: Symbol, _ coefficient: Double) {
                if let row = tableau.rows[symbol] {
                    constant += coefficient * row.constant
                    constantScale = max(constantScale, abs(coefficient * row.constant))
                    for cell in row.cells { accumulate(cell.symbol, coefficient * cell.coefficient) }
                } else {
                    accumulate(symbol, coefficient)
                }
            }
            func accumulate(_ s: Symbol, _ value: Double) {
                if scales[s] == 0 { touched.append(s) }
                sums[s] += value
                scales[s] = max(scales[s], abs(value))
            }
            for term in constraint.expression.terms where !term.coefficient.isNearZero {
                add(variableSymbols[term.variable]!, term.coefficient)
            }
            if tracksEqualities || tableau.kinds[tag.marker] != .dummy { add(tag.marker, tag.markerCoefficient) }
            if let other = tag.other { add(other, -tag.markerCoefficient) }
            worst = max(worst, abs(constant) / constantScale)
            for s in touched {
                worst = max(worst, abs(sums[s]) / max(1, scales[s]))
                sums[s] = 0
                scales[s] = 0
            }
            touched.removeAll(keepingCapacity: true)
        }
        return worst
    }

    /// The most pivots one operation may make: far more than any layout needs (a build of a few thousand
    /// constraints makes about one per constraint), few enough that a stuck loop ends in well under a second.
    var pivotLimit: Int { pivotLimitOverride ?? 10_000 + 50 * tableau.liveSymbols }
    /// For tests: a smaller budget, to see an operation run out of it.
    var pivotLimitOverride: Int?

    // MARK: - Constraints

    /// Adds a constraint. A required constraint that cannot hold is refused with the constraints it conflicts
    /// with, and the solver is left as it was.
    ///
    /// A required constraint goes into the tableau at once (that is how a conflict is found while the caller can
    /// still be told). An optional one cannot conflict, so it waits until a result is next read, and then goes in
    /// after every required constraint (`insertPending()`). That makes a build's cost independent of the order
    /// constraints come in: an optional constraint inserted first solves for a variable that the required ones
    /// must then reach through its error symbols, and on a grid given in reverse order the build took 400 times
    /// longer, in phase one and in optimising a tableau three times as dense.
    public func add(_ constraint: Constraint) throws {
        guard constraints[constraint] == nil else { throw SolverError.duplicateConstraint(constraint) }
        if !constraint.priority.isRequired {
            constraints.insert(constraint, tag: nil, order: nextOrder)
            pending.append((constraint, nextOrder))
            nextOrder += 1
            needsOptimization = true
            return
        }
        try addNow(constraint)
    }

    /// Puts a constraint into the tableau now (a required one, or an edit constraint, whose symbols the edit
    /// keeps).
    func addNow(_ constraint: Constraint) throws {
        rebuildIfDrifted()
        var tag = try insertWithinBudget(constraint)
        if tag == nil, explainsConflicts, !tracksEqualities {
            // The refusal's certificate names no required equality (their dummies are not in the rows): refuse
            // it again with them, for a conflict that names them all.
            startTrackingEqualities()
            tag = try insertWithinBudget(constraint)
        }
        guard let tag else {
            needsOptimization = true  // phase one's pivots kept the tableau feasible, not optimal
            throw SolverError.unsatisfiable(constraint, conflict: conflict(for: constraint))
        }
        constraints.insert(constraint, tag: tag, order: nextOrder)
        nextOrder += 1
        needsOptimization = true
    }

    /// `insert` with this operation's pivot budget; out of it, the tableau is rebuilt as it was before.
    private func insertWithinBudget(_ constraint: Constraint) throws -> Tag? {
        do {
            tableau.pivotBudget = pivotLimit
            return try insert(constraint)
        } catch is Tableau.WorkLimitExceeded {
            rebuild()
            throw SolverError.workLimitExceeded(constraint)
        }
    }

    /// Puts the dummy symbols of required equalities into the rows from now on, as Cassowary always does; until
    /// then they are left out.
    ///
    /// A dummy never enters the basis: it stands in the rows only to record which required equalities each row
    /// combines. That record is needed to remove such a constraint, to change its constant, and to name it in a
    /// conflict or an explanation, and for nothing else: the simplex never reads it. And it is most of a build's
    /// work: on a 20 x 20 grid the rows held 22,000 to 62,000 dummy cells beside 4,000 others, the count
    /// depending on the order the constraints came in. So a solver starts without them and tracks them from the
    /// first operation that needs them. Dropping the dummy columns of a tableau is fixing those symbols at 0,
    /// which is what they are, so every row stays exact.
    ///
    /// The switch rebuilds the tableau with the dummies and pivots it back to the basis it had: the same basis is
    /// the same tableau, so the solution does not move (where the optimum is not unique, a plain rebuild could
    /// land on another one, and a layout would jump because someone asked for an explanation).
    func startTrackingEqualities() {
        guard !tracksEqualities else { return }
        tracksEqualities = true
        let basis = basicSymbolNames()
        rebuild(optimizing: false)  // needsOptimization stays as it was: so does the basis
        if !tableau.pivot(toBasis: basis.compactMap(symbol(named:))) {
            // Rounding left no pivot for one of the old basic symbols: a fresh solve, as after drift.
            try? tableau.optimize()
        }
    }

    /// What a symbol stands for: symbol ids change in a rebuild, the variables and constraints do not.
    private enum SymbolName {
        case variable(Variable)
        case marker(Constraint)
        case other(Constraint)
    }

    private func basicSymbolNames() -> [SymbolName] {
        var names = [SymbolName?](repeating: nil, count: tableau.kinds.count)
        for (variable, symbol) in variableList { names[symbol] = .variable(variable) }
        for (constraint, tag, _) in constraints.inserted {
            names[tag.marker] = .marker(constraint)
            if let other = tag.other { names[other] = .other(constraint) }
        }
        return tableau.rows.indices.compactMap { tableau.rows[$0] == nil ? nil : names[$0] }
    }

    private func symbol(named name: SymbolName) -> Symbol? {
        switch name {
        case .variable(let variable): variableSymbols[variable]
        case .marker(let constraint): constraints[constraint]?.tag?.marker
        case .other(let constraint): constraints[constraint]?.tag?.other
        }
    }

    /// Removes a constraint added before.
    public func remove(_ constraint: Constraint) throws {
        guard let entry = constraints[constraint] else { throw SolverError.unknownConstraint(constraint) }
        guard entry.tag != nil else {
            constraints.remove(constraint)  // it never went in: nothing else to undo (`pending` passes it over)
            return
        }
        if constraint.isRequiredEquality { startTrackingEqualities() }  // its row is found through its dummy
        let tag = constraints.remove(constraint)!.tag!  // after any rebuild, which makes new symbols
        tableau.makeDenseIfSmall()
        owners[tag.marker] = nil
        if let other = tag.other { owners[other] = nil }
        if let error = tag.other {
            // An optional constraint's errors leave the objective: both of an equality, the one of an
            // inequality (whose marker is a slack, never in the objective).
            if constraint.relation == .equal { tableau.removeErrorEffect(tag.marker, priority: constraint.priority.rawValue) }
            tableau.removeErrorEffect(error, priority: constraint.priority.rawValue)
        }
        tableau.removeMarker(tag.marker)
        // The marker's row is gone, and with it the only row the other error was tied to (both stand in the
        // constraint's row with opposite coefficients): both symbols are free.
        tableau.release(tag.marker)
        if let other = tag.other { tableau.release(other) }
        releaseVariables(of: constraint)
        needsOptimization = true
    }

    /// Whether this constraint object is in the solver.
    public func contains(_ constraint: Constraint) -> Bool {
        constraints[constraint] != nil
    }

    /// Changes the constant of a constraint already added, without removing it: `x == 10` becomes `x == 20` by
    /// moving row constants and re-solving with the dual simplex. Throws, and changes nothing, when a required
    /// constraint could not hold with the new constant.
    public func setConstant(of constraint: Constraint, to constant: Double) throws {
        guard let entry = constraints[constraint] else { throw SolverError.unknownConstraint(constraint) }
        guard entry.tag != nil else {
            constraint.expression.constant = constant  // it goes in with the new constant
            return
        }
        let delta = constant - constraint.expression.constant
        guard !delta.isNearZero else { return }
        if constraint.isRequiredEquality { startTrackingEqualities() }  // its constant moves through its dummy
        rebuildIfDrifted()
        optimizeIfNeeded()
        var tag = constraints[constraint]!.tag!  // after any rebuild, which makes new symbols
        do {
            var moved = try moveConstant(tag, by: delta)
            if !moved, explainsConflicts, !tracksEqualities {
                // As in `addNow`: the certificate lacks the required equalities; fail again with them.
                startTrackingEqualities()
                tag = constraints[constraint]!.tag!
                moved = try moveConstant(tag, by: delta)
            }
            if !moved {
                let changed = copy(of: constraint)
                changed.expression.constant = constant
                throw SolverError.unsatisfiable(constraint, conflict: conflict(for: changed, replacing: constraint).dropLast() + [constraint])
            }
        } catch is Tableau.WorkLimitExceeded {
            rebuild()
            throw SolverError.workLimitExceeded(constraint)
        }
        constraint.expression.constant = constant
    }

    /// Moves a constraint's constant by `delta` and restores feasibility with the dual simplex; when a required
    /// constraint cannot hold, moves it back (the dual simplex's pivots keep an equivalent tableau, so moving the
    /// constant back and re-solving is the old solution, without a copy of the tableau) and returns false.
    func moveConstant(_ tag: Tag, by delta: Double) throws -> Bool {
        tableau.makeDenseIfSmall()
        tableau.pivotBudget = pivotLimit
        if tableau.shiftConstant(marker: tag.marker, markerCoefficient: tag.markerCoefficient, by: delta),
           try tableau.dualOptimize() {
            return true
        }
        let certificate = tableau.infeasibilityCertificate
        defer { tableau.infeasibilityCertificate = certificate }  // for `conflict`, past the way back
        _ = tableau.shiftConstant(marker: tag.marker, markerCoefficient: tag.markerCoefficient, by: -delta)
        tableau.queueAllInfeasibleRows()
        if try !tableau.dualOptimize() { throw Tableau.WorkLimitExceeded() }  // cannot be: the old constant held
        return false
    }

    /// Copies the solution into every variable's `value`.
    public func updateVariables() {
        optimizeIfNeeded()
        tableau.rows.withUnsafeBufferPointer { rows in  // one access to the array, not one a variable
            for entry in variableList {
                entry.variable.value = rows[entry.symbol]?.constant ?? 0
            }
        }
    }

    /// The total error of the constraints at `priority` (0 when all of them hold), read from their error symbols.
    public func error(at priority: Priority) -> Double {
        optimizeIfNeeded()
        var total = 0.0
        for (constraint, tag, _) in constraints.inserted where constraint.priority == priority && !priority.isRequired {
            if constraint.relation == .equal { total += tableau.rows[tag.marker]?.constant ?? 0 }
            total += tableau.rows[tag.other!]?.constant ?? 0
        }
        return total
    }

    /// Inserts the optional constraints waiting in `pending`, in the order they came. An optional constraint
    /// always goes in (it has an error symbol to solve for), without phase one and so without pivots.
    func insertPending() {
        guard !pending.isEmpty else { return }
        let waiting = pending
        pending = []
        for (constraint, order) in waiting {
            guard let entry = constraints[constraint], entry.tag == nil, entry.order == order else { continue }
            // Cannot fail (see above); were it to, the constraint is dropped rather than half inserted.
            guard let tag = (try? insert(constraint)) ?? nil else {
                constraints.remove(constraint)
                continue
            }
            constraints.setTag(tag, of: constraint)
        }
    }

    /// Runs the primal simplex if constraints were added or removed since it last ran, after inserting the
    /// optional constraints that wait. Should it run out of pivots, the tableau is rebuilt from the constraints
    /// (a fresh solve, which optimises too).
    func optimizeIfNeeded() {
        guard needsOptimization else { return }
        insertPending()
        needsOptimization = false
        tableau.makeDenseIfSmall()
        tableau.pivotBudget = pivotLimit
        do { try tableau.optimize() } catch { rebuild() }
    }

    /// Builds the tableau again from the constraints, the required ones first, each kind in the order it was
    /// added, with their current constants: what a fresh solver given the same constraints would hold (see
    /// `add`). The way out when an operation ran out of pivots (a loop that rounding kept from ending). The
    /// constraints still pending stay so. `optimizing: false` leaves the new tableau feasible but not optimised.
    func rebuild(optimizing: Bool = true) {
        rebuilds += 1
        retiredPivots.all += tableau.pivots
        retiredPivots.bland += tableau.blandPivots
        retiredPivots.rewrittenRows += tableau.rewrittenRows
        pivotsAtDriftCheck = 0
        let ordered = constraints.inserted.sorted {
            ($0.constraint.priority.isRequired ? 0 : 1, $0.order) < ($1.constraint.priority.isRequired ? 0 : 1, $1.order)
        }
        tableau = rowForm.makeTableau()
        variableSymbols.removeAll(variableList.lazy.map(\.variable))
        variableList = []
        variableUses = SymbolMap()
        owners = SymbolMap()
        // No budget: this is the way out, and a build cannot cycle (Bland's rule takes over when a loop stalls).
        tableau.pivotBudget = Int.max
        for (constraint, _, _) in ordered {
            if let tag = try? insert(constraint) {
                constraints.setTag(tag, of: constraint)
                if let edited = editedVariable(constraint) { edits[ObjectIdentifier(edited)]!.tag = tag }
            } else {
                // Cannot happen with constraints that held; drop it rather than hold an inconsistent tableau.
                constraints.remove(constraint)
            }
        }
        guard optimizing else { return }
        tableau.makeDenseIfSmall()
        try? tableau.optimize()
        needsOptimization = false
    }

    /// The variable whose edit constraint this is, if it is one.
    private func editedVariable(_ constraint: Constraint) -> Variable? {
        guard !constraint.priority.isRequired, constraint.expression.terms.count == 1,
              let variable = constraint.expression.terms.first?.variable,
              edits[ObjectIdentifier(variable)]?.constraint === constraint
        else { return nil }
        return variable
    }

    /// Puts a constraint into the tableau: its row, with a subject made basic (or through phase one). Nil when a
    /// required constraint cannot hold; every symbol made for it is given back then.
    func insert(_ constraint: Constraint) throws -> Tag? {
        var (row, tag) = makeRow(constraint)
        var subject = chooseSubject(row, tag)
        if subject == nil, row.allSymbols(satisfy: { tableau.kinds[$0] == .dummy }) {
            // A required equality that the others imply (or contradict).
            if !row.constant.isNearZero {
                tableau.infeasibilityCertificate = row.symbols  // the required equalities it contradicts
                refuse(constraint, tag)
                return nil
            }
            guard row.contains(tag.marker) else {
                // Untracked, its row is empty: 0 = 0 holds with nothing to record.
                owners[tag.marker] = constraint
                return tag
            }
            subject = tag.marker
        }
        if let subject {
            // A restricted subject of a row whose constant is rounding noise enters at 0, not at a hair below it.
            if tableau.kinds[subject].isRestricted, row.constant.isNearZero { row.constant = 0 }
            row.solve(for: subject)
            tableau.substitute(subject, with: row)
            tableau.setRow(subject, row)
        } else {
            // Only a required constraint gets here (an optional one always has an error to make basic).
            do {
                guard try tableau.addWithArtificialVariable(row, marker: tag.marker) else {
                    refuse(constraint, tag)
                    return nil
                }
            } catch {
                refuse(constraint, tag)
                throw error
            }
        }
        owners[tag.marker] = constraint
        if let other = tag.other { owners[other] = constraint }
        return tag
    }

    /// Takes back what `makeRow` made for a constraint that did not go in.
    private func refuse(_ constraint: Constraint, _ tag: Tag) {
        if let other = tag.other {
            tableau.objective.remove(other)
            tableau.release(other)
        }
        tableau.objective.remove(tag.marker)
        tableau.release(tag.marker)
        releaseVariables(of: constraint)
    }

    // MARK: - Building rows

    /// The external symbol of a variable, made on first use; counts one more use.
    func useSymbol(for variable: Variable) -> Symbol {
        if let s = variableSymbols[variable] {
            variableUses[s]!.count += 1
            return s
        }
        let s = tableau.newSymbol(.external)
        variableSymbols.insert(s, for: variable)
        variableUses[s] = (1, variableList.count)
        variableList.append((variable, s))
        return s
    }

    /// One use fewer for each variable of a constraint that left (or never went in); a variable no constraint
    /// uses any more gives its symbol back (in exact arithmetic it is then in no row: nothing relates it).
    private func releaseVariables(of constraint: Constraint) {
        for term in constraint.expression.terms where !term.coefficient.isNearZero {
            guard let s = variableSymbols[term.variable] else { continue }
            variableUses[s]!.count -= 1
            guard variableUses[s]!.count == 0 else { continue }
            let index = variableUses[s]!.index
            variableUses[s] = nil
            variableList.swapAt(index, variableList.count - 1)
            variableList.removeLast()
            if index < variableList.count { variableUses[variableList[index].symbol]!.index = index }
            variableSymbols.remove(term.variable)
            tableau.release(s)
        }
    }

    /// The constraint's row with basic variables substituted, plus its marker (and error) symbols; an optional
    /// constraint's errors enter the objective at its priority.
    private func makeRow(_ constraint: Constraint) -> (Row, Tag) {
        // Room for every cell the row can get: its terms' rows (or the terms), its marker and error.
        makeRowTerms.removeAll(keepingCapacity: true)
        var capacity = 2
        // The terms are read in place and their variables not retained: a retain is an atomic write to the
        // variable's object, which stalls until a cache miss on it completes, and in a shuffled build of a large
        // system each term's variable is a miss (grid-50: about 3 % of the build, as written or shuffled).
        constraint.expression.terms.withUnsafeBufferPointer { terms in
            for i in terms.indices where !terms[i].coefficient.isNearZero {
                let s = Unmanaged.passUnretained(terms[i].variable)._withUnsafeGuaranteedRef { useSymbol(for: $0) }
                makeRowTerms.append((s, terms[i].coefficient))
                capacity += tableau.rows.cellCount(of: s)
            }
        }
        var row = tableau.makeRow(constant: constraint.expression.constant, capacity: capacity)
        for (s, coefficient) in makeRowTerms { tableau.add(s, times: coefficient, to: &row) }
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
                if tracksEqualities { row.insert(dummy, 1) }
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

    /// A symbol to make basic: an external variable if there is one (`leastFilling`); else, when the row's
    /// constant is zero, any slack or error symbol (it enters at 0, so every row stays feasible: no phase one);
    /// else the marker or error if its coefficient is negative (so that it enters at a value >= 0); else another
    /// constraint's slack or error that can enter without a row going negative (`feasibleSubject`).
    private func chooseSubject(_ row: Row, _ tag: Tag) -> Symbol? {
        if let external = leastFilling(row, where: { tableau.kinds[$0] == .external }) { return external }
        if row.constant.isNearZero, let any = leastFilling(row, where: { tableau.kinds[$0].isPivotable }) { return any }
        if tableau.kinds[tag.marker].isPivotable, row.coefficient(for: tag.marker) < 0 { return tag.marker }
        if let other = tag.other, tableau.kinds[other].isPivotable, row.coefficient(for: other) < 0 { return other }
        return feasibleSubject(row)
    }

    /// A slack or error symbol with a negative coefficient in the row (constant > 0), so that it enters at a value
    /// above 0, and no restricted row it is in goes negative on the way: what phase one does when its first
    /// pivot makes the row basic, without the artificial variable, its objective and its pivot. On the
    /// 37-variable form that is every one of the 13 required constraints that went through phase one. Nil when
    /// every such symbol is limited by another row first (phase one then finds its way, or that the constraint
    /// cannot hold). Among those that can enter, the fewest-filling, as `leastFilling`.
    private func feasibleSubject(_ row: Row) -> Symbol? {
        var largest = 0.0
        row.forEachCell { symbol, coefficient in
            if coefficient < 0, tableau.kinds[symbol].isPivotable { largest = max(largest, -coefficient) }
        }
        guard largest > Tableau.pivotTolerance else { return nil }
        var best: Symbol?
        var bestUsers = Int.max
        var bestMagnitude = 0.0
        row.forEachCell { symbol, coefficient in
            let magnitude = -coefficient
            guard magnitude >= 0.1 * largest, tableau.kinds[symbol].isPivotable else { return }
            let users = tableau.columns[symbol].count
            guard users < bestUsers || (users == bestUsers && magnitude > bestMagnitude),
                  tableau.canEnter(symbol, at: row.constant / magnitude) else { return }
            best = symbol; bestUsers = users; bestMagnitude = magnitude
        }
        return best
    }

    /// Among the row's symbols that `include` accepts and whose coefficient is within 10 times the largest (so
    /// that solving for it does not divide by a small number), the one in the fewest rows: substituting it
    /// touches only those rows, and fills them in least (the Markowitz rule of sparse elimination). Ties: the
    /// larger coefficient, then the lower symbol.
    private func leastFilling(_ row: Row, where include: (Symbol) -> Bool) -> Symbol? {
        var largest = 0.0
        row.forEachCell { symbol, coefficient in
            if include(symbol) { largest = max(largest, abs(coefficient)) }
        }
        guard largest > Tableau.pivotTolerance else { return nil }
        var best: Symbol?
        var bestUsers = Int.max
        var bestMagnitude = 0.0
        row.forEachCell { symbol, coefficient in
            let magnitude = abs(coefficient)
            guard include(symbol), magnitude >= 0.1 * largest else { return }
            let users = tableau.columns[symbol].count
            if users < bestUsers || (users == bestUsers && magnitude > bestMagnitude) {
                best = symbol; bestUsers = users; bestMagnitude = magnitude
            }
        }
        return best
    }
}

extension Constraint {
    /// A required `==`: its marker is a dummy symbol (see `Solver.startTrackingEqualities()`).
    var isRequiredEquality: Bool { relation == .equal && priority.isRequired }
}
