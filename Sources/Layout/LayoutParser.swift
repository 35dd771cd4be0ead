import Vocabulary
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
///     A.attr REL [NUMBER *] body  ...        the body text size of the current Dynamic Type category (points),
///                                           wherever a constant is: row.height >= 1.5 * body, a.top == b.bottom + body
///     H:|-[main]-[support(<=374@1000,==main@750)]-|     Apple's visual format language
///     [CONDITION]                 a section: what follows applies only where the condition holds
///     hide A B                    inside a section: those items are not installed there
///     kind KIND A B               what views A and B are, for traitd's layout checks: background, container,
///                                 content (a view without a kind), control or text; outside any section
///     extra NAME = VALUE          reported beside the frames where the section holds (see `ExtraValue`)
///     breakpoint NAME CONDITION   a breakpoint in libadwaita's syntax (`max-width: 500sp`), before any section;
///                                 NAME is then a condition of sections (`[narrow]`, `[not narrow and dark]`)
///     [any]                       back to unconditional
///
/// A CONDITION (see `Condition`) combines, with `and` (or `,`, or nothing), `or`, `not` and parentheses:
/// `w:compact` `w:regular` `h:compact` `h:regular` (`compact` and `regular` alone are `w:`), `portrait`
/// `landscape`, `phone` `pad`, `split` (the window is narrower than the screen), and `min-width: N`
/// `max-width: N` `min-height: N` `max-height: N` (points, inclusive), `min-aspect-ratio: R`
/// `max-aspect-ratio: R` (width / height, as `4/3` or `1.5`, inclusive).
///
/// REL is `==`, `<=` or `>=`; PRIORITY is 1-1000, `required` (1000), `high` (750) or `low` (250); the
/// container is `super` and its safe area the guide `safe` (UIKit's `safeAreaLayoutGuide`); attributes are
/// left right top bottom leading trailing width height centerX centerY.
/// Every error is `file:line:column: expected ...`.
public enum LayoutParser {
    /// The built-in guides, as errors name them.
    static let builtInGuideDescription = "'safe' for the safe area, 'safeHorizontal' and 'safeVertical' for it past the window controls, 'keyboard' for the keyboard"
    /// The document `text` describes; `file` names it in errors. Throws `LayoutError.syntax` at the first error.
    public static func parse(_ text: String, file: String) throws -> LayoutDocument {
        var document = LayoutDocument(file: file)
        var condition = Condition.any
        var sectionSeen = false
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
                condition = try section(&scanner, breakpoints: document.breakpoints)
                sectionSeen = true
                continue
            }
            let wordColumn = scanner.columnAfterSpaces
            guard let word = scanner.identifier() else {
                throw scanner.error("expected a declaration (view, guide, metric, app, hide, extra, kind, keyboard, breakpoint), a constraint, a section or an H:/V: line, found \(scanner.found)")
            }
            switch word {
            case "kind" where !scanner.peekIs("."):  // `kind.width == 10` is a constraint on a view named kind
                guard condition == .any else {
                    throw scanner.error("a view's kind holds in every section; declare it before the first section or after [any]", at: wordColumn)
                }
                let kindColumn = scanner.columnAfterSpaces
                guard let word = scanner.identifier() else {
                    throw scanner.error("expected a kind (\(ElementKind.wordList)), found \(scanner.found)", at: kindColumn)
                }
                guard let kind = ElementKind(rawValue: word) else {
                    throw scanner.error("unknown kind '\(word)'; expected one of: \(ElementKind.wordList)", at: kindColumn)
                }
                var names: [String] = []
                while !scanner.atEndOfLine {
                    let column = scanner.columnAfterSpaces
                    guard let name = scanner.identifier() else { throw scanner.error("expected a view name, found \(scanner.found)") }
                    guard document.views.contains(name) else {
                        throw scanner.error(document.guides.contains(name)
                                            ? "'\(name)' is a guide; guides draw nothing, so they have no kind"
                                            : "unknown view '\(name)'; declare it with 'view \(name)' first", at: column)
                    }
                    guard document.kinds[name] == nil else {
                        throw scanner.error("'\(name)' already has the kind \(document.kinds[name]!)", at: column)
                    }
                    names.append(name)
                }
                if names.isEmpty { throw scanner.error("expected at least one view after 'kind \(kind)'") }
                for name in names { document.kinds[name] = kind }
            case "keyboard" where !scanner.peekIs("."):  // `keyboard.top == ...` is a constraint on the guide
                let column = scanner.columnAfterSpaces
                guard scanner.identifier(allowDash: true) == "follows-undocked", scanner.atEndOfLine else {
                    throw scanner.error("expected 'keyboard follows-undocked' (the keyboard guide also tracks an undocked, split or floating keyboard)", at: column)
                }
                document.followsUndockedKeyboard = true
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
                    guard !LayoutDocument.builtInItems.contains(name) else {
                        throw scanner.error("'\(name)' is a guide there in every layout (\(Self.builtInGuideDescription)); choose another name", at: column)
                    }
                    guard !document.views.contains(name), !document.guides.contains(name), !names.contains(name) else {
                        throw scanner.error("'\(name)' is declared twice", at: column)
                    }
                    names.append(name)
                }
                if names.isEmpty { throw scanner.error("expected at least one name after '\(word)'") }
                if word == "view" { document.views += names } else { document.guides += names }
            case "breakpoint" where !scanner.peekIs("."):  // `breakpoint.width == 10` is a constraint on a view named so
                guard !sectionSeen else {
                    throw scanner.error("'breakpoint' declares a breakpoint for the whole file; put it before the first section", at: wordColumn)
                }
                let nameColumn = scanner.columnAfterSpaces
                guard let name = scanner.identifier(allowDash: true), !scanner.peekIs(".") else {
                    throw scanner.error("expected the breakpoint's name (letters, digits, '-' and '_': a word a section can name), found \(scanner.found)", at: nameColumn)
                }
                if let problem = SceneDeclarations.breakpointNameProblem(name) { throw scanner.error(problem, at: nameColumn) }
                guard !isConditionWord(name) else {
                    throw scanner.error("'\(name)' is a condition already; name the breakpoint otherwise", at: nameColumn)
                }
                guard document.breakpoints[name] == nil else {
                    throw scanner.error("the breakpoint '\(name)' is declared twice", at: nameColumn)
                }
                guard document.breakpoints.count < SceneDeclarations.maximumBreakpoints else {
                    throw scanner.error("a layout has at most \(SceneDeclarations.maximumBreakpoints) breakpoints (what SetBreakpoints takes)", at: wordColumn)
                }
                scanner.skip()
                let start = scanner.position
                var text = String(scanner.characters[start...])
                while text.last == " " || text.last == "\t" { text.removeLast() }
                do throws(BreakpointCondition.SyntaxError) {
                    document.breakpoints[name] = try BreakpointCondition(parsing: text)
                } catch {
                    // The parser's column counts the text's bytes (as libadwaita's does); the file's, characters.
                    let characters = String(decoding: text.utf8.prefix(max(0, error.column - 1)), as: UTF8.self).count
                    throw scanner.error("\(error.problem): expected \(error.expected) (libadwaita's breakpoint condition)",
                                        at: start + characters + 1)
                }
                scanner.position = scanner.characters.count
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
            case "extra":
                guard let name = scanner.identifier(allowDash: true) else {
                    throw scanner.error("expected the extra's name, found \(scanner.found)")
                }
                try scanner.expect("=", "'=' after the extra's name")
                document.extras.append((condition, name, try extraValue(&scanner, document)))
            default:
                scanner.position = wordColumn - 1
                document.constraints.append(try constraint(&scanner, document, source: source, condition: condition))
            }
            guard scanner.atEndOfLine else { throw scanner.error("expected the end of the line, found \(scanner.found)") }
        }
        return document
    }

    /// `[w:compact landscape]`, `[min-width: 600 and not phone]` (the `[` already read): see `Condition`.
    static func section(_ scanner: inout LineScanner, breakpoints: [String: BreakpointCondition] = [:]) throws -> Condition {
        let start = scanner.columnAfterSpaces
        let condition = try orCondition(&scanner, depth: 0, breakpoints)
        try scanner.expect("]", "']' or 'and', 'or' after the condition")
        guard scanner.atEndOfLine else {
            throw scanner.error("expected the end of the line after ']', found \(scanner.found)", at: scanner.columnAfterSpaces)
        }
        if condition != .any && condition.mentionsAny {
            throw scanner.error("'any' cannot be combined with other conditions", at: start)
        }
        return condition
    }

    static let conditionWords = "w:compact, w:regular, h:compact, h:regular, compact, regular, portrait, landscape, phone, "
        + "pad, split, min-width:, max-width:, min-height:, max-height:, min-aspect-ratio:, max-aspect-ratio:, "
        + traitConditionWords.joined(separator: ", ") + ", content-size >=|<=|== CATEGORY, not, '(' or any"

    /// Whether `word` begins a condition of the language (`dark`, `compact`, `min-width`, `not`...), which no
    /// breakpoint may be named: asked of the condition parser itself, so that the words are listed once, there.
    static func isConditionWord(_ word: String) -> Bool {
        if ["and", "or"].contains(word) { return true }  // joiners, not conditions: a section could not name it
        var scanner = LineScanner(file: "", line: 0, text: Substring(word))
        do {
            _ = try unaryCondition(&scanner, depth: 0, [:])
            return true
        } catch let LayoutError.syntax(_, _, _, message) {
            return !message.hasPrefix("unknown condition")
        } catch {
            return true
        }
    }

    /// The display-wide settings' condition words (`dark`, `right-to-left`, ...), from `DisplayTrait.all`.
    static let traitConditions: [String: (DisplayTrait, String)] = Dictionary(uniqueKeysWithValues:
        DisplayTrait.all.flatMap { trait in trait.conditions.map { ($0.key, (trait, $0.value)) } })
    static let traitConditionWords = DisplayTrait.all.flatMap { $0.conditions.keys.sorted() }

    /// How deep `not` and parentheses may nest: the parser recurses once per level, and a line of ten
    /// thousand `(` must be an error, not a stack overflow.
    static let maximumConditionDepth = 32

    /// `A or B or ...`
    static func orCondition(_ scanner: inout LineScanner, depth: Int, _ breakpoints: [String: BreakpointCondition]) throws -> Condition {
        var parts = [try andCondition(&scanner, depth: depth, breakpoints)]
        while scanner.acceptWord("or") { parts.append(try andCondition(&scanner, depth: depth, breakpoints)) }
        return parts.count == 1 ? parts[0] : .or(parts)
    }

    /// `A and B`, `A, B`, `A B`: every part until `or`, `)` or `]`.
    static func andCondition(_ scanner: inout LineScanner, depth: Int, _ breakpoints: [String: BreakpointCondition]) throws -> Condition {
        var parts = [try unaryCondition(&scanner, depth: depth, breakpoints)]
        while true {
            if scanner.acceptWord("and") || scanner.accept(",") {
                parts.append(try unaryCondition(&scanner, depth: depth, breakpoints))
                continue
            }
            if scanner.atEndOfLine || scanner.peekIs("]") || scanner.peekIs(")") || scanner.peekWord("or") { break }
            parts.append(try unaryCondition(&scanner, depth: depth, breakpoints))
        }
        return parts.count == 1 ? parts[0] : .and(parts)
    }

    /// `not A`, `( A )`, or one test.
    static func unaryCondition(_ scanner: inout LineScanner, depth: Int, _ breakpoints: [String: BreakpointCondition]) throws -> Condition {
        if scanner.peekWord("not") || scanner.peekIs("(") {
            guard depth < maximumConditionDepth else {
                throw scanner.error("conditions nest at most \(maximumConditionDepth) deep (not and parentheses)",
                                    at: scanner.columnAfterSpaces)
            }
        }
        if scanner.acceptWord("not") { return .not(try unaryCondition(&scanner, depth: depth + 1, breakpoints)) }
        if scanner.accept("(") {
            let inner = try orCondition(&scanner, depth: depth + 1, breakpoints)
            try scanner.expect(")", "')' to close the '('")
            return inner
        }
        let column = scanner.columnAfterSpaces
        guard let word = scanner.identifier(allowDash: true) else {
            throw scanner.error("expected a condition (\(conditionWords)), found \(scanner.found)")
        }
        if (word == "w" || word == "h") && scanner.accept(":") {
            let valueColumn = scanner.columnAfterSpaces
            guard let v = scanner.identifier(), let sizeClass = SizeClass(rawValue: v) else {
                throw scanner.error("expected compact or regular after '\(word):'", at: valueColumn)
            }
            return word == "w" ? .horizontal(sizeClass) : .vertical(sizeClass)
        }
        switch word {
        case "any": return .any
        case "compact", "regular": return .horizontal(SizeClass(rawValue: word)!)
        case "portrait": return .portrait
        case "landscape": return .landscape
        case "phone", "pad": return .idiom(Idiom(rawValue: word)!)
        case "split": return .split
        case "content-size":
            let relationColumn = scanner.columnAfterSpaces
            guard let comparison = ContentSizeComparison.allCases.first(where: { scanner.accept($0.rawValue) }) else {
                throw scanner.error("expected >=, <= or == after 'content-size'", at: relationColumn)
            }
            let categoryColumn = scanner.columnAfterSpaces
            guard let name = scanner.identifier(allowDash: true), let category = ContentSizeCategory(rawValue: name) else {
                throw scanner.error("expected a content size category: \(DisplayTrait.contentSize.valueList)", at: categoryColumn)
            }
            return .contentSize(comparison, category)
        case "min-width", "max-width", "min-height", "max-height":
            try scanner.expect(":", "':' and a number of points after '\(word)'")
            let value = try points(&scanner, word)
            switch word {
            case "min-width": return .minWidth(value)
            case "max-width": return .maxWidth(value)
            case "min-height": return .minHeight(value)
            default: return .maxHeight(value)
            }
        case "min-aspect-ratio", "max-aspect-ratio":
            try scanner.expect(":", "':' and a ratio (such as 4/3 or 1.5) after '\(word)'")
            let ratio = try self.ratio(&scanner, word)
            return word == "min-aspect-ratio" ? .minAspectRatio(ratio) : .maxAspectRatio(ratio)
        default:
            if let (trait, value) = traitConditions[word] { return .trait(trait, value) }
            if let breakpoint = breakpoints[word] { return .breakpoint(word, breakpoint) }
            let declared = breakpoints.isEmpty ? "" : ", or a breakpoint: " + breakpoints.keys.sorted().joined(separator: ", ")
            throw scanner.error("unknown condition '\(word)'; expected \(conditionWords)\(declared)", at: column)
        }
    }

    /// A number of points, with an optional `pt`.
    static func points(_ scanner: inout LineScanner, _ what: String) throws -> Double {
        let column = scanner.columnAfterSpaces
        guard let value = scanner.number() else { throw scanner.error("expected a number of points after '\(what):', found \(scanner.found)") }
        _ = scanner.acceptWord("pt")
        guard value <= 100_000 else { throw scanner.error("\(what) must be at most 100000 points, not \(value.compact)", at: column) }
        return value
    }

    /// `W/H` or a number, positive.
    static func ratio(_ scanner: inout LineScanner, _ what: String) throws -> Double {
        let column = scanner.columnAfterSpaces
        guard let first = scanner.number() else {
            throw scanner.error("expected a ratio such as 4/3 or 1.5 after '\(what):', found \(scanner.found)")
        }
        var ratio = first
        if scanner.accept("/") {
            guard let second = scanner.number() else { throw scanner.error("expected a number after '/', found \(scanner.found)") }
            guard second > 0 else { throw scanner.error("the ratio's second number must not be 0", at: column) }
            ratio = first / second
        }
        guard ratio > 0, ratio.isFinite else { throw scanner.error("\(what) must be a positive ratio, not \(ratio.compact)", at: column) }
        return ratio
    }

    /// `fullScreen`, `"a string"`, `2`, `-1.5`, `true`, `0.7 * aspect-ratio` (see `ExtraValue`).
    static func extraValue(_ scanner: inout LineScanner, _ document: LayoutDocument) throws -> ExtraValue {
        let expected = "a value: a number, true, false, a word, a \"quoted string\", or [NUMBER *] width, height or aspect-ratio"
        if scanner.accept("\"") {
            var text = ""
            while let c = scanner.peek, c != "\"" {
                text.append(c)
                scanner.position += 1
            }
            try scanner.expect("\"", "'\"' to close the string")
            return .string(text)
        }
        let start = scanner.position
        if let number = try value(&scanner, document, allowIdentifierMetric: false) {
            guard scanner.accept("*") else { return .number(number) }
            let column = scanner.columnAfterSpaces
            guard let word = scanner.identifier(allowDash: true), let measure = ExtraValue.Measure(rawValue: word) else {
                throw scanner.error("expected width, height or aspect-ratio after '*'", at: column)
            }
            return .measure(measure, multiplier: number)
        }
        scanner.position = start
        guard let word = scanner.identifier(allowDash: true) else { throw scanner.error("expected \(expected), found \(scanner.found)") }
        switch word {
        case "true": return .bool(true)
        case "false": return .bool(false)
        default: return ExtraValue.Measure(rawValue: word).map { .measure($0, multiplier: 1) } ?? .string(word)
        }
    }

    /// `A.attr REL [m *] B.attr [+|- c] [@p]` or `A.attr REL c [@p]`.
    static func constraint(_ scanner: inout LineScanner, _ document: LayoutDocument, source: String,
                           condition: Condition) throws -> LayoutConstraint {
        let first = try anchor(&scanner, document)
        let relation = try self.relation(&scanner)
        var multiplier = 1.0
        var second: LayoutConstraint.Anchor?
        var constant = 0.0
        var body = 0.0
        // Either a number (maybe a multiplier, of an anchor or of the body text size), the body text size, or an
        // anchor.
        let start = scanner.position
        if let value = try value(&scanner, document, allowIdentifierMetric: true) {
            if scanner.accept("*") {
                if acceptBodyTextSize(&scanner) {
                    body = value
                } else {
                    multiplier = value
                    second = try anchor(&scanner, document)
                }
            } else {
                constant = value
            }
        } else if acceptBodyTextSize(&scanner) {
            body = 1
        } else {
            scanner.position = start
            second = try anchor(&scanner, document)
        }
        if second != nil {
            for (sign, symbol) in [(1.0, "+"), (-1.0, "-")] where scanner.accept(symbol) {
                if acceptBodyTextSize(&scanner) {
                    body = sign
                    break
                }
                guard let c = try value(&scanner, document, allowIdentifierMetric: true) else {
                    throw scanner.error("expected a number or \(bodyTextSize) after '\(symbol)', found \(scanner.found)")
                }
                if scanner.accept("*") {
                    guard acceptBodyTextSize(&scanner) else {
                        throw scanner.error("expected \(bodyTextSize) after '\(c.compact) *', found \(scanner.found)",
                                            at: scanner.columnAfterSpaces)
                    }
                    body = sign * c
                } else {
                    constant = sign * c
                }
                break
            }
        }
        let priority = scanner.accept("@") ? try self.priority(&scanner, document) : 1000
        var constraint = LayoutConstraint(first, relation, multiplier: multiplier, second, constant: constant,
                                          priority: priority, source: source, condition: condition)
        constraint.bodyMultiplier = body
        return constraint
    }

    /// The body text size's name in expressions (`ContentSizeCategory.bodySize` of the current category). Only
    /// Body: the reference's table gives its sizes; other text styles would need a source of their own.
    static let bodyTextSize = "body"

    /// `body` as the text size, not a view named `body` (`body.height`).
    static func acceptBodyTextSize(_ scanner: inout LineScanner) -> Bool {
        var copy = scanner
        guard copy.acceptWord(bodyTextSize), !copy.peekIs(".") else { return false }
        scanner = copy
        return true
    }

    static func anchor(_ scanner: inout LineScanner, _ document: LayoutDocument) throws -> LayoutConstraint.Anchor {
        let column = scanner.columnAfterSpaces
        guard let item = scanner.identifier() else { throw scanner.error("expected an anchor such as main.width, found \(scanner.found)") }
        guard LayoutDocument.builtInItems.contains(item) || document.views.contains(item) || document.guides.contains(item) else {
            throw scanner.error("unknown item '\(item)'; declare it with 'view \(item)' or 'guide \(item)', or use 'super' for the container or a built-in guide (\(Self.builtInGuideDescription))", at: column)
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
                if name == bodyTextSize, !scanner.peekIs(".") {
                    scanner.position = start
                    return nil
                }
                if !scanner.peekIs("."), !document.views.contains(name), !document.guides.contains(name),
                   !LayoutDocument.builtInItems.contains(name) {
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
                throw scanner.error("expected a priority from 1 to 1000 (or required, high, low), found \(n.compact)", at: column)
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

extension Condition {
    /// Whether `any` appears anywhere in it.
    var mentionsAny: Bool {
        switch self {
        case .any: return true
        case .not(let c): return c.mentionsAny
        case .and(let cs), .or(let cs): return cs.contains(where: \.mentionsAny)
        default: return false
        }
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
