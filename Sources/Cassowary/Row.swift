/// One row of the tableau, `basic = constant + Σ coefficient · symbol`, or a linear form being built.
///
/// Cells are kept sorted by symbol in one array, as kiwi keeps its rows: iteration order is deterministic (so
/// are pivot choices and results), adding one row to another is a linear merge, and a row costs one allocation.
/// The merge works in place, from the back, in the row's own storage: a pivot adds a row to every row of its
/// column, and a fresh array for each of those sums was most of what a small build spent in malloc and free.
struct Row {
    private(set) var cells: [Cell] = []
    var constant: Double

    /// `coefficient · symbol`.
    struct Cell {
        var symbol: Symbol
        var coefficient: Double
    }

    init(constant: Double = 0) { self.constant = constant }

    /// An empty row with room for `capacity` cells: a row built up from several others grows once, not each time.
    init(constant: Double, capacity: Int) {
        self.constant = constant
        cells.reserveCapacity(capacity)
    }

    var isEmpty: Bool { cells.isEmpty }
    var count: Int { cells.count }
    /// The symbols in order (a fresh array: for certificates and diagnostics, not for hot loops).
    var symbols: [Symbol] { cells.map(\.symbol) }

    func coefficient(for symbol: Symbol) -> Double {
        guard let i = index(of: symbol) else { return 0 }
        return cells[i].coefficient
    }

    func contains(_ symbol: Symbol) -> Bool { index(of: symbol) != nil }

    /// Adds `coefficient · symbol`; a cell that cancels to (near) zero is removed.
    mutating func insert(_ symbol: Symbol, _ coefficient: Double) {
        _ = insert(symbol, coefficient, at: insertionPoint(symbol))
    }

    /// Adds `coefficient(for: symbol) · factor` to the constant; returns the new constant.
    mutating func moveConstant(byCoefficientOf symbol: Symbol, times factor: Double) -> Double {
        if let i = index(of: symbol) { constant += cells[i].coefficient * factor }
        return constant
    }

    mutating func remove(_ symbol: Symbol) {
        guard let i = index(of: symbol) else { return }
        cells.remove(at: i)
    }

    /// Adds `factor · other`; reports every symbol that appeared or disappeared, so that the tableau's column
    /// index can follow.
    mutating func add(_ other: Row, times factor: Double, changed: (Symbol, _ added: Bool) -> Void = { _, _ in }) {
        constant += other.constant * factor
        let m = other.cells.count
        guard m > 0 else { return }
        let n = cells.count
        // A few cells into a long row (the objective's): insert each in place rather than move the whole row.
        if m * 8 < n {
            var low = 0  // both are sorted: each search starts where the last one ended
            for cell in other.cells {
                let i = insertionPoint(cell.symbol, from: low)
                switch insert(cell.symbol, cell.coefficient * factor, at: i) {
                case .added: changed(cell.symbol, true); low = i + 1
                case .removed: changed(cell.symbol, false); low = i
                case .updated: low = i + 1
                case .none: low = i
                }
            }
            return
        }
        // Merge from the back into room for m more cells at the end: the write position never falls below the
        // read position of the row's own cells, so nothing is overwritten before it is read.
        // A row that grows once (a pivot filled it in) tends to grow again: half as much room again as it needs.
        if cells.capacity < n + m { cells.reserveCapacity(n + m + (n + m) / 2) }
        cells.append(contentsOf: repeatElement(Cell(symbol: 0, coefficient: 0), count: m))
        let (kept, written) = cells.withUnsafeMutableBufferPointer { mine in
            other.cells.withUnsafeBufferPointer { theirs in
                var i = n - 1, j = m - 1, w = n + m - 1
                while j >= 0 {
                    let symbol = theirs[j].symbol
                    if i >= 0, mine[i].symbol > symbol {
                        mine[w] = mine[i]
                        i -= 1; w -= 1
                    } else if i >= 0, mine[i].symbol == symbol {
                        let value = mine[i].coefficient + theirs[j].coefficient * factor
                        if value.isNearZero {
                            changed(symbol, false)
                        } else {
                            mine[w] = Cell(symbol: symbol, coefficient: value)
                            w -= 1
                        }
                        i -= 1; j -= 1
                    } else {
                        let value = theirs[j].coefficient * factor
                        if !value.isNearZero {
                            mine[w] = Cell(symbol: symbol, coefficient: value)
                            w -= 1
                            changed(symbol, true)
                        }
                        j -= 1
                    }
                }
                return (i + 1, w + 1)  // cells[..<kept] are in place, and so are cells[written...]
            }
        }
        let gap = written - kept
        if gap > 0 {
            cells.withUnsafeMutableBufferPointer { buffer in
                for k in written..<(n + m) { buffer[k - gap] = buffer[k] }
            }
            cells.removeLast(gap)
        }
    }

    mutating func negate() {
        constant = -constant
        for i in cells.indices { cells[i].coefficient = -cells[i].coefficient }
    }

    /// Turns `0 = constant + ... + a·symbol + ...` into `symbol = -(constant + ...)/a`: the row then no
    /// longer contains `symbol`, which becomes its basic symbol.
    mutating func solve(for symbol: Symbol) {
        let a = coefficient(for: symbol)
        remove(symbol)
        let factor = -1 / a
        constant *= factor
        for i in cells.indices { cells[i].coefficient *= factor }
    }

    /// For a row `basic = ...`: makes `entering` basic instead (`basic` joins the row with coefficient -1).
    mutating func solve(for entering: Symbol, replacing basic: Symbol) {
        insert(basic, -1)
        solve(for: entering)
    }

    /// Replaces `symbol` by `row` (which defines it).
    mutating func substitute(_ symbol: Symbol, with row: Row, changed: (Symbol, Bool) -> Void = { _, _ in }) {
        guard let i = index(of: symbol) else { return }
        let a = cells[i].coefficient
        cells.remove(at: i)
        changed(symbol, false)
        add(row, times: a, changed: changed)
    }

    /// The symbol with the largest coefficient (in magnitude, above `minimum`) among those `include` accepts: the
    /// steadiest one to solve the row for.
    func largestCell(where include: (Symbol) -> Bool, above minimum: Double) -> Symbol? {
        var best: Symbol?
        var magnitude = minimum
        for cell in cells where abs(cell.coefficient) > magnitude && include(cell.symbol) {
            best = cell.symbol
            magnitude = abs(cell.coefficient)
        }
        return best
    }

    // MARK: Sorted cells

    private enum Change { case added, removed, updated, none }

    /// Adds `coefficient · symbol` at `i`, its insertion point.
    private mutating func insert(_ symbol: Symbol, _ coefficient: Double, at i: Int) -> Change {
        if i < cells.count, cells[i].symbol == symbol {
            let value = cells[i].coefficient + coefficient
            if value.isNearZero {
                cells.remove(at: i)
                return .removed
            }
            cells[i].coefficient = value
            return .updated
        }
        guard !coefficient.isNearZero else { return .none }
        cells.insert(Cell(symbol: symbol, coefficient: coefficient), at: i)
        return .added
    }

    private func index(of symbol: Symbol) -> Int? {
        let i = insertionPoint(symbol)
        return i < cells.count && cells[i].symbol == symbol ? i : nil
    }

    private func insertionPoint(_ symbol: Symbol, from start: Int = 0) -> Int {
        cells.withUnsafeBufferPointer { buffer in
            var low = start
            var high = buffer.count
            while low < high {
                let mid = (low + high) / 2
                if buffer[mid].symbol < symbol { low = mid + 1 } else { high = mid }
            }
            return low
        }
    }
}

extension Double {
    /// Cells and ratios this close to zero are zero: the usual Cassowary tolerance.
    var isNearZero: Bool { abs(self) < 1e-8 }
}
