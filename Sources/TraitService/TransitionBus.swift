import DBus
import TraitProtocol
import Logging

/// The coordinator's events on the bus: window signals and `PropertiesChanged` through the object server,
/// new window objects through the service (which knows their handlers).
final class BusTransitionSink: TransitionSink {
    private let server: ObjectServer
    /// Exports a newly opened window's object (set by the service once it is initialised).
    var exportWindow: (String) -> Void = { _ in }

    init(server: ObjectServer) { self.server = server }

    func send(_ event: TransitionEvent) {
        switch event {
        case .exported(let app):
            exportWindow(app)
        case .unexported(let app):
            server.unexport(Layout1.windowPath(app))
        case .signal(let app, let member, let arguments):
            do {
                try server.connection.emit(
                    path: Layout1.windowPath(app), interface: Layout1.windowInterface, member: member, arguments)
            } catch {
                server.sendFailed("\(member) for \(app)", error)
            }
        case .displayChanged(let changed):
            server.propertiesChanged(path: Layout1.rootPath, interface: Layout1.displayInterface, changed)
        case .windowChanged(let app, let changed):
            server.propertiesChanged(path: Layout1.windowPath(app), interface: Layout1.windowInterface, changed)
        }
    }
}

/// Transition deadlines as the connection's timers: each goes off on the connection's thread, where the
/// service (an actor on that thread) hands it to its coordinator.
final class DeadlineTimer: TransitionTimer {
    private let connection: Connection
    /// Set by the service once it is initialised; weak, as the service owns this timer.
    weak var service: DisplayService?

    init(connection: Connection) { self.connection = connection }

    func start(after seconds: Double, app: String, id: UInt64) -> UInt64 {
        connection.schedule(after: seconds) { [weak service] in
            service?.assumeIsolated { $0.coordinator.deadlinePassed(app: app, id: id) }
        }
    }

    func cancel(_ handle: UInt64) { connection.cancel(timer: handle) }
}
