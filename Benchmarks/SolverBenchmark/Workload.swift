import Cassowary
import Foundation

/// A benchmark workload (`shared/bench/README.md` defines the format), read the same way solver_peer.py
/// reads it, so both engines solve exactly the same system.
struct Workload {
    struct Item {
        var terms: [(Double, String)]
        var relation: Constraint.Relation
        var rhs: Double
        var priority: Int
    }

    let path: String
    var variables: [String] = []
    var edits: [(String, Int)] = []
    var constraints: [Item] = []
    var steps: [[(String, Double)]] = []

    init(path: String) throws {
        self.path = path
        let text = try String(contentsOfFile: path, encoding: .utf8)
        for (number, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init)?
                .trimmingCharacters(in: .whitespaces) ?? ""
            guard !line.isEmpty else { continue }
            let words = line.split(separator: " ").map(String.init)
            switch words[0] {
            case "var": variables += words.dropFirst()
            case "edit": edits.append((words[1], Int(words[2])!))
            case "c":
                guard let at = line.lastIndex(of: "@"), let priority = Int(line[line.index(after: at)...]) else {
                    throw BenchmarkError("\(path):\(number + 1): no @PRIORITY")
                }
                let tokens = line[line.index(line.startIndex, offsetBy: 2)..<at].split(separator: " ").map(String.init)
                let relation: Constraint.Relation = tokens[tokens.count - 2] == "==" ? .equal
                    : tokens[tokens.count - 2] == "<=" ? .lessOrEqual : .greaterOrEqual
                let terms = tokens.dropLast(2).map { token -> (Double, String) in
                    let parts = token.split(separator: "*")
                    return (Double(parts[0])!, String(parts[1]))
                }
                constraints.append(Item(terms: terms, relation: relation, rhs: Double(tokens.last!)!, priority: priority))
            case "suggest":
                steps.append(stride(from: 1, to: words.count, by: 2).map { (words[$0], Double(words[$0 + 1])!) })
            default:
                throw BenchmarkError("\(path):\(number + 1): unknown line kind '\(words[0])'")
            }
        }
    }

    /// A fresh solver: edit variables, then every constraint in file order, then the variables updated.
    func build() throws -> (Solver, [String: Variable], [(Constraint, Int)]) {
        var variables: [String: Variable] = [:]
        for name in self.variables { variables[name] = Variable(name) }
        let solver = Solver()
        for (name, priority) in edits { try solver.addEditVariable(variables[name]!, priority: Priority(priority), initial: 0) }
        var made: [(Constraint, Int)] = []
        made.reserveCapacity(constraints.count)
        for item in constraints {
            let expression = Expression(item.terms.map { Term(variables[$0.1]!, $0.0) }, constant: -item.rhs)
            let constraint = Constraint(expression, item.relation, priority: Priority(item.priority))
            try solver.add(constraint)
            made.append((constraint, item.priority))
        }
        solver.updateVariables()
        return (solver, variables, made)
    }
}

struct BenchmarkError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
