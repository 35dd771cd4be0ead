import Limits
import ArgumentParser
import DBus
import StateStore
import FoundationEssentials
import Glibc
import Logging
import ServiceLifecycle
import TraitConfig
import TraitModel
import Vocabulary
import TraitProtocol
import TraitService
import UnixSignals

/// `traitd`: the daemon. Parses its options, loads the configuration, and runs until SIGTERM or SIGINT.
/// Started by ``TraitdMain``.
struct Traitd: AsyncParsableCommand {
    static let version = "0.1.0"

    static let configuration = CommandConfiguration(
        commandName: "traitd",
        abstract: "Publish a simulated iPad display and its app windows on D-Bus as org.traitd.Layout1.",
        discussion: """
            With no options traitd runs the embedded default configuration (Config/traitd.yaml) on the session \
            bus, and restores the display it saved last time (see --state-dir). SIGTERM or SIGINT saves the \
            state, releases the name and exits 0.
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

    @Option(name: .long, help: ArgumentHelp(
        "Where to keep the state between runs (default: $STATE_DIRECTORY, else $XDG_STATE_HOME/traitd, else ~/.local/state/traitd).",
        valueName: "dir"))
    var stateDir: String?

    @Flag(name: .long, help: ArgumentHelp(
        "Also own org.freedesktop.portal.Desktop and serve org.freedesktop.portal.Settings from the simulated settings (color-scheme, contrast, reduced-motion, text-scaling-factor), so that GTK and libadwaita apps under test follow them. Only on a bus of its own: on a real session that name is xdg-desktop-portal's."))
    var portal = false
    @Flag(name: .long, help: "Follow the desktop's settings: read org.freedesktop.portal.Settings at start and apply each SettingChanged (appearance, contrast, reduced motion, text scale).")
    var followDesktop = false
    @Option(name: .long, help: ArgumentHelp("The bus whose portal --follow-desktop follows: session, system or an address.", valueName: "bus"))
    var desktopBus: String = "session"
    @Flag(name: .long, help: "Keep no state: start from the configuration and save nothing.")
    var noState = false

    @Option(name: .long, help: ArgumentHelp(
        "real, or virtual: adapter deadlines run on a clock that moves only when a client calls org.traitd.Layout1.Testing.AdvanceClock (for exact tests; implies --testing).",
        valueName: "clock"))
    var clock: String = "real"
    @Flag(name: .long, help: "Serve org.traitd.Layout1.Testing on the root object (for test suites; never on a shared bus).")
    var testing = false
    @Flag(name: .long, help: "Count a report with layout problems (LayoutProblems: outside-window, outside-safe-area, overlap, small-target) as failed in TransitionCompleted; its frames are still published.")
    var strictLayouts = false

    @Flag(name: .long, help: "Print the D-Bus interface XML (Config/dbus-1/org.traitd.Layout1.xml) and exit.")
    var printIntrospection = false

    @Flag(name: .long, help: "Print the Python client's contract (clients/python/traitd/_contract.py) and exit.")
    var printPythonContract = false

    func validate() throws {
        guard Logger.Level(rawValue: logLevel) != nil else {
            throw ValidationError("unknown log level '\(logLevel)'; expected one of: \(Logger.Level.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        if let bus, bus.isEmpty { throw ValidationError("--bus needs a value: session, system or an address") }
        if let stateDir, stateDir.isEmpty { throw ValidationError("--state-dir needs a directory") }
        if stateDir != nil, noState { throw ValidationError("--state-dir and --no-state contradict each other") }
        guard ["real", "virtual"].contains(clock) else {
            throw ValidationError("--clock takes real or virtual; got '\(clock)'")
        }
    }

    func run() async throws {
        if printIntrospection {
            print(Layout1.interfaceXML, terminator: "")
            return
        }
        if printPythonContract {
            print(Layout1.pythonContract, terminator: "")
            return
        }
        // A refused or large message must not leave its buffers in the resident size (docs/measurements.md, "Memory").
        IncomingLimit.returnLargeBuffersWhenFreed()
        let level = Logger.Level(rawValue: logLevel)!
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        let logger = Logger(label: "traitd")

        var simulation: Simulation
        let settings: DaemonConfig
        let catalog: DeviceCatalog
        do {
            settings = try config.map { try DaemonConfig.load(path: $0) } ?? .embedded()
            catalog = try ProfileLoader.catalog(
                directories: [DaemonConfig.userDeviceDirectory] + settings.deviceDirectories)
            simulation = try settings.makeSimulation(catalog: catalog)
        } catch {
            Self.fail("traitd: \(error)", code: 78)  // EX_CONFIG
        }
        let busChoice = Connection.Bus(argument: bus ?? settings.bus)
        // What `Reset` (org.traitd.Layout1.Testing) goes back to: the configuration's, whatever the state file says.
        let startingState = simulation.state

        // The saved state, when there is one, replaces the configuration's display.
        let store = openStore(settings, logger: logger)
        var restoration: [String: [String: DBusValue]] = [:]
        if let store {
            let context = RestoredState.Context(catalog: catalog, transitions: settings.transitions,
                                                windowedLimit: settings.windowedLimit, limits: settings.limits)
            switch store.restore(context) {
            case .nothing:
                logger.info("no saved state in \(store.directory); starting from the configuration")
            case .restored(let restored, let copy):
                simulation = restored.simulation
                restoration = restored.restoration
                for problem in restored.droppedSettings {
                    logger.warning("\(store.path): \(problem); dropped it (a later version's setting?)")
                }
                if let copy, !restored.droppedSettings.isEmpty {
                    logger.warning("the state file \(store.path) was copied to \(copy) before dropping settings")
                }
                if restored.dropped.isEmpty {
                    logger.info("restored the state saved in \(store.path)")
                } else {
                    // The same limits as SetRestorationState: a state the daemon could not publish (too deep,
                    // too large) must not come back, or every start would fail the same way.
                    let what = restored.dropped.map { "\($0.app) (\($0.reason))" }.joined(separator: "; ")
                    logger.error("""
                        the state file \(store.path) holds restoration states that cannot be published; dropped \
                        them: \(what). The file was copied to \(copy ?? "nowhere (the copy failed)"); the rest of \
                        the state is restored
                        """)
                }
            case .refused(let target, let problems):
                // One line for each field, as `file: field: what was expected`, then what was done about it.
                for problem in problems { logger.error("\(store.path): \(problem)") }
                let reason = problems.map(\.description).joined(separator: "; ")
                if let target {
                    logger.error("the state file \(store.path) cannot be loaded: \(reason); moved it to \(target) and starting from the configuration")
                } else {
                    logger.error("the state file \(store.path) cannot be loaded: \(reason); starting from the configuration and saving nothing, so that it is not overwritten")
                }
            }
        }

        // SIGTERM and SIGINT are trapped before the name is taken: a signal that arrives as soon as the name
        // appears (a service manager, a test) must still stop traitd gracefully, not kill it. (make tsan found
        // this: under ThreadSanitizer the gap before the service group trapped them was long enough to hit.)
        let signals = await UnixSignalsSequence(trapping: .sigterm, .sigint)
        let daemon: Daemon
        do {
            var service = ServiceSettings(deadline: Double(settings.deadlineMilliseconds) / 1000, limits: settings.limits)
            service.virtualClock = clock == "virtual"
            service.testing = testing
            service.strictLayouts = strictLayouts
            service.layoutChecks = settings.layoutChecks
            service.startingState = startingState
            daemon = try Daemon(simulation: simulation, bus: busChoice, settings: service, store: store,
                                restoration: restoration, portal: portal,
                                followDesktop: followDesktop ? Connection.Bus(argument: desktopBus) : nil, logger: logger)
            try await daemon.start()
        } catch {
            Self.fail("traitd: \(error)", code: 1)
        }
        logger.info("""
            \(simulation.state.device) \(simulation.state.orientation.rawValue) \(simulation.state.arrangement.rawValue), \
            apps: \(simulation.appNames.joined(separator: ", "))
            """)

        let group = ServiceGroup(
            configuration: .init(services: [.init(service: DaemonService(daemon: daemon))], logger: logger))
        // Until the group has run to its end (a signal's graceful shutdown, or the bus going away).
        try await withThrowingTaskGroup(of: Bool.self) { tasks in
            tasks.addTask {
                try await group.run()
                return true
            }
            tasks.addTask {
                for await signal in signals {
                    logger.info("\(signal): shutting down")
                    await group.triggerGracefulShutdown()
                    break
                }
                return false
            }
            while let groupEnded = try await tasks.next(), !groupEnded {}
            tasks.cancelAll()
        }
        await daemon.stop()
        if DaemonService.lostBus.withLock({ $0 }) {
            Self.fail("traitd: the \(busChoice) bus closed the connection", code: 1)
        }
    }

    /// The state store: `--state-dir`, the config's `state-directory`, or the default. An unusable directory
    /// that was asked for is fatal (exit 73); the default one only costs persistence, with a warning.
    func openStore(_ settings: DaemonConfig, logger: Logger) -> StateStore? {
        if noState {
            logger.info("--no-state: starting from the configuration and saving nothing")
            return nil
        }
        let chosen = stateDir ?? settings.stateDirectory
        do {
            return try StateStore(directory: chosen ?? StateStore.defaultDirectory()) { entry in
                switch entry {
                case .saved(let message): logger.debug("\(message)")
                case .failed(let message): logger.error("\(message)")
                }
            }
        } catch {
            if chosen != nil { Self.fail("traitd: \(error)", code: 73) }  // EX_CANTCREAT
            logger.warning("\(error); the state will not be saved")
            return nil
        }
    }

    static func fail(_ message: String, code: Int32) -> Never {
        // Glibc's `stderr` is a mutable global that Swift 6 will not read; file descriptor 2 is the same stream.
        let line = message + "\n"
        _ = line.withCString { write(2, $0, strlen($0)) }
        Glibc.exit(code)
    }
}

/// Keeps the service group running until a graceful shutdown (SIGTERM, SIGINT) or until the bus goes away.
struct DaemonService: Service {
    let daemon: Daemon
    static let lostBus = Locked(false)

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

