import CYAML

/// A YAML node as libyaml reads it, with where it starts in the file.
///
/// traitd reads its config and device profiles with libyaml's event parser rather than a full YAML library:
/// the config needs mappings, lists and plain strings, and the library it used before (Yams) brought all of
/// Foundation and ICU into the daemon, a third of its memory (docs/measurements.md, "Memory"). Every scalar stays a string;
/// `YAMLReader` turns it into a number, a choice or a flag and says where it found something else.
indirect enum Node {
    case scalar(Scalar)
    case mapping(Mapping)
    case sequence(NodeList)

    /// 1-based, as in `file:line:column`.
    struct Mark: Equatable {
        var line: Int
        var column: Int
    }

    struct Scalar {
        var string: String
        var mark: Mark
    }

    /// Entries in the order the file has them.
    struct Mapping: Sequence {
        var entries: [(key: Node, value: Node)]
        var mark: Mark
        func makeIterator() -> IndexingIterator<[(key: Node, value: Node)]> { entries.makeIterator() }
    }

    struct NodeList: Sequence {
        var nodes: [Node]
        var mark: Mark
        func makeIterator() -> IndexingIterator<[Node]> { nodes.makeIterator() }
    }

    var mark: Mark? {
        switch self {
        case .scalar(let scalar): return scalar.mark
        case .mapping(let mapping): return mapping.mark
        case .sequence(let list): return list.mark
        }
    }

    /// The text of a scalar; nil for a mapping or a list.
    var string: String? {
        if case .scalar(let scalar) = self { return scalar.string }
        return nil
    }
}

typealias Mark = Node.Mark

/// What is wrong with a YAML text, and where.
struct YAMLSyntaxError: Error {
    var mark: Mark
    var message: String
}

enum YAMLDocument {
    /// The single document of `text` (nil for an empty text). Anchors and aliases are resolved; a key that
    /// appears twice in one mapping, or a second document, is an error.
    static func parse(_ text: String) throws(YAMLSyntaxError) -> Node? {
        var parser = yaml_parser_t()
        guard yaml_parser_initialize(&parser) == 1 else {
            throw YAMLSyntaxError(mark: Mark(line: 1, column: 1), message: "out of memory")
        }
        defer { yaml_parser_delete(&parser) }
        let bytes = Array(text.utf8)
        return try bytes.withUnsafeBufferPointer { (buffer) throws(YAMLSyntaxError) -> Node? in
            yaml_parser_set_input_string(&parser, buffer.baseAddress, buffer.count)
            var builder = Builder()
            while true {
                var event = yaml_event_t()
                guard yaml_parser_parse(&parser, &event) == 1 else { throw Self.error(of: parser) }
                defer { yaml_event_delete(&event) }
                if try builder.take(event) { return builder.document }
            }
        }
    }

    /// libyaml's problem and context, as Yams worded them ("did not find expected ',' or ']' (while parsing a
    /// flow sequence)").
    private static func error(of parser: yaml_parser_t) -> YAMLSyntaxError {
        let problem = parser.problem.map { String(cString: $0) } ?? "cannot be read"
        let detail = parser.context.map { "\(problem) (\(String(cString: $0)))" } ?? problem
        return YAMLSyntaxError(mark: mark(parser.problem_mark), message: detail)
    }

    fileprivate static func mark(_ mark: yaml_mark_t) -> Mark { Mark(line: Int(mark.line) + 1, column: Int(mark.column) + 1) }
}

/// Builds nodes from libyaml's events: a stack of the open mappings and lists.
private struct Builder {
    enum Open {
        case mapping(Node.Mapping, keys: Set<String>, pendingKey: Node?, anchor: String?)
        case sequence(Node.NodeList, anchor: String?)
    }

    var stack: [Open] = []
    var anchors: [String: Node] = [:]
    var document: Node?
    var documents = 0

    /// Takes one event; true at the end of the stream.
    mutating func take(_ event: yaml_event_t) throws(YAMLSyntaxError) -> Bool {
        let mark = YAMLDocument.mark(event.start_mark)
        switch event.type {
        case YAML_STREAM_END_EVENT:
            return true
        case YAML_DOCUMENT_START_EVENT:
            documents += 1
            if documents > 1 { throw YAMLSyntaxError(mark: mark, message: "expected a single document, found another") }
        case YAML_SCALAR_EVENT:
            let scalar = event.data.scalar
            let text = String(decoding: UnsafeBufferPointer(start: scalar.value, count: Int(scalar.length)), as: UTF8.self)
            try add(.scalar(Node.Scalar(string: text, mark: mark)), anchor: Self.string(scalar.anchor))
        case YAML_ALIAS_EVENT:
            let name = Self.string(event.data.alias.anchor) ?? ""
            guard let node = anchors[name] else { throw YAMLSyntaxError(mark: mark, message: "unknown alias '*\(name)'") }
            try add(node, anchor: nil)
        case YAML_MAPPING_START_EVENT:
            stack.append(.mapping(Node.Mapping(entries: [], mark: mark), keys: [], pendingKey: nil,
                                  anchor: Self.string(event.data.mapping_start.anchor)))
        case YAML_SEQUENCE_START_EVENT:
            stack.append(.sequence(Node.NodeList(nodes: [], mark: mark), anchor: Self.string(event.data.sequence_start.anchor)))
        case YAML_MAPPING_END_EVENT:
            guard case .mapping(let mapping, _, _, let anchor) = stack.removeLast() else { break }
            try add(.mapping(mapping), anchor: anchor)
        case YAML_SEQUENCE_END_EVENT:
            guard case .sequence(let list, let anchor) = stack.removeLast() else { break }
            try add(.sequence(list), anchor: anchor)
        default:
            break
        }
        return false
    }

    /// Puts a finished node where it belongs: the key or value of the open mapping, the next item of the open
    /// list, or the document.
    private mutating func add(_ node: Node, anchor: String?) throws(YAMLSyntaxError) {
        if let anchor { anchors[anchor] = node }
        guard let open = stack.popLast() else {
            document = node
            return
        }
        switch open {
        case .mapping(var mapping, var keys, let pendingKey, let anchor):
            if let key = pendingKey {
                mapping.entries.append((key, node))
                stack.append(.mapping(mapping, keys: keys, pendingKey: nil, anchor: anchor))
            } else {
                if let name = node.string, !keys.insert(name).inserted {
                    throw YAMLSyntaxError(mark: node.mark!, message: "duplicate key \(name)")
                }
                stack.append(.mapping(mapping, keys: keys, pendingKey: node, anchor: anchor))
            }
        case .sequence(var list, let anchor):
            list.nodes.append(node)
            stack.append(.sequence(list, anchor: anchor))
        }
    }

    private static func string(_ pointer: UnsafeMutablePointer<yaml_char_t>?) -> String? {
        pointer.map { String(cString: $0) }
    }
}
