/// `coefficient * variable`.
public struct Term: CustomStringConvertible {
    public var variable: Variable
    public var coefficient: Double

    public init(_ variable: Variable, _ coefficient: Double = 1) {
        self.variable = variable
        self.coefficient = coefficient
    }

    public var description: String { coefficient == 1 ? variable.name : "\(coefficient.shortText)*\(variable.name)" }
}

/// A linear expression: a sum of terms plus a constant.
public struct Expression: CustomStringConvertible {
    public var terms: [Term]
    public var constant: Double

    public init(_ terms: [Term] = [], constant: Double = 0) {
        self.terms = terms
        self.constant = constant
    }

    public init(_ variable: Variable) { self.init([Term(variable)]) }
    public init(constant: Double) { self.init([], constant: constant) }

    public var description: String {
        var text = ""
        for (i, term) in terms.enumerated() {
            let magnitude = Term(term.variable, abs(term.coefficient)).description
            text += i == 0 ? (term.coefficient < 0 ? "-" + magnitude : magnitude)
                : (term.coefficient < 0 ? " - " : " + ") + magnitude
        }
        if constant != 0 || terms.isEmpty {
            text += terms.isEmpty ? constant.shortText : (constant < 0 ? " - " : " + ") + abs(constant).shortText
        }
        return text
    }
}

// MARK: - Arithmetic, so that constraints read as they are written: `a.width == 0.5 * b.width + 8`

public func * (coefficient: Double, variable: Variable) -> Expression { Expression([Term(variable, coefficient)]) }
public func * (coefficient: Double, expression: Expression) -> Expression {
    Expression(expression.terms.map { Term($0.variable, $0.coefficient * coefficient) },
               constant: expression.constant * coefficient)
}
public func + (a: Expression, b: Expression) -> Expression { Expression(a.terms + b.terms, constant: a.constant + b.constant) }
public func + (a: Expression, b: Double) -> Expression { Expression(a.terms, constant: a.constant + b) }
public func + (a: Variable, b: Double) -> Expression { Expression(a) + b }
public func + (a: Variable, b: Variable) -> Expression { Expression(a) + Expression(b) }
public func + (a: Expression, b: Variable) -> Expression { a + Expression(b) }
public func - (a: Expression, b: Expression) -> Expression { a + (-1) * b }
public func - (a: Expression, b: Double) -> Expression { a + (-b) }
public func - (a: Variable, b: Double) -> Expression { Expression(a) - b }
public func - (a: Variable, b: Variable) -> Expression { Expression(a) - Expression(b) }
public func - (a: Expression, b: Variable) -> Expression { a - Expression(b) }
public func - (a: Variable, b: Expression) -> Expression { Expression(a) - b }

extension Double {
    /// `8` rather than `8.0`.
    var shortText: String { self == rounded() && abs(self) < 1e15 ? String(Int64(self)) : String(self) }
}
