import Vocabulary
import Layout

/// A declarative layout file (`*.layout`) as an adapter: its `app` line says which window, the file name is the
/// adapter's name (`support-panel.layout`), and the engine solves it for each window. Where its required
/// constraints conflict, it reports failed with the conflicting lines, never a made-up frame.
public struct FileAdapter: LayoutAdapter {
    public let name: String
    public let app: String
    public let document: LayoutDocument
    /// Where it was read from, for the log.
    public let path: String

    public init(document: LayoutDocument, name: String, app: String, path: String) {
        self.document = document
        self.name = name
        self.app = app
        self.path = path
    }

    public func layout(_ window: WindowContext) -> AdapterResult { .solving(document, in: window) }
    public var breakpoints: [String: BreakpointCondition] { document.breakpoints }
}

/// Reads layout files into adapters: the embedded ones first, then each directory in turn. A file with the same
/// name as an earlier one replaces it; a file that cannot be used is skipped, with its reason.
public struct LayoutFileLoader {
    /// What a load found: the adapters, in name order, and one line per file that was skipped or replaced.
    public struct Result: Sendable {
        public var adapters: [FileAdapter] = []
        /// `file:line:column: what was expected`, one per skipped file.
        public var problems: [String] = []
        /// Files that replaced an earlier file of the same name.
        public var replaced: [String] = []
    }

    /// A source of layout text: a path (for messages) and the text, or why it cannot be read.
    public typealias Source = (path: String, text: String?)

    public static func load(_ sources: [Source]) -> Result {
        var result = Result()
        var byName: [String: FileAdapter] = [:]
        for source in sources {
            let name = String(source.path.split(separator: "/").last ?? Substring(source.path))
            guard let text = source.text else {
                result.problems.append("\(source.path):1:1: cannot read the file")
                continue
            }
            guard isAdapterName(name) else {
                result.problems.append("\(source.path):1:1: the file name '\(name)' is the adapter's name, so it must be 1 to 64 of A-Z a-z 0-9 _ . -")
                continue
            }
            do {
                let document = try LayoutParser.parse(text, file: source.path)
                guard let app = document.app else {
                    result.problems.append("\(source.path):1:1: expected an 'app NAME' line naming the app whose window this file lays out")
                    continue
                }
                guard !document.views.isEmpty else {
                    result.problems.append("\(source.path):1:1: expected at least one 'view NAME' line; a layout with no views reports nothing")
                    continue
                }
                if let earlier = byName[name] { result.replaced.append("\(source.path) replaces \(earlier.path)") }
                byName[name] = FileAdapter(document: document, name: name, app: app, path: source.path)
            } catch {
                result.problems.append("\(error)")
            }
        }
        result.adapters = byName.keys.sorted().map { byName[$0]! }
        return result
    }

    /// The names the daemon accepts for adapters (see `RegisterAdapter`).
    static func isAdapterName(_ name: String) -> Bool {
        (1...64).contains(name.utf8.count) && name.utf8.allSatisfy {
            ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x41 && $0 <= 0x5a) || ($0 >= 0x61 && $0 <= 0x7a) || $0 == 0x5f || $0 == 0x2e || $0 == 0x2d
        }
    }
}
