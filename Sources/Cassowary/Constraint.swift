/// `expression relation 0`, at a priority.
///
/// A constraint is a reference type: the solver knows it by identity, so the same object is what you
/// remove, deactivate, or change the constant of.
public final class Constraint: CustomStringConvertible {
    /// How the expression compares with 0; the raw value is the operator as written (`==`, `<=`, `>=`).
    public enum Relation: String, Sendable {
        /// `expression == 0`.
        case equal = "=="
        /// `expression <= 0`.
        case lessOrEqual = "<="
        /// `expression >= 0`.
        case greaterOrEqual = ">="
    }

    /// The left side minus the right side; the constraint is `expression relation 0`.
    public internal(set) var expression: Expression
    /// How the expression compares with 0.
    public let relation: Relation
    /// How strongly it holds: a required constraint always holds or is refused; an optional one may be broken
    /// in favour of higher priorities.
    public let priority: Priority
    /// How the user wrote it (`support.width <= 374 @1000`, with `file:line` when it came from a file); used in
    /// conflict reports and explanations.
    public var label: String?

    /// The solver that keeps this constraint's entry at `slot` of its table, if one does (see `ConstraintTable`,
    /// `ObjectSlots`).
    @exclusivity(unchecked) var slotOwner: ObjectIdentifier?
    @exclusivity(unchecked) var slot = 0

    /// `expression relation 0` at `priority` (required unless said), labelled for reports.
    public init(_ expression: Expression, _ relation: Relation, priority: Priority = .required, label: String? = nil) {
        self.expression = expression
        self.relation = relation
        self.priority = priority
        self.label = label
    }

    /// `lhs relation rhs`.
    public convenience init(_ lhs: Expression, _ relation: Relation, _ rhs: Expression, priority: Priority = .required,
                            label: String? = nil) {
        self.init(lhs - rhs, relation, priority: priority, label: label)
    }

    /// The label if there is one, else the constraint as `expression relation 0 priority`.
    public var description: String {
        label ?? "\(expression) \(relation.rawValue) 0 \(priority)"
    }
}

// `a == b`, `a <= b`, `a >= b` build required constraints; `~ p` lowers them. Each side may be an expression,
// a variable or (on the right) a number.

/// A required constraint `lhs == rhs`.
public func == (lhs: Expression, rhs: Expression) -> Constraint { Constraint(lhs, .equal, rhs) }
/// A required constraint `lhs <= rhs`.
public func <= (lhs: Expression, rhs: Expression) -> Constraint { Constraint(lhs, .lessOrEqual, rhs) }
/// A required constraint `lhs >= rhs`.
public func >= (lhs: Expression, rhs: Expression) -> Constraint { Constraint(lhs, .greaterOrEqual, rhs) }
/// A required constraint `variable == number`.
public func == (lhs: Variable, rhs: Double) -> Constraint { Expression(lhs) == Expression(constant: rhs) }
/// A required constraint `variable <= number`.
public func <= (lhs: Variable, rhs: Double) -> Constraint { Expression(lhs) <= Expression(constant: rhs) }
/// A required constraint `variable >= number`.
public func >= (lhs: Variable, rhs: Double) -> Constraint { Expression(lhs) >= Expression(constant: rhs) }
/// A required constraint `expression == number`.
public func == (lhs: Expression, rhs: Double) -> Constraint { lhs == Expression(constant: rhs) }
/// A required constraint `expression <= number`.
public func <= (lhs: Expression, rhs: Double) -> Constraint { lhs <= Expression(constant: rhs) }
/// A required constraint `expression >= number`.
public func >= (lhs: Expression, rhs: Double) -> Constraint { lhs >= Expression(constant: rhs) }
/// A required constraint `variable == expression`.
public func == (lhs: Variable, rhs: Expression) -> Constraint { Expression(lhs) == rhs }
/// A required constraint `variable <= expression`.
public func <= (lhs: Variable, rhs: Expression) -> Constraint { Expression(lhs) <= rhs }
/// A required constraint `variable >= expression`.
public func >= (lhs: Variable, rhs: Expression) -> Constraint { Expression(lhs) >= rhs }
/// A required constraint `lhs == rhs` between two variables.
///
/// This builds a constraint; to ask whether two variables are the same object, use `===`.
public func == (lhs: Variable, rhs: Variable) -> Constraint { Expression(lhs) == Expression(rhs) }

infix operator ~ : AssignmentPrecedence

/// `constraint ~ 750`: the same constraint at another priority.
public func ~ (constraint: Constraint, priority: Priority) -> Constraint {
    Constraint(constraint.expression, constraint.relation, priority: priority, label: constraint.label)
}

extension Constraint: SlotHolder {}
