import CYAML
import Vocabulary

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
///
/// Each open collection is changed in place where it stands on the stack (`stack[last].nodes.append`): taking
/// it off the stack into a variable and back kept a second reference to its items, so every append copied
/// them, and a list of 40,000 items took 12.7 s. Nesting is limited to `maximumDepth`: a node tree is freed
/// recursively, and a 100,000-deep one overflowed the stack (SIGSEGV) instead of being refused.
private struct Builder {
    /// How deep mappings and lists may nest: far deeper than any file traitd reads needs.
    static let maximumDepth = 64

    struct Open {
        enum Kind { case mapping, sequence }
        var kind: Kind
        var mark: Mark
        var anchor: String?
        /// A list's items.
        var nodes: [Node] = []
        /// A mapping's entries, the keys it has and the key waiting for its value.
        var entries: [(key: Node, value: Node)] = []
        var keys: Set<String> = []
        var pendingKey: Node?

        var node: Node {
            switch kind {
            case .mapping: return .mapping(Node.Mapping(entries: entries, mark: mark))
            case .sequence: return .sequence(Node.NodeList(nodes: nodes, mark: mark))
            }
        }
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
            try open(Open(kind: .mapping, mark: mark, anchor: Self.string(event.data.mapping_start.anchor)))
        case YAML_SEQUENCE_START_EVENT:
            try open(Open(kind: .sequence, mark: mark, anchor: Self.string(event.data.sequence_start.anchor)))
        case YAML_MAPPING_END_EVENT, YAML_SEQUENCE_END_EVENT:
            guard let closed = stack.popLast() else { break }
            try add(closed.node, anchor: closed.anchor)
        default:
            break
        }
        return false
    }

    private mutating func open(_ collection: Open) throws(YAMLSyntaxError) {
        guard stack.count < Self.maximumDepth else {
            throw YAMLSyntaxError(mark: collection.mark, message: "mappings and lists nested more than \(Self.maximumDepth) deep")
        }
        stack.append(collection)
    }

    /// Puts a finished node where it belongs: the key or value of the open mapping, the next item of the open
    /// list, or the document.
    private mutating func add(_ node: Node, anchor: String?) throws(YAMLSyntaxError) {
        if let anchor { anchors[anchor] = node }
        guard !stack.isEmpty else {
            document = node
            return
        }
        let top = stack.count - 1
        switch stack[top].kind {
        case .mapping:
            if let key = stack[top].pendingKey {
                stack[top].entries.append((key, node))
                stack[top].pendingKey = nil
            } else {
                if let name = node.string, !stack[top].keys.insert(name).inserted {
                    throw YAMLSyntaxError(mark: node.mark!, message: "duplicate key \(name.shortened)")
                }
                stack[top].pendingKey = node
            }
        case .sequence:
            stack[top].nodes.append(node)
        }
    }

    private static func string(_ pointer: UnsafeMutablePointer<yaml_char_t>?) -> String? {
        pointer.map { String(cString: $0) }
    }
}
