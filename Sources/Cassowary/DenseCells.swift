/// The cells of a row in the dense form (see `Row`): a slot for the coefficient of every symbol id below the
/// row's width, and a bitset of the symbols in the row, so that the cells are visited in increasing symbol order
/// without looking at the others. The bitset says which slots hold a coefficient; the others are never read, and
/// never written but by a symbol joining: only the bitset is zeroed when cells are made, not the kilobyte or two
/// of slots (zeroing them was 2.5 % of a small form's build).
///
/// One allocation: `words` bitset words, then `64 × words` coefficients (stored as their bit patterns, so that
/// the whole buffer is of one type). A class, so that a sparse row carries one optional reference for it rather
/// than its storage (a `Row` is moved in and out of the tableau's array on every pivot, and a large tableau's
/// array of rows is walked at random: its size counts). `Row` copies it before changing it when it is shared
/// (copy on write), and replaces it by a wider copy when a symbol past its width joins.
final class DenseCells: ManagedBuffer<DenseCells.Header, UInt64> {
    struct Header {
        /// Words of the bitset: the width is `64 × words` symbols.
        var words: Int
        /// Non-zero cells.
        var count: Int
    }

    /// Empty cells with room for symbols below `width` (at least one word of them).
    static func make(width: Int) -> DenseCells {
        let words = max(1, (width + 63) >> 6)
        let cells = unsafeDowncast(create(minimumCapacity: 65 * words) { _ in Header(words: words, count: 0) },
                                   to: DenseCells.self)
        // The bitset only (see above). UInt64 is trivial: the slots need no initialisation before a write.
        cells.withUnsafeMutablePointerToElements { $0.initialize(repeating: 0, count: words) }
        return cells
    }

    /// A copy with room for symbols below `width` (or its own width, if larger): the bitset, and the slots of
    /// the symbols in it.
    func copy(width: Int = 0) -> DenseCells {
        let copy = DenseCells.make(width: max(width, self.width))
        let (words, newWords) = (header.words, copy.header.words)
        withUnsafeMutablePointerToElements { mine in
            copy.withUnsafeMutablePointerToElements { $0.update(from: mine, count: words) }
        }
        copy.withUnsafeMutablePointerToElements { theirs in
            forEach { symbol, coefficient in theirs[newWords + symbol] = coefficient.bitPattern }
        }
        copy.header.count = header.count
        return copy
    }

    var count: Int { header.count }
    /// Words of the bitset.
    var words: Int { header.words }
    /// One past the highest symbol the cells have room for.
    var width: Int { header.words << 6 }

    func coefficient(for symbol: Symbol) -> Double {
        let words = header.words
        guard symbol < words << 6 else { return 0 }
        return withUnsafeMutablePointerToElements {
            $0[symbol >> 6] & (1 &<< UInt64(symbol & 63)) == 0 ? 0 : Double(bitPattern: $0[words + symbol])
        }
    }

    /// Word `w` of the bitset: bit `s % 64` is set for symbol `s = 64 w + ...` of the row.
    func bits(_ w: Int) -> UInt64 { withUnsafeMutablePointerToElements { $0[w] } }

    /// Calls `body` with each cell in increasing symbol order.
    func forEach(_ body: (Symbol, Double) throws -> Void) rethrows {
        let words = header.words
        try withUnsafeMutablePointerToElements { elements in
            for w in 0..<words {
                var word = elements[w]
                while word != 0 {
                    let s = w << 6 | word.trailingZeroBitCount
                    word &= word &- 1
                    try body(s, Double(bitPattern: elements[words + s]))
                }
            }
        }
    }

    /// Adds `coefficient · symbol` (below the width) with the sparse form's rules: an absent symbol joins unless
    /// the coefficient is (near) zero, a present one leaves when the sum is. Whether the symbol joined (true),
    /// left (false) or neither (nil).
    func add(_ symbol: Symbol, _ coefficient: Double) -> Bool? {
        assert(symbol < header.words << 6, "symbol \(symbol) past the cells' width \(header.words << 6)")
        let words = header.words
        var count = header.count
        var change: Bool?
        withUnsafeMutablePointerToElements { Self.add(symbol, coefficient, $0, words, &count) { change = $1 } }
        header.count = count
        return change
    }

    /// Adds `factor · other` (another row's dense cells, no wider than these), reporting each symbol that joined
    /// or left: each of its cells is one indexed update, through pointers and counts read once (not once a cell,
    /// which `changed`, opaque to the compiler, would otherwise force).
    @inline(__always)  // into `Row.add`, which the compiler specialises for each caller's `changed`
    func add(_ other: DenseCells, times factor: Double, changed: (Symbol, Bool) -> Void) {
        let (words, theirWords) = (header.words, other.header.words)
        var count = header.count
        withUnsafeMutablePointerToElements { mine in
            other.withUnsafeMutablePointerToElements { theirs in
                let values = theirs + theirWords
                for w in 0..<theirWords {
                    var word = theirs[w]
                    while word != 0 {
                        let s = w << 6 | word.trailingZeroBitCount
                        word &= word &- 1
                        Self.add(s, Double(bitPattern: values[s]) * factor, mine, words, &count, changed)
                    }
                }
            }
        }
        header.count = count
    }

    /// Adds `factor · cells` (a sparse row's, sorted, no wider than these) as `add(_:times:changed:)` does.
    @inline(__always)
    func add(_ cells: [Row.Cell], times factor: Double, changed: (Symbol, Bool) -> Void) {
        let words = header.words
        var count = header.count
        withUnsafeMutablePointerToElements { mine in
            for cell in cells { Self.add(cell.symbol, cell.coefficient * factor, mine, words, &count, changed) }
        }
        header.count = count
    }

    /// `add(_:_:)` on the elements (`mine`: `words` bitset words, then the coefficients), with the count kept by
    /// the caller.
    @inline(__always)
    private static func add(_ symbol: Symbol, _ coefficient: Double, _ mine: UnsafeMutablePointer<UInt64>,
                            _ words: Int, _ count: inout Int, _ changed: (Symbol, Bool) -> Void) {
        let values = mine + words
        let bit: UInt64 = 1 &<< UInt64(symbol & 63)
        if mine[symbol >> 6] & bit == 0 {
            guard !coefficient.isNearZero else { return }
            values[symbol] = coefficient.bitPattern
            mine[symbol >> 6] |= bit
            count += 1
            changed(symbol, true)
            return
        }
        let value = Double(bitPattern: values[symbol]) + coefficient
        if value.isNearZero {
            mine[symbol >> 6] &= ~bit
            count -= 1
            changed(symbol, false)
        } else {
            values[symbol] = value.bitPattern
        }
    }

    /// Takes out a symbol that is in the row.
    func remove(_ symbol: Symbol) {
        let words = header.words
        assert(symbol < words << 6, "symbol \(symbol) past the cells' width \(words << 6)")
        withUnsafeMutablePointerToElements { $0[symbol >> 6] &= ~(1 &<< UInt64(symbol & 63)) }
        header.count -= 1
    }

    /// Multiplies every cell by `factor` (which is not 0).
    func scale(by factor: Double) {
        let words = header.words
        withUnsafeMutablePointerToElements { elements in
            for w in 0..<words {
                var word = elements[w]
                while word != 0 {
                    let s = words + (w << 6 | word.trailingZeroBitCount)
                    elements[s] = (Double(bitPattern: elements[s]) * factor).bitPattern
                    word &= word &- 1
                }
            }
        }
    }
}
