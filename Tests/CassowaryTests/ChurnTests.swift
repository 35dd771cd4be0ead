@testable import Cassowary
import Foundation
import SolverWorkload
import Testing

/// The engine under long sequences of changes: the two reproducers of issue 11 (a hang and a wrong answer),
/// seeded random churn on every workload of Benchmarks/workloads checked against fresh solves, and the same on
/// small random systems checked against the scipy oracle. `make churn OPS=1000000` runs the long version.
@Suite struct ChurnTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let reproducers = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Reproducers")

    static func workload(_ name: String) throws -> Workload {
        try Workload(path: repository.appendingPathComponent("Benchmarks/workloads/\(name).txt").path)
    }

    /// Replays a reproducer with every check after every operation (fresh solve included).
    static func replay(_ name: String) throws -> Churn {
        let workload = try Workload(path: reproducers.appendingPathComponent("\(name).workload.txt").path)
        let trace = try LiveSystem.trace(String(contentsOfFile: reproducers.appendingPathComponent("\(name).trace").path, encoding: .utf8))
        var churn = Churn(try workload.build(), seed: 0, freshEvery: 1)
        for operation in trace {
            churn.apply(operation)
            if !churn.failures.isEmpty { break }
        }
        #expect(churn.operations == trace.count)
        return churn
    }

    /// Six operations on part of the enaml form after which `suggestValue` never returned: the dual simplex
    /// cycled among a few rows. It must end, with the answer a fresh solve gives.
    @Test func theHangReproducerEnds() throws {
        let churn = try Self.replay("hang")
        #expect(churn.failures.isEmpty, "\(churn.failures)")
    }

    /// Removes, re-adds and suggests after which a required constraint was off by 9 points and a level-750 error
    /// was 12.3 where a fresh solve gives 0.
    @Test func theWrongAnswerReproducerIsRight() throws {
        let churn = try Self.replay("wrong")
        #expect(churn.failures.isEmpty, "\(churn.failures)")
        #expect(churn.operations > 500)
    }

    /// A short seeded churn on each workload: required constraints hold after every operation, level errors
    /// match a fresh solve every `freshEvery` operations, refusals are real.
    // Sized for a debug build (about 50 times slower than release): `make churn` runs the long version.
    @Test(arguments: [("enaml-form", 600, 30), ("rows-30", 150, 50), ("rows-100", 30, 30), ("grid-20", 20, 20)])
    func churnMatchesFreshSolves(name: String, operations: Int, freshEvery: Int) throws {
        var churn = Churn(try Self.workload(name).build(), seed: 11, freshEvery: freshEvery)
        churn.run(operations)
        #expect(churn.failures.isEmpty, "\(name): \(churn.failures)")
        #expect(churn.operations == operations)
        #expect(churn.freshChecks >= operations / freshEvery)
    }

    /// Only constants change (no adds, no removes): this alone used to make the dual simplex cycle.
    @Test func constantChurnEnds() throws {
        var churn = Churn(try Self.workload("enaml-form").build(), seed: 5, freshEvery: 20)
        churn.mix = .constantsOnly
        churn.run(600)
        #expect(churn.failures.isEmpty, "\(churn.failures)")
    }

    /// What removed constraints leave behind is given back: after many removes and adds the tableau holds as
    /// many symbols as it did after the build (give or take the ones in use), and nothing of a removed constraint
    /// was left in a row.
    @Test func removedConstraintsGiveTheirSymbolsBack() throws {
        let system = try Self.workload("enaml-form").build()
        let built = system.solver.statistics.symbols
        var churn = Churn(system, seed: 3, freshEvery: 0)
        churn.mix = .init(suggest: 0.1, removeOrAdd: 0.9)
        churn.run(2000)
        #expect(churn.failures.isEmpty, "\(churn.failures)")
        let after = system.solver.statistics
        #expect(after.symbols <= built + 8, "symbols: \(built) after the build, \(after.symbols) after 2000 operations")
        #expect(after.largestResidue < 1e-6)
        #expect(system.solver.invariantViolations().isEmpty, "\(system.solver.invariantViolations())")
    }

    /// A refused required constraint takes nothing with it and leaves the solution as it was, without a copy of
    /// the tableau: phase one's pivots are undone by dropping the artificial row.
    @Test func aRefusedConstraintLeavesTheSolverAsItWas() throws {
        let system = try Self.workload("enaml-form").build()
        try system.apply(.suggest([640, 480]))
        let before = system.variables.map(\.value)
        let inUse = { system.solver.statistics.symbols - system.solver.statistics.freeSymbols }
        let symbols = inUse()
        let top = system.variablesByName["top"]!, contents = system.variablesByName["contents_top"]!
        // contents_top == top + 10 is required: this cannot hold, and goes through phase one to find out.
        let conflicting = Constraint(Expression(contents) - Expression(top) - 30, .greaterOrEqual)
        #expect(throws: SolverError.self) { try system.solver.add(conflicting) }
        system.solver.updateVariables()
        #expect(system.variables.map(\.value) == before)
        #expect(inUse() == symbols)
        #expect(system.solver.invariantViolations().isEmpty)
        // And it still works.
        try system.apply(.suggest([1200, 900]))
        #expect(system.worstRequiredViolation().violation < 1e-9)
        #expect(system.freshSolve().map { system.levelMismatches(against: $0) }?.isEmpty == true)
    }

    /// An operation that runs out of pivots fails with `workLimitExceeded` and leaves the solver as it was.
    @Test func runningOutOfPivotsFailsTheOperationAndKeepsTheSolver() throws {
        let solver = Solver()
        let x = Variable("x"), y = Variable("y")
        try solver.add(Expression(x) <= 100)
        try solver.add(Expression(y) == x + 10)
        try solver.addEditVariable(x, priority: .high, initial: 50)
        solver.updateVariables()
        #expect(x.value == 50 && y.value == 60)
        solver.pivotLimitOverride = 0
        // x = 200 breaks x <= 100: the dual simplex must pivot, and may not.
        #expect {
            try solver.suggestValue(x, 200)
        } throws: { error in
            guard case SolverError.workLimitExceeded = error else { return false }
            return "\(error)".contains("pivot budget")
        }
        solver.pivotLimitOverride = nil
        solver.updateVariables()
        #expect(x.value == 50 && y.value == 60)
        #expect(solver.invariantViolations().isEmpty)
        try solver.suggestValue(x, 200)
        solver.updateVariables()
        #expect(x.value == 100 && y.value == 110)
    }

    /// Bland's rule: the entering symbol is the lowest-numbered one whose cost is lexicographically negative.
    @Test(arguments: [false, true])
    func blandsRuleTakesTheLowestNegativeSymbol(dense: Bool) {
        var objective = Objective(dense: dense)
        objective.insert(7, -1, priority: 750)  // negative at the highest level
        objective.insert(3, 1, priority: 750)   // positive at the highest level: not a candidate
        objective.insert(3, -5, priority: 250)
        objective.insert(5, -1, priority: 250)  // free above, negative here
        let kinds = [SymbolKind](repeating: .error, count: 8)
        #expect(objective.lowestEnteringSymbol(kinds: kinds) == 5)
        #expect(objective.lowestEnteringSymbol(kinds: kinds, skipping: [5]) == 7)
        #expect(objective.enteringSymbol(kinds: kinds) == 7)
    }
}

/// Churn on small random systems, compared with the scipy oracle (Oracle/lexlp.py) at checkpoints.
@Suite struct OracleChurnTests {
    @Test func smallSystemsUnderChurnMatchTheOracle() async throws {
        var random = SeededRandom(seed: 20261123)
        var systems: [(variables: Int, items: [DifferentialTests.Item])] = []
        var ours: [[Int: Double]] = []
        for _ in 0..<30 {
            let (n, items) = DifferentialTests.randomSystem(&random)
            guard items.count >= 4 else { continue }
            let text = Self.workloadText(variables: n, items: items)
            let system = try Workload(text: text, name: "random").build()
            var churn = Churn(system, seed: random.next(), freshEvery: 0)
            churn.verifyRefusals = true
            churn.keepsTrace = true
            for _ in 0..<6 {
                churn.run(15)
                guard churn.failures.isEmpty else {
                    // Written out so that it can be replayed (swift run solver-churn cannot take traces; the test can).
                    let trace = churn.trace.map(\.description).joined(separator: "\n")
                    Issue.record("\(churn.failures)\nworkload:\n\(text)\ntrace:\n\(trace)")
                    return
                }
                // The system as it is now, for the oracle: present constraints at their current right-hand sides.
                var now: [DifferentialTests.Item] = []
                for (i, item) in items.enumerated() where system.present[i] {
                    now.append(.init(coefficients: item.coefficients, op: item.op, rhs: system.rhs[i], priority: item.priority))
                }
                systems.append((n, now))
                ours.append(system.levelErrors().mapValues(\.error))
            }
        }
        let expected = try await DifferentialTests.oracleLevels(systems)
        var compared = 0
        for (index, (levels, oracle)) in zip(ours, expected).enumerated() {
            for (level, best) in oracle {
                let mine = levels[Int(level)!] ?? 0
                #expect(abs(mine - best) <= 1e-6 * (1 + abs(best)), "checkpoint \(index) level \(level): ours \(mine), oracle \(best)")
                compared += 1
            }
        }
        #expect(compared > 100)
    }

    static func workloadText(variables n: Int, items: [DifferentialTests.Item]) -> String {
        var lines = ["var " + (0..<n).map { "x\($0)" }.joined(separator: " ")]
        for item in items {
            let terms = item.coefficients.enumerated().filter { $0.element != 0 }.map { "\($0.element)*x\($0.offset)" }
            lines.append("c \(terms.joined(separator: " ")) \(item.op) \(item.rhs) @\(item.priority)")
        }
        return lines.joined(separator: "\n")
    }
}
