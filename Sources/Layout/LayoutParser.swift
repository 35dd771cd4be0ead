import Cassowary

/// Parses `*.layout` files. The language:
///
///     # comment
///     app NAME                    the app this layout serves
///     view A B ...                views (they get frames)
///     guide G ...                 layout guides (frames too, but they draw nothing)
///     metric NAME = NUMBER        a named number, usable wherever a number is
///     A.attr REL [NUMBER *] B.attr [+|- NUMBER] [@PRIORITY]
///     A.attr REL NUMBER [@PRIORITY]
///     H:|-[main]-[support(<=374@1000,==main@750)]-|     Apple's visual format language
///     [w:compact] [w:regular] [h:compact] [h:regular] [portrait] [landscape] [compact] [regular]
///                                 a section: what follows applies only where all of it holds
///     hide A B                    inside a section: those items are not installed there
///     [any]                       back to unconditional
///
/// REL is `==`, `<=` or `>=`; PRIORITY is 1-1000, `required` (1000), `high` (750) or `low` (250); the
/// container is `super`; attributes are left right top bottom leading trailing width height centerX centerY.
/// Every error is `file:line:column: expected ...`.
public enum LayoutParser {
    public static func parse(_ text: String, file: String) throws -> LayoutDocument {
        var document = LayoutDocument(file: file)
        var condition = Condition.any
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let content = rawLine.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            var scanner = LineScanner(file: file, line: index + 1, text: content)
            guard !scanner.atEndOfLine else { continue }
            let source = "\(fileName(file)):\(index + 1): \(content.trimmingSpaces)"
            if scanner.accept("H:") || scanner.accept("V:") {
                let horizontal = content.trimmingSpaces.hasPrefix("H")
                var visual = VisualFormat(scanner: scanner, document: document, horizontal: horizontal,
                                          source: source, condition: condition)
                document.constraints += try visual.parse()
                continue
            }
            if scanner.accept("[") {
                condition = try section(&scanner)
                continue
            }
            let wordColumn = scanner.columnAfterSpaces
            guard let word = scanner.identifier() else {
                throw scanner.error("expected a declaration (view, guide, metric, app, hide), a constraint, a section or an H:/V: line, found \(scanner.found)")
            }
            switch word {
            case "app":
                guard let name = scanner.identifier(allowDash: true) else { throw scanner.error("expected the app name, found \(scanner.found)") }
                document.app = name
            case "view", "guide":
                var names: [String] = []
                while !scanner.atEndOfLine {
                    let column = scanner.columnAfterSpaces
                    guard let name = scanner.identifier() else { throw scanner.error("expected an item name, found \(scanner.found)") }
                    guard name != LayoutDocument.container else {
                        throw scanner.error("'super' is the container; choose another name", at: column)
                    }
                    guard !document.views.contains(name), !document.guides.contains(name), !names.contains(name) else {
                        throw scanner.error("'\(name)' is declared twice", at: column)
                    }
                    names.append(name)
                }
                if names.isEmpty { throw scanner.error("expected at least one name after '\(word)'") }
                if word == "view" { document.views += names } else { document.guides += names }
            case "metric":
                guard let name = scanner.identifier() else { throw scanner.error("expected a metric name, found \(scanner.found)") }
                try scanner.expect("=", "'=' after the metric name")
                let negative = scanner.accept("-")
                guard let value = scanner.number() else { throw scanner.error("expected a number, found \(scanner.found)") }
                document.metrics[name] = negative ? -value : value
            case "hide":
                guard condition != .any else {
                    throw scanner.error("'hide' belongs in a section such as [compact]; it hides items only there", at: wordColumn)
                }
                var names: [String] = []
                while !scanner.atEndOfLine {
                    let column = scanner.columnAfterSpaces
                    guard let name = scanner.identifier() else { throw scanner.error("expected an item name, found \(scanner.found)") }
                    guard document.views.contains(name) || document.guides.contains(name) else {
                        throw scanner.error("unknown item '\(name)'; declare it with 'view \(name)' or 'guide \(name)' first", at: column)
                    }
                    names.append(name)
                }
                document.hides.append((condition, names))
            default:
                scanner.position = wordColumn - 1
                document.constraints.append(try constraint(&scanner, document, source: source, condition: condition))
            }
            guard scanner.atEndOfLine else { throw scanner.error("expected the end of the line, found \(scanner.found)") }
        }
        return document
    }

    /// `[w:compact landscape]` (the `[` already read).
    static func section(_ scanner: inout LineScanner) throws -> Condition {
        var condition = Condition()
        var sawAny = false
        while !scanner.accept("]") {
            let column = scanner.columnAfterSpaces
            guard let word = scanner.identifier() else {
                throw scanner.error("expected w:compact, w:regular, h:compact, h:regular, portrait, landscape, compact, regular or any, found \(scanner.found)")
            }
            var axis = "w"
            var value = word
            if (word == "w" || word == "h") && scanner.accept(":") {
                axis = word
                guard let v = scanner.identifier() else { throw scanner.error("expected compact or regular after '\(word):'") }
                value = v
            }
            switch (axis, value) {
            case (_, "compact"), (_, "regular"):
                let sizeClass = LayoutTraits.SizeClass(rawValue: value)!
                if axis == "w" { condition.horizontal = sizeClass } else { condition.vertical = sizeClass }
            case ("w", "portrait"), ("w", "landscape"): condition.orientation = LayoutTraits.Orientation(rawValue: value)!
            case ("w", "any"): sawAny = true
            default:
                throw scanner.error("unknown section '\(value)'; expected w:compact, w:regular, h:compact, h:regular, portrait, landscape, compact, regular or any", at: column)
            }
            _ = scanner.accept(",")
        }
        guard scanner.atEndOfLine else { throw scanner.error("expected the end of the line after ']', found \(scanner.found)") }
        if sawAny && condition != .any { throw scanner.error("'any' cannot be combined with other conditions") }
        return condition
    }

    /// `A.attr REL [m *] B.attr [+|- c] [@p]` or `A.attr REL c [@p]`.
    static func constraint(_ scanner: inout LineScanner, _ document: LayoutDocument, source: String,
                           condition: Condition) throws -> LayoutConstraint {
        let first = try anchor(&scanner, document)
        let relation = try self.relation(&scanner)
        var multiplier = 1.0
        var second: LayoutConstraint.Anchor?
        var constant = 0.0
        // Either a number (maybe a multiplier), or an anchor.
        let start = scanner.position
        if let value = try value(&scanner, document, allowIdentifierMetric: true) {
            if scanner.accept("*") {
                multiplier = value
                second = try anchor(&scanner, document)
            } else {
                constant = value
            }
        } else {
            scanner.position = start
            second = try anchor(&scanner, document)
        }
        if second != nil {
            if scanner.accept("+") {
                guard let c = try value(&scanner, document, allowIdentifierMetric: true) else {
                    throw scanner.error("expected a number after '+', found \(scanner.found)")
                }
                constant = c
            } else if scanner.accept("-") {
                guard let c = try value(&scanner, document, allowIdentifierMetric: true) else {
                    throw scanner.error("expected a number after '-', found \(scanner.found)")
                }
                constant = -c
            }
        }
        let priority = scanner.accept("@") ? try self.priority(&scanner, document) : 1000
        return LayoutConstraint(first, relation, multiplier: multiplier, second, constant: constant, priority: priority,
                                source: source, condition: condition)
    }

    static func anchor(_ scanner: inout LineScanner, _ document: LayoutDocument) throws -> LayoutConstraint.Anchor {
        let column = scanner.columnAfterSpaces
        guard let item = scanner.identifier() else { throw scanner.error("expected an anchor such as main.width, found \(scanner.found)") }
        guard item == LayoutDocument.container || document.views.contains(item) || document.guides.contains(item) else {
            throw scanner.error("unknown item '\(item)'; declare it with 'view \(item)' or 'guide \(item)', or use 'super' for the container", at: column)
        }
        try scanner.expect(".", "'.' and an attribute after '\(item)'")
        let attributeColumn = scanner.columnAfterSpaces
        guard let name = scanner.identifier(), let attribute = Attribute(rawValue: name) else {
            throw scanner.error("expected an attribute: \(Attribute.names)", at: attributeColumn)
        }
        return .init(item, attribute)
    }

    static func relation(_ scanner: inout LineScanner) throws -> Constraint.Relation {
        if scanner.accept("==") { return .equal }
        if scanner.accept("<=") { return .lessOrEqual }
        if scanner.accept(">=") { return .greaterOrEqual }
        throw scanner.error("expected a relation (==, <= or >=), found \(scanner.found)")
    }

    /// A number, `-number`, or a metric's name; nil (position unchanged) when there is none.
    static func value(_ scanner: inout LineScanner, _ document: LayoutDocument, allowIdentifierMetric: Bool) throws -> Double? {
        let start = scanner.position
        let negative = scanner.accept("-")
        if let n = scanner.number() { return negative ? -n : n }
        if allowIdentifierMetric {
            let column = scanner.columnAfterSpaces
            if let name = scanner.identifier() {
                if let metric = document.metrics[name], !scanner.peekIs(".") { return negative ? -metric : metric }
                if !scanner.peekIs("."), !document.views.contains(name), !document.guides.contains(name),
                   name != LayoutDocument.container {
                    throw scanner.error("unknown metric '\(name)'; declare it with 'metric \(name) = NUMBER'", at: column)
                }
            }
        }
        scanner.position = start
        return nil
    }

    /// 1-1000, `required`, `high`, `low`, or a metric.
    static func priority(_ scanner: inout LineScanner, _ document: LayoutDocument) throws -> Int {
        let column = scanner.columnAfterSpaces
        if let n = scanner.number() {
            guard n == n.rounded(), (1...1000).contains(n) else {
                throw scanner.error("expected a priority from 1 to 1000 (or required, high, low), found \(n.text)", at: column)
            }
            return Int(n)
        }
        if let word = scanner.identifier() {
            switch word {
            case "required": return 1000
            case "high": return 750
            case "low": return 250
            default:
                if let m = document.metrics[word], m == m.rounded(), (1...1000).contains(m) { return Int(m) }
            }
        }
        throw scanner.error("expected a priority from 1 to 1000, required, high or low", at: column)
    }

    static func fileName(_ path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }
}

extension Substring {
    var trimmingSpaces: String {
        var s = self
        while let f = s.first, f == " " || f == "\t" { s.removeFirst() }
        while let l = s.last, l == " " || l == "\t" || l == "\r" { s.removeLast() }
        return String(s)
    }
}
