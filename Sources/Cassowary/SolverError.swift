/// Why the solver refused a change. The solver is unchanged after any of these.
// @unchecked: `Error` must be Sendable, but the constraints and variables it names are the caller's own
// (non-Sendable) objects. It is thrown synchronously to the thread that called the solver, which owns them;
// nothing in traitd sends it elsewhere.
public enum SolverError: Error, @unchecked Sendable, CustomStringConvertible {
    /// A required constraint cannot hold together with the required constraints already there. `conflict` is a
    /// set of constraints (the new one last) that cannot all hold, taken from the simplex's proof; minimal
    /// (take any one away and the rest can hold) when it has at most 65 constraints, and in every longer case
    /// measured (see `Solver.conflict(for:replacing:)`).
    case unsatisfiable(Constraint, conflict: [Constraint])
    /// The constraint (this very object) is already in the solver.
    case duplicateConstraint(Constraint)
    /// The constraint to remove or change is not in the solver.
    case unknownConstraint(Constraint)
    /// The variable is already an edit variable.
    case duplicateEditVariable(Variable)
    /// The variable to suggest a value for, or to stop editing, is not an edit variable.
    case unknownEditVariable(Variable)
    /// Edit variables cannot be required: a suggestion must be allowed to lose.
    case requiredEditVariable(Variable)
    /// The change took more simplex pivots than any layout needs (`Solver` says how many) and was given up; the
    /// solver was rebuilt from its constraints as they were before it.
    case workLimitExceeded(Constraint)

    /// One sentence (the unsatisfiable case: then the conflicting constraints, one a line).
    public var description: String {
        switch self {
        case .unsatisfiable(let c, let conflict):
            return "cannot satisfy the required constraint \(c); these constraints conflict:\n"
                + conflict.map { "  \($0)" }.joined(separator: "\n")
        case .duplicateConstraint(let c): return "the constraint \(c) was already added"
        case .unknownConstraint(let c): return "the constraint \(c) is not in the solver"
        case .duplicateEditVariable(let v): return "\(v) is already an edit variable"
        case .unknownEditVariable(let v): return "\(v) is not an edit variable"
        case .requiredEditVariable(let v): return "the edit variable \(v) cannot be required"
        case .workLimitExceeded(let c):
            return "gave up changing \(c): the solver ran out of its pivot budget (the solver is as it was before)"
        }
    }
}
