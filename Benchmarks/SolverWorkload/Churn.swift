import Cassowary

/// Seeded random churn on a live system (remove, add again, change constants, suggest), checked as it goes:
/// after every operation every required constraint must hold, and every `freshEvery` operations each priority
/// level's error must match a fresh solve of the same constraints. A refused required constraint must be one a
/// fresh solver refuses too. The same seed gives the same operations, so a failure is replayed from its seed
/// (or from `trace`, which holds every operation applied).
public struct Churn {
    public struct Failure: CustomStringConvertible {
        public var operation: Int
        public var what: String
        public var description: String { "operation \(operation): \(what)" }
    }

    public let system: LiveSystem
    public var freshEvery: Int
    /// Checks every refusal of a required constraint against a fresh solver (costs one build per refusal).
    public var verifyRefusals = true
    public var tolerance = 1e-6
    public private(set) var operations = 0
    public private(set) var refused = 0
    public private(set) var freshChecks = 0
    public private(set) var failures: [Failure] = []
    /// The operations applied so far, as trace lines (kept only when `keepsTrace`).
    public private(set) var trace: [LiveSystem.Operation] = []
    public var keepsTrace = false
    /// How often each kind of operation comes: suggest, remove or add, and setConstant (the rest).
    public var mix = Mix()
    public struct Mix: Sendable {
        public var suggest = 0.3
        public var removeOrAdd = 0.5
        public init(suggest: Double = 0.3, removeOrAdd: Double = 0.5) {
            self.suggest = suggest
            self.removeOrAdd = removeOrAdd
        }
        /// Only `setConstant`: the constants move, nothing is added or removed.
        public static let constantsOnly = Mix(suggest: 0, removeOrAdd: 0)
    }
    private var random: SeededRandom
    private var presentCount: Int

    public init(_ system: LiveSystem, seed: UInt64, freshEvery: Int = 100) {
        self.system = system
        self.freshEvery = freshEvery
        random = SeededRandom(seed: seed)
        presentCount = system.present.filter { $0 }.count
    }

    /// Runs `count` more operations; stops early at the first failure.
    public mutating func run(_ count: Int) {
        for _ in 0..<count {
            step()
            if !failures.isEmpty { return }
        }
    }

    /// One random operation, applied and checked.
    public mutating func step() {
        apply(nextOperation())
    }

    /// Applies an operation (from a trace, or from `step`) and checks the result.
    public mutating func apply(_ operation: LiveSystem.Operation) {
        if keepsTrace { trace.append(operation) }
        operations += 1
        check(operation)
    }

    private mutating func check(_ operation: LiveSystem.Operation) {
        let wasPresent = system.present
        do {
            try system.apply(operation)
        } catch SolverError.unsatisfiable {
            refused += 1
            if verifyRefusals, let fresh = proposedFreshSolve(operation, present: wasPresent) {
                fail("\(operation) was refused as unsatisfiable, but a fresh solver holds it (level errors \(fresh.levelErrors()))")
            }
        } catch {
            fail("\(operation) threw \(error)")
        }
        presentCount = system.present.filter { $0 }.count
        let (violation, index) = system.worstRequiredViolation()
        if violation > tolerance {
            fail("after \(operation), required constraint \(index!) (\(system.constraints[index!])) is off by \(violation) (relative)")
        }
        if freshEvery > 0, operations % freshEvery == 0 { compareWithFreshSolve(after: operation) }
    }

    /// Compares the level errors with a fresh solve now.
    public mutating func compareWithFreshSolve(after operation: LiveSystem.Operation? = nil) {
        freshChecks += 1
        let context = operation.map { " after \($0)" } ?? ""
        guard let fresh = system.freshSolve() else {
            fail("a fresh solver cannot hold the required constraints that ours holds\(context)")
            return
        }
        for (priority, ours, theirs) in system.levelMismatches(against: fresh, tolerance: tolerance) {
            fail("level \(priority) error is \(ours), a fresh solve gives \(theirs)\(context)")
        }
    }

    /// A fresh solve of the system as it would be had the refused operation gone through; nil if it cannot hold.
    private func proposedFreshSolve(_ operation: LiveSystem.Operation, present: [Bool]) -> LiveSystem? {
        var present = present
        var rhs = system.rhs
        switch operation {
        case .add(let i): present[i] = true
        case .setConstant(let i, let value): rhs[i] = value
        case .remove, .suggest: return nil
        }
        return system.freshSolve(present: present, rhs: rhs)
    }

    private mutating func fail(_ what: String) {
        failures.append(Failure(operation: operations, what: what))
    }

    // MARK: Choosing operations

    private mutating func nextOperation() -> LiveSystem.Operation {
        let count = system.constraints.count
        let roll = random.unit()
        if roll < mix.suggest, !system.editVariables.isEmpty {
            return .suggest(system.editValues.map { random.chance(0.3) ? $0 : (random.unit() * 2000).rounded() / 4 * 4 + random.unit() })
        }
        // Keep between half and all of the constraints in: remove while more than half are in, else add.
        if roll < mix.suggest + mix.removeOrAdd {
            let removing = presentCount == count || (presentCount > count / 2 && roll < mix.suggest + mix.removeOrAdd / 2)
            return removing ? .remove(pick(present: true)) : .add(pick(present: false))
        }
        let i = pick(present: random.chance(0.8))
        let original = system.workload.constraints[i].rhs
        let required = system.workload.constraints[i].priority == 1000
        let value = required ? (random.chance(0.6) ? original : original + Double(random.int(-5...5)))
            : original + Double(random.int(-40...40)) + (random.chance(0.5) ? random.unit() : 0)
        return .setConstant(i, rhs: value)
    }

    /// A random constraint that is (or is not) in the solver; optional ones three times as often as required ones.
    private mutating func pick(present wanted: Bool) -> Int {
        let constraints = system.workload.constraints
        var fallback: Int?
        for _ in 0..<64 {
            let i = random.below(constraints.count)
            guard system.present[i] == wanted else { continue }
            if constraints[i].priority < 1000 || random.chance(0.33) { return i }
            fallback = i
        }
        if let fallback { return fallback }
        return system.present.indices.first { system.present[$0] == wanted } ?? 0
    }
}
