/// The simplex tableau in basic form: every row defines one basic symbol in terms of non-basic ones.
///
/// A value type with mutating methods, so that the solver's hot loops touch it through one access (a class
/// property is checked for exclusive access on every use).
///
/// Termination. Both simplex loops choose by their usual rules (the primal: the most negative cost at the
/// highest level; the dual: the most negative row) until they stall, and then switch to Bland's
/// rule while they stay stalled: the lowest-numbered candidate enters (or leaves), ties
/// in the ratio test go to the lowest symbol. Bland's rule cannot cycle, so the loop ends; a budget of pivots per
/// operation (`pivotBudget`) is the backstop for what rounding might still do, and running out of it throws
/// `WorkLimitExceeded` instead of looping forever.
struct Tableau {
    var kinds: [SymbolKind] = []
    /// rows[symbol]: the row of a basic symbol; nil for a non-basic one.
    var rows: [Row?] = []
    /// columns[symbol]: the basic symbols whose row contains `symbol`. Pivots and substitutions visit only these
    /// rows instead of scanning the whole tableau (the scans are what make kiwi slow to build).
    var columns: [SymbolSet] = []
    var objective: Objective
    /// Whether the rows (and the objective's) take the dense form (see `Row`): from `makeDenseIfSmall()` on,
    /// while the tableau has fewer than `denseSymbolLimit` symbols; past it, every row turns sparse for good.
    private(set) var isDense: Bool
    let denseSymbolLimit: Int
    /// Restricted basic symbols whose value went negative: the dual simplex's work list, each symbol at most
    /// once (`queued`).
    var infeasible: [Symbol] = []
    var queued: [Bool] = []
    /// The objective of phase one while a row is added through an artificial variable.
    var artificial: Objective?
    /// Symbol ids given back (by removed constraints, forgotten variables, artificial variables), used again
    /// before new ids are made: a long churn keeps the tableau's arrays at the size of what is in it.
    var freeSymbols: [Symbol] = []
    /// Pivots the current operation may still make.
    var pivotBudget = Int.max
    /// Pivots made in all, and how many of them under Bland's rule (for statistics and tests).
    var pivots = 0
    var blandPivots = 0
    /// Rows rewritten because a symbol in them became basic (a new row's subject, or a pivot's entering symbol):
    /// what a build does beyond making each row, and what depends on the order its constraints come in.
    var rewrittenRows = 0
    /// The largest coefficient found left behind for a symbol that was given back (0 in exact arithmetic).
    var largestResidue = 0.0
    /// Why the last change could not hold: the basic symbol and the symbols of the row that proved it (a row
    /// that must be >= 0, or 0, but cannot be, whatever its non-basic symbols do). The constraints that own these
    /// symbols are the ones combined into that row (a Farkas certificate), so a conflict is among them.
    var infeasibilityCertificate: [Symbol] = []

    /// A loop ran out of its pivot budget; the solver rebuilds its tableau from the constraints.
    struct WorkLimitExceeded: Error {}

    /// Below this many symbols a tableau's rows may be dense (`makeDenseIfSmall()`). A dense pivot costs an
    /// indexed update per cell of the pivot row for every row it changes; a sparse one merges sorted rows. The
    /// dense rows of a tableau take symbols × rows × 8 bytes (about 0.2 MiB on a 37-variable form): past a few
    /// hundred symbols they would no longer stay in cache, and there a merge of short rows is the cheaper.
    static let defaultDenseSymbolLimit = 512

    /// An empty tableau, sparse (or dense, `dense`) until `makeDenseIfSmall()`; a `denseSymbolLimit` of 0
    /// keeps it sparse.
    init(denseSymbolLimit: Int = Tableau.defaultDenseSymbolLimit, dense: Bool = false) {
        self.denseSymbolLimit = denseSymbolLimit
        isDense = dense && denseSymbolLimit > 0
        objective = Objective(dense: isDense)
    }

    /// Turns a small tableau's rows dense. The solver calls it once the rows of a build are in, before the
    /// primal simplex optimizes them, and before a change to a tableau that is still sparse (a suggested value, a
    /// moved constant, a removal). Until then a build makes each row once, and a sparse row, a few cells in a
    /// small allocation, is the cheaper to make (a dense one is a kilobyte or two, zeroed); from then on the
    /// simplex pivots on the same rows again and again, and dense rows are the cheaper to change (on the
    /// 37-variable form: a build as fast as with sparse rows only, a mixed churn a quarter faster).
    mutating func makeDenseIfSmall() {
        guard !isDense, kinds.count < denseSymbolLimit else { return }
        isDense = true
        for s in rows.indices where rows[s] != nil { rows[s]!.makeDense(width: kinds.count) }
        objective.makeDense(width: kinds.count)
        artificial?.makeDense(width: kinds.count)
    }

    /// A new row for this tableau, in its form. (Mutating only so that the solver calls it in place: a
    /// non-mutating call through the solver's property copied the whole tableau, a retain of each array.)
    mutating func makeRow(constant: Double, capacity: Int) -> Row {
        isDense ? Row(constant: constant, denseWidth: kinds.count) : Row(constant: constant, capacity: capacity)
    }

    /// Consecutive pivots without progress after which a loop switches to Bland's rule.
    static let stallLimit = 16
    /// Coefficients smaller than this never pivot: dividing by rounding noise is what blows a tableau up.
    static let pivotTolerance = 1e-7
    /// A restricted basic symbol counts as negative below this (rounding noise around 0 is not infeasibility).
    static let feasibilityTolerance = 1e-10

    /// Adds `factor · symbol` to a row being built, with `symbol` replaced by its row if it is basic (read in
    /// place, as `rows.constant(of:)` reads; mutating for the reason `makeRow` is).
    mutating func add(_ symbol: Symbol, times factor: Double, to row: inout Row) {
        rows.withUnsafeBufferPointer { buffer in
            switch buffer[symbol] {
            case .some(let basic): row.add(basic, times: factor)
            case .none: row.insert(symbol, factor)
            }
        }
    }

    var liveSymbols: Int { kinds.count - freeSymbols.count }

    mutating func newSymbol(_ kind: SymbolKind) -> Symbol {
        if let reused = freeSymbols.popLast() {
            kinds[reused] = kind
            return reused
        }
        kinds.append(kind)
        rows.append(nil)
        columns.append(SymbolSet())
        queued.append(false)
        if isDense, kinds.count >= denseSymbolLimit { makeSparse() }
        return kinds.count - 1
    }

    /// Turns every row sparse: the tableau grew past `denseSymbolLimit`. A row that is out of the tableau
    /// meanwhile (being built, or pivoted) turns sparse when it is set back (`setRow`).
    private mutating func makeSparse() {
        isDense = false
        for s in rows.indices where rows[s] != nil { rows[s]!.makeSparse() }
        objective.makeSparse()
        artificial?.makeSparse()
    }

    /// Gives a symbol back: it must no longer take part in the tableau. Whatever rounding left of it (a row, tiny
    /// cells in other rows, a cost) is dropped first.
    /// `measured`: whether what is left counts as rounding residue (not for phase one's artificial variable,
    /// whose column is dropped on purpose: that sets it to 0).
    mutating func release(_ symbol: Symbol, measured: Bool = true) {
        if rows[symbol] != nil { _ = takeRow(symbol) }
        for basic in columns[symbol] {
            if measured { largestResidue = max(largestResidue, abs(rows[basic]!.coefficient(for: symbol))) }
            rows[basic]!.remove(symbol)
        }
        columns[symbol] = SymbolSet()
        objective.remove(symbol)
        artificial?.remove(symbol)
        freeSymbols.append(symbol)
    }

    // MARK: Rows and the column index, kept in step

    mutating func setRow(_ basic: Symbol, _ row: Row) {
        guard row.isDense == isDense else {
            // Made before the tableau changed form (see `makeSparse`).
            var row = row
            if isDense { row.makeDense(width: kinds.count) } else { row.makeSparse() }
            return setRow(basic, row)
        }
        columns.withUnsafeMutableBufferPointer { columns in  // one access, not one a cell
            row.forEachCell { s, _ in columns[s].insertNew(basic) }  // `basic` had no row: in no column
        }
        rows[basic] = row
    }

    mutating func takeRow(_ basic: Symbol) -> Row {
        var row: Row?
        swap(&row, &rows[basic])
        columns.withUnsafeMutableBufferPointer { columns in
            row!.forEachCell { s, _ in columns[s].remove(basic) }
        }
        return row!
    }

    mutating func markIfInfeasible(_ basic: Symbol, _ constant: Double) {
        if constant < -Self.feasibilityTolerance, kinds[basic].isRestricted, !queued[basic] {
            queued[basic] = true
            infeasible.append(basic)
        }
    }

    /// Replaces `symbol` by `row` (its definition) in every row that contains it and in the objectives; restricted
    /// rows that turn negative go on the infeasible list.
    mutating func substitute(_ symbol: Symbol, with row: Row) {
        var users = SymbolSet()
        swap(&users, &columns[symbol])
        rewrittenRows += users.count
        // Each row changed in place, and the columns beside it, through one access to each array for the whole
        // substitution rather than one per row and per changed cell (each access checks that the array is not
        // shared).
        rows.withUnsafeMutableBufferPointer { rows in
            columns.withUnsafeMutableBufferPointer { columns in
                users.forEach { basic in
                    rows[basic]!.substitute(symbol, with: row) { s, added in
                        if added { columns[s].insertNew(basic) } else if s != symbol { columns[s].remove(basic) }
                    }
                }
            }
        }
        users.forEach { basic in markIfInfeasible(basic, rows.constant(of: basic)) }
        objective.substitute(symbol, with: row)
        artificial?.substitute(symbol, with: row)
    }

    /// Makes `entering` basic in place of `leaving`, spending one pivot of the budget.
    mutating func pivot(entering: Symbol, leaving: Symbol) throws {
        guard pivotBudget > 0 else { throw WorkLimitExceeded() }
        pivotBudget -= 1
        pivots += 1
        var row = takeRow(leaving)
        row.solve(for: entering, replacing: leaving)
        substitute(entering, with: row)
        setRow(entering, row)
    }

    // MARK: Simplex

    /// Primal simplex on the lexicographic objective (or on phase one's, while it is set).
    mutating func optimize() throws {
        var stalled = 0
        // Symbols whose negative cost no row limits. The objective is bounded below (its costs are >= 0), so that
        // cost is rounding noise: skip the symbol rather than stop.
        var unbounded: [Symbol] = []
        while true {
            let bland = stalled >= Self.stallLimit
            guard let entering = enteringSymbol(bland: bland, skipping: unbounded) else { return }
            guard let (leaving, ratio) = leavingRow(entering, bland: bland) else {
                unbounded.append(entering)
                continue
            }
            unbounded.removeAll()
            stalled = ratio > 0 ? 0 : stalled + 1
            if bland { blandPivots += 1 }
            try pivot(entering: entering, leaving: leaving)
        }
    }

    /// The primal simplex's entering symbol, on phase one's objective while there is one. Read in place: a copy of
    /// the objective alive during the pivot would share its rows, and the pivot would copy each one it changes.
    private func enteringSymbol(bland: Bool, skipping unbounded: [Symbol]) -> Symbol? {
        if let artificial {
            return bland ? artificial.lowestEnteringSymbol(kinds: kinds, skipping: unbounded)
                : artificial.enteringSymbol(kinds: kinds, skipping: unbounded)
        }
        return bland ? objective.lowestEnteringSymbol(kinds: kinds, skipping: unbounded)
            : objective.enteringSymbol(kinds: kinds, skipping: unbounded)
    }

    /// The ratio test: the restricted row that limits `entering` first, and by how much. Among rows that limit it
    /// equally (a degenerate step: often many rows at 0), the one with the largest coefficient, so that the pivot
    /// does not divide by a small number; under Bland's rule the lowest symbol. Coefficients below
    /// `pivotTolerance` are rounding noise and never pivot. Equal ties go to the lowest symbol.
    func leavingRow(_ entering: Symbol, bland: Bool = false) -> (Symbol, Double)? {
        var best: Symbol?
        var bestRatio = Double.infinity
        var bestMagnitude = 0.0
        for basic in columns[entering] where kinds[basic] != .external {
            let (a, constant) = rows.coefficientAndConstant(entering, inRowOf: basic)
            guard a < -Self.pivotTolerance else { continue }
            let ratio = max(0, -constant / a)  // a row a hair below 0 limits at 0, not below
            if let current = best, abs(ratio - bestRatio) <= 1e-12 * max(1, ratio) {
                let better = bland ? basic < current : (-a > bestMagnitude || (-a == bestMagnitude && basic < current))
                if !better { continue }
            } else if ratio >= bestRatio {
                continue
            }
            bestRatio = ratio; best = basic; bestMagnitude = -a
        }
        return best.map { ($0, bestRatio) }
    }

    /// Whether the non-basic `symbol` can take `value` (> 0) with every restricted row that holds it staying
    /// at 0 or above (the ratio test, with no row allowed to limit it first, not even in a tie). Mutating for the
    /// reason `makeRow` is: called through the solver's property, a non-mutating method copied the tableau.
    mutating func canEnter(_ symbol: Symbol, at value: Double) -> Bool {
        for basic in columns[symbol] where kinds[basic] != .external {
            let (b, constant) = rows.coefficientAndConstant(symbol, inRowOf: basic)
            if b < 0, constant + b * value < 0 { return false }
        }
        return true
    }

    /// Dual simplex: restores feasibility after constants moved, keeping the objective optimal. False when a row
    /// cannot be made feasible (a required constraint cannot hold); the work list is then left as it was.
    mutating func dualOptimize() throws -> Bool {
        var stalled = 0
        while true {
            let bland = stalled >= Self.stallLimit
            guard let leaving = nextInfeasibleRow(lowest: bland) else { return true }
            var entering: Symbol?
            var enteringCoefficient = 0.0
            // A copy of the row that lasts for this scan only: one still alive at the pivot made the pivot copy the
            // row's cells again (copy on write).
            rows.withUnsafeBufferPointer { $0[leaving]! }.forEachCell { symbol, a in
                guard a > Self.pivotTolerance, kinds[symbol] != .dummy else { return }
                guard let current = entering else {
                    entering = symbol
                    enteringCoefficient = a
                    return
                }
                switch objective.compareRatios(symbol, a, current, enteringCoefficient) {
                case .orderedAscending: break
                case .orderedSame where !bland && a > enteringCoefficient: break  // ties: the larger pivot
                default: return
                }
                entering = symbol
                enteringCoefficient = a
            }
            guard let entering else {
                infeasibilityCertificate = [leaving] + rows[leaving]!.symbols
                return false
            }
            stalled = objective.isFree(entering) ? stalled + 1 : 0
            if bland { blandPivots += 1 }
            try pivot(entering: entering, leaving: leaving)  // `leaving` is no longer basic: the next scan drops it
        }
    }

    /// The infeasible row to pivot on next: the most negative one (the dual's Dantzig rule), or under Bland's rule
    /// the lowest; rows that are feasible again (or no longer basic) leave the list on the way. The most negative
    /// row rather than the one queued last (kiwi's choice, and this solver's before it) took a quarter fewer pivots
    /// over the benchmark's mixed churn on the form and the rows workloads (1,900 to 1,472, 2,754 to 1,963 on
    /// enaml-form's orders; 11,661 to 8,777 on rows-30), and fewer of them under Bland's rule; the list is short,
    /// so the scan costs less than the pivots it saves. The rows that stay keep their order, in place (one pass,
    /// however many leave); of equally negative rows, the one queued last is chosen.
    private mutating func nextInfeasibleRow(lowest: Bool) -> Symbol? {
        var chosen: Symbol?
        var mostNegative = 0.0
        var kept = 0
        for i in infeasible.indices {
            let s = infeasible[i]
            let constant = rows.constant(of: s)  // a symbol no longer basic reads 0
            guard constant < -Self.feasibilityTolerance else {
                queued[s] = false
                continue
            }
            if lowest {
                if chosen == nil || s < chosen! { chosen = s }
            } else if constant <= mostNegative {
                mostNegative = constant
                chosen = s
            }
            infeasible[kept] = s
            kept += 1
        }
        infeasible.removeLast(infeasible.count - kept)
        return chosen
    }

    /// Puts every negative restricted row on the work list (after a failed change is undone).
    mutating func queueAllInfeasibleRows() {
        for s in rows.indices { if let row = rows[s] { markIfInfeasible(s, row.constant) } }
    }

    /// Phase one: adds `row` through an artificial variable and minimises it. False when the row cannot hold
    /// (the artificial variable stays above zero); the artificial row is then dropped, which leaves the tableau
    /// equivalent to what it was (phase one's pivots only re-express the rows already there), so nothing has to
    /// be copied beforehand. `marker` is the constraint's own marker, basic at the end if nothing else can be.
    mutating func addWithArtificialVariable(_ row: Row, marker: Symbol) throws -> Bool {
        let art = newSymbol(.slack)
        setRow(art, row)
        var phaseOne = Objective(dense: isDense)
        phaseOne.add(row, times: 1, priority: 1001)
        artificial = phaseOne
        defer { artificial = nil }
        try optimize()
        let success = artificial!.value(at: 1001) < 1e-8 * max(1, row.constant.magnitude)
        if !success {
            // art is basic with a positive value (were it non-basic, its value and phase one's would be 0).
            infeasibilityCertificate = rows[art]?.symbols ?? []
            release(art)
            return false
        }
        if rows[art] != nil {
            var artRow = takeRow(art)
            if !artRow.isEmpty {
                // A row of dummies only is an equality the others already imply: its marker becomes basic.
                guard let entering = artRow.largestCell(where: { kinds[$0].isPivotable }, above: Self.pivotTolerance)
                    ?? (artRow.contains(marker) ? marker : nil) else {
                    release(art)
                    return false
                }
                artRow.solve(for: entering, replacing: art)
                substitute(entering, with: artRow)
                setRow(entering, artRow)
            }
        }
        release(art, measured: false)  // non-basic now: its column goes, which is art = 0
        return true
    }

    /// Moves a constraint's expression constant by `delta` through its marker column: with `k` the marker's
    /// coefficient in the constraint's row, `expression + delta + k·m = 0` is the old row with `m` shifted by
    /// `delta / k`. A basic marker's row moves by that much; otherwise every row containing it does. Returns
    /// false when a basic dummy moved off zero: a required equality that the others imply no longer holds.
    mutating func shiftConstant(marker: Symbol, markerCoefficient k: Double, by delta: Double) -> Bool {
        let shift = delta / k
        var consistent = true
        if rows[marker] != nil {
            rows[marker]!.constant -= shift
            let constant = rows[marker]!.constant
            if kinds[marker] == .dummy, !constant.isNearZero {
                consistent = false
                infeasibilityCertificate = [marker] + rows[marker]!.symbols
            }
            markIfInfeasible(marker, constant)
        } else {
            for basic in columns[marker] {
                // In place: reading rows[basic] into a value would copy (retain) its arrays.
                let constant = rows[basic]!.moveConstant(byCoefficientOf: marker, times: shift)
                if kinds[basic] == .dummy, !constant.isNearZero, consistent {
                    consistent = false
                    infeasibilityCertificate = [basic] + rows[basic]!.symbols
                }
                markIfInfeasible(basic, constant)
            }
        }
        return consistent
    }

    /// Takes an optional constraint's error out of the objective before the constraint goes.
    mutating func removeErrorEffect(_ error: Symbol, priority: Int) {
        if let row = rows[error] {
            objective.add(row, times: -1, priority: priority)
        } else {
            objective.insert(error, -1, priority: priority)
        }
    }

    /// The row to pivot a non-basic marker into, so that its constraint can be dropped: kiwi's rule (the
    /// restricted row that limits the marker first, else the one it limits first, else an external row), except
    /// that a basic dummy's row comes before all of them. A dummy must stay 0: it is a required equality that the
    /// others imply, and the pivot on any other row would move the marker, and the dummy with it. Its row's
    /// constant is 0, so the pivot moves nothing.
    func markerLeavingRow(_ marker: Symbol) -> Symbol? {
        var first: Symbol?, second: Symbol?, third: Symbol?, dummy: Symbol?
        var r1 = Double.infinity, r2 = Double.infinity
        var largestDummyCoefficient = 0.0
        for basic in columns[marker] {
            let (c, constant) = rows.coefficientAndConstant(marker, inRowOf: basic)
            guard abs(c) > Self.pivotTolerance else { continue }  // noise: dividing by it would blow the row up
            if kinds[basic] == .dummy {
                if abs(c) > largestDummyCoefficient || (abs(c) == largestDummyCoefficient && basic < dummy!) {
                    largestDummyCoefficient = abs(c)
                    dummy = basic
                }
            } else if kinds[basic] == .external {
                third = third ?? basic
            } else if c < 0 {
                let r = -constant / c
                if r < r1 { r1 = r; first = basic }
            } else {
                let r = constant / c
                if r < r2 { r2 = r; second = basic }
            }
        }
        return dummy ?? first ?? second ?? third
    }

    /// Pivots until every symbol of `basis` is basic (a basis the tableau had before a rebuild), each entering in
    /// the row of a symbol outside it with the largest coefficient (a basic dummy stays: its row holds dummies
    /// only). False when no row can take one of them (rounding).
    mutating func pivot(toBasis basis: [Symbol]) -> Bool {
        var wanted = [Bool](repeating: false, count: kinds.count)
        for s in basis { wanted[s] = true }
        for entering in basis where rows[entering] == nil {
            var leaving: Symbol?
            var largest = Self.pivotTolerance
            for basic in columns[entering] where !wanted[basic] && kinds[basic] != .dummy {
                let a = abs(rows[basic]!.coefficient(for: entering))
                if a > largest { largest = a; leaving = basic }
            }
            guard let leaving else { return false }
            pivotBudget = Int.max
            try? pivot(entering: entering, leaving: leaving)
        }
        return true
    }

    /// Drops the constraint whose marker is `marker` from the tableau.
    mutating func removeMarker(_ marker: Symbol) {
        if rows[marker] != nil {
            _ = takeRow(marker)
        } else if let leaving = markerLeavingRow(marker) {
            var row = takeRow(leaving)
            row.solve(for: marker, replacing: leaving)
            substitute(marker, with: row)
        }
    }
}

/// Reads of one row of the tableau's array, in place: copying an optional row out of the array retains and
/// releases its storage. The solver calls these on `tableau.rows` rather than through methods of the tableau: a
/// call to a non-mutating method of a struct held by a class may copy the whole struct (every array in it
/// retained and released), which it did, per variable, in `updateVariables`.
extension Array where Element == Row? {
    /// The constant of `symbol`'s row if it is basic (its value), else 0.
    func constant(of symbol: Symbol) -> Double {
        withUnsafeBufferPointer { $0[symbol]?.constant ?? 0 }
    }

    /// `symbol`'s coefficient in `basic`'s row, and the row's constant.
    func coefficientAndConstant(_ symbol: Symbol, inRowOf basic: Symbol) -> (Double, Double) {
        withUnsafeBufferPointer { ($0[basic]?.coefficient(for: symbol) ?? 0, $0[basic]?.constant ?? 0) }
    }

    /// How many cells standing for `symbol` take in a row: its row's if basic, else one.
    func cellCount(of symbol: Symbol) -> Int {
        withUnsafeBufferPointer { $0[symbol]?.count ?? 1 }
    }
}
