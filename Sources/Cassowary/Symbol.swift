/// A column of the tableau. Symbols are dense integer ids (so that per-symbol data lives in arrays), and each
/// id has a kind, kept by the solver.
typealias Symbol = Int

enum SymbolKind: UInt8 {
    /// A user variable: unrestricted in sign.
    case external
    /// The slack of an inequality: >= 0.
    case slack
    /// The error of an optional constraint: >= 0, and the only kind with a cost in the objective.
    case error
    /// The marker of a required equality: must stay 0, never enters the basis.
    case dummy

    /// Slack and error symbols may enter the basis in the simplex; dummies may not, and externals need not.
    var isPivotable: Bool { self == .slack || self == .error }
    /// Restricted symbols are >= 0; a restricted basic symbol with a negative value makes the tableau infeasible.
    var isRestricted: Bool { self != .external }
}
