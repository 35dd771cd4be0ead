import Cassowary

/// A workload built into a solver, and kept there while operations change it: constraints removed and added
/// again, their constants changed, edit values suggested. It can check its own solution (every required
/// constraint holds) and compare it with a fresh solve of the same constraints.
public final class LiveSystem {
    public let workload: Workload
    public let solver: Solver
    public private(set) var variables: [Variable] = []
    public private(set) var variablesByName: [String: Variable] = [:]
    /// One per `c` line of the workload, in file order: what `remove I` and `add I` refer to.
    public private(set) var constraints: [Constraint] = []
    /// Whether constraint I is in the solver.
    public private(set) var present: [Bool] = []
    /// The right-hand side each constraint has now (`setConstant` moves it).
    public private(set) var rhs: [Double] = []
    public private(set) var editVariables: [Variable] = []
    /// The value last suggested for each edit variable (0 until then).
    public private(set) var editValues: [Double] = []

    init(_ workload: Workload, solver: Solver = Solver()) {
        self.workload = workload
        self.solver = solver
        for name in workload.variables where variablesByName[name] == nil {
            let variable = Variable(name)
            variablesByName[name] = variable
            variables.append(variable)
        }
        for item in workload.constraints {
            let expression = Expression(item.terms.map { Term(variablesByName[$0.variable]!, $0.coefficient) }, constant: -item.rhs)
            constraints.append(Constraint(expression, item.relation, priority: Priority(item.priority)))
            rhs.append(item.rhs)
        }
        present = Array(repeating: false, count: constraints.count)
        editVariables = workload.edits.map { variablesByName[$0.variable]! }
        editValues = Array(repeating: 0, count: editVariables.count)
    }

    /// Adds the edit variables and every constraint (as one batch, `Solver.add(contentsOf:)`, or `oneByOne` in
    /// the workload's order), then updates the variables.
    func addAll(editValues start: [Double]? = nil, only included: [Bool]? = nil, oneByOne: Bool = false) throws {
        for (index, (variable, edit)) in zip(editVariables, workload.edits).enumerated() {
            let value = start?[index] ?? 0
            try solver.addEditVariable(variable, priority: Priority(edit.priority), initial: value)
            editValues[index] = value
        }
        let all = constraints
        let chosen = included.map { included in all.indices.filter { included[$0] } } ?? Array(all.indices)
        if oneByOne {
            for index in chosen { try solver.add(all[index]) }
        } else {
            try solver.add(contentsOf: included == nil ? all : chosen.map { all[$0] })
        }
        for index in chosen { present[index] = true }
        solver.updateVariables()
    }

    // MARK: Operations

    /// One change, as a trace line says it (`remove 4`, `add 4`, `setc 4 12.5`, `suggest 680 20`).
    public enum Operation: Equatable, CustomStringConvertible {
        case remove(Int)
        case add(Int)
        case setConstant(Int, rhs: Double)
        case suggest([Double])

        public init(traceLine line: Substring) throws {
            let words = line.split(separator: " ")
            func index() throws -> Int {
                guard words.count >= 2, let i = Int(words[1]) else { throw WorkloadError("expected a constraint index: \(line)") }
                return i
            }
            switch words.first {
            case "remove": self = .remove(try index())
            case "add": self = .add(try index())
            case "setc":
                guard words.count == 3, let value = Double(words[2]) else { throw WorkloadError("expected `setc I RHS`: \(line)") }
                self = .setConstant(try index(), rhs: value)
            case "suggest":
                let values = words.dropFirst().compactMap { Double($0) }
                guard values.count == words.count - 1 else { throw WorkloadError("expected numbers: \(line)") }
                self = .suggest(values)
            default: throw WorkloadError("unknown operation: \(line)")
            }
        }

        public var description: String {
            switch self {
            case .remove(let i): return "remove \(i)"
            case .add(let i): return "add \(i)"
            case .setConstant(let i, let value): return "setc \(i) \(value)"
            case .suggest(let values): return "suggest " + values.map { "\($0)" }.joined(separator: " ")
            }
        }
    }

    /// Reads a trace: one operation a line, `#` comments.
    public static func trace(_ text: String) throws -> [Operation] {
        try text.split(separator: "\n").compactMap { raw in
            let line = raw.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)[0]
            return line.allSatisfy(\.isWhitespace) ? nil : try Operation(traceLine: line)
        }
    }

    /// Applies one operation and updates the variables. A required constraint that cannot hold is refused by
    /// the solver (`SolverError.unsatisfiable`) and this system is left as it was; so is any other refusal.
    public func apply(_ operation: Operation) throws {
        switch operation {
        case .remove(let i):
            try solver.remove(constraints[i])
            present[i] = false
        case .add(let i):
            try solver.add(constraints[i])
            present[i] = true
        case .setConstant(let i, let value):
            if present[i] { try solver.setConstant(of: constraints[i], to: -value) } else { try setConstantOffline(i, -value) }
            rhs[i] = value
        case .suggest(let values):
            for (index, (variable, value)) in zip(editVariables, values).enumerated() {
                try solver.suggestValue(variable, value)
                editValues[index] = value
            }
        }
        solver.updateVariables()
    }

    /// A constraint that is not in the solver keeps its new constant for when it is added again.
    private func setConstantOffline(_ i: Int, _ constant: Double) throws {
        let old = constraints[i]
        var expression = old.expression
        expression.constant = constant
        constraints[i] = Constraint(expression, old.relation, priority: old.priority, label: old.label)
    }

    // MARK: Checking

    /// The worst violation of a present required constraint, relative to the size of its terms (1 at least),
    /// and which constraint it is.
    public func worstRequiredViolation() -> (violation: Double, index: Int?) {
        var worst = 0.0
        var which: Int?
        for (index, constraint) in constraints.enumerated() where present[index] && constraint.priority.isRequired {
            let v = Self.violation(of: constraint) / Self.scale(of: constraint)
            if v > worst { worst = v; which = index }
        }
        return (worst, which)
    }

    /// Each priority level's total error, measured on the variables' values (not read from the solver's error
    /// symbols), with the edit variables as equalities at their priority; and the level's scale (the largest
    /// term or constant among its constraints, 1 at least), which tolerances are relative to.
    public func levelErrors() -> [Int: (error: Double, scale: Double)] {
        var levels: [Int: (error: Double, scale: Double)] = [:]
        func account(_ priority: Int, _ error: Double, _ scale: Double) {
            let old = levels[priority] ?? (0, 1)
            levels[priority] = (old.error + error, max(old.scale, scale))
        }
        for (index, constraint) in constraints.enumerated() where present[index] && !constraint.priority.isRequired {
            account(constraint.priority.rawValue, Self.violation(of: constraint), Self.scale(of: constraint))
        }
        for (index, (variable, edit)) in zip(editVariables, workload.edits).enumerated() {
            account(edit.priority, abs(variable.value - editValues[index]), max(1, abs(variable.value), abs(editValues[index])))
        }
        return levels
    }

    /// The same constraints, edit values and constants, solved by a new solver: nil when the required ones
    /// cannot all hold.
    public func freshSolve() -> LiveSystem? { freshSolve(present: present, rhs: rhs) }

    /// A fresh solve of the workload with these constraints in, at these right-hand sides.
    public func freshSolve(present: [Bool], rhs: [Double]) -> LiveSystem? {
        let fresh = LiveSystem(workload)
        for i in constraints.indices where rhs[i] != workload.constraints[i].rhs { try? fresh.setConstantOffline(i, -rhs[i]) }
        fresh.rhs = rhs
        do { try fresh.addAll(editValues: editValues, only: present) } catch { return nil }
        return fresh
    }

    /// Where this solution's level errors differ from `other`'s by more than `tolerance` (relative, with 1 as
    /// the least scale): empty when they agree.
    public func levelMismatches(against other: LiveSystem, tolerance: Double = 1e-6) -> [(priority: Int, ours: Double, fresh: Double)] {
        let ours = levelErrors()
        let theirs = other.levelErrors()
        return Set(ours.keys).union(theirs.keys).sorted(by: >).compactMap { priority in
            let a = ours[priority] ?? (0, 1), b = theirs[priority] ?? (0, 1)
            let scale = max(a.scale, b.scale, abs(a.error), abs(b.error))
            return abs(a.error - b.error) <= tolerance * scale ? nil : (priority, a.error, b.error)
        }
    }

    static func value(of expression: Expression) -> Double {
        expression.terms.reduce(expression.constant) { $0 + $1.coefficient * $1.variable.value }
    }

    static func violation(of constraint: Constraint) -> Double {
        let value = value(of: constraint.expression)
        switch constraint.relation {
        case .equal: return abs(value)
        case .lessOrEqual: return max(0, value)
        case .greaterOrEqual: return max(0, -value)
        }
    }

    static func scale(of constraint: Constraint) -> Double {
        constraint.expression.terms.reduce(max(1, abs(constraint.expression.constant))) {
            max($0, abs($1.coefficient * $1.variable.value))
        }
    }
}
