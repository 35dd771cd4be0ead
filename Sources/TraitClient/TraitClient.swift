import DBus
import TraitProtocol

/// A client of the traitd daemon: read the display, change it, and watch its signals.
///
///     let client = try TraitClient(bus: .session)
///     try await client.rotate(to: "portrait")
///     for await event in try await client.events() { print(event) }
public final class TraitClient: Sendable {
    // The contract's names (TraitProtocol's `Layout1`), here for callers that know only the client.
    public static let busName = Layout1.busName
    public static let rootPath = Layout1.rootPath
    public static let displayInterface = Layout1.displayInterface
    public static let windowInterface = Layout1.windowInterface

    public let connection: Connection
    public let bus: Connection.Bus

    public init(bus: Connection.Bus) throws {
        self.bus = bus
        connection = try Connection(bus: bus)
    }

    public func close() { connection.close() }

    // MARK: Display methods

    public func setDevice(_ device: String) async throws { _ = try await display("SetDevice", [.string(device)]) }
    public func rotate(to orientation: String) async throws { _ = try await display("Rotate", [.string(orientation)]) }
    public func setArrangement(_ arrangement: String) async throws {
        _ = try await display("SetArrangement", [.string(arrangement)])
    }

    /// Opens an app in a role (`primary`, `secondary`, `slide-over`, `pip`); returns its window's object path.
    @discardableResult
    public func openApp(_ app: String, role: String) async throws -> String {
        try await display("OpenApp", [.string(app), .string(role)]).first?.string ?? ""
    }

    public func closeApp(_ app: String) async throws { _ = try await display("CloseApp", [.string(app)]) }

    /// Touches the Split View divider: both apps resign active until `endDividerDrag`.
    public func beginDividerDrag() async throws { _ = try await display("BeginDividerDrag", []) }
    /// Moves the divider's left edge to `x` points.
    public func moveDivider(to x: Double) async throws { _ = try await display("MoveDivider", [.double(x)]) }
    /// Lets go of the divider: it snaps to the nearest split, or near an edge dismisses that side's app.
    public func endDividerDrag() async throws { _ = try await display("EndDividerDrag", []) }

    public func listDevices() async throws -> [String] {
        try await display("ListDevices", []).first?.strings ?? []
    }

    /// The whole state in one call (`GetState`).
    public func state() async throws -> DisplaySnapshot {
        let reply = try await display("GetState", [])
        guard reply.count == 3, let serial = reply[0].uint64, let display = reply[1].dictionary,
              let windows = reply[2].elements
        else { throw DBusError.failed("GetState returned '\(reply.map(\.signature).joined())', expected (t a{sv} a(oa{sv}))") }
        return DisplaySnapshot(serial: serial, display: display, windows: windows.compactMap { item in
            guard let fields = item.elements, fields.count == 2, let path = fields[0].string,
                  let properties = fields[1].dictionary else { return nil }
            return WindowSnapshot(path: path, properties: properties)
        })
    }

    /// One property of the display or a window (`org.freedesktop.DBus.Properties.Get`), variant unwrapped.
    public func property(_ name: String, path: String = rootPath, interface: String = displayInterface) async throws
        -> DBusValue
    {
        let reply = try await connection.call(
            destination: Self.busName, path: path, interface: "org.freedesktop.DBus.Properties", member: "Get",
            [.string(interface), .string(name)])
        return reply.first?.unwrapped ?? .structure([])
    }

    // MARK: Signals

    /// Every signal the daemon emits, parsed, from the moment the subscription is in place (when this returns).
    /// With `app`, only the signals of that app's window: an adapter needs no more, and the bus then sends it
    /// no more.
    public func events(of app: String? = nil) async throws -> AsyncStream<TraitEvent> {
        let (stream, continuation) = AsyncStream<TraitEvent>.makeStream()
        let path = app.map(Self.windowPath)
        let rule = path.map { "path='\($0)'" } ?? "path_namespace='\(Self.rootPath)'"
        // Only signals from the daemon that owns the name now: anyone can send a signal straight to us.
        let id = try await connection.subscribe(sender: Self.busName, matching: rule) { signal in
            guard path.map({ signal.path == $0 }) ?? signal.path.hasPrefix(Self.rootPath) else { return }
            continuation.yield(TraitEvent(signal))
        }
        continuation.onTermination = { [connection] _ in connection.unsubscribe(id) }
        return stream
    }

    /// Only the signals of `org.traitd.Layout1.Window` from `app`'s window (transitions, app states,
    /// completions): what an adapter needs. The bus sends it none of the window's `PropertiesChanged`, which
    /// carry every adapter's layouts and grow with the number of adapters.
    public func windowSignals(of app: String) async throws -> AsyncStream<TraitEvent> {
        let (stream, continuation) = AsyncStream<TraitEvent>.makeStream()
        let path = Self.windowPath(app)
        let id = try await connection.subscribe(
            sender: Self.busName, matching: "path='\(path)',interface='\(Self.windowInterface)'"
        ) { signal in
            guard signal.path == path, signal.interface == Self.windowInterface else { return }
            continuation.yield(TraitEvent(signal))
        }
        continuation.onTermination = { [connection] _ in connection.unsubscribe(id) }
        return stream
    }

    /// The transition signals of one app's window, as an async sequence.
    public func transitions(of app: String) async throws -> AsyncFilterSequence<AsyncStream<TraitEvent>> {
        try await events().filter { $0.app == app && $0.transitionID != nil }
    }

    func display(_ member: String, _ arguments: [DBusValue]) async throws -> [DBusValue] {
        do {
            return try await connection.call(
                destination: Self.busName, path: Self.rootPath, interface: Self.displayInterface, member: member,
                arguments)
        } catch let error as DBusError where error.name == "org.freedesktop.DBus.Error.ServiceUnknown"
            || error.name == "org.freedesktop.DBus.Error.NameHasNoOwner"
        {
            throw DBusError(error.name, "traitd is not running on the \(bus) bus (\(Self.busName) has no owner)")
        }
    }
}
