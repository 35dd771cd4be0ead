import Cassowary

/// Apple's visual format language, one `H:` or `V:` line:
///
///     H:|-[main]-[support(<=374@1000,==main@750)]-|
///     V:|-20-[a]-(>=8)-[b(44)]
///
/// `|` is the container; `-` alone is the standard spacing (8 pt between siblings, 20 pt to the container
/// edge); `-N-` or `-(>=N@p,...)-` a given one; `[a][b]` flush. Numbers may be metric names.
struct VisualFormat {
    static let siblingSpacing = 8.0
    static let edgeSpacing = 20.0

    var scanner: LineScanner
    let document: LayoutDocument
    let horizontal: Bool
    let source: String
    let condition: Condition

    init(scanner: LineScanner, document: LayoutDocument, horizontal: Bool, source: String, condition: Condition) {
        self.scanner = scanner
        self.document = document
        self.horizontal = horizontal
        self.source = source
        self.condition = condition
    }

    /// One relation of a predicate list: `>=8@750`, `==main`.
    struct Predicate {
        var relation: Constraint.Relation
        var constant: Double?
        var view: String?
        var priority: Int
    }

    enum Element: Equatable { case container, view(String) }

    mutating func parse() throws -> [LayoutConstraint] {
        var constraints: [LayoutConstraint] = []
        var previous: Element?
        var connection: [Predicate]?  // nil: no connection written since the previous element
        var sawView = false
        while !scanner.atEndOfLine {
            let column = scanner.columnAfterSpaces
            if scanner.accept("|") {
                guard previous != .container, !(previous == nil && sawView) else {
                    throw scanner.error("expected a view '[name]' before the closing '|'", at: column)
                }
                if let previous { constraints += link(previous, .container, connection) }
                previous = .container
                connection = nil
            } else if scanner.accept("[") {
                let column = scanner.columnAfterSpaces
                guard let name = scanner.identifier() else { throw scanner.error("expected a view name after '[', found \(scanner.found)") }
                guard document.views.contains(name) || document.guides.contains(name) else {
                    throw scanner.error("unknown view '\(name)'; declare it with 'view \(name)'", at: column)
                }
                if scanner.accept("(") {
                    for p in try predicateList(allowViews: true) {
                        let dimension: Attribute = horizontal ? .width : .height
                        constraints.append(LayoutConstraint(
                            .init(name, dimension), p.relation, p.view.map { .init($0, dimension) },
                            constant: p.constant ?? 0, priority: p.priority, source: source, condition: condition))
                    }
                    try scanner.expect(")", "')' to close the size predicates")
                }
                try scanner.expect("]", "']' to close the view")
                if let previous { constraints += link(previous, .view(name), connection) }
                previous = .view(name)
                connection = nil
                sawView = true
            } else if scanner.accept("-") {
                guard previous != nil, connection == nil else { throw scanner.error("expected '|' or a view before '-'") }
                if scanner.peekIs("[") || scanner.peekIs("|") {
                    connection = []  // standard spacing
                } else {
                    if scanner.accept("(") {
                        connection = try predicateList(allowViews: false)
                        try scanner.expect(")", "')' to close the spacing predicates")
                    } else {
                        connection = [try simplePredicate()]
                    }
                    try scanner.expect("-", "'-' after the spacing")
                }
            } else {
                throw scanner.error("expected '|', '[view]' or '-', found \(scanner.found)")
            }
        }
        guard sawView else { throw scanner.error("expected at least one view '[name]' in the line") }
        if connection != nil { throw scanner.error("expected '|' or a view after the last '-'") }
        return constraints
    }

    /// The constraints between two neighbours: `b.leading REL a.trailing + spacing` (top/bottom for V:).
    func link(_ a: Element, _ b: Element, _ connection: [Predicate]?) -> [LayoutConstraint] {
        let (start, end): (Attribute, Attribute) = horizontal ? (.leading, .trailing) : (.top, .bottom)
        let toEdge = a == .container || b == .container
        let predicates = connection.map { $0.isEmpty ? [Predicate(relation: .equal, constant: toEdge ? Self.edgeSpacing : Self.siblingSpacing, view: nil, priority: 1000)] : $0 }
            ?? [Predicate(relation: .equal, constant: 0, view: nil, priority: 1000)]
        return predicates.map { p in
            let spacing = p.constant ?? 0
            switch (a, b) {
            case (.container, .view(let v)):
                return LayoutConstraint(.init(v, start), p.relation, .init(LayoutDocument.container, start),
                                        constant: spacing, priority: p.priority, source: source, condition: condition)
            case (.view(let v), .container):
                return LayoutConstraint(.init(LayoutDocument.container, end), p.relation, .init(v, end),
                                        constant: spacing, priority: p.priority, source: source, condition: condition)
            case (.view(let first), .view(let second)):
                return LayoutConstraint(.init(second, start), p.relation, .init(first, end),
                                        constant: spacing, priority: p.priority, source: source, condition: condition)
            case (.container, .container):
                fatalError("two containers are never neighbours")
            }
        }
    }

    /// `(pred, pred, ...)` contents.
    mutating func predicateList(allowViews: Bool) throws -> [Predicate] {
        var list = [try predicate(allowViews: allowViews)]
        while scanner.accept(",") { list.append(try predicate(allowViews: allowViews)) }
        return list
    }

    /// `[==|<=|>=] (number | metric | view) [@priority]`.
    mutating func predicate(allowViews: Bool) throws -> Predicate {
        var relation = Constraint.Relation.equal
        if scanner.accept("==") { relation = .equal } else if scanner.accept("<=") { relation = .lessOrEqual }
        else if scanner.accept(">=") { relation = .greaterOrEqual }
        var p = Predicate(relation: relation, constant: nil, view: nil, priority: 1000)
        let column = scanner.columnAfterSpaces
        if let n = scanner.number() {
            p.constant = n
        } else if let name = scanner.identifier() {
            if let metric = document.metrics[name] {
                p.constant = metric
            } else if allowViews, document.views.contains(name) || document.guides.contains(name) {
                p.view = name
            } else {
                throw scanner.error(allowViews ? "unknown metric or view '\(name)'" : "unknown metric '\(name)'; declare it with 'metric \(name) = NUMBER'", at: column)
            }
        } else {
            throw scanner.error("expected a number, a metric\(allowViews ? " or a view" : ""), found \(scanner.found)")
        }
        if scanner.accept("@") { p.priority = try LayoutParser.priority(&scanner, document) }
        return p
    }

    /// `-8-` or `-metric-` between neighbours.
    mutating func simplePredicate() throws -> Predicate {
        let column = scanner.columnAfterSpaces
        if let n = scanner.number() { return Predicate(relation: .equal, constant: n, view: nil, priority: 1000) }
        if let name = scanner.identifier() {
            guard let metric = document.metrics[name] else {
                throw scanner.error("unknown metric '\(name)'; declare it with 'metric \(name) = NUMBER'", at: column)
            }
            return Predicate(relation: .equal, constant: metric, view: nil, priority: 1000)
        }
        throw scanner.error("expected a spacing (a number, a metric or '(...)'), found \(scanner.found)")
    }
}
