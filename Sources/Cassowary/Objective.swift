/// What the simplex minimises: the errors of the optional constraints, one row per priority level, compared
/// lexicographically from the highest priority down.
///
/// This is what makes priorities strict. kiwi folds its strengths into one weighted sum, where enough weak
/// errors outweigh a strong one; here a lower level only decides among the solutions that are already optimal
/// for every higher level. Within a level the errors have equal weight: the least total error of that level.
/// Cost: every objective operation is done once per level in use (typically a handful), instead of once.
struct Objective {
    /// (priority, row), highest priority first.
    private(set) var levels: [(priority: Int, row: Row)] = []
    /// Whether the levels' rows take the dense form (as the rows of the tableau do; see `Row`).
    private(set) var isDense: Bool

    init(dense: Bool) { isDense = dense }

    var isEmpty: Bool { levels.allSatisfy { $0.row.isEmpty && $0.row.constant.isNearZero } }

    /// The value of the objective at one level (the total error of that priority).
    func value(at priority: Int) -> Double { levels.first { $0.priority == priority }?.row.constant ?? 0 }

    mutating func insert(_ symbol: Symbol, _ coefficient: Double, priority: Int) {
        levels[levelIndex(priority)].row.insert(symbol, coefficient)
    }

    mutating func add(_ row: Row, times factor: Double, priority: Int) {
        levels[levelIndex(priority)].row.add(row, times: factor)
    }

    mutating func substitute(_ symbol: Symbol, with row: Row) {
        for i in levels.indices { levels[i].row.substitute(symbol, with: row) }
    }

    mutating func remove(_ symbol: Symbol) {
        for i in levels.indices { levels[i].row.remove(symbol) }
    }

    /// The symbol to bring into the basis: one whose cost is zero at every higher level and negative at its
    /// own (the reduced cost is lexicographically negative), the most negative at the highest such level
    /// (Dantzig's rule: fewer pivots than the lowest symbol, and no dependence on the order symbols were made in).
    /// Nil when the objective is optimal.
    func enteringSymbol(kinds: [SymbolKind], skipping skipped: [Symbol] = []) -> Symbol? {
        // Levels by index, read in place: `for level in levels` copies each level, a retain and a release of its
        // row's storage, and this runs at every primal step.
        for index in levels.indices {
            var best: Symbol?
            var bestCost = -1e-8
            levels[index].row.forEachCell { symbol, cost in
                guard cost < bestCost, kinds[symbol].isPivotable, !skipped.contains(symbol),
                      isFree(symbol, above: index) else { return }
                best = symbol
                bestCost = cost
            }
            if let best { return best }
        }
        return nil
    }

    /// Bland's rule: the lowest-numbered symbol whose reduced cost is lexicographically negative (its first
    /// non-zero cost, from the highest level down, is negative). Used once the simplex stalls: with it the
    /// simplex cannot cycle.
    func lowestEnteringSymbol(kinds: [SymbolKind], skipping skipped: [Symbol] = []) -> Symbol? {
        // Each symbol's first non-zero cost decides its sign; a symbol seen at a higher level is settled.
        var settled = Set<Symbol>()
        var lowest: Symbol?
        for index in levels.indices {
            levels[index].row.forEachCell { symbol, cost in
                guard !cost.isNearZero, settled.insert(symbol).inserted else { return }
                if cost < 0, kinds[symbol].isPivotable, !skipped.contains(symbol), lowest.map({ symbol < $0 }) ?? true {
                    lowest = symbol
                }
            }
        }
        return lowest
    }

    /// Whether `symbol` costs nothing at every level (a dual pivot on it makes no progress; a slack that costs
    /// nothing leaves a layout ambiguous).
    func isFree(_ symbol: Symbol) -> Bool {
        isFree(symbol, above: levels.count)
    }

    /// Whether `symbol` costs nothing at the levels before `end` (in place, as `enteringSymbol` reads them).
    private func isFree(_ symbol: Symbol, above end: Int) -> Bool {
        for i in 0..<end where !levels[i].row.coefficient(for: symbol).isNearZero { return false }
        return true
    }

    /// The dual ratio test's order: cost(a)/ca against cost(b)/cb, lexicographically from the highest level
    /// (no allocation).
    func compareRatios(_ a: Symbol, _ ca: Double, _ b: Symbol, _ cb: Double) -> ComparisonResult {
        for i in levels.indices {
            let x = levels[i].row.coefficient(for: a) / ca
            let y = levels[i].row.coefficient(for: b) / cb
            if !(x - y).isNearZero { return x < y ? .orderedAscending : .orderedDescending }
        }
        return .orderedSame
    }

    /// Turns every level's row into the sparse form, and the levels made from now on (the tableau grew).
    mutating func makeSparse() {
        isDense = false
        for i in levels.indices { levels[i].row.makeSparse() }
    }

    /// Turns every level's row into the dense form, and the levels made from now on (see `Tableau`).
    mutating func makeDense(width: Int) {
        isDense = true
        for i in levels.indices { levels[i].row.makeDense(width: width) }
    }

    private mutating func levelIndex(_ priority: Int) -> Int {
        if let i = levels.firstIndex(where: { $0.priority == priority }) { return i }
        let i = levels.firstIndex { $0.priority < priority } ?? levels.count
        levels.insert((priority, isDense ? Row(constant: 0, denseWidth: 0) : Row()), at: i)
        return i
    }
}

/// How two dual ratios compare (Foundation's `ComparisonResult`, without importing Foundation).
enum ComparisonResult { case orderedAscending, orderedSame, orderedDescending }
