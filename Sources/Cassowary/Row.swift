/// One row of the tableau, `basic = constant + Σ coefficient · symbol`, or a linear form being built.
///
/// A row has one of two forms, chosen by the tableau it belongs to (`Tableau.makeDenseIfSmall()`); both hold the
/// same cells, iterate them in increasing symbol order, and do the same arithmetic in the same order, so pivot
/// choices and results are the same in either form (`RowFormTests` compares them under churn).
///
/// - **Sparse** (a large tableau): the cells sorted by symbol in one array, as kiwi keeps its rows. Adding one
///   row to another is a linear merge, done in place, from the back, in the row's own storage: a pivot adds a
///   row to every row of its column, and a fresh array for each of those sums was most of what a small build
///   spent in malloc and free.
/// - **Dense** (a small tableau that changes, see `Tableau.makeDenseIfSmall()`): `DenseCells`, a slot for the
///   coefficient of every symbol id and a bitset of the symbols in the row. Adding a row visits only the other row's cells, each one
///   indexed update: no merge and no search. On a 37-variable form (207 symbols, rows of about 12 cells) the
///   merges' branches were half of a pivot's time; a row of 207 doubles is 1.6 KiB, and the whole tableau stays
///   in the core's cache.
struct Row {
    var constant: Double
    /// The sparse form's cells, sorted by symbol (empty in the dense form).
    private var sorted: [Cell] = []
    /// The dense form's cells; nil in the sparse form.
    private var dense: DenseCells?

    /// `coefficient · symbol`.
    struct Cell {
        var symbol: Symbol
        var coefficient: Double
    }

    init(constant: Double = 0) { self.constant = constant }

    /// An empty sparse row with room for `capacity` cells: a row built up from several others grows once, not
    /// each time.
    init(constant: Double, capacity: Int) {
        self.constant = constant
        sorted.reserveCapacity(capacity)
    }

    /// An empty dense row with room for symbols below `width`.
    init(constant: Double, denseWidth width: Int) {
        self.constant = constant
        dense = DenseCells.make(width: width)
    }

    var isDense: Bool { dense != nil }
    var isEmpty: Bool { count == 0 }
    var count: Int { dense?.count ?? sorted.count }
    /// The cells in increasing symbol order.
    var cells: Cells { Cells(row: self) }
    /// The symbols in order (a fresh array: for certificates and diagnostics, not for hot loops).
    var symbols: [Symbol] { cells.map(\.symbol) }

    func coefficient(for symbol: Symbol) -> Double {
        if let dense { return dense.coefficient(for: symbol) }
        guard let i = index(of: symbol) else { return 0 }
        return sorted[i].coefficient
    }

    func contains(_ symbol: Symbol) -> Bool { coefficient(for: symbol) != 0 }

    /// Calls `body` with each cell in increasing symbol order (the hot loops' way: no iterator to copy).
    func forEachCell(_ body: (Symbol, Double) throws -> Void) rethrows {
        if let dense { return try dense.forEach(body) }
        for cell in sorted { try body(cell.symbol, cell.coefficient) }
    }

    /// Whether every symbol of the row passes `test` (true for an empty row).
    func allSymbols(satisfy test: (Symbol) -> Bool) -> Bool {
        var all = true
        forEachCell { symbol, _ in if all, !test(symbol) { all = false } }
        return all
    }

    /// Adds `coefficient · symbol`; a cell that cancels to (near) zero is removed.
    mutating func insert(_ symbol: Symbol, _ coefficient: Double) {
        if dense != nil {
            // Not `if let`: a second reference to the cells, alive at `uniqueDense()`, would make it copy them.
            let width = dense!.width
            if symbol >= width {
                guard !coefficient.isNearZero else { return }
                _ = uniqueDense(width: max(symbol + 1, 2 * width)).add(symbol, coefficient)  // symbols grow
            } else {
                _ = uniqueDense().add(symbol, coefficient)
            }
        } else {
            _ = insert(symbol, coefficient, at: insertionPoint(symbol))
        }
    }

    /// Adds `coefficient(for: symbol) · factor` to the constant; returns the new constant.
    mutating func moveConstant(byCoefficientOf symbol: Symbol, times factor: Double) -> Double {
        let c = coefficient(for: symbol)
        if c != 0 { constant += c * factor }
        return constant
    }

    mutating func remove(_ symbol: Symbol) {
        if dense != nil {
            guard dense!.coefficient(for: symbol) != 0 else { return }
            uniqueDense().remove(symbol)
            return
        }
        guard let i = index(of: symbol) else { return }
        sorted.remove(at: i)
    }

    /// Adds `factor · other`; reports every symbol that appeared or disappeared, so that the tableau's column
    /// index can follow.
    mutating func add(_ other: Row, times factor: Double, changed: (Symbol, _ added: Bool) -> Void = { _, _ in }) {
        constant += other.constant * factor
        if dense != nil {
            if other.dense != nil {
                // `other` holds its cells for the call: no retain and release of them (`if let` made one, per row
                // of every pivot).
                Unmanaged.passUnretained(other.dense!)._withUnsafeGuaranteedRef { theirs in
                    uniqueDense(width: theirs.width).add(theirs, times: factor, changed: changed)
                }
            } else {
                uniqueDense(width: (other.sorted.last?.symbol ?? -1) + 1).add(other.sorted, times: factor, changed: changed)
            }
        } else if other.dense != nil {
            // Only while the tableau changes form (a row built dense before it grew): merge its cells as a list.
            mergeSorted(Array(other.cells), times: factor, changed: changed)
        } else {
            mergeSorted(other.sorted, times: factor, changed: changed)
        }
    }

    mutating func negate() {
        constant = -constant
        scale(by: -1)
    }

    /// Turns `0 = constant + ... + a·symbol + ...` into `symbol = -(constant + ...)/a`: the row then no
    /// longer contains `symbol`, which becomes its basic symbol.
    mutating func solve(for symbol: Symbol) {
        let a = coefficient(for: symbol)
        remove(symbol)
        let factor = -1 / a
        constant *= factor
        scale(by: factor)
    }

    /// For a row `basic = ...`: makes `entering` basic instead (`basic` joins the row with coefficient -1).
    mutating func solve(for entering: Symbol, replacing basic: Symbol) {
        insert(basic, -1)
        solve(for: entering)
    }

    /// Replaces `symbol` by `row` (which defines it).
    mutating func substitute(_ symbol: Symbol, with row: Row, changed: (Symbol, Bool) -> Void = { _, _ in }) {
        let a: Double
        if dense != nil {
            a = dense!.coefficient(for: symbol)
            guard a != 0 else { return }
            uniqueDense().remove(symbol)
        } else {
            guard let i = index(of: symbol) else { return }  // one search, not one to read and one to remove
            a = sorted[i].coefficient
            sorted.remove(at: i)
        }
        changed(symbol, false)
        add(row, times: a, changed: changed)
    }

    /// The symbol with the largest coefficient (in magnitude, above `minimum`) among those `include` accepts: the
    /// steadiest one to solve the row for.
    func largestCell(where include: (Symbol) -> Bool, above minimum: Double) -> Symbol? {
        var best: Symbol?
        var magnitude = minimum
        forEachCell { symbol, coefficient in
            if abs(coefficient) > magnitude && include(symbol) {
                best = symbol
                magnitude = abs(coefficient)
            }
        }
        return best
    }

    // MARK: Changing form

    /// Turns the row into its dense form (no-op if it is).
    mutating func makeDense(width: Int) {
        guard dense == nil else { return }
        let cells = DenseCells.make(width: max(width, (sorted.last?.symbol ?? -1) + 1))
        for cell in sorted { _ = cells.add(cell.symbol, cell.coefficient) }
        sorted = []
        dense = cells
    }

    /// Turns the row into its sparse form (no-op if it is).
    mutating func makeSparse() {
        guard let dense else { return }
        var cells: [Cell] = []
        cells.reserveCapacity(dense.count)
        dense.forEach { cells.append(Cell(symbol: $0, coefficient: $1)) }
        sorted = cells
        self.dense = nil
    }

    // MARK: The sequence of cells

    /// The cells of a row in increasing symbol order, in either form.
    struct Cells: Sequence {
        let row: Row

        struct Iterator: IteratorProtocol {
            fileprivate let row: Row
            fileprivate var index = 0
            /// The dense form's bits of word `index - 1` not visited yet.
            fileprivate var word: UInt64 = 0

            mutating func next() -> Cell? {
                guard let dense = row.dense else {
                    guard index < row.sorted.count else { return nil }
                    index += 1
                    return row.sorted[index - 1]
                }
                while word == 0 {
                    guard index < dense.words else { return nil }
                    word = dense.bits(index)
                    index += 1
                }
                let s = (index - 1) << 6 | word.trailingZeroBitCount
                word &= word &- 1
                return Cell(symbol: s, coefficient: dense.coefficient(for: s))
            }
        }

        func makeIterator() -> Iterator { Iterator(row: row) }
        var underestimatedCount: Int { row.count }
    }

    // MARK: Both forms

    /// Multiplies every cell by `factor` (which is not 0).
    private mutating func scale(by factor: Double) {
        if dense != nil { return uniqueDense().scale(by: factor) }
        sorted.withUnsafeMutableBufferPointer { cells in
            for i in cells.indices { cells[i].coefficient *= factor }
        }
    }

    /// The dense cells, copied first if another row shares them (copy on write) or if they have no room for
    /// symbols below `width`.
    private mutating func uniqueDense(width: Int = 0) -> DenseCells {
        if width > dense!.width || !isKnownUniquelyReferenced(&dense) { dense = dense!.copy(width: width) }
        return dense!
    }

    // MARK: Sparse form

    private enum Change { case added, removed, updated, none }

    /// Adds `factor · theirs` (sorted cells) to the sparse form.
    @inline(__always)  // into `add`, as `DenseCells.add`
    private mutating func mergeSorted(_ theirs: [Cell], times factor: Double, changed: (Symbol, Bool) -> Void) {
        let m = theirs.count
        guard m > 0 else { return }
        let n = sorted.count
        // A few cells into a long row (the objective's), or one cell into any row: insert each in place rather
        // than make room at the end and merge. One cell is the common case of a large build whose constraints
        // come shuffled: most of its substitutions are by a row of one cell (`w = 10 + s`, `s1 = s2`); on
        // grid-50 shuffled 2 (callgrind, `make solver-counts`) 2.3 % fewer instructions a build, as written 0.9 %.
        if m == 1 || m * 8 < n {
            var low = 0  // both are sorted: each search starts where the last one ended
            for cell in theirs {
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
        if sorted.capacity < n + m { sorted.reserveCapacity(n + m + (n + m) / 2) }
        sorted.append(contentsOf: repeatElement(Cell(symbol: 0, coefficient: 0), count: m))
        let (kept, written) = sorted.withUnsafeMutableBufferPointer { mine in
            theirs.withUnsafeBufferPointer { theirs in
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
                return (i + 1, w + 1)  // sorted[..<kept] are in place, and so are sorted[written...]
            }
        }
        let gap = written - kept
        if gap > 0 {
            sorted.withUnsafeMutableBufferPointer { buffer in
                for k in written..<(n + m) { buffer[k - gap] = buffer[k] }
            }
            sorted.removeLast(gap)
        }
    }

    /// Adds `coefficient · symbol` at `i`, its insertion point.
    private mutating func insert(_ symbol: Symbol, _ coefficient: Double, at i: Int) -> Change {
        if i < sorted.count, sorted[i].symbol == symbol {
            let value = sorted[i].coefficient + coefficient
            if value.isNearZero {
                sorted.remove(at: i)
                return .removed
            }
            sorted[i].coefficient = value
            return .updated
        }
        guard !coefficient.isNearZero else { return .none }
        sorted.insert(Cell(symbol: symbol, coefficient: coefficient), at: i)
        return .added
    }

    private func index(of symbol: Symbol) -> Int? {
        let i = insertionPoint(symbol)
        return i < sorted.count && sorted[i].symbol == symbol ? i : nil
    }

    private func insertionPoint(_ symbol: Symbol, from start: Int = 0) -> Int {
        sorted.withUnsafeBufferPointer { buffer in
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
