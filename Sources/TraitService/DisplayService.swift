import DBus
import Logging
import TraitModel

/// The daemon's objects on the bus: the display at `/org/traitd/Layout1` and a window object per open app.
///
/// A thin layer: it checks arguments, hands commands to the `Simulation`, and lets the
/// `TransitionCoordinator` announce the resulting plan. Everything runs on the connection's thread.
public final class DisplayService {
    private var simulation: Simulation
    private let server: ObjectServer
    private let coordinator: TransitionCoordinator
    private let logger: Logger

    public init(simulation: Simulation, connection: Connection, logger: Logger) {
        self.simulation = simulation
        self.logger = logger
        server = ObjectServer(connection: connection, managerPath: Layout1.rootPath)
        coordinator = TransitionCoordinator(server: server, logger: logger)
    }

    /// Exports the display and the windows of the apps open at start. Call on the connection's thread.
    public func export() {
        server.export(Layout1.rootPath, [
            ObjectServer.Interface(Layout1.display, call: { [unowned self] in try handle($0) },
                                   properties: { [unowned self] in Encoding.displayProperties(simulation) }),
        ])
        for app in simulation.appNames { exportWindow(app) }
    }

    public var state: DisplayState { simulation.state }
    public var serial: UInt64 { simulation.serial }

    // MARK: Methods of org.traitd.Layout1.Display

    private func handle(_ call: ObjectServer.MethodCall) throws -> [DBusValue] {
        let args = call.arguments
        switch call.member {
        case "SetDevice":
            let id = try Arguments.string(args[0], "the device")
            try run(.setDevice(id), call)
        case "Rotate":
            try run(.rotate(try Arguments.choice(args[0], "orientation", Orientation.self)), call)
        case "SetArrangement":
            try run(.setArrangement(try Arguments.choice(args[0], "arrangement", Arrangement.self)), call)
        case "OpenApp":
            let app = try Arguments.appName(args[0])
            let role = try Arguments.choice(args[1], "role", Role.self)
            try run(.openApp(app, role), call)
            return [.objectPath(Layout1.windowPath(app))]
        case "CloseApp":
            try run(.closeApp(try Arguments.appName(args[0])), call)
        case "ListDevices":
            return [.strings(simulation.catalog.ids)]
        case "GetState":
            let windows = simulation.appNames.map { app in
                DBusValue.structure([.objectPath(Layout1.windowPath(app)), .vardict(windowProperties(app))])
            }
            return [.uint64(simulation.serial), .vardict(Encoding.displayProperties(simulation)),
                    .array(element: "(oa{sv})", windows)]
        default:
            throw DBusError(DBusError.unknownMethodName, "no method \(call.member)")
        }
        return []
    }

    private func run(_ command: Command, _ call: ObjectServer.MethodCall) throws {
        let plan: Plan
        do {
            plan = try simulation.apply(command)
        } catch {
            logger.info("refused \(call.member) from \(call.sender): \(error.message)")
            throw error.dbusError
        }
        guard !plan.isEmpty else {
            logger.debug("\(call.member) from \(call.sender): nothing changes")
            return
        }
        logger.info("\(describe(command)) from \(call.sender): serial \(plan.serial), \(plan.transitions.count) transition(s)")
        coordinator.run(
            plan, displayProperties: Encoding.displayProperties(simulation),
            windowProperties: { [unowned self] in windowProperties($0) },
            export: { [unowned self] in exportWindow($0) })
    }

    // MARK: Window objects

    private func windowProperties(_ app: String) -> [String: DBusValue] {
        guard let window = simulation.windows[app] else { return [:] }
        return Encoding.windowProperties(app: app, window)
    }

    private func exportWindow(_ app: String) {
        server.export(Layout1.windowPath(app), [
            ObjectServer.Interface(Layout1.window, call: { call in
                throw DBusError(DBusError.unknownMethodName, "\(Layout1.windowInterface) has no method \(call.member)")
            }, properties: { [unowned self] in windowProperties(app) }),
        ])
    }

    private func describe(_ command: Command) -> String {
        switch command {
        case .setDevice(let id): return "SetDevice(\(id))"
        case .rotate(let o): return "Rotate(\(o.rawValue))"
        case .setArrangement(let a): return "SetArrangement(\(a.rawValue))"
        case .openApp(let app, let role): return "OpenApp(\(app), \(role.rawValue))"
        case .closeApp(let app): return "CloseApp(\(app))"
        }
    }
}
