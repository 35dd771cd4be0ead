import TraitModel
import Vocabulary

/// Reads typed values out of a YAML document, turning every mismatch into a `ConfigError` that points at the
/// node (`file:line:column: expected ...`).
struct YAMLReader {
    let file: String
    /// The device ids a scenario may name, when known (checked where they are written: `device`).
    var knownDevices: [String]? = nil

    /// A device id; one the catalog lacks (when `knownDevices` says) is an error at its node, with the nearest.
    func device(_ node: Node) throws -> String {
        let id = try string(node, what: "a device id")
        if let known = knownDevices, !known.contains(id) {
            throw fail(node, "unknown device '\(id.shortened)'; \(Suggestion.phrase(id, among: known))traitctl devices lists the \(known.count) there are")
        }
        return id
    }

    /// Parses `text`; a syntax error becomes a located `ConfigError`.
    func document(_ text: String) throws -> Node? {
        do {
            return try YAMLDocument.parse(text)
        } catch {
            throw ConfigError(file: file, line: error.mark.line, column: error.mark.column,
                              message: error.message.hasPrefix("duplicate key") ? error.message : "invalid YAML: \(error.message)")
        }
    }

    func fail(_ node: Node?, _ message: String) -> ConfigError {
        ConfigError(file: file, line: node?.mark?.line ?? 1, column: node?.mark?.column ?? 1, message: message)
    }

    /// The mapping's entries by key; keys outside `allowed` (when given) are an error that lists the allowed ones.
    func mapping(_ node: Node, what: String, allowed: [String]?) throws -> [String: Node] {
        Dictionary(try entries(node, what: what, allowed: allowed).map { ($0.key, $0.value) }, uniquingKeysWith: { _, last in last })
    }

    /// The mapping's entries in the file's order (the parser refuses a repeated key), with their key nodes for
    /// errors; keys outside `allowed` (when given) are an error that lists the allowed ones.
    func entries(_ node: Node, what: String, allowed: [String]?) throws -> [(key: String, value: Node, at: Node)] {
        guard case .mapping(let mapping) = node else { throw fail(node, "expected \(what) (a mapping of keys to values)") }
        return try mapping.map { key, value in
            guard let name = key.string else { throw fail(key, "expected a key name") }
            if let allowed, !allowed.contains(name) {
                throw fail(key, "unknown key '\(name.shortened)' in \(what); expected one of: \(allowed.joined(separator: ", "))")
            }
            return (name, value, key)
        }
    }

    func sequence(_ node: Node, what: String) throws -> [Node] {
        guard case .sequence(let sequence) = node else { throw fail(node, "expected \(what) (a list)") }
        return Array(sequence)
    }

    func string(_ node: Node, what: String) throws -> String {
        guard case .scalar(let scalar) = node, !scalar.string.isEmpty else {
            throw fail(node, "expected \(what) (a string)")
        }
        return scalar.string
    }

    func number(_ node: Node, what: String, range: ClosedRange<Double>) throws -> Double {
        guard case .scalar(let scalar) = node, let value = Double(scalar.string), value.isFinite else {
            throw fail(node, "expected \(what) (a number)")
        }
        guard range.contains(value) else {
            throw fail(node, "\(what) must be between \(range.lowerBound.compact) and \(range.upperBound.compact), not \(scalar.string)")
        }
        return value
    }

    /// A value of `trait` (`DisplayTrait.value(typed:)`: a flag takes YAML's booleans too).
    func value(_ node: Node, of trait: DisplayTrait) throws -> String {
        let text = try string(node, what: "a value of \(trait.word)")
        guard let value = trait.value(typed: text) else {
            throw fail(node, "unknown \(trait.word) '\(text.shortened)'; expected one of: \(trait.valueList)")
        }
        return value
    }

    /// `true` or `false` (YAML's spellings: also yes/no, on/off).
    func flag(_ node: Node, what: String) throws -> Bool {
        switch try string(node, what: what).lowercased() {
        case "true", "yes", "on": return true
        case "false", "no", "off": return false
        default: throw fail(node, "expected \(what)")
        }
    }

    func choice<T: RawRepresentable & CaseIterable>(_ node: Node, what: String, _: T.Type) throws -> T
    where T.RawValue == String {
        let text = try string(node, what: what)
        guard let value = T(rawValue: text) else {
            throw fail(node, "unknown \(what) '\(text.shortened)'; expected one of: \(T.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return value
    }
}
