import ArgumentParser
import DBus
import Foundation
import Logging
import ServiceLifecycle
import TraitConfig
import TraitModel
import TraitService

/// `traitd`: the daemon. Parses its options, loads the configuration, and runs until SIGTERM or SIGINT.
@main
struct Traitd: AsyncParsableCommand {
    static let version = "0.1.0"

    static let configuration = CommandConfiguration(
        commandName: "traitd",
        abstract: "Publish a simulated iPad display and its app windows on D-Bus as org.traitd.Layout1.",
        discussion: """
            With no options traitd runs the embedded default configuration (Config/traitd.yaml) on the session \
            bus. SIGTERM or SIGINT releases the name and exits 0.
            """,
        version: version)

    @Option(name: .long, help: ArgumentHelp("session, system, or a D-Bus address such as unix:path=/run/bus.",
                                            valueName: "bus"))
    var bus: String?

    @Option(name: .long, help: ArgumentHelp("A YAML file laid over the embedded default.", valueName: "file"))
    var config: String?

    @Option(name: .long, help: ArgumentHelp("trace, debug, info, notice, warning, error or critical.",
                                            valueName: "level"))
    var logLevel: String = "info"

    @Flag(name: .long, help: "Print the D-Bus interface XML (Config/dbus-1/org.traitd.Layout1.xml) and exit.")
    var printIntrospection = false

    func validate() throws {
        guard Logger.Level(rawValue: logLevel) != nil else {
            throw ValidationError("unknown log level '\(logLevel)'; expected one of: \(Logger.Level.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        if let bus, bus.isEmpty { throw ValidationError("--bus needs a value: session, system or an address") }
    }

    func run() async throws {
        if printIntrospection {
            print(Layout1.interfaceXML, terminator: "")
            return
        }
        let level = Logger.Level(rawValue: logLevel)!
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        let logger = Logger(label: "traitd")

        let simulation: Simulation
        let settings: DaemonConfig
        do {
            settings = try config.map(DaemonConfig.load(path:)) ?? .embedded()
            let catalog = try ProfileLoader.catalog(
                directories: [DaemonConfig.userDeviceDirectory] + settings.deviceDirectories)
            simulation = try settings.makeSimulation(catalog: catalog)
        } catch {
            Self.fail("traitd: \(error)", code: 78)  // EX_CONFIG
        }
        let busChoice = Connection.Bus(argument: bus ?? settings.bus)

        let daemon: Daemon
        do {
            daemon = try Daemon(simulation: simulation, bus: busChoice, logger: logger)
            try await daemon.start()
        } catch {
            Self.fail("traitd: \(error)", code: 1)
        }
        logger.info("""
            \(simulation.state.device) \(simulation.state.orientation.rawValue) \(simulation.state.arrangement.rawValue), \
            apps: \(simulation.appNames.joined(separator: ", "))
            """)

        let group = ServiceGroup(
            configuration: .init(services: [.init(service: DaemonService(daemon: daemon))],
                                 gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        try await group.run()
        await daemon.stop()
        if DaemonService.lostBus.withLock({ $0 }) {
            Self.fail("traitd: the \(busChoice) bus closed the connection", code: 1)
        }
    }

    static func fail(_ message: String, code: Int32) -> Never {
        FileHandle.standardError.write(Data((message + "\n").utf8))
        Foundation.exit(code)
    }
}

/// Keeps the service group running until a graceful shutdown (SIGTERM, SIGINT) or until the bus goes away.
struct DaemonService: Service {
    let daemon: Daemon
    static let lostBus = Mutex(false)

    func run() async throws {
        let (events, continuation) = AsyncStream<Void>.makeStream()
        daemon.onDisconnect {
            DaemonService.lostBus.withLock { $0 = true }
            continuation.finish()
        }
        await withGracefulShutdownHandler {
            for await _ in events {}
        } onGracefulShutdown: {
            continuation.finish()
        }
    }
}

/// A small lock-protected value (Synchronization's Mutex needs newer Apple platforms than the package targets).
final class Mutex<Value>: @unchecked Sendable {
    private var value: Value
    private let lock = NSLock()
    init(_ value: Value) { self.value = value }
    func withLock<T>(_ body: (inout Value) -> T) -> T { lock.withLock { body(&value) } }
}

