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
    /// own (the reduced cost is lexicographically negative). Nil when the objective is optimal.
    func enteringSymbol(kinds: [SymbolKind]) -> Symbol? {
        for (index, level) in levels.enumerated() {
            for (symbol, coefficient) in level.row.cells where coefficient < -1e-8 && kinds[symbol].isPivotable {
                if levels[..<index].allSatisfy({ $0.row.coefficient(for: symbol).isNearZero }) { return symbol }
            }
        }
        return nil
    }

    /// The cost of `symbol` at every level, highest first.
    func costs(of symbol: Symbol) -> [Double] { levels.map { $0.row.coefficient(for: symbol) } }

    /// The dual ratio test's order: whether cost(a)/ca is lexicographically below cost(b)/cb (no allocation).
    func ratioLess(_ a: Symbol, _ ca: Double, than b: Symbol, _ cb: Double) -> Bool {
        for level in levels {
            let x = level.row.coefficient(for: a) / ca
            let y = level.row.coefficient(for: b) / cb
            if !(x - y).isNearZero { return x < y }
        }
        return false
    }

    private mutating func levelIndex(_ priority: Int) -> Int {
        if let i = levels.firstIndex(where: { $0.priority == priority }) { return i }
        let i = levels.firstIndex { $0.priority < priority } ?? levels.count
        levels.insert((priority, Row()), at: i)
        return i
    }
}
