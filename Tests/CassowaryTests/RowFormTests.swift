@testable import Cassowary
import SolverWorkload
import Testing

/// A row's two forms (`Row`: sorted cells, or a coefficient per symbol) must be one row: the same cells in the
/// same order, the same arithmetic, the same changes reported to the column index. Then a tableau in either form
/// makes the same pivots and reaches the same values, bit for bit, which is what the solver-level test checks
/// on the benchmark's workloads under churn.
@Suite struct RowFormTests {
    /// Random operations on a sparse row and a dense row side by side, compared after every step.
    @Test(arguments: [1, 2, 3])
    func bothFormsHoldTheSameCells(seed: UInt64) {
        var random = SeededRandom(seed: seed)
        func randomRow(dense: Bool) -> Row {
            var row = dense ? Row(constant: random.unit(), denseWidth: 8) : Row(constant: random.unit())
            for _ in 0..<random.below(12) { row.insert(random.below(150), random.unit() * 4 - 2) }
            return row
        }
        var sparse = Row(constant: 1)
        var dense = Row(constant: 1, denseWidth: 0)
        for step in 0..<4_000 {
            var sparseChanges: [Symbol: Bool] = [:], denseChanges: [Symbol: Bool] = [:]
            switch random.below(7) {
            case 0:
                let (s, c) = (random.below(200), random.chance(0.2) ? -sparse.coefficient(for: 3) : random.unit() - 0.5)
                sparse.insert(s, c)
                dense.insert(s, c)
            case 1:
                let s = random.below(200)
                sparse.remove(s)
                dense.remove(s)
            case 2, 3:
                // An addend in either form, and sometimes one that cancels a cell, exactly or but for rounding
                // noise (below the 1e-8 at which a cell counts as zero).
                var other = randomRow(dense: random.chance(0.5))
                if let cell = sparse.cells.first(where: { _ in random.chance(0.3) }) {
                    let noise = random.chance(0.5) ? 0 : 1e-10
                    other.remove(cell.symbol)
                    other.insert(cell.symbol, -cell.coefficient + noise)
                }
                sparse.add(other, times: 1) { sparseChanges[$0] = $1 }
                dense.add(other, times: 1) { denseChanges[$0] = $1 }
            case 4:
                guard let cell = sparse.cells.first(where: { _ in random.chance(0.4) }) else { continue }
                var definition = randomRow(dense: random.chance(0.5))
                definition.remove(cell.symbol)
                sparse.substitute(cell.symbol, with: definition) { sparseChanges[$0] = $1 }
                dense.substitute(cell.symbol, with: definition) { denseChanges[$0] = $1 }
            case 5:
                guard let cell = sparse.cells.first(where: { _ in random.chance(0.4) }) else { continue }
                let basic = 200 + random.below(20)
                sparse.solve(for: cell.symbol, replacing: basic)
                dense.solve(for: cell.symbol, replacing: basic)
            default:
                sparse.negate()
                dense.negate()
            }
            #expect(sparseChanges == denseChanges, "step \(step): changes reported")
            #expect(same(sparse, dense), "step \(step): \(describe(sparse)) against \(describe(dense))")
            if !same(sparse, dense) { return }
            if sparse.count > 60 { sparse = Row(constant: 1); dense = Row(constant: 1, denseWidth: 0) }
        }
        #expect(dense.isDense && !sparse.isDense)
    }

    /// Adding a row of one cell, and substituting one (the sparse form inserts that cell in place, as it does a few
    /// cells into a long row), leaves the cells, the constant and the changes reported that the dense form
    /// leaves: for every cell of rows of one to five cells, by every symbol before, between, on and after them, with
    /// a coefficient that adds to a cell, cancels it exactly, cancels it but for rounding noise, or times the
    /// replaced cell's is itself noise (s5's -0.5 times 1.5e-8).
    @Test func aRowOfOneCellGoesInAsInTheDenseForm() {
        let symbols = [2, 5, 9, 14, 20]
        var cases = 0
        for length in 1...symbols.count {
            var row = Row(constant: 3, capacity: 0)
            for (k, s) in symbols.prefix(length).enumerated() { row.insert(s, Double(k + 1) * (k % 2 == 0 ? 1.5 : -0.25)) }
            for replaced in symbols.prefix(length) {
                let a = row.coefficient(for: replaced)
                for their in 0...22 where their != replaced {
                    let present = row.coefficient(for: their)
                    for coefficient in [0.75, -present / a, -present / a + 1e-10, 1.5e-8] where coefficient != 0 {
                        var definition = Row(constant: -2, capacity: 1)
                        definition.insert(their, coefficient)
                        guard definition.count == 1 else { continue }
                        var dense = row
                        dense.makeDense(width: 32)
                        var sparse = row, sparseChanges: [(Symbol, Bool)] = [], denseChanges: [(Symbol, Bool)] = []
                        sparse.substitute(replaced, with: definition) { sparseChanges.append(($0, $1)) }
                        dense.substitute(replaced, with: definition) { denseChanges.append(($0, $1)) }
                        cases += 1
                        let what = "\(describe(row)): s\(replaced) by \(describe(definition))"
                        #expect(same(sparse, dense), "\(what)")
                        #expect(sparseChanges.map(\.0) == denseChanges.map(\.0) && sparseChanges.map(\.1) == denseChanges.map(\.1),
                                "\(what): changes reported")
                        sparseChanges = []; denseChanges = []
                        sparse.add(definition, times: -a) { sparseChanges.append(($0, $1)) }
                        dense.add(definition, times: -a) { denseChanges.append(($0, $1)) }
                        #expect(same(sparse, dense), "\(what), then the row added")
                        #expect(sparseChanges.map(\.0) == denseChanges.map(\.0) && sparseChanges.map(\.1) == denseChanges.map(\.1),
                                "\(what), then the row added: changes reported")
                    }
                }
            }
        }
        #expect(cases > 400)
    }

    /// Changing form keeps the cells; a dense row grows as higher symbols join.
    @Test func aRowChangesFormWithoutChangingItsCells() {
        var row = Row(constant: 2)
        for s in [5, 70, 3, 400] { row.insert(s, Double(s) / 10) }
        var dense = row
        dense.makeDense(width: 10)
        #expect(dense.isDense && same(row, dense))
        dense.insert(1_000, 1)
        #expect(dense.coefficient(for: 1_000) == 1 && dense.count == 5)
        dense.makeSparse()
        row.insert(1_000, 1)
        #expect(!dense.isDense && same(row, dense))
    }

    /// The benchmark's workloads under seeded churn in three solvers, one per row form, in lockstep: after every
    /// operation every variable has the same value (compared exactly), and at the end the same pivots and cells.
    /// rows-30 (1,409 symbols) outgrows the dense limit while it is built: the dense-from-the-start solver turns
    /// sparse on the way, the automatic one never turns dense.
    @Test(arguments: [("enaml-form", 1_500), ("rows-30", 200)])
    func everyRowFormGivesTheSameSolution(name: String, operations: Int) throws {
        let workload = try ChurnTests.workload(name)
        let forms: [Solver.RowForm] = [.sparse, .automatic, .dense]
        var churns = try forms.map { form in
            var churn = Churn(try workload.build(into: Solver(rowForm: form)), seed: 7, freshEvery: 0)
            churn.verifyRefusals = false
            return churn
        }
        for operation in 0..<operations {
            for i in churns.indices { churns[i].step() }
            let values = churns.map { $0.system.variables.map(\.value) }
            for (form, other) in zip(forms.dropFirst(), values.dropFirst()) where other != values[0] {
                Issue.record("\(name), operation \(operation): \(form) rows give other values than sparse rows")
                return
            }
        }
        for churn in churns { #expect(churn.failures.isEmpty, "\(churn.failures.first.map(String.init(describing:)) ?? "")") }
        let statistics = churns.map { $0.system.solver.statistics }
        #expect(statistics.map(\.pivots) == Array(repeating: statistics[0].pivots, count: 3))
        #expect(statistics.map(\.cells) == Array(repeating: statistics[0].cells, count: 3))
        #expect(churns.map { $0.system.solver.tableau.isDense } == (name == "enaml-form" ? [false, true, true] : [false, false, false]))
    }

    private func same(_ a: Row, _ b: Row) -> Bool {
        a.constant == b.constant && a.count == b.count
            && zip(a.cells, b.cells).allSatisfy { $0.symbol == $1.symbol && $0.coefficient == $1.coefficient }
    }

    private func describe(_ row: Row) -> String {
        "\(row.constant)" + row.cells.map { " + \($0.coefficient)·s\($0.symbol)" }.joined()
    }
}
