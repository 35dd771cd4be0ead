@testable import Cassowary
import Testing

/// A variable and a constraint keep their number in the solver that holds them in fields of their own
/// (`ObjectSlots`); one held by two solvers at once is found through a dictionary in the second. Neither
/// solver may lose or confuse it, and a solver that goes away must give the fields back: a later solver at the
/// same address would otherwise read them as its own.
@Suite struct IdentityTableTests {
    @Test func oneConstraintAndItsVariablesInTwoSolvers() throws {
        let x = Variable("x"), y = Variable("y")
        let sum = Constraint(Expression(x) + Expression(y), .equal, Expression(constant: 10))
        let first = Solver(), second = Solver()
        try first.add(sum)
        try second.add(sum)  // its fields are the first's: the second finds it through its dictionary
        try first.add(x == 4)
        try second.add(x == 7)
        first.updateVariables()
        #expect(x.value == 4 && y.value == 6)
        second.updateVariables()
        #expect(x.value == 7 && y.value == 3)

        try first.remove(sum)  // the first gives its fields back; the second still holds the constraint
        #expect(!first.contains(sum) && second.contains(sum))
        #expect(throws: SolverError.self) { try second.add(sum) }
        try second.remove(sum)
        #expect(!second.contains(sum))
        try first.add(sum)
        first.updateVariables()
        #expect(x.value == 4 && y.value == 6)
        #expect(first.invariantViolations().isEmpty && second.invariantViolations().isEmpty)
    }

    @Test func aSolverThatGoesAwayGivesItsFieldsBack() throws {
        let x = Variable("x")
        let pin = x == 10
        let preference = x == 20 ~ 250
        var gone: ObjectIdentifier?
        do {
            let solver = Solver()
            try solver.add(pin)
            try solver.add(preference)
            solver.updateVariables()
            gone = ObjectIdentifier(solver)
            #expect(pin.slotOwner == gone && x.slotOwner == gone)
        }
        #expect(pin.slotOwner == nil && preference.slotOwner == nil && x.slotOwner == nil)
        let next = Solver()  // often at the freed solver's address
        #expect(!next.contains(pin) && !next.contains(preference))
        try next.add(preference)
        next.updateVariables()
        #expect(x.value == 20)
    }

    @Test func anOptionalConstraintRemovedAndAddedAgainBeforeTheReadGoesInOnce() throws {
        let solver = Solver()
        let x = Variable("x")
        let preference = x == 30 ~ 250
        try solver.add(x >= 0)
        try solver.add(preference)
        try solver.remove(preference)
        try solver.add(preference)
        #expect(throws: SolverError.self) { try solver.add(preference) }
        solver.updateVariables()
        #expect(x.value == 30)
        #expect(solver.statistics.constraints == 2)
        try solver.remove(preference)
        #expect(!solver.contains(preference))
        #expect(throws: SolverError.self) { try solver.remove(preference) }
        #expect(solver.invariantViolations().isEmpty)
    }
}
