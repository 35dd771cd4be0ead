/// One row of the tableau, `basic = constant + Σ coefficient · symbol`, or a linear form being built.
///
/// Cells are kept sorted by symbol id in two parallel arrays, as kiwi keeps its rows: iteration order is
/// deterministic (so are pivot choices and results), and adding one row to another is a linear merge.
struct Row {
    private(set) var symbols: [Symbol] = []
    private(set) var coefficients: [Double] = []
    var constant: Double

    init(constant: Double = 0) { self.constant = constant }

    var isEmpty: Bool { symbols.isEmpty }
    var count: Int { symbols.count }

    func coefficient(for symbol: Symbol) -> Double {
        guard let i = index(of: symbol) else { return 0 }
        return coefficients[i]
    }

    func contains(_ symbol: Symbol) -> Bool { index(of: symbol) != nil }

    /// Adds `coefficient · symbol`; a cell that cancels to (near) zero is removed.
    mutating func insert(_ symbol: Symbol, _ coefficient: Double) {
        let i = insertionPoint(symbol)
        if i < symbols.count, symbols[i] == symbol {
            let value = coefficients[i] + coefficient
            if value.isNearZero {
                symbols.remove(at: i)
                coefficients.remove(at: i)
            } else {
                coefficients[i] = value
            }
        } else if !coefficient.isNearZero {
            symbols.insert(symbol, at: i)
            coefficients.insert(coefficient, at: i)
        }
    }

    /// Adds `coefficient(for: symbol) · factor` to the constant; returns the new constant.
    mutating func moveConstant(byCoefficientOf symbol: Symbol, times factor: Double) -> Double {
        if let i = index(of: symbol) { constant += coefficients[i] * factor }
        return constant
    }

    mutating func remove(_ symbol: Symbol) {
        guard let i = index(of: symbol) else { return }
        symbols.remove(at: i)
        coefficients.remove(at: i)
    }

    /// Adds `factor · other` by merging; reports every symbol that appeared or disappeared, so that the
    /// tableau's column index can follow.
    mutating func add(_ other: Row, times factor: Double, changed: (Symbol, _ added: Bool) -> Void = { _, _ in }) {
        constant += other.constant * factor
        guard !other.symbols.isEmpty else { return }
        // A few cells into a long row (the objective's): insert each in place rather than rebuild the row.
        if other.symbols.count * 8 < symbols.count {
            for (symbol, coefficient) in zip(other.symbols, other.coefficients) {
                let i = insertionPoint(symbol)
                if i < symbols.count, symbols[i] == symbol {
                    let value = coefficients[i] + coefficient * factor
                    if value.isNearZero {
                        symbols.remove(at: i)
                        coefficients.remove(at: i)
                        changed(symbol, false)
                    } else {
                        coefficients[i] = value
                    }
                } else if !(coefficient * factor).isNearZero {
                    symbols.insert(symbol, at: i)
                    coefficients.insert(coefficient * factor, at: i)
                    changed(symbol, true)
                }
            }
            return
        }
        var newSymbols: [Symbol] = []
        var newCoefficients: [Double] = []
        newSymbols.reserveCapacity(symbols.count + other.symbols.count)
        newCoefficients.reserveCapacity(symbols.count + other.symbols.count)
        var i = 0
        var j = 0
        while i < symbols.count || j < other.symbols.count {
            if j == other.symbols.count || (i < symbols.count && symbols[i] < other.symbols[j]) {
                newSymbols.append(symbols[i])
                newCoefficients.append(coefficients[i])
                i += 1
            } else if i == symbols.count || other.symbols[j] < symbols[i] {
                let value = other.coefficients[j] * factor
                if !value.isNearZero {
                    newSymbols.append(other.symbols[j])
                    newCoefficients.append(value)
                    changed(other.symbols[j], true)
                }
                j += 1
            } else {
                let value = coefficients[i] + other.coefficients[j] * factor
                if value.isNearZero {
                    changed(symbols[i], false)
                } else {
                    newSymbols.append(symbols[i])
                    newCoefficients.append(value)
                }
                i += 1
                j += 1
            }
        }
        symbols = newSymbols
        coefficients = newCoefficients
    }

    mutating func negate() {
        constant = -constant
        for i in coefficients.indices { coefficients[i] = -coefficients[i] }
    }

    /// Turns `0 = constant + ... + a·symbol + ...` into `symbol = -(constant + ...)/a`: the row then no
    /// longer contains `symbol`, which becomes its basic symbol.
    mutating func solve(for symbol: Symbol) {
        let a = coefficient(for: symbol)
        remove(symbol)
        let factor = -1 / a
        constant *= factor
        for i in coefficients.indices { coefficients[i] *= factor }
    }

    /// For a row `basic = ...`: makes `entering` basic instead (`basic` joins the row with coefficient -1).
    mutating func solve(for entering: Symbol, replacing basic: Symbol) {
        insert(basic, -1)
        solve(for: entering)
    }

    /// Replaces `symbol` by `row` (which defines it).
    mutating func substitute(_ symbol: Symbol, with row: Row, changed: (Symbol, Bool) -> Void = { _, _ in }) {
        guard let i = index(of: symbol) else { return }
        let a = coefficients[i]
        symbols.remove(at: i)
        coefficients.remove(at: i)
        changed(symbol, false)
        add(row, times: a, changed: changed)
    }

    /// The symbol with the largest coefficient (in magnitude, above `minimum`) among those `include` accepts: the
    /// steadiest one to solve the row for.
    func largestCell(where include: (Symbol) -> Bool, above minimum: Double) -> Symbol? {
        var best: Symbol?
        var magnitude = minimum
        for (symbol, coefficient) in cells where abs(coefficient) > magnitude && include(symbol) {
            best = symbol
            magnitude = abs(coefficient)
        }
        return best
    }

    var cells: Zip2Sequence<[Symbol], [Double]> { zip(symbols, coefficients) }

    private func index(of symbol: Symbol) -> Int? {
        let i = insertionPoint(symbol)
        return i < symbols.count && symbols[i] == symbol ? i : nil
    }

    private func insertionPoint(_ symbol: Symbol) -> Int {
        var low = 0
        var high = symbols.count
        while low < high {
            let mid = (low + high) / 2
            if symbols[mid] < symbol { low = mid + 1 } else { high = mid }
        }
        return low
    }
}

extension Double {
    /// Cells and ratios this close to zero are zero: the usual Cassowary tolerance.
    var isNearZero: Bool { abs(self) < 1e-8 }
}
