import Vocabulary

/// A page's accessibility snapshot (`AriaSnapshot`, the format desktop apps have too), from Chromium's own
/// accessibility tree (`Accessibility.getFullAXTree`): what a screen reader is given. ARIA's roles and names as
/// Chromium computes them, and the states a snapshot writes (`checked`, `disabled`, `expanded`, `level`,
/// `pressed`, `selected`). What only arranges others is left out and its children take its place, as Playwright
/// leaves it out: nodes Chromium ignores (hidden, `aria-hidden`), `generic` and `none`, Chromium's own internal
/// roles (capitalised: `LabelText`, `ListMarker`, `InlineTextBox`...), and ARIA's text-level roles (`strong`,
/// `code`...), whose text joins the text around it. A text that says its parent's name again is left out (a
/// link's own text).
enum WebAria {
    /// The page's nodes under its root (the document), from `getFullAXTree`'s list (the root first).
    static func nodes(_ tree: [AXNode]) -> [AriaNode] {
        guard let root = tree.first else { return [] }
        var byId: [String: AXNode] = [:]
        for node in tree where byId[node.nodeId] == nil { byId[node.nodeId] = node }
        var visited: Set<String> = [root.nodeId]
        func convert(_ id: String, depth: Int) -> [AriaNode] {
            // A node met twice (a malformed tree) or nested past any real page's depth is not followed further.
            guard depth < maximumDepth, let node = byId[id], visited.insert(id).inserted else { return [] }
            let children = merged((node.childIds ?? []).flatMap { convert($0, depth: depth + 1) })
            let role = node.role?.value?.text ?? ""
            if node.ignored { return children }
            switch role {
            case "StaticText": return [AriaNode(role: AriaNode.textRole, name: node.name?.value?.text ?? "")]
            case "InlineTextBox", "LineBreak", "ListMarker": return []
            case _ where flattened.contains(role) || role.first?.isUppercase == true: return children
            default: break
            }
            let name = AriaSnapshot.normalised(node.name?.value?.text ?? "")
            let kept = children.filter { !($0.role == AriaNode.textRole && $0.name == name) }
            return [AriaNode(role: renamed[role] ?? role, name: name, attributes: attributes(of: node), children: kept)]
        }
        return merged((root.childIds ?? []).flatMap { convert($0, depth: 1) })
    }

    /// Deeper than this no page nests what a person reads; a page that does is not followed (nor can it stop the
    /// bridge's recursion).
    static let maximumDepth = 256

    /// Chromium's names for roles that ARIA (and Playwright) name otherwise.
    static let renamed = ["image": "img"]

    /// Roles that arrange others or mark up text within a line: their children take their place.
    static let flattened: Set<String> = [
        "generic", "none", "presentation", "code", "emphasis", "strong", "subscript", "superscript", "mark",
        "deletion", "insertion", "time",
    ]

    /// Side-by-side texts (split by a `<strong>` left out) as one, their white space collapsed; empty texts left out.
    private static func merged(_ nodes: [AriaNode]) -> [AriaNode] {
        var out: [AriaNode] = []
        for node in nodes {
            if node.role == AriaNode.textRole, let last = out.last, last.role == AriaNode.textRole {
                out[out.count - 1].name += node.name
            } else {
                out.append(node)
            }
        }
        return out.compactMap { node in
            guard node.role == AriaNode.textRole else { return node }
            let text = AriaSnapshot.normalised(node.name)
            return text.isEmpty ? nil : AriaNode(role: AriaNode.textRole, name: text)
        }
    }

    /// The node's states as a snapshot writes them, in Playwright's order.
    private static func attributes(of node: AXNode) -> [String] {
        var values: [String: AXValue.Value] = [:]
        for property in node.properties ?? [] { if let value = property.value.value { values[property.name] = value } }
        func on(_ name: String) -> Bool { values[name]?.text == "true" }
        var attributes: [String] = []
        if on("checked") { attributes.append("checked") } else if values["checked"]?.text == "mixed" { attributes.append("checked=mixed") }
        if on("disabled") { attributes.append("disabled") }
        if on("expanded") { attributes.append("expanded") }
        if let level = values["level"]?.text, !level.isEmpty { attributes.append("level=\(level)") }
        if on("pressed") { attributes.append("pressed") } else if values["pressed"]?.text == "mixed" { attributes.append("pressed=mixed") }
        if on("selected") { attributes.append("selected") }
        return attributes
    }

    /// A node of `Accessibility.getFullAXTree`'s answer, as far as a snapshot reads it.
    struct AXNode: Decodable {
        let nodeId: String
        let ignored: Bool
        let role: AXValue?
        let name: AXValue?
        let properties: [AXProperty]?
        let childIds: [String]?
    }

    struct AXProperty: Decodable {
        let name: String
        let value: AXValue
    }

    /// A value of the protocol's `AXValue`: a string, a number or a boolean.
    struct AXValue: Decodable {
        let value: Value?

        enum Value: Decodable {
            case string(String), number(Double), boolean(Bool)

            init(from decoder: any Decoder) throws {
                let single = try decoder.singleValueContainer()
                if let flag = try? single.decode(Bool.self) { self = .boolean(flag) }
                else if let number = try? single.decode(Double.self) { self = .number(number) }
                else { self = .string(try single.decode(String.self)) }
            }

            /// As text: `true`, `2`, `mixed`.
            var text: String {
                switch self {
                case .string(let text): text
                case .number(let number): number == number.rounded() && abs(number) < 1e15 ? String(Int(number)) : String(number)
                case .boolean(let flag): flag ? "true" : "false"
                }
            }
        }

        private enum CodingKeys: String, CodingKey { case value }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            value = try? container.decodeIfPresent(Value.self, forKey: .value)
        }
    }
}
