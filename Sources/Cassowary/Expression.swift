import Vocabulary

/// `coefficient * variable`.
public struct Term: CustomStringConvertible {
    /// The unknown.
    public var variable: Variable
    /// What it is multiplied by.
    public var coefficient: Double

    /// `coefficient * variable`; the coefficient is 1 unless said.
    public init(_ variable: Variable, _ coefficient: Double = 1) {
        self.variable = variable
        self.coefficient = coefficient
    }

    /// `name` or `coefficient*name`.
    public var description: String { coefficient == 1 ? variable.name : "\(coefficient.compact)*\(variable.name)" }
}

/// A linear expression: a sum of terms plus a constant.
public struct Expression: CustomStringConvertible {
    /// The terms, in the order written; a variable may appear in more than one (the solver adds them up).
    public var terms: [Term]
    /// The number added to the terms.
    public var constant: Double

    /// `terms + constant`.
    public init(_ terms: [Term] = [], constant: Double = 0) {
        self.terms = terms
        self.constant = constant
    }

    /// The expression `1 * variable`.
    public init(_ variable: Variable) { self.init([Term(variable)]) }
    /// The expression that is just a number.
    public init(constant: Double) { self.init([], constant: constant) }

    /// As written: `a + 2*b - 8`.
    public var description: String {
        var text = ""
        for (i, term) in terms.enumerated() {
            let magnitude = Term(term.variable, abs(term.coefficient)).description
            text += i == 0 ? (term.coefficient < 0 ? "-" + magnitude : magnitude)
                : (term.coefficient < 0 ? " - " : " + ") + magnitude
        }
        if constant != 0 || terms.isEmpty {
            text += terms.isEmpty ? constant.compact : (constant < 0 ? " - " : " + ") + abs(constant).compact
        }
        return text
    }
}

// MARK: - Arithmetic, so that constraints read as they are written: `a.width == 0.5 * b.width + 8`

/// `coefficient * variable`, as an expression.
public func * (coefficient: Double, variable: Variable) -> Expression { Expression([Term(variable, coefficient)]) }
/// The expression with each term and the constant multiplied by `coefficient`.
public func * (coefficient: Double, expression: Expression) -> Expression {
    Expression(expression.terms.map { Term($0.variable, $0.coefficient * coefficient) },
               constant: expression.constant * coefficient)
}
/// The sum of two expressions: the terms of both, the constants added.
public func + (a: Expression, b: Expression) -> Expression { Expression(a.terms + b.terms, constant: a.constant + b.constant) }
/// The expression with `b` added to its constant.
public func + (a: Expression, b: Double) -> Expression { Expression(a.terms, constant: a.constant + b) }
/// `variable + number`, as an expression.
public func + (a: Variable, b: Double) -> Expression { Expression(a) + b }
/// `a + b`, as an expression.
public func + (a: Variable, b: Variable) -> Expression { Expression(a) + Expression(b) }
/// The expression with the term `1 * b` added.
public func + (a: Expression, b: Variable) -> Expression { a + Expression(b) }
/// The difference of two expressions.
public func - (a: Expression, b: Expression) -> Expression { a + (-1) * b }
/// The expression with `b` taken from its constant.
public func - (a: Expression, b: Double) -> Expression { a + (-b) }
/// `variable - number`, as an expression.
public func - (a: Variable, b: Double) -> Expression { Expression(a) - b }
/// `a - b`, as an expression.
public func - (a: Variable, b: Variable) -> Expression { Expression(a) - Expression(b) }
/// The expression with the term `-1 * b` added.
public func - (a: Expression, b: Variable) -> Expression { a - Expression(b) }
/// `variable - expression`.
public func - (a: Variable, b: Expression) -> Expression { Expression(a) - b }
