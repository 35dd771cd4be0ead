import DBus
import Synchronization
import Vocabulary

/// An app's widgets as the accessibility bus reports them (AT-SPI 2 over D-Bus, `org.a11y.atspi.*`): each with
/// its role, accessible name and extents in window coordinates, in points (GTK's logical pixels at GDK_SCALE).
struct AccessibleNode: Equatable {
    var role: String
    var name: String
    var frame: Rect
    var children: [AccessibleNode]
    /// The first word of its AT-SPI state set (`GetState`'s `au`: bit N is `AtspiStateType` N), what its
    /// accessibility snapshot says of it (checked, pressed, expanded, selected, enabled).
    var states: UInt32 = 0
    /// Text a person types into (`ATSPI_STATE_EDITABLE`): GTK 3 calls an entry `text`, like a label, and a field
    /// 34 pt tall is a small target all the same (zenity's form).
    var editable: Bool {
        get { has(.editable) }
        set { states = newValue ? states | 1 << State.editable.rawValue : states & ~(1 << State.editable.rawValue) }
    }

    /// The AT-SPI states a snapshot or the kinds read (`AtspiStateType`'s numbers).
    enum State: UInt32 {
        case checked = 4, editable = 7, enabled = 8, expandable = 9, expanded = 10, pressed = 20, selected = 23, sensitive = 24
    }

    func has(_ state: State) -> Bool { states & 1 << state.rawValue != 0 }
    /// Where the node is on the accessibility bus (its app's connection and object path).
    var bus = ""
    var path = ""

    /// Every frame of the tree, depth first: what a re-read compares.
    var frames: [Rect] { [frame] + children.flatMap(\.frames) }
}

/// Reads trees from the accessibility bus: from the app's cache and one call a node for its extents where the
/// cache holds the whole tree (`AccessibilityCache.swift`), else one D-Bus call per fact (the role, the name, the
/// state, the extents, the children of each node).
final class AccessibilityReader: Sendable {
    let connection: Connection
    /// Role names by number (`AtspiRole`'s numbers, the same in every toolkit), as the app named them when first
    /// met: the cache gives numbers, a report names roles.
    let roleNames = Mutex<[UInt32: String]>([:])
    /// `BoundsChanged` signals received from the app so far (`AccessibilityBounds.swift`).
    let boundsChanges = Atomic<Int>(0)

    /// Never from the cache (`--walk-trees`).
    let walkOnly: Bool
    /// The app's toolkit, once learnt (`learnToolkit`): how its tree is read.
    private let learnt = Mutex(Toolkit())
    var toolkit: Toolkit { learnt.withLock { $0 } }

    init(connection: Connection, walkOnly: Bool = false) {
        self.connection = connection
        self.walkOnly = walkOnly
    }
    private static let accessible = "org.a11y.atspi.Accessible"
    private static let component = "org.a11y.atspi.Component"
    /// `ATSPI_COORD_TYPE_WINDOW`, `ATSPI_COORD_TYPE_SCREEN`.
    private static let windowCoordinates: UInt32 = 1, screenCoordinateType: UInt32 = 0
    private var coordinateType: UInt32 { toolkit.screenCoordinates ? Self.screenCoordinateType : Self.windowCoordinates }
    /// A call that takes longer is a hung app.
    static let timeout = 5.0

    /// The top-level windows of the app whose connection to the accessibility bus is process `pid`, or nil while
    /// it has not registered.
    func windows(ofProcess pid: Int32) async throws -> [(bus: String, path: String)]? {
        let apps = try await children(bus: "org.a11y.atspi.Registry", path: "/org/a11y/atspi/accessible/root")
        for app in apps {
            let owner = try? await connection.call(
                destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
                member: "GetConnectionUnixProcessID", [.string(app.bus)], timeout: Self.timeout)
            guard case .uint32(let found)? = owner?.first, Int32(found) == pid else { continue }
            return try await children(bus: app.bus, path: app.path)
        }
        return nil
    }

    /// A node and, when it is visible, its visible descendants: from the app's cache when it holds them all, else
    /// by a walk.
    func tree(bus: String, path: String) async throws -> AccessibleNode? {
        if !walkOnly, let cached = try await cachedTree(bus: bus, path: path) { return cached }
        return try await walk(bus: bus, path: path)
    }

    /// A node and, when it is visible, its visible descendants, asked for node by node.
    /// The calls for one node go out together, and its children are read side by side: the app answers them in
    /// turn, without a round trip's wait between each (a calculator's 90 widgets in tens of milliseconds).
    func walk(bus: String, path: String) async throws -> AccessibleNode? {
        async let state = call(bus, path, Self.accessible, "GetState")
        async let role = call(bus, path, Self.accessible, "GetRoleName")
        async let name = call(bus, path, "org.freedesktop.DBus.Properties", "Get", [.string(Self.accessible), .string("Name")])
        async let extents = try? call(bus, path, Self.component, "GetExtents", [.uint32(coordinateType)])
        async let childList = children(bus: bus, path: path)
        let states = Self.states(try await state.first)
        guard isVisible(states) else { return nil }
        let frame = Self.extents(await extents?.first) ?? .zero
        let list = try await childList
        let children = try await withThrowingTaskGroup(of: (Int, AccessibleNode?).self) { group in
            for (index, child) in list.enumerated() {
                group.addTask { (index, try await self.walk(bus: child.bus, path: child.path)) }
            }
            var nodes = [AccessibleNode?](repeating: nil, count: list.count)
            for try await (index, node) in group { nodes[index] = node }
            return nodes.compactMap { $0 }
        }
        return AccessibleNode(role: try await role.first?.string ?? "unknown", name: try await name.first?.string ?? "",
                              frame: frame, children: children, states: states.first ?? 0, bus: bus, path: path)
    }

    /// The frames of `tree`'s nodes read again, in `AccessibleNode.frames`' order: one call a node, all at once
    /// (five a node for a whole tree), to see whether the app is still laying out.
    func frames(of tree: AccessibleNode) async throws -> [Rect?] {
        func nodes(_ node: AccessibleNode) -> [AccessibleNode] { [node] + node.children.flatMap(nodes) }
        let all = nodes(tree)
        return try await withThrowingTaskGroup(of: (Int, Rect?).self) { group in
            for (index, node) in all.enumerated() {
                group.addTask { (index, try await self.frame(bus: node.bus, path: node.path)) }
            }
            var frames = [Rect?](repeating: nil, count: all.count)
            for try await (index, frame) in group { frames[index] = frame }
            return frames
        }
    }

    /// Just the extents of one node (the window's, while waiting for a resize to be laid out).
    func frame(bus: String, path: String) async throws -> Rect? {
        let extents = try await call(bus, path, Self.component, "GetExtents", [.uint32(coordinateType)])
        return Self.extents(extents.first)
    }

    /// Learns how to read the app at `bus` from its toolkit (`ToolkitName`, `Version`; `Toolkit`).
    func learnToolkit(ofAppAt bus: String) async {
        func property(_ name: String) async -> String {
            let reply = try? await call(bus, "/org/a11y/atspi/accessible/root", "org.freedesktop.DBus.Properties", "Get",
                                        [.string("org.a11y.atspi.Application"), .string(name)])
            return reply?.first?.unwrapped.string ?? ""
        }
        let toolkit = Toolkit(name: await property("ToolkitName"), version: await property("Version"))
        learnt.withLock { $0 = toolkit }
    }

    /// `tree` with its frames in the window's coordinates: as read, or, read in screen coordinates, moved by
    /// the window's place on the screen.
    func inWindowCoordinates(_ tree: AccessibleNode) -> AccessibleNode {
        guard toolkit.screenCoordinates else { return tree }
        let (dx, dy) = (tree.frame.x, tree.frame.y)
        func moved(_ node: AccessibleNode) -> AccessibleNode {
            var node = node
            node.frame = Rect(x: node.frame.x - dx, y: node.frame.y - dy, width: node.frame.width, height: node.frame.height)
            node.children = node.children.map(moved)
            return node
        }
        return moved(tree)
    }

    /// Whether a state set (`GetState`'s `au`) says drawn: the toolkit's `drawnStates` all there (the walk stops at
    /// a node that has not).
    func isVisible(_ states: [UInt32]) -> Bool {
        let drawn = toolkit.drawnStates
        return states.first.map { $0 & drawn == drawn } ?? false
    }

    /// A state set as `GetState` and the cache's items give it (`au`); empty when it is not one.
    static func states(_ value: DBusValue?) -> [UInt32] {
        value?.elements?.compactMap { (element: DBusValue) -> UInt32? in if case .uint32(let bits) = element { bits } else { nil } } ?? []
    }

    /// A frame as `GetExtents` gives it (`(iiii)`: x, y, width, height); nil when it is not one.
    static func extents(_ value: DBusValue?) -> Rect? {
        let numbers: [Double] = value?.elements?.compactMap { if case .int32(let n) = $0 { Double(n) } else { nil } } ?? []
        return numbers.count == 4 ? Rect(x: numbers[0], y: numbers[1], width: numbers[2], height: numbers[3]) : nil
    }

    private func children(bus: String, path: String) async throws -> [(bus: String, path: String)] {
        let reply = try await call(bus, path, Self.accessible, "GetChildren")
        return (reply.first?.elements ?? []).compactMap { item in
            guard let fields = item.elements, fields.count == 2, let bus = fields[0].string, let path = fields[1].string else { return nil }
            return (bus, path)
        }
    }

    private func call(_ bus: String, _ path: String, _ interface: String, _ member: String, _ arguments: [DBusValue] = [])
        async throws -> [DBusValue] {
        try await connection.call(destination: bus, path: path, interface: interface, member: member, arguments, timeout: Self.timeout)
    }
}
