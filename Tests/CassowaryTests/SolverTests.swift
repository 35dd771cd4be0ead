@testable import Cassowary
import Testing

@Suite struct SolverTests {
    @Test func requiredEqualitiesAndInequalities() throws {
        let solver = Solver()
        let left = Variable("left"), width = Variable("width"), right = Variable("right")
        try solver.add(Expression(right) == left + width)
        try solver.add(left == 10)
        try solver.add(width >= 100)
        try solver.add(width == 50 ~ 500)
        solver.updateVariables()
        #expect(left.value == 10 && width.value == 100 && right.value == 110)
        #expect(solver.error(at: 500) == 50)
    }

    @Test func optionalConstraintsPullAsCloseAsTheyCan() throws {
        let solver = Solver()
        let x = Variable("x")
        try solver.add(x <= 30)
        try solver.add(x == 100 ~ 250)
        solver.updateVariables()
        #expect(x.value == 30)
        #expect(solver.error(at: 250) == 70)
    }

    @Test func oneStrongerConstraintBeatsTwoThousandWeakerOnes() throws {
        let solver = Solver()
        let x = Variable("x")
        try solver.add(x == 100 ~ 751)
        for _ in 0..<2000 { try solver.add(x == 0 ~ 750) }
        solver.updateVariables()
        #expect(x.value == 100)
        // ... and the order of adding does not matter.
        let other = Solver()
        let y = Variable("y")
        for _ in 0..<2000 { try other.add(y == 0 ~ 750) }
        try other.add(y == 100 ~ 751)
        other.updateVariables()
        #expect(y.value == 100)
    }

    @Test func strictOrderAtEveryPairOfAdjacentPriorities() throws {
        // For every p in 1...998: one `x == 100 @ p+1` against many `x == 0 @ p` (and required 999 vs 1000).
        for p in 1...998 {
            let solver = Solver()
            let x = Variable("x")
            for _ in 0..<200 { try solver.add(x == 0 ~ Priority(p)) }
            try solver.add(x == 100 ~ Priority(p + 1))
            for _ in 0..<200 { try solver.add(x == 0 ~ Priority(p)) }
            solver.updateVariables()
            #expect(x.value == 100, "priority \(p + 1) against 400 at \(p)")
        }
        let solver = Solver()
        let x = Variable("x")
        try solver.add(x == 100)
        for _ in 0..<2000 { try solver.add(x == 0 ~ 999) }
        solver.updateVariables()
        #expect(x.value == 100)
    }

    @Test func anEditAtStrongIsNotOutvotedByManyMediumPreferences() throws {
        let solver = Solver()
        let width = Variable("width")
        try solver.addEditVariable(width, priority: 750)
        for _ in 0..<1001 { try solver.add(width == 10 ~ 500) }
        try solver.suggestValue(width, 400)
        solver.updateVariables()
        #expect(width.value == 400)
        try solver.suggestValue(width, 600)
        solver.updateVariables()
        #expect(width.value == 600)
    }

    @Test func editVariablesFollowSuggestions() throws {
        let solver = Solver()
        let width = Variable("width"), half = Variable("half")
        try solver.addEditVariable(width, priority: 999)
        try solver.add(Expression(half) == 0.5 * Expression(width))
        try solver.add(half <= 374)
        for (suggested, expected) in [(1366.0, 374.0), (694, 347), (678, 339), (2000, 374)] {
            try solver.suggestValue(width, suggested)
            solver.updateVariables()
            #expect(half.value == expected, "width \(suggested)")
        }
        #expect(throws: SolverError.self) { try solver.addEditVariable(width, priority: 500) }
        #expect(throws: SolverError.self) { try solver.addEditVariable(Variable("r"), priority: .required) }
        try solver.removeEditVariable(width)
        #expect(!solver.hasEditVariable(width))
    }

    @Test func removingAConstraintUndoesIt() throws {
        let solver = Solver()
        let x = Variable("x")
        let pin = x == 40
        try solver.add(x >= 10)
        try solver.add(x == 0 ~ 250)
        try solver.add(pin)
        solver.updateVariables()
        #expect(x.value == 40)
        try solver.remove(pin)
        solver.updateVariables()
        #expect(x.value == 10)
        #expect(throws: SolverError.self) { try solver.remove(pin) }
        let optional = x == 70 ~ 500
        try solver.add(optional)
        solver.updateVariables()
        #expect(x.value == 70)
        try solver.remove(optional)
        solver.updateVariables()
        #expect(x.value == 10)
    }

    @Test func changingAConstantNeedsNoRemoval() throws {
        let solver = Solver()
        let x = Variable("x"), y = Variable("y")
        let gap = Expression(y) == x + 8
        try solver.add(x == 100)
        try solver.add(gap)
        try solver.add(y <= 200)
        try solver.setConstant(of: gap, to: -20)  // y - x - 20 == 0
        solver.updateVariables()
        #expect(y.value == 120)
        // A constant that would break a required constraint is refused, and nothing changes.
        #expect(throws: SolverError.self) { try solver.setConstant(of: gap, to: -150) }
        solver.updateVariables()
        #expect(y.value == 120)
        let soft = x == 5 ~ 500
        try solver.add(soft)
        try solver.setConstant(of: soft, to: -100)
        #expect(solver.error(at: 500) == 0)
    }

    @Test func conflictingRequiredConstraintIsRefusedWithTheConflict() throws {
        let solver = Solver()
        let x = Variable("x"), y = Variable("y"), z = Variable("z")
        let a = Constraint(Expression(x), .greaterOrEqual, Expression(constant: 10), label: "layout:3: x >= 10")
        let b = Constraint(Expression(y), .equal, Expression(x) + 5, label: "layout:4: y == x + 5")
        let unrelated = Constraint(Expression(z), .equal, Expression(constant: 1), label: "layout:5: z == 1")
        try solver.add(a)
        try solver.add(b)
        try solver.add(unrelated)
        try solver.add(x == 0 ~ 250)
        let bad = Constraint(Expression(y), .lessOrEqual, Expression(constant: 12), label: "layout:6: y <= 12")
        do {
            try solver.add(bad)
            Issue.record("the conflict must be refused")
        } catch let SolverError.unsatisfiable(constraint, conflict) {
            #expect(constraint === bad)
            #expect(conflict.map(\.description) == ["layout:3: x >= 10", "layout:4: y == x + 5", "layout:6: y <= 12"])
        }
        // Unchanged: the solution is the one before, and the failed constraint is not there.
        solver.updateVariables()
        #expect(x.value == 10 && y.value == 15 && !solver.contains(bad))
        try solver.add(y <= 20)
        solver.updateVariables()
        #expect(y.value == 15)
    }

    /// A chain `x0 == 0`, `x(i+1) == x(i) + 1` among constraints on other variables that could take part only
    /// by sharing one: a refused constant or add names exactly the chain (found from the tableau's certificate
    /// and filtered to a minimal set), however many other required constraints touch the same variables.
    @Test(arguments: [8, 40, 120])
    func conflictsComeFromTheCertificateAndAreMinimal(length: Int) throws {
        let solver = Solver()
        let x = (0...length).map { Variable("x\($0)") }
        var chain = [Constraint(Expression(x[0]), .equal, Expression(constant: 0), label: "x0 == 0")]
        for i in 0..<length {
            chain.append(Constraint(Expression(x[i + 1]), .equal, Expression(x[i]) + 1, label: "x\(i + 1) == x\(i) + 1"))
        }
        // Slack around every link: required, connected to the chain, but never part of a conflict.
        var around: [Constraint] = []
        for (i, v) in x.enumerated() {
            let w = Variable("w\(i)")
            around.append(Constraint(Expression(w), .greaterOrEqual, Expression(v), label: "w\(i) >= x\(i)"))
            around.append(Constraint(Expression(w), .lessOrEqual, Expression(v) + 1000, label: "w\(i) <= x\(i) + 1000"))
        }
        for c in chain + around { try solver.add(c) }
        let last = Constraint(Expression(x[length]), .lessOrEqual, Expression(constant: Double(length) + 5), label: "end")
        try solver.add(last)
        func expectChain(_ conflict: [Constraint], endingWith final: Constraint) {
            #expect(conflict.last === final)
            #expect(Set(conflict.dropLast().map(ObjectIdentifier.init)) == Set((chain).map(ObjectIdentifier.init)),
                    "\(conflict.count - 1) constraints named: \(conflict.dropLast().map(\.description).prefix(6))...")
        }
        // A constant that the chain contradicts.
        do {
            try solver.setConstant(of: last, to: 5 - Double(length))  // x(length) <= length - 5
            Issue.record("the change must be refused")
        } catch let SolverError.unsatisfiable(constraint, conflict) {
            #expect(constraint === last)
            expectChain(conflict, endingWith: last)
        }
        // An add that the chain contradicts.
        let bad = Constraint(Expression(x[length]), .equal, Expression(constant: Double(length) + 0.5), label: "bad")
        do {
            try solver.add(bad)
            Issue.record("the add must be refused")
        } catch let SolverError.unsatisfiable(constraint, conflict) {
            #expect(constraint === bad)
            expectChain(conflict, endingWith: bad)
        }
        solver.updateVariables()
        #expect(x[length].value == Double(length))
    }

    @Test func ambiguityAndExplanations() throws {
        let solver = Solver()
        let left = Variable("left"), width = Variable("width"), right = Variable("right"), free = Variable("free")
        let edge = Expression(right) == left + width
        try solver.add(edge)
        try solver.add(left == 0)
        try solver.add(Expression(free) >= Expression(left))
        #expect(Set(solver.ambiguousVariables().map(\.name)) == ["free", "right", "width"])
        let size = width == 300
        try solver.add(size)
        #expect(Set(solver.ambiguousVariables().map(\.name)) == ["free"])
        let explanation = solver.explain(right)
        #expect(explanation.contains { $0 === size } && explanation.contains { $0 === edge })
        #expect(solver.explain(free).isEmpty || solver.ambiguousVariables().contains(free))
    }

    @Test func duplicatesAreRefused() throws {
        let solver = Solver()
        let c = Variable("x") == 1
        try solver.add(c)
        #expect(throws: SolverError.self) { try solver.add(c) }
    }
}

@Suite struct RemoveAndAddTests {
    /// Removing and re-adding optional constraints (equalities and inequalities) returns the same optimum.
    @Test func removeAndReAddKeepsTheOptimum() throws {
        let solver = Solver()
        let a = Variable("a"), b = Variable("b"), c = Variable("c")
        var optional: [Constraint] = []
        try solver.add(Expression(b) >= a + 10)
        try solver.add(Expression(c) == a + b)
        try solver.add(a >= 0)
        optional.append(a == 5 ~ 750)
        optional.append(b <= 12 ~ 750)
        optional.append(c >= 40 ~ 500)
        optional.append(b == 30 ~ 250)
        optional.append(c <= 100 ~ 250)
        for o in optional { try solver.add(o) }
        solver.updateVariables()
        let expected = [a.value, b.value, c.value]
        let errors = [Priority(750), 500, 250].map { solver.error(at: $0) }
        for round in 0..<3 {
            for o in optional {
                try solver.remove(o)
                try solver.add(o)
                if round == 1 { solver.updateVariables() }  // eager and lazy optimisation both
            }
            solver.updateVariables()
            #expect([a.value, b.value, c.value] == expected)
            #expect([Priority(750), 500, 250].map { solver.error(at: $0) } == errors)
        }
    }
}
