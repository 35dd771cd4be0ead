@testable import Cassowary
import SolverWorkload
import Testing

/// `Solver.add(contentsOf:)`: a batch goes in whole or not at all, in the order of its variables' making, so
/// that a build does the same work whatever order the caller lists the constraints in.
@Suite struct BatchTests {
    /// The solver's order: by the first-made variable of each constraint, then the last-made; between
    /// constraints on the same two, equalities first, then `<=`; a constraint of no variables before all. Both the counting passes (variables made together) and
    /// the comparison sort (a variable made 5,000 variables later) give it.
    @Test(arguments: [false, true])
    func aBatchGoesInByItsVariablesOrder(farApart: Bool) throws {
        let (a, b, c) = (Variable("a"), Variable("b"), Variable("c"))
        if farApart { for _ in 0..<5_000 { _ = Variable("made in between") } }
        let d = Variable("d")
        let completesD = Constraint(d - a, .equal, Expression(constant: 1))  // (a, d)
        let bSecond = b >= 0                     // (b, b)
        let bFirst = b <= 100                    // (b, b): <= before >=
        let cFromB = Constraint(c - b, .equal, Expression(constant: 0))  // (b, c)
        let aOnly = a == 0                       // (a, a)
        let dOnly = d <= 50                      // (d, d)
        let noVariables = Constraint(Expression(constant: 1), .greaterOrEqual, Expression(constant: 0))
        let given = [dOnly, bSecond, completesD, cFromB, noVariables, aOnly, bFirst]
        let expected = [noVariables, aOnly, completesD, bFirst, bSecond, cFromB, dOnly]
        let order = Solver.insertionOrder(of: given)
        #expect(order.map(\.description) == expected.map(\.description))
        #expect(zip(order, expected).allSatisfy { $0 === $1 })

        let solver = Solver()
        try solver.add(contentsOf: given)
        solver.updateVariables()
        #expect(given.allSatisfy(solver.contains))
        #expect((a.value, b.value, c.value, d.value) == (0, c.value, b.value, 1))
    }

    /// A required constraint that conflicts leaves the solver as it was: none of the batch in, the constraints
    /// already there still holding, and the error the one `add(_:)` throws. Without it, the batch goes in.
    @Test func aConflictTakesTheWholeBatchBackOut() throws {
        let solver = Solver()
        let (x, y, z) = (Variable("x"), Variable("y"), Variable("z"))
        let xIs10 = x == 10
        try solver.add(xIs10)
        let yFromX = Constraint(y - x, .equal, Expression(constant: 1))
        let zFromY = Constraint(z - y, .equal, Expression(constant: 1))
        let yAtMost5 = y <= 5
        let preferZ = z == 0 ~ 250
        #expect {
            try solver.add(contentsOf: [yFromX, zFromY, preferZ, yAtMost5])
        } throws: { error in
            guard case SolverError.unsatisfiable(_, let conflict)? = error as? SolverError else { return false }
            return conflict.contains { $0 === xIs10 } && conflict.contains { $0 === yAtMost5 }
        }
        #expect([yFromX, zFromY, preferZ, yAtMost5].allSatisfy { !solver.contains($0) })
        #expect(solver.contains(xIs10))
        #expect(solver.invariantViolations().isEmpty)
        solver.updateVariables()
        #expect(x.value == 10)

        try solver.add(contentsOf: [yFromX, zFromY, preferZ])
        solver.updateVariables()
        #expect((x.value, y.value, z.value) == (10, 11, 12))
    }

    /// A constraint twice in a batch, or one already in the solver, is refused as `add(_:)` refuses it, and the
    /// rest of the batch does not stay in.
    @Test func aDuplicateRefusesTheBatch() throws {
        let solver = Solver()
        let (x, y) = (Variable("x"), Variable("y"))
        let xIs1 = x == 1, yIs2 = y == 2
        #expect(throws: SolverError.self) { try solver.add(contentsOf: [xIs1, yIs2, xIs1]) }
        #expect(!solver.contains(xIs1) && !solver.contains(yIs2))
        try solver.add(xIs1)
        #expect(throws: SolverError.self) { try solver.add(contentsOf: [yIs2, xIs1]) }
        #expect(!solver.contains(yIs2) && solver.contains(xIs1))
    }

    /// The order's cost, counted: in a batch, every order of a workload rewrites the same number of rows as the
    /// file's (ties aside, the solver sees one order); one by one, a shuffled grid rewrites many more (each
    /// `w >= 10` made `w` basic before `w == c0_0_width` came, and every row holding `c0_0_width` was rewritten).
    @Test(arguments: ["enaml-form", "rows-30", "grid-20"])
    func aBatchRewritesAsManyRowsInEveryOrder(name: String) throws {
        let base = try ChurnTests.workload(name)
        let asWritten = try base.build().solver.statistics
        for order in ConstraintOrder.variants(seeds: 3).dropFirst() {
            let statistics = try base.reordered(order).build().solver.statistics
            #expect(statistics.rewrittenRows == asWritten.rewrittenRows, "\(name) \(order)")
            #expect(statistics.pivots == asWritten.pivots, "\(name) \(order)")
        }
        if name == "grid-20" {
            let oneByOne = try base.reordered(.shuffled(seed: 1)).build(oneByOne: true).solver.statistics
            #expect(oneByOne.rewrittenRows > 2 * asWritten.rewrittenRows, "\(oneByOne.rewrittenRows) against \(asWritten.rewrittenRows)")
        }
    }
}
