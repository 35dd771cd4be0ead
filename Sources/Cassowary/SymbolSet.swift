/// A column of the tableau's index: the basic symbols whose rows hold one symbol.
///
/// In a small tableau (symbol ids below `smallTableauSymbols`) every set is a bitset: an insert or a removal is
/// one bit, and a walk over the set reads one word per 64 symbols of the tableau (three on a 37-variable form,
/// where the arrays' linear searches on removal were a fifth of a churn's time).
///
/// In a larger tableau, up to `smallLimit` symbols (most columns: a few rows each) the set is a plain array in
/// insertion order, with removal by swapping in the last element: an insert is an append, and a scan of a few
/// symbols finds one to remove. Past it, a bitset over symbol ids: a column can hold most of the tableau (the
/// width of a grid's container is in every cell's row), and its changes must stay O(1). A bitset beats a hash
/// table there for the way a pivot uses columns: it adds the pivot row's few cells to every row of the entering
/// column, so it inserts the same basic symbol into a few columns, then the next basic symbol into the same
/// columns, and so on in increasing order. In a bitset those land in neighbouring bits of a few words that stay
/// in cache; in a hash table each was a random slot of a large table, a cache miss (86 % of a 50 x 50 grid's
/// insert time).
/// Iteration order depends only on the sequence of changes (and is increasing in bitset form), never on a
/// random seed, so the solver's pivot choices are the same on every run.
struct SymbolSet: Sequence {
    /// The symbols (array form) or the words of the bitset: bit `s % 64` of word `s / 64` is symbol `s`.
    private var storage: [Int] = []
    private var isBitset = false
    private(set) var count = 0

    static let smallLimit = 64
    /// Sets whose symbols are all below this are bitsets from the start (64 words at most).
    static let smallTableauSymbols = 4096

    var isEmpty: Bool { count == 0 }

    func contains(_ symbol: Symbol) -> Bool {
        guard isBitset else { return storage.contains(symbol) }
        let word = symbol >> 6
        return word < storage.count && storage[word] & (1 &<< (symbol & 63)) != 0
    }

    /// Inserts `symbol` (no-op if present).
    mutating func insert(_ symbol: Symbol) {
        if !isBitset, storage.contains(symbol) { return }
        insertNew(symbol)
    }

    /// Inserts a symbol known not to be in the set (a row that just gained a cell): no search for it first, which
    /// was a tenth of a small build's time.
    /// The small bitset's case is written out here, beside `setBit`, rather than calling it: through `setBit`
    /// (its growth path inlined too) rows-30's mixed churn was a tenth slower. `remove` likewise.
    @inline(__always)  // a pivot changes a few dozen columns: the common case, a bit in place, without a call
    mutating func insertNew(_ symbol: Symbol) {
        let word = symbol >> 6
        if isBitset, symbol < Self.smallTableauSymbols, word < storage.count {
            let bit = 1 &<< (symbol & 63)
            if storage[word] & bit == 0 { storage[word] |= bit; count += 1 }
            return
        }
        insertNewInAnyForm(symbol)
    }

    private mutating func insertNewInAnyForm(_ symbol: Symbol) {
        if !isBitset {
            if count == 0, symbol < Self.smallTableauSymbols {
                isBitset = true  // empty array: zero words
            } else if count < Self.smallLimit {
                // Most columns hold a few rows: start with room for four rather than growing 1, 2, 4.
                if storage.capacity == 0 { storage.reserveCapacity(4) }
                storage.append(symbol)
                count += 1
                return
            } else {
                let symbols = storage
                storage = []
                isBitset = true
                count = 0
                for s in symbols { setBit(s) }
            }
        } else if symbol >= Self.smallTableauSymbols, count < Self.smallLimit,
                  storage.count <= Self.smallTableauSymbols / 64 {
            // A small tableau's bitset meets a large id: the tableau grew. Back to an array rather than a long
            // run of mostly empty words.
            var symbols: [Symbol] = []
            symbols.reserveCapacity(count + 4)
            forEach { symbols.append($0) }
            symbols.append(symbol)
            storage = symbols
            isBitset = false
            count += 1
            return
        }
        setBit(symbol)
    }

    @inline(__always)  // as `insertNew`: a small tableau's bitset never changes form on removal
    mutating func remove(_ symbol: Symbol) {
        if isBitset, storage.count <= Self.smallTableauSymbols / 64 {
            let word = symbol >> 6, bit = 1 &<< (symbol & 63)
            guard word < storage.count, storage[word] & bit != 0 else { return }
            storage[word] &= ~bit
            count -= 1
            return
        }
        removeInAnyForm(symbol)
    }

    private mutating func removeInAnyForm(_ symbol: Symbol) {
        if !isBitset {
            guard let i = storage.firstIndex(of: symbol) else { return }
            storage.swapAt(i, storage.count - 1)
            storage.removeLast()
            count -= 1
            return
        }
        let word = symbol >> 6, bit = 1 &<< (symbol & 63)
        guard word < storage.count, storage[word] & bit != 0 else { return }
        storage[word] &= ~bit
        count -= 1
        // Back to an array once few are left, unless the bitset is a small tableau's few words: iterating a
        // bitset visits every word, empty or not.
        if count <= Self.smallLimit / 2, storage.count > Self.smallTableauSymbols / 64 {
            var symbols: [Symbol] = []
            symbols.reserveCapacity(Self.smallLimit)
            forEach { symbols.append($0) }
            storage = symbols
            isBitset = false
        }
    }

    struct Iterator: IteratorProtocol {
        fileprivate let storage: [Int]
        fileprivate let isBitset: Bool
        fileprivate var index = 0
        /// The bits of word `index - 1` not visited yet (bitset form).
        fileprivate var bits = 0

        mutating func next() -> Symbol? {
            guard isBitset else {
                guard index < storage.count else { return nil }
                index += 1
                return storage[index - 1]
            }
            while bits == 0 {
                guard index < storage.count else { return nil }
                bits = storage[index]
                index += 1
            }
            let s = (index - 1) << 6 | bits.trailingZeroBitCount
            bits &= bits &- 1
            return s
        }
    }

    func makeIterator() -> Iterator { Iterator(storage: storage, isBitset: isBitset) }

    /// Calls `body` with each symbol (faster than the iterator in the hot loops).
    func forEach(_ body: (Symbol) throws -> Void) rethrows {
        guard isBitset else {
            for s in storage { try body(s) }
            return
        }
        for (w, word) in storage.enumerated() {
            var bits = word
            while bits != 0 {
                try body(w << 6 | bits.trailingZeroBitCount)
                bits &= bits &- 1
            }
        }
    }

    private mutating func setBit(_ symbol: Symbol) {
        let word = symbol >> 6, bit = 1 &<< (symbol & 63)
        if word >= storage.count {
            // A small tableau's ids grow a few words at a time: room for four words at first, not one.
            if storage.capacity == 0 { storage.reserveCapacity(Swift.max(word + 1, 4)) }
            storage.append(contentsOf: repeatElement(0, count: word + 1 - storage.count))
        }
        if storage[word] & bit == 0 {
            storage[word] |= bit
            count += 1
        }
    }
}
