import DBus
import StateStore
import TraitProtocol
import Logging
import TraitModel
import Vocabulary

/// The running daemon: a bus connection that owns `org.traitd.Layout1` and serves the display on it.
public final class Daemon: Sendable {
    public enum StartError: Error, CustomStringConvertible {
        case nameTaken(owner: String?, bus: Connection.Bus)
        case portalTaken(owner: String?, bus: Connection.Bus)

        public var description: String {
            switch self {
            case .nameTaken(let owner, let bus):
                return "\(Layout1.busName) is already owned by \(owner ?? "another connection") on the \(bus) bus; "
                    + "is another traitd running?"
            case .portalTaken(let owner, let bus):
                return "--portal: \(PortalSettings.busName) is already owned by \(owner ?? "another connection") on the "
                    + "\(bus) bus (xdg-desktop-portal, on a real session); serve the portal on a private bus instead"
            }
        }
    }

    public let connection: Connection
    private let service: DisplayService
    private let logger: Logger

    /// Connects to `bus` and prepares the display; `start` publishes it.
    /// With `portal`, it also owns `org.freedesktop.portal.Desktop` and serves the settings portal; with
    /// `followDesktop`, the simulated settings follow the portal on that bus.
    public init(
        simulation: Simulation, bus: Connection.Bus, settings: ServiceSettings, store: StateStore?,
        restoration: [String: [String: DBusValue]] = [:], portal: Bool = false, followDesktop: Connection.Bus? = nil,
        logger: Logger
    ) throws {
        self.logger = logger
        self.portal = portal
        follower = try followDesktop.map { try DesktopFollower(bus: $0, logger: logger) }
        self.store = store
        connection = try Connection(bus: bus)
        service = DisplayService(simulation: simulation, connection: connection, settings: settings, store: store,
                                 restoration: restoration, logger: logger)
        self.bus = bus
    }

    private let store: StateStore?

    private let bus: Connection.Bus
    private let portal: Bool
    private let follower: DesktopFollower?

    /// Exports the objects, then takes the bus names (objects first, so that nobody sees a name without them):
    /// the portal's first, with `portal`, and `org.traitd.Layout1` last, because that name is what says the
    /// daemon is ready (to systemd's `Type=dbus`, to `traitctl`, to the tests' fixture), and a client that saw
    /// it must find the portal served too (the portal's name taken after it, a test's `gdbus` call sometimes
    /// came first and was told no one provides it). Once the name is ours, the state is saved, so that a state
    /// file exists from the first moment (a daemon that did not get the name must not touch the owner's file).
    public func start() async throws {
        // Adapters' connections leaving the bus end their registrations.
        try await connection.addMatch(DisplayService.nameOwnerChangedRule)
        await service.export()
        if portal {
            await service.exportPortal()
            try await take(PortalSettings.busName) { .portalTaken(owner: $0, bus: bus) }
            logger.info("owns \(PortalSettings.busName): serving \(PortalSettings.interfaceName) from the simulated settings")
        }
        try await take(Layout1.busName) { .nameTaken(owner: $0, bus: bus) }
        logger.info("owns \(Layout1.busName) on the \(bus) bus as \(connection.uniqueName)")
        await follower?.start(service)
        await service.save()
    }

    /// Takes `name` on the bus, or throws `refusal` with the connection that holds it (nil if it left meanwhile).
    private func take(_ name: String, or refusal: (_ owner: String?) -> StartError) async throws {
        let reply = try await connection.requestName(name)
        guard reply == .primaryOwner || reply == .alreadyOwner else {
            let owner = try? await connection.nameOwner(name)
            throw refusal(owner)
        }
    }

    /// Calls `handler` once if the bus goes away.
    public func onDisconnect(_ handler: @escaping @Sendable () -> Void) { connection.onDisconnect(handler) }

    /// Releases the name and closes the connection.
    public func stop() async {
        do {
            try await connection.releaseName(Layout1.busName)
            logger.info("released \(Layout1.busName)")
        } catch {
            logger.warning("could not release \(Layout1.busName): \(error)")
        }
        follower?.stop()
        connection.close()
        store?.flush()
    }
}
