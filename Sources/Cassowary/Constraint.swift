/// `expression relation 0`, at a priority.
///
/// A constraint is a reference type: the solver knows it by identity, so the same object is what you
/// remove, deactivate, or change the constant of.
public final class Constraint: CustomStringConvertible {
    public enum Relation: String, Sendable {
        case equal = "=="
        case lessOrEqual = "<="
        case greaterOrEqual = ">="
    }

    /// The left side minus the right side; the constraint is `expression relation 0`.
    public internal(set) var expression: Expression
    public let relation: Relation
    public let priority: Priority
    /// How the user wrote it (`support.width <= 374 @1000`, with `file:line` when it came from a file); used in
    /// conflict reports and explanations.
    public var label: String?

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

    public var description: String {
        label ?? "\(expression) \(relation.rawValue) 0 \(priority)"
    }
}

// `a == b`, `a <= b`, `a >= b` build required constraints; `.priority(p)` or `~ p` lowers them.
public func == (lhs: Expression, rhs: Expression) -> Constraint { Constraint(lhs, .equal, rhs) }
public func <= (lhs: Expression, rhs: Expression) -> Constraint { Constraint(lhs, .lessOrEqual, rhs) }
public func >= (lhs: Expression, rhs: Expression) -> Constraint { Constraint(lhs, .greaterOrEqual, rhs) }
public func == (lhs: Variable, rhs: Double) -> Constraint { Expression(lhs) == Expression(constant: rhs) }
public func <= (lhs: Variable, rhs: Double) -> Constraint { Expression(lhs) <= Expression(constant: rhs) }
public func >= (lhs: Variable, rhs: Double) -> Constraint { Expression(lhs) >= Expression(constant: rhs) }
public func == (lhs: Expression, rhs: Double) -> Constraint { lhs == Expression(constant: rhs) }
public func <= (lhs: Expression, rhs: Double) -> Constraint { lhs <= Expression(constant: rhs) }
public func >= (lhs: Expression, rhs: Double) -> Constraint { lhs >= Expression(constant: rhs) }
public func == (lhs: Variable, rhs: Expression) -> Constraint { Expression(lhs) == rhs }
public func <= (lhs: Variable, rhs: Expression) -> Constraint { Expression(lhs) <= rhs }
public func >= (lhs: Variable, rhs: Expression) -> Constraint { Expression(lhs) >= rhs }
public func == (lhs: Variable, rhs: Variable) -> Constraint { Expression(lhs) == Expression(rhs) }

infix operator ~ : AssignmentPrecedence

/// `constraint ~ 750`: the same constraint at another priority.
public func ~ (constraint: Constraint, priority: Priority) -> Constraint {
    Constraint(constraint.expression, constraint.relation, priority: priority, label: constraint.label)
}
