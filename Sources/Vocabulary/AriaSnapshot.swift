/// A window's accessibility tree as assistive technology meets it, written as Playwright writes its aria
/// snapshots (`toMatchAriaSnapshot`), one format for web pages (Chromium's accessibility tree) and desktop apps
/// (AT-SPI): a line per node, `- ROLE "NAME" [ATTRIBUTE]...`, ending in `:` when children follow, indented two
/// spaces under it; text as `- text: "..."`. Roles are ARIA's (`button`, `link`, `heading`, `checkbox`, `tab`...)
/// whatever the toolkit calls them; the attributes are Playwright's, in its order: `checked` (or
/// `checked=mixed`), `disabled`, `expanded`, `level=N`, `pressed`, `selected`.
///
/// A golden snapshot is matched strictly: the same lines in the same order, each node's role and attributes as
/// they are, and its name as written or, written `/PATTERN/`, as a regular expression found in the name (as
/// Playwright matches them). Strict because a subset match lets a test pass that should fail (a missing button
/// matches nothing and so nothing fails).
public struct AriaNode: Sendable, Equatable {
    public var role: String
    public var name: String
    /// Written as they are, in Playwright's order: `checked`, `disabled`, `level=2`.
    public var attributes: [String]
    public var children: [AriaNode]

    public init(role: String, name: String = "", attributes: [String] = [], children: [AriaNode] = []) {
        self.role = role
        self.name = name
        self.attributes = attributes
        self.children = children
    }

    /// The role text has: a run of text that is not a node of its own.
    public static let textRole = "text"
}

public enum AriaSnapshot {
    /// Playwright's attributes, in the order they are written.
    public static let attributeOrder = ["checked", "disabled", "expanded", "level", "pressed", "selected"]

    /// The snapshot's text, a line a node, at most `maximumLines` (then a comment says how many more there were:
    /// a page of thousands of nodes still fits a report).
    public static func yaml(_ roots: [AriaNode], maximumLines: Int = 1500) -> String {
        var lines: [String] = []
        var left = 0
        func write(_ node: AriaNode, depth: Int) {
            guard lines.count < maximumLines else { left += 1 + count(node.children); return }
            let indent = String(repeating: "  ", count: depth)
            if node.role == AriaNode.textRole {
                lines.append("\(indent)- text: \(quoted(node.name))")
                return
            }
            var line = "\(indent)- \(node.role)"
            if !node.name.isEmpty { line += " " + quoted(node.name) }
            for attribute in node.attributes { line += " [\(attribute)]" }
            lines.append(node.children.isEmpty ? line : line + ":")
            for child in node.children { write(child, depth: depth + 1) }
        }
        func count(_ nodes: [AriaNode]) -> Int { nodes.reduce(0) { $0 + 1 + count($1.children) } }
        for root in roots { write(root, depth: 0) }
        if left > 0 { lines.append("# ... \(left) more nodes") }
        return lines.map { $0 + "\n" }.joined()
    }

    /// A name or a text as a snapshot holds it: its runs of white space one space, none at either end (as a
    /// screen reader reads it, and as Playwright writes it).
    public static func normalised(_ text: String) -> String {
        text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// A name as a YAML double-quoted string: `"` and `\` escaped, control characters as `\n`, `\t` or `\u00XX`.
    public static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7f:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// Why `snapshot` does not match the golden `template` (the first line that differs, or how many lines each
    /// has), or nil when it matches. Blank lines and `#` comments are not compared.
    public static func mismatch(template: String, snapshot: String) -> String? {
        let expected = significant(template), actual = significant(snapshot)
        for (index, (golden, line)) in zip(expected, actual).enumerated() where !lineMatches(golden, line) {
            return "line \(index + 1): the golden has `\(golden)`, the snapshot `\(line)`"
        }
        guard expected.count == actual.count else {
            let (longer, which) = expected.count > actual.count ? (expected, "the golden") : (actual, "the snapshot")
            return "the golden has \(expected.count) lines, the snapshot \(actual.count): \(which) goes on with "
                + "`\(longer[min(expected.count, actual.count)])`"
        }
        return nil
    }

    /// Whether a snapshot's line matches a golden line: equal, or equal but for a name written `/PATTERN/` in the
    /// golden that the line's name contains a match of.
    public static func lineMatches(_ golden: String, _ line: String) -> Bool {
        if golden == line { return true }
        guard let template = Line(golden), let node = Line(line), case .pattern(let pattern) = template.name,
              case .text(let name) = node.name, template.prefix == node.prefix, template.suffix == node.suffix,
              let regex = try? Regex(pattern) else { return false }
        return (try? regex.firstMatch(in: name)) != nil
    }

    /// The lines that are compared: not blank, not a comment.
    private static func significant(_ text: String) -> [String] {
        text.split(separator: "\n").map { $0.hasSuffix("\r") ? String($0.dropLast()) : String($0) }.filter { line in
            let trimmed = line.drop { $0 == " " }
            return !trimmed.isEmpty && !trimmed.hasPrefix("#")
        }
    }

    /// A snapshot line cut around its name: what comes before it (the indent and `- role ` or `- text: `), the
    /// name (quoted text, or a `/PATTERN/` in a golden), and what follows (attributes, a colon).
    struct Line {
        enum Name: Equatable { case text(String), pattern(String) }
        let prefix: String
        let name: Name
        let suffix: String

        init?(_ line: String) {
            let scalars = Array(line.unicodeScalars)
            func text(_ range: Range<Int>) -> String { String(String.UnicodeScalarView(scalars[range])) }
            // The name starts at the first `"` or `/` after the dash.
            guard var index = scalars.firstIndex(of: "-") else { return nil }
            while index < scalars.count, scalars[index] != "\"", scalars[index] != "/" { index += 1 }
            guard index < scalars.count else { return nil }
            let start = index
            if scalars[index] == "\"" {
                var value = String.UnicodeScalarView()
                index += 1
                while index < scalars.count, scalars[index] != "\"" {
                    guard scalars[index] == "\\", index + 1 < scalars.count else {
                        value.append(scalars[index])
                        index += 1
                        continue
                    }
                    index += 1
                    switch scalars[index] {
                    case "n": value.append("\n")
                    case "t": value.append("\t")
                    case "u" where index + 4 < scalars.count:
                        if let code = UInt32(text((index + 1)..<(index + 5)), radix: 16), let scalar = Unicode.Scalar(code) {
                            value.append(scalar)
                        }
                        index += 4
                    default: value.append(scalars[index])
                    }
                    index += 1
                }
                guard index < scalars.count else { return nil }
                name = .text(String(value))
            } else {
                // A pattern ends at the last unescaped `/` of the line.
                var at = index + 1, close: Int?
                while at < scalars.count {
                    if scalars[at] == "\\" { at += 2; continue }
                    if scalars[at] == "/" { close = at }
                    at += 1
                }
                guard let close else { return nil }
                name = .pattern(text((start + 1)..<close))
                index = close
            }
            prefix = text(0..<start)
            suffix = text((index + 1)..<scalars.count)
        }
    }
}
