/// Edit variables: values that change often (a window's width), suggested without rebuilding anything.
extension Solver {
    /// Makes `variable` editable at `priority` (below required), starting from `initial` (default: its current
    /// value, so that adding an edit to a finished layout does not first pull everything to 0).
    public func addEditVariable(_ variable: Variable, priority: Priority, initial: Double? = nil) throws {
        guard edits[ObjectIdentifier(variable)] == nil else { throw SolverError.duplicateEditVariable(variable) }
        guard !priority.isRequired else { throw SolverError.requiredEditVariable(variable) }
        let start = initial ?? variable.value
        let constraint = Constraint(Expression(variable) - start, .equal, priority: priority,
                                    label: "edit \(variable.name) \(priority)")
        try addNow(constraint)  // at once: the edit keeps its symbols
        edits[ObjectIdentifier(variable)] = EditInfo(
            constraint: constraint, tag: constraints[constraint]!.tag!, constant: start)
    }

    /// Stops editing `variable`: its edit constraint is removed, and the variable keeps whatever other
    /// constraints hold it to. Throws `SolverError.unknownEditVariable` if it was not an edit variable.
    public func removeEditVariable(_ variable: Variable) throws {
        guard let info = edits.removeValue(forKey: ObjectIdentifier(variable)) else {
            throw SolverError.unknownEditVariable(variable)
        }
        try remove(info.constraint)
    }

    /// Whether `variable` is an edit variable now.
    public func hasEditVariable(_ variable: Variable) -> Bool { edits[ObjectIdentifier(variable)] != nil }

    /// Suggests a value for an edit variable; the solution follows after the dual simplex (cheap).
    public func suggestValue(_ variable: Variable, _ value: Double) throws {
        let key = ObjectIdentifier(variable)
        guard edits[key] != nil else { throw SolverError.unknownEditVariable(variable) }
        rebuildIfDrifted()
        optimizeIfNeeded()  // the dual simplex starts from an optimal tableau
        // Read after any rebuild, which gives the edit a new tag (and changes no key: the index stays valid).
        let entry = edits.index(forKey: key)!
        let info = edits.values[entry]
        let delta = value - info.constant
        guard !delta.isNearZero else { return }
        let tag = info.tag
        // The edit constraint is `variable - constant == 0`: its expression constant moves by -delta.
        let moved: Bool
        do {
            moved = try moveConstant(tag, by: -delta)
        } catch {
            rebuild()  // with the old value, which the constraint still has
            throw SolverError.workLimitExceeded(info.constraint)
        }
        edits.values[entry].constant = value
        info.constraint.expression.constant = -value
        // An optional edit always holds or gives way; were the dual simplex to say otherwise (rounding), a
        // fresh solve with the new value is the answer.
        if !moved { rebuild() }
    }
}
