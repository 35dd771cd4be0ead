import Cassowary
import Foundation

/// A solver workload: a system of linear constraints, its edit variables and suggest steps, in the text format
/// of `Benchmarks/workloads/README.md`. Every engine the benchmark runs (ours, kiwi's C++ core, kiwisolver)
/// reads the same files, so all of them solve exactly the same system.
public struct Workload {
    public struct Item {
        public var terms: [(coefficient: Double, variable: String)]
        public var relation: Constraint.Relation
        public var rhs: Double
        public var priority: Int
    }

    public let name: String
    public var variables: [String] = []
    public var edits: [(variable: String, priority: Int)] = []
    public var constraints: [Item] = []
    public var steps: [[(variable: String, value: Double)]] = []

    public init(path: String) throws {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        try self.init(text: text, name: path)
    }

    public init(text: String, name: String) throws {
        self.name = name
        for (number, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            func fail(_ what: String) -> WorkloadError { WorkloadError("\(name):\(number + 1): \(what)") }
            let line = raw.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init)?
                .trimmingCharacters(in: .whitespaces) ?? ""
            guard !line.isEmpty else { continue }
            let words = line.split(separator: " ").map(String.init)
            switch words[0] {
            case "var": variables += words.dropFirst()
            case "edit":
                guard words.count == 3, let priority = Int(words[2]) else { throw fail("expected `edit NAME PRIORITY`") }
                edits.append((words[1], priority))
            case "c":
                guard let at = line.lastIndex(of: "@"), let priority = Int(line[line.index(after: at)...]) else {
                    throw fail("expected @PRIORITY at the end of the constraint")
                }
                let tokens = line[line.index(line.startIndex, offsetBy: 2)..<at].split(separator: " ").map(String.init)
                guard tokens.count >= 3, let rhs = Double(tokens[tokens.count - 1]) else { throw fail("expected `TERMS OP RHS`") }
                let relation: Constraint.Relation
                switch tokens[tokens.count - 2] {
                case "==": relation = .equal
                case "<=": relation = .lessOrEqual
                case ">=": relation = .greaterOrEqual
                default: throw fail("expected ==, <= or >= before the right-hand side")
                }
                let terms = try tokens.dropLast(2).map { token -> (Double, String) in
                    let parts = token.split(separator: "*")
                    guard parts.count == 2, let coefficient = Double(parts[0]) else { throw fail("expected COEFFICIENT*NAME, got \(token)") }
                    return (coefficient, String(parts[1]))
                }
                constraints.append(Item(terms: terms, relation: relation, rhs: rhs, priority: priority))
            case "suggest":
                guard words.count % 2 == 1 else { throw fail("expected `suggest NAME VALUE ...`") }
                steps.append(try stride(from: 1, to: words.count, by: 2).map {
                    guard let value = Double(words[$0 + 1]) else { throw fail("expected a number, got \(words[$0 + 1])") }
                    return (words[$0], value)
                })
            default:
                throw fail("unknown line kind '\(words[0])'")
            }
        }
        let known = Set(variables)
        for name in constraints.flatMap({ $0.terms.map(\.variable) }) + edits.map(\.variable) where !known.contains(name) {
            throw WorkloadError("\(self.name): \(name) is used but not declared with `var`")
        }
    }

    /// A fresh solver (or `solver`, empty): edit variables (starting at 0), then every constraint, as one batch
    /// (`Solver.add(contentsOf:)`, as a layout is loaded) or `oneByOne` in file order, then the variables
    /// updated. What the benchmark times as "build".
    public func build(into solver: Solver = Solver(), oneByOne: Bool = false) throws -> LiveSystem {
        let system = LiveSystem(self, solver: solver)
        try system.addAll(oneByOne: oneByOne)
        return system
    }
}

public struct WorkloadError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
