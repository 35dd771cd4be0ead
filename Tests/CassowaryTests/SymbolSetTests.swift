@testable import Cassowary
import SolverWorkload
import Testing

/// The tableau's column index against Swift's `Set`: through the array form, the bitset, and back
/// again.
@Suite struct SymbolSetTests {
    @Test(arguments: [200, 5_000])
    func randomInsertsAndRemovesMatchASet(range: Int) {
        var random = SeededRandom(seed: UInt64(range))
        var ours = SymbolSet()
        var reference = Set<Int>()
        for step in 0..<40_000 {
            // Phases that grow the set past the table limit and shrink it back below the array limit.
            let growing = (step / 4_000) % 2 == 0
            let symbol = random.below(range)
            if random.unit() < (growing ? 0.7 : 0.25) {
                ours.insert(symbol)
                reference.insert(symbol)
            } else {
                ours.remove(symbol)
                reference.remove(symbol)
            }
            #expect(ours.contains(symbol) == reference.contains(symbol))
            if step % 997 == 0 {
                #expect(ours.count == reference.count)
                #expect(Set(ours) == reference, "after \(step) changes")
                var visited: [Symbol] = []
                ours.forEach { visited.append($0) }
                #expect(visited.count == reference.count && Set(visited) == reference)
                for probe in 0..<range where ours.contains(probe) != reference.contains(probe) {
                    Issue.record("contains(\(probe)) is \(ours.contains(probe)) after \(step) changes")
                    return
                }
            }
        }
    }

    /// A small tableau's set (a bitset of a few words) that meets an id past `smallTableauSymbols` keeps every
    /// symbol through the change of form, and through removals back to empty.
    @Test func aSmallTableausSetMeetsALargeId() {
        var set = SymbolSet()
        let small = [3, 70, 5, 130, 64]
        for s in small { set.insertNew(s) }
        #expect(Array(set) == small.sorted(), "a small tableau's set is a bitset: increasing order")
        let large = SymbolSet.smallTableauSymbols + 17
        set.insertNew(large)
        #expect(Set(set) == Set(small + [large]) && set.count == 6)
        #expect(set.contains(large) && set.contains(130) && !set.contains(131))
        set.remove(70)
        set.remove(large)
        #expect(Set(set) == [3, 5, 130, 64] && set.count == 4)
        for s in [3, 5, 130, 64] { set.remove(s) }
        #expect(set.isEmpty && Array(set).isEmpty)
        set.insertNew(9)
        #expect(Array(set) == [9])
    }

    /// The bitset form with sparse, large ids (words far apart), iterated in increasing order, and back to the
    /// array form once few are left.
    @Test func sparseLargeSymbolsThroughTheBitsetAndBack() {
        var set = SymbolSet()
        let symbols = (0..<3_000).map { $0 * 67 + 5 }
        for s in symbols.reversed() { set.insert(s) }
        #expect(Array(set) == symbols, "a bitset iterates in increasing order")
        for s in symbols where s % 3 == 0 { set.remove(s) }
        for s in symbols { #expect(set.contains(s) == (s % 3 != 0), "symbol \(s)") }
        #expect(set.count == symbols.filter { $0 % 3 != 0 }.count)
        let kept = symbols.filter { $0 % 3 != 0 }
        for s in kept.dropFirst(10) { set.remove(s) }
        #expect(Set(set) == Set(kept.prefix(10)) && set.count == 10)
        set.insert(kept[0])  // present already: no change
        #expect(set.count == 10)
    }
}
