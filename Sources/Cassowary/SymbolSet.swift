/// A column of the tableau's index: the basic symbols whose rows hold one symbol. Insert, remove and contains
/// are O(1) at any size, because a column can hold most of the tableau (the width of a grid's container is in
/// every cell's row) and a sorted array made each change cost a move of the whole column.
///
/// Up to `smallLimit` symbols (most columns: a few rows each) the set is a plain array in insertion order, with
/// removal by swapping in the last element: an insert is an append, and a scan of a few symbols finds one to
/// remove. Past it, an open-addressing hash table with linear probing. Either way the iteration order depends
/// only on the sequence of changes, never on a random seed (Swift's `Set` is seeded per process), so the
/// solver's pivot choices are the same on every run.
///
/// Removal from the table shifts the rest of a probe run back instead of leaving a tombstone (Knuth's algorithm
/// R), so a table is never rebuilt at the same size to clear tombstones: a grid's dual pivots empty and refill
/// long columns all the time, and those rebuilds (fresh pages, zeroed by the kernel) were a third of a 50 x 50
/// suggest step.
struct SymbolSet: Sequence {
    private var storage: [Symbol] = []
    private var isTable = false
    private(set) var count = 0

    static let smallLimit = 64
    private static let empty = -1

    var isEmpty: Bool { count == 0 }

    func contains(_ symbol: Symbol) -> Bool {
        if !isTable { return storage.contains(symbol) }
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
            if storage.contains(symbol) { return }
            if count < Self.smallLimit {
                // Most columns hold a few rows: start with room for four rather than growing 1, 2, 4.
                if storage.capacity == 0 { storage.reserveCapacity(4) }
                storage.append(symbol)
                count += 1
                return
            }
            rehash(capacity: Self.tableCapacity(for: count + 1))
        } else if (count + 1) * 2 > storage.count {
            rehash(capacity: storage.count * 2)
        }
        let mask = storage.count - 1
        var i = slot(for: symbol)
        while true {
            let s = storage[i]
            if s == symbol { return }
            if s == Self.empty { break }
            i = (i + 1) & mask
        }
        storage[i] = symbol
        count += 1
    }

    mutating func remove(_ symbol: Symbol) {
        if !isTable {
            guard let i = storage.firstIndex(of: symbol) else { return }
            storage.swapAt(i, storage.count - 1)
            storage.removeLast()
            count -= 1
            return
        }
        let mask = storage.count - 1
        var hole = slot(for: symbol)
        while storage[hole] != symbol {
            if storage[hole] == Self.empty { return }
            hole = (hole + 1) & mask
        }
        // Close the hole: a later symbol of the same run moves into it unless its home slot lies cyclically
        // after the hole (then a probe from its home never passes the hole, and it must stay).
        var j = hole
        while true {
            j = (j + 1) & mask
            let s = storage[j]
            if s == Self.empty { break }
            let home = slot(for: s)
            let stays = hole <= j ? (hole < home && home <= j) : (hole < home || home <= j)
            if !stays {
                storage[hole] = s
                hole = j
            }
        }
        storage[hole] = Self.empty
        count -= 1
        // Back to an array once few are left: iterating a table visits every slot, empty or not.
        if count <= Self.smallLimit / 2 {
            storage = storage.filter { $0 >= 0 }
            isTable = false
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

    private func slot(for symbol: Symbol) -> Int {
        // Fibonacci hashing: symbols are dense small integers, which this spreads over the table.
        Int(truncatingIfNeeded: (UInt64(bitPattern: Int64(symbol)) &* 0x9E37_79B9_7F4A_7C15) >> 20) & (storage.count - 1)
    }

    private mutating func rehash(capacity: Int) {
        let old = storage.filter { $0 >= 0 }
        storage = [Symbol](repeating: Self.empty, count: capacity)
        isTable = true
        count = 0
        for s in old {
            var i = slot(for: s)
            while storage[i] != Self.empty { i = (i + 1) & (storage.count - 1) }
            storage[i] = s
            count += 1
        }
    }
}
