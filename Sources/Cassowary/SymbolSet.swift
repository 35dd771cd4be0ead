/// A column of the tableau's index: the basic symbols whose rows hold one symbol. Insert, remove and contains
/// are O(1) at any size, because a column can hold most of the tableau (the width of a grid's container is in
/// every cell's row) and a sorted array made each change cost a move of the whole column.
///
/// Up to `smallLimit` symbols (most columns) the set is a sorted array: a change moves at most a few KiB, and
/// iteration visits rows in id order, which is kind to the cache. Past it, an open-addressing hash table. Either
/// way the iteration order depends only on the sequence of changes, never on a random seed (Swift's `Set` is
/// seeded per process), so the solver's pivot choices are the same on every run.
struct SymbolSet: Sequence {
    private var storage: [Symbol] = []
    private var isTable = false
    private(set) var count = 0
    /// Table slots not empty: symbols and the marks of removed ones (which probes step over).
    private var occupied = 0

    static let smallLimit = 64
    private static let empty = -1
    private static let removed = -2

    var isEmpty: Bool { count == 0 }

    func contains(_ symbol: Symbol) -> Bool {
        if !isTable {
            let i = insertionPoint(symbol)
            return i < storage.count && storage[i] == symbol
        }
        var i = slot(for: symbol)
        while true {
            let s = storage[i]
            if s == symbol { return true }
            if s == Self.empty { return false }
            i = (i + 1) & (storage.count - 1)
        }
    }

    /// Inserts `symbol` (no-op if present).
    mutating func insert(_ symbol: Symbol) {
        if !isTable {
            let i = insertionPoint(symbol)
            if i < storage.count, storage[i] == symbol { return }
            if count < Self.smallLimit {
                storage.insert(symbol, at: i)
                count += 1
                return
            }
            rehash(capacity: Self.tableCapacity(for: count + 1))
        } else if (occupied + 1) * 2 > storage.count {
            // Full of removal marks, or of symbols: rebuild, larger only if the symbols need it.
            rehash(capacity: (count + 1) * 4 > storage.count ? storage.count * 2 : storage.count)
        }
        var i = slot(for: symbol)
        var firstRemoved: Int?
        while true {
            let s = storage[i]
            if s == symbol { return }
            if s == Self.removed, firstRemoved == nil { firstRemoved = i }
            if s == Self.empty { break }
            i = (i + 1) & (storage.count - 1)
        }
        if firstRemoved == nil { occupied += 1 }
        storage[firstRemoved ?? i] = symbol
        count += 1
    }

    mutating func remove(_ symbol: Symbol) {
        if !isTable {
            let i = insertionPoint(symbol)
            guard i < storage.count, storage[i] == symbol else { return }
            storage.remove(at: i)
            count -= 1
            return
        }
        var i = slot(for: symbol)
        while true {
            let s = storage[i]
            if s == symbol {
                storage[i] = Self.removed
                count -= 1
                return
            }
            if s == Self.empty { return }
            i = (i + 1) & (storage.count - 1)
        }
    }

    struct Iterator: IteratorProtocol {
        fileprivate let storage: [Symbol]
        fileprivate var index = 0

        mutating func next() -> Symbol? {
            while index < storage.count {
                let s = storage[index]
                index += 1
                if s >= 0 { return s }
            }
            return nil
        }
    }

    func makeIterator() -> Iterator { Iterator(storage: storage) }

    /// Calls `body` with each symbol (faster than the iterator in the hot loops).
    func forEach(_ body: (Symbol) throws -> Void) rethrows {
        for s in storage where s >= 0 { try body(s) }
    }

    /// A power of two at least four times `count`: probes stay short.
    private static func tableCapacity(for count: Int) -> Int {
        var capacity = 64
        while capacity < count * 4 { capacity *= 2 }
        return capacity
    }

    /// Where `symbol` is or would go in the sorted array.
    private func insertionPoint(_ symbol: Symbol) -> Int {
        var low = 0, high = storage.count
        while low < high {
            let mid = (low + high) / 2
            if storage[mid] < symbol { low = mid + 1 } else { high = mid }
        }
        return low
    }

    private func slot(for symbol: Symbol) -> Int {
        // Fibonacci hashing: symbols are dense small integers, which this spreads over the table.
        Int(truncatingIfNeeded: (UInt64(bitPattern: Int64(symbol)) &* 0x9E37_79B9_7F4A_7C15) >> 20) & (storage.count - 1)
    }

    private mutating func rehash(capacity: Int) {
        let old = storage.filter { $0 >= 0 }
        storage = [Symbol](repeating: Self.empty, count: capacity)
        isTable = true
        count = 0
        occupied = old.count
        for s in old {
            var i = slot(for: s)
            while storage[i] != Self.empty { i = (i + 1) & (storage.count - 1) }
            storage[i] = s
            count += 1
        }
    }
}
