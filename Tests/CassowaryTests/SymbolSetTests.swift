@testable import Cassowary
import SolverWorkload
import Testing

/// The tableau's column index against Swift's `Set`: through the array form, the hash table (whose
/// removals shift probe runs back instead of leaving tombstones), and back again.
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

    /// Symbols whose home slots collide (multiples of a power of two land close together under Fibonacci
    /// hashing only by chance, so use many and remove from the middle of runs).
    @Test func removingFromTheMiddleOfProbeRunsKeepsTheRestFindable() {
        var set = SymbolSet()
        let symbols = Array(0..<3_000).map { $0 * 64 }
        for s in symbols { set.insert(s) }
        for s in symbols where s % 3 == 0 { set.remove(s) }
        for s in symbols { #expect(set.contains(s) == (s % 3 != 0), "symbol \(s)") }
        #expect(set.count == symbols.filter { $0 % 3 != 0 }.count)
    }
}
