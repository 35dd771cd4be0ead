/// The simplex tableau in basic form: every row defines one basic symbol in terms of non-basic ones.
///
/// A value type with mutating methods, so that the solver's hot loops touch it through one access (a class
/// property is checked for exclusive access on every use), and so that a failed change can be undone by
/// keeping a copy (arrays copy on write: a copy shares storage until something changes).
struct Tableau {
    var kinds: [SymbolKind] = []
    /// rows[symbol]: the row of a basic symbol; nil for a non-basic one.
    var rows: [Row?] = []
    /// columns[symbol]: the basic symbols whose row contains `symbol`, sorted. Pivots and substitutions visit
    /// only these rows instead of scanning the whole tableau (the scans are what make kiwi slow to build).
    var columns: [[Symbol]] = []
    var objective = Objective()
    /// Restricted basic symbols whose value went negative: the dual simplex's work list.
    var infeasible: [Symbol] = []
    /// The objective of phase one while a row is added through an artificial variable.
    var artificial: Objective?

    /// The value of a symbol in the current solution: its row's constant if basic, else 0. Reads the constant
    /// in place (copying the optional row out of the array would retain and release its two arrays).
    func value(of symbol: Symbol) -> Double {
        rows.withUnsafeBufferPointer { buffer in
            switch buffer[symbol] {
            case .some(let row): return row.constant
            case .none: return 0
            }
        }
    }

    mutating func newSymbol(_ kind: SymbolKind) -> Symbol {
        kinds.append(kind)
        rows.append(nil)
        columns.append([])
        return kinds.count - 1
    }

    // MARK: Rows and the column index, kept in step

    mutating func setRow(_ basic: Symbol, _ row: Row) {
        for s in row.symbols { columns[s].insertSorted(basic) }
        rows[basic] = row
    }

    mutating func takeRow(_ basic: Symbol) -> Row {
        var row: Row?
        swap(&row, &rows[basic])
        for s in row!.symbols { columns[s].removeSorted(basic) }
        return row!
    }

    /// Replaces `symbol` by `row` (its definition) in every row that contains it and in the objectives; restricted
    /// rows that turn negative go on the infeasible list.
    mutating func substitute(_ symbol: Symbol, with row: Row) {
        var users: [Symbol] = []
        swap(&users, &columns[symbol])
        for basic in users {
            var moved: Row?
            swap(&moved, &rows[basic])  // moved out, not copied, while the columns change beside it
            moved!.substitute(symbol, with: row) { s, added in
                if added { columns[s].insertSorted(basic) } else if s != symbol { columns[s].removeSorted(basic) }
            }
            if kinds[basic].isRestricted, moved!.constant < 0 { infeasible.append(basic) }
            swap(&moved, &rows[basic])
        }
        objective.substitute(symbol, with: row)
        artificial?.substitute(symbol, with: row)
    }

    /// Makes `entering` basic in place of `leaving`.
    mutating func pivot(entering: Symbol, leaving: Symbol) {
        var row = takeRow(leaving)
        row.solve(for: entering, replacing: leaving)
        substitute(entering, with: row)
        setRow(entering, row)
    }

    // MARK: Simplex

    /// Primal simplex on the lexicographic objective (or on phase one's, while it is set).
    mutating func optimize() {
        while let entering = (artificial ?? objective).enteringSymbol(kinds: kinds) {
            guard let leaving = leavingRow(entering) else { return }  // unbounded: cannot happen with costs >= 0
            pivot(entering: entering, leaving: leaving)
        }
    }

    /// The ratio test: the restricted row that limits `entering` first (ties go to the lowest symbol id).
    func leavingRow(_ entering: Symbol) -> Symbol? {
        var best: Symbol?
        var bestRatio = Double.infinity
        for basic in columns[entering] where kinds[basic] != .external {
            let row = rows[basic]!
            let a = row.coefficient(for: entering)
            guard a < 0 else { continue }
            let ratio = -row.constant / a
            if ratio < bestRatio - 1e-12 { bestRatio = ratio; best = basic }  // ascending ids: ties keep the first
        }
        return best
    }

    /// Dual simplex: restores feasibility after constants moved, keeping the objective optimal. False when a row
    /// cannot be made feasible (a required constraint cannot hold).
    mutating func dualOptimize() -> Bool {
        while let leaving = infeasible.popLast() {
            guard let row = rows[leaving], row.constant < 0 else { continue }
            var entering: Symbol?
            var enteringCoefficient = 0.0
            for (symbol, a) in row.cells where a > 0 && kinds[symbol] != .dummy {
                if entering == nil || objective.ratioLess(symbol, a, than: entering!, enteringCoefficient) {
                    entering = symbol
                    enteringCoefficient = a
                }
            }
            guard let entering else {
                infeasible.removeAll()
                return false
            }
            pivot(entering: entering, leaving: leaving)
        }
        return true
    }

    /// Phase one: adds `row` through an artificial variable and minimises it. False when the row cannot hold
    /// (the artificial variable stays above zero); the caller then restores its copy.
    mutating func addWithArtificialVariable(_ row: Row) -> Bool {
        let art = newSymbol(.slack)
        setRow(art, row)
        var phaseOne = Objective()
        phaseOne.add(row, times: 1, priority: 1001)
        artificial = phaseOne
        optimize()
        let success = artificial!.value(at: 1001).isNearZero
        artificial = nil
        if rows[art] != nil {
            var artRow = takeRow(art)
            if artRow.isEmpty { return success }
            guard let entering = artRow.symbols.first(where: { kinds[$0].isPivotable }) else { return false }
            artRow.solve(for: entering, replacing: art)
            substitute(entering, with: artRow)
            setRow(entering, artRow)
        }
        for basic in columns[art] { rows[basic]!.remove(art) }
        columns[art] = []
        objective.remove(art)
        return success
    }

    /// Moves a constraint's expression constant by `delta` through its marker column: with `k` the marker's
    /// coefficient in the constraint's row, `expression + delta + k·m = 0` is the old row with `m` shifted by
    /// `delta / k`. A basic marker's row moves by that much; otherwise every row containing it does.
    mutating func shiftConstant(marker: Symbol, markerCoefficient k: Double, by delta: Double) {
        let shift = delta / k
        if rows[marker] != nil {
            rows[marker]!.constant -= shift
            if kinds[marker].isRestricted, rows[marker]!.constant < 0 { infeasible.append(marker) }
        } else {
            for basic in columns[marker] {
                // In place: reading rows[basic] into a value would copy (retain) its arrays.
                if rows[basic]!.moveConstant(byCoefficientOf: marker, times: shift) < 0, kinds[basic].isRestricted {
                    infeasible.append(basic)
                }
            }
        }
    }

    /// Takes an optional constraint's error out of the objective before the constraint goes.
    mutating func removeErrorEffect(_ error: Symbol, priority: Int) {
        if let row = rows[error] {
            objective.add(row, times: -1, priority: priority)
        } else {
            objective.insert(error, -1, priority: priority)
        }
    }

    /// The row to pivot a non-basic marker into, so that its constraint can be dropped (kiwi's rule).
    func markerLeavingRow(_ marker: Symbol) -> Symbol? {
        var first: Symbol?, second: Symbol?, third: Symbol?
        var r1 = Double.infinity, r2 = Double.infinity
        for basic in columns[marker] {
            let row = rows[basic]!
            let c = row.coefficient(for: marker)
            if kinds[basic] == .external {
                third = third ?? basic
            } else if c < 0 {
                let r = -row.constant / c
                if r < r1 { r1 = r; first = basic }
            } else {
                let r = row.constant / c
                if r < r2 { r2 = r; second = basic }
            }
        }
        return first ?? second ?? third
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

extension Array where Element == Symbol {
    /// Inserts into a sorted array (no-op if present).
    mutating func insertSorted(_ value: Symbol) {
        var low = 0, high = count
        while low < high {
            let mid = (low + high) / 2
            if self[mid] < value { low = mid + 1 } else { high = mid }
        }
        if low == count || self[low] != value { insert(value, at: low) }
    }

    mutating func removeSorted(_ value: Symbol) {
        var low = 0, high = count
        while low < high {
            let mid = (low + high) / 2
            if self[mid] < value { low = mid + 1 } else { high = mid }
        }
        if low < count, self[low] == value { remove(at: low) }
    }
}
