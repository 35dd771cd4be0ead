import DBus
import Synchronization
import Vocabulary

/// Reading a tree in bulk: `org.a11y.atspi.Cache.GetItems` gives every accessible object the app has shown a
/// client, with its role, name, state, parent and place among its parent's children, in one call; only the
/// extents are left to ask for, one call a visible node, all at once. Beside the walk's five calls a node, level
/// by level, that is about a sixth of the calls and two round trips' wait instead of the tree's depth's.
///
/// The app's cache holds only what some client has asked it for (GTK 4 registers an object the first time
/// another object's children name it), so a node's children are trusted only when the cache holds exactly as
/// many, at the places 0..<count, as the node says it has; otherwise (a first read, a widget the app made
/// since) the tree is walked, which also fills the cache for the next read.
extension AccessibilityReader {
    /// One object of `GetItems`' answer (`a((so)(so)(so)iiassusau)`), parsed once.
    struct CachedAccessible {
        let path: String
        let parent: String
        let indexInParent: Int
        let childCount: Int
        let hasComponent: Bool
        let name: String
        let role: UInt32
        let states: [UInt32]

        init?(_ value: DBusValue) {
            guard let fields = value.elements, fields.count == 10,
                  let path = fields[0].elements?.last?.string, let parent = fields[2].elements?.last?.string,
                  case .int32(let index) = fields[3], case .int32(let count) = fields[4],
                  let interfaces = fields[5].strings, let name = fields[6].string, case .uint32(let role) = fields[7],
                  fields[9].elements != nil
            else { return nil }
            self.path = path
            self.parent = parent
            indexInParent = Int(index)
            childCount = Int(count)
            hasComponent = interfaces.contains(Self.component)
            self.name = name
            self.role = role
            states = AccessibilityReader.states(fields[9])
        }

        private static let component = "org.a11y.atspi.Component"
    }

    /// The tree under `path` from the app's cache, with every visible node's extents; nil when the cache cannot
    /// tell it whole (the app has no cache, or lacks some visible node's children), and `.some(nil)` when the
    /// node itself is not visible.
    func cachedTree(bus: String, path: String) async throws -> AccessibleNode?? {
        guard let reply = try? await connection.call(
            destination: bus, path: "/org/a11y/atspi/cache", interface: "org.a11y.atspi.Cache", member: "GetItems",
            timeout: Self.timeout), let list = reply.first?.elements
        else { return nil }
        var byPath: [String: CachedAccessible] = [:]
        var children: [String: [CachedAccessible]] = [:]
        for value in list {
            guard let item = CachedAccessible(value) else { return nil }
            byPath[item.path] = item
            children[item.parent, default: []].append(item)
        }
        guard let root = byPath[path] else { return nil }
        // The visible nodes, parents before children, each with its children in order; nil when one is missing.
        var visible: [CachedAccessible] = []
        var ordered: [String: [CachedAccessible]] = [:]
        var pending = [root]
        while let node = pending.popLast() {
            guard isVisible(node.states) else { continue }
            let kids = (children[node.path] ?? []).sorted { $0.indexInParent < $1.indexInParent }
            guard kids.count == node.childCount, kids.enumerated().allSatisfy({ $0.offset == $0.element.indexInParent })
            else { return nil }
            visible.append(node)
            ordered[node.path] = kids
            pending.append(contentsOf: kids)
        }
        guard !visible.isEmpty else { return .some(nil) }
        let roles = try await learnRoleNames(of: visible, bus: bus)
        let extents = try await withThrowingTaskGroup(of: (String, Rect).self) { group in
            for node in visible where node.hasComponent {
                group.addTask { (node.path, try await self.frame(bus: bus, path: node.path) ?? .zero) }
            }
            var found: [String: Rect] = [:]
            for try await (path, frame) in group { found[path] = frame }
            return found
        }
        func assemble(_ node: CachedAccessible) -> AccessibleNode? {
            guard ordered[node.path] != nil else { return nil }  // not visible
            return AccessibleNode(role: roles[node.role] ?? "unknown", name: node.name, frame: extents[node.path] ?? .zero,
                                  children: (ordered[node.path] ?? []).compactMap(assemble),
                                  states: node.states.first ?? 0, bus: bus, path: node.path)
        }
        return .some(assemble(root))
    }

    /// The names of the roles of `nodes` (`push button`), by number: a role's name is asked of the app the first
    /// time its number is met (`GetRoleName`), and kept.
    private func learnRoleNames(of nodes: [CachedAccessible], bus: String) async throws -> [UInt32: String] {
        var known = roleNames.withLock { $0 }
        for node in nodes where known[node.role] == nil {
            let reply = try await connection.call(destination: bus, path: node.path, interface: "org.a11y.atspi.Accessible",
                                                  member: "GetRoleName", timeout: Self.timeout)
            known[node.role] = reply.first?.string ?? "unknown"
        }
        roleNames.withLock { [known] in $0.merge(known) { old, _ in old } }
        return known
    }
}
