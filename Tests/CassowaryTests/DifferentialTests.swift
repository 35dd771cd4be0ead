@testable import Cassowary
import Foundation
import TestSupport
import Testing

/// Random small systems solved by the engine and by an independent oracle (Oracle/lexlp.py: one linear
/// program per priority level with scipy's linprog). Compared: the least total error of each priority level
/// (variable values are not unique when there are ties), and every required constraint holding.
@Suite struct DifferentialTests {
    struct Item: Codable {
        var coefficients: [Double]
        var op: String
        var rhs: Double
        var priority: Int
    }

    /// A deterministic generator, so that a failure can be reproduced from its seed.
    typealias Generator = SeededRandom

    /// Up to 8 variables and 20 constraints over 1-4 priority levels; required constraints hold at a random
    /// point, so the required part is always feasible.
    static func randomSystem(_ random: inout Generator) -> (variables: Int, items: [Item]) {
        let n = Int.random(in: 1...8, using: &random)
        let point = (0..<n).map { _ in Double(Int.random(in: -20...20, using: &random)) }
        let levelCount = Int.random(in: 1...4, using: &random)
        var levels = Set<Int>()
        while levels.count < levelCount { levels.insert([1000, 999, 750, 500, 251, 250, 1].randomElement(using: &random)!) }
        let priorities = levels.sorted()  // sorted: Set order changes from run to run
        var items: [Item] = []
        for _ in 0..<Int.random(in: 1...20, using: &random) {
            var coefficients = [Double](repeating: 0, count: n)
            for _ in 0..<Int.random(in: 1...min(3, n), using: &random) {
                coefficients[Int.random(in: 0..<n, using: &random)] = Double([-3, -2, -1, 1, 2, 3].randomElement(using: &random)!)
            }
            let priority = priorities.randomElement(using: &random)!
            // Half of the optional constraints pull an earlier left-hand side elsewhere (often at another
            // priority), so that the levels really compete.
            if priority < 1000, !items.isEmpty, Bool.random(using: &random) {
                coefficients = items.randomElement(using: &random)!.coefficients
            }
            let op = ["==", "<=", ">="].randomElement(using: &random)!
            let atPoint = zip(coefficients, point).reduce(0) { $0 + $1.0 * $1.1 }
            let slack = Double(Int.random(in: 0...5, using: &random))
            let rhs = priority < 1000 ? Double(Int.random(in: -50...50, using: &random))
                : op == "==" ? atPoint : op == "<=" ? atPoint + slack : atPoint - slack
            items.append(Item(coefficients: coefficients, op: op, rhs: rhs, priority: priority))
        }
        return (n, items)
    }

    static var oracle: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Oracle/lexlp.py").path
    }

    /// Runs the oracle on all systems at once.
    static func oracleLevels(_ systems: [(variables: Int, items: [Item])]) async throws -> [[String: Double]] {
        let input = try JSONSerialization.data(withJSONObject: systems.map { system -> [String: Any] in
            ["variables": system.variables,
             "constraints": system.items.map { [$0.coefficients, $0.op, $0.rhs, $0.priority] as [Any] }]
        })
        let directory = FileManager.default.temporaryDirectory
        let inputURL = directory.appendingPathComponent("lexlp-\(UUID()).json")
        let outputURL = directory.appendingPathComponent("lexlp-\(UUID()).out")
        try input.write(to: inputURL)
        defer {
            try? FileManager.default.removeItem(at: inputURL)
            try? FileManager.default.removeItem(at: outputURL)
        }
        // Debian's Python with Debian's python3-scipy (make test installs it), whatever `python3` is on PATH.
        // A child process awaited, not system(): a blocking wait would hold one of the pool's two threads.
        let status = try await ChildProcess.run(
            "/bin/sh", ["-c", "exec /usr/bin/python3 \"$0\" < \"$1\" > \"$2\"", oracle, inputURL.path, outputURL.path]).status
        guard status == 0, let data = FileManager.default.contents(atPath: outputURL.path),
              let results = try JSONSerialization.jsonObject(with: data) as? [[String: Any]]
        else {
            throw OracleError("the oracle (/usr/bin/python3 with scipy) failed with status \(status); make test installs python3-scipy")
        }
        return try results.map { result in
            guard let levels = result["levels"] as? [String: Double] else {
                throw OracleError("the oracle could not solve a system: \(result["error"] ?? "?")")
            }
            return levels
        }
    }

    struct OracleError: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    @Test func randomSystemsMatchTheOracle() async throws {
        var random = Generator(seed: 20261121)
        let systems = (0..<400).map { _ in Self.randomSystem(&random) }
        let expected = try await Self.oracleLevels(systems)
        var compared = 0
        for (index, (system, oracle)) in zip(systems, expected).enumerated() {
            let solver = Solver()
            let variables = (0..<system.variables).map { Variable("x\($0)") }
            for item in system.items {
                let terms = zip(variables, item.coefficients).filter { $0.1 != 0 }.map { Term($0.0, $0.1) }
                let relation: Constraint.Relation = item.op == "==" ? .equal : item.op == "<=" ? .lessOrEqual : .greaterOrEqual
                try solver.add(Constraint(Expression(terms, constant: -item.rhs), relation, priority: Priority(item.priority)))
            }
            solver.updateVariables()
            for (level, best) in oracle {
                let ours = solver.error(at: Priority(Int(level)!))
                #expect(abs(ours - best) <= 1e-6 * (1 + abs(best)),
                        "system \(index) level \(level): ours \(ours), oracle \(best)\n\(system.items)")
                compared += 1
            }
            for item in system.items where item.priority == 1000 {
                let value = zip(variables, item.coefficients).reduce(0) { $0 + $1.0.value * $1.1 }
                let scale = max(1, abs(item.rhs), zip(variables, item.coefficients).reduce(0) { $0 + abs($1.0.value * $1.1) })
                let violation = item.op == "==" ? abs(value - item.rhs)
                    : item.op == "<=" ? max(0, value - item.rhs) : max(0, item.rhs - value)
                #expect(violation <= 1e-9 * scale, "system \(index): required \(item) is off by \(violation)")
            }
        }
        #expect(compared > 400)
    }
}
