// The vocabulary (Orientation, Arrangement, Role, Rect, ...) and the contract's declarations (Layout1) are part of
// this library's API: a client that imports TraitClient can name them. The bus (`DBus`) and the simulation
// (`TraitModel`) are not: a client that needs raw `DBusValue`s imports DBus itself.
import DBus
@_exported import TraitProtocol
@_exported import Vocabulary

/// A client of the traitd daemon: read the display, change it, and watch its signals, in the model's types.
///
///     let client = try TraitClient(bus: .session)
///     try await client.rotate(to: .portrait)
///     for await event in try await client.events() { print(event) }
///
/// Every call goes through the contract's declaration of its method (`Layout1.Display`, `Layout1.Window`):
/// the arguments are encoded and the reply decoded by the same parameters the daemon uses, and a reply of
/// another shape throws `InvalidArgs` naming what came.
public final class TraitClient: Sendable {
    // The contract's names (TraitProtocol's `Layout1`), here for callers that know only the client.

    /// The daemon's well-known bus name, `org.traitd.Layout1`.
    public static let busName = Layout1.busName
    /// The display's object path, `/org/traitd/Layout1`.
    public static let rootPath = Layout1.rootPath
    /// The display's interface, `org.traitd.Layout1.Display`.
    public static let displayInterface = Layout1.displayInterface
    /// Each window's interface, `org.traitd.Layout1.Window`.
    public static let windowInterface = Layout1.windowInterface

    /// The client's own private connection.
    public let connection: Connection
    /// The bus it is connected to.
    public let bus: Connection.Bus

    /// Connects to `bus` (`.session`, `.system` or `.address(...)`); the daemon need not be running yet.
    public init(bus: Connection.Bus) throws {
        self.bus = bus
        connection = try Connection(bus: bus)
    }

    /// Closes the connection: its registrations end and its event streams finish.
    public func close() { connection.close() }

    private typealias D = Layout1.Display

    // MARK: Display methods

    // Each command returns the ids of the transitions it started, in the order they began (every stage of a divider
    // move included): subscribe with ``events()`` first, and wait for their `TransitionCompleted`s.

    /// Changes the device model (a profile id; ``listDevices()`` names them).
    @discardableResult
    public func setDevice(_ device: String) async throws -> [UInt64] { try await call(D.setDevice, device) }

    /// Turns the device; `NotOffered` for an orientation the device does not offer.
    @discardableResult
    public func rotate(to orientation: Orientation) async throws -> [UInt64] { try await call(D.rotate, orientation) }

    /// Changes the multitasking arrangement.
    @discardableResult
    public func setArrangement(_ arrangement: Arrangement) async throws -> [UInt64] { try await call(D.setArrangement, arrangement) }

    /// Changes display-wide settings (all or none); values as `DisplayTrait.values` names them.
    @discardableResult
    public func setTraits(_ changes: [DisplayTrait: String]) async throws -> [UInt64] { try await call(D.setTraits, changes) }

    /// Opens an app in a role; returns its window's object path and the transitions the call started.
    @discardableResult
    public func openApp(_ app: String, role: Role) async throws -> (window: String, transitions: [UInt64]) {
        try await call(D.openApp, (app, role))
    }

    /// Closes an open app; its window object goes.
    @discardableResult
    public func closeApp(_ app: String) async throws -> [UInt64] { try await call(D.closeApp, app) }

    /// Touches the Split View divider: both apps resign active until ``endDividerDrag()``.
    @discardableResult
    public func beginDividerDrag() async throws -> [UInt64] { try await call(D.beginDividerDrag, ()) }

    /// Moves the divider's left edge to `x` points.
    @discardableResult
    public func moveDivider(to x: Double) async throws -> [UInt64] { try await call(D.moveDivider, x) }

    /// Lets go of the divider: it snaps to the nearest split, or near an edge dismisses that side's app.
    @discardableResult
    public func endDividerDrag() async throws -> [UInt64] { try await call(D.endDividerDrag, ()) }

    /// The ids of every device profile, in the catalog's order.
    public func listDevices() async throws -> [String] { try await call(D.listDevices, ()) }

    /// The whole state in one call (`GetState`).
    public func state() async throws -> DisplaySnapshot {
        let (serial, display, windows) = try await call(D.getState, ())
        return try DBusError.inContext("GetState replied") {
            try DisplaySnapshot(serial: serial, display: display, windows: windows)
        }
    }

    // MARK: Properties

    /// One property of the display, typed by its declaration: `try await client.property(Layout1.Display.serial)`.
    public func property<Value>(_ property: PropertyDeclaration<Value>) async throws -> Value {
        try await read(property, path: Self.rootPath, interface: Self.displayInterface)
    }

    /// One property of `app`'s window, typed by its declaration (`Layout1.Window.frame`).
    public func property<Value>(_ property: PropertyDeclaration<Value>, of app: String) async throws -> Value {
        try await read(property, path: Layout1.windowPath(app), interface: Self.windowInterface)
    }

    /// Any property by name, its variant unwrapped but otherwise as it came: for tools that print whatever
    /// they are asked for (`traitctl get`). Typed code uses ``property(_:)``.
    public func rawProperty(_ name: String, path: String = rootPath, interface: String = displayInterface) async throws
        -> DBusValue
    {
        let reply = try await reach { [connection] in
            try await connection.call(
                destination: Self.busName, path: path, interface: "org.freedesktop.DBus.Properties", member: "Get",
                [.string(interface), .string(name)])
        }
        guard reply.count == 1, case .variant(let value) = reply[0] else {
            throw DBusError.invalidArgs("Get replied '\(reply.signature)'; expected 'v'")
        }
        return value.unwrapped
    }

    private func read<Value>(_ property: PropertyDeclaration<Value>, path: String, interface: String) async throws -> Value {
        let value = try await rawProperty(property.name, path: path, interface: interface)
        return try DBusError.inContext(property.name) { try property.value.decode(value) }
    }

    // MARK: Calls

    /// Calls a method of the display through its declaration.
    @discardableResult
    func call<Input, Output>(_ method: MethodDeclaration<Input, Output>, _ input: Input) async throws -> Output {
        try await call(method, input, path: Self.rootPath, interface: Self.displayInterface)
    }

    /// Calls a method of `app`'s window through its declaration.
    @discardableResult
    func call<Input, Output>(_ method: MethodDeclaration<Input, Output>, _ input: Input, window app: String) async throws
        -> Output
    {
        try await call(method, input, path: Layout1.windowPath(app), interface: Self.windowInterface)
    }

    func call<Input, Output>(
        _ method: MethodDeclaration<Input, Output>, _ input: Input, path: String, interface: String
    ) async throws -> Output {
        let arguments = method.arguments(input)
        let reply = try await reach { [connection] in
            try await connection.call(
                destination: Self.busName, path: path, interface: interface, member: method.name, arguments)
        }
        return try method.reply(reply)
    }

    /// Runs a call; a daemon that is not on the bus is said so, by name.
    private func reach(_ call: () async throws -> [DBusValue]) async throws -> [DBusValue] {
        do {
            return try await call()
        } catch let error as DBusError where error.name == "org.freedesktop.DBus.Error.ServiceUnknown"
            || error.name == "org.freedesktop.DBus.Error.NameHasNoOwner"
        {
            throw DBusError(error.name, "traitd is not running on the \(bus) bus (\(Self.busName) has no owner)")
        }
    }
}
