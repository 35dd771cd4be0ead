import DBus
import DisplayCore
import Limits
import Logging
import StateStore
import TraitModel
import TraitProtocol
import TransitionEngine
import Vocabulary

/// The daemon's objects on the bus: the display at `/org/traitd/Layout1` and a window object per open app.
///
/// The shell around the core (`DisplayCore`, which knows everything and has no bus): it decodes a call into
/// the core's input, hands it over, encodes each event the core gives back once and sends it
/// (`DisplayService+Announce`), and keeps what is the bus's: the object server, the journal of what it sent,
/// the calls answered later, the deadlines' timers, and the state file (`StateStore`).
///
/// An actor whose executor is the connection's thread (`Connection.unownedExecutor`): the object server's
/// handlers, the bus's signals and the transition deadlines all run there and enter it synchronously with
/// `assumeIsolated`; other threads reach it with `await`. The compiler, not a comment, keeps its state on that
/// one thread.
public actor DisplayService {
    /// Everything the daemon knows.
    let core: DisplayCore
    /// The simulation the core's engine holds (read only here: only the engine changes it).
    var simulation: Simulation { core.simulation }
    let server: ObjectServer
    public nonisolated let connection: Connection
    public nonisolated var unownedExecutor: UnownedSerialExecutor { connection.unownedExecutor }
    /// What the deadlines run on: the connection's timers, or the virtual clock (`--clock virtual`).
    let clock: ServiceClock
    /// Every signal sent, for `GetEvents`.
    var journal = SignalJournal()
    /// Calls the core answers later (`EndResize` while a step waits).
    var waitingCalls = WaitingCalls()
    let store: StateStore?
    let logger: Logger
    /// The interfaces served beside the display's and the windows': `Testing`, the settings portal.
    var serves: ServedInterfaces

    public init(
        simulation: Simulation, connection: Connection, settings: ServiceSettings, store: StateStore?,
        restoration: [String: [String: DBusValue]] = [:], logger: Logger
    ) {
        let testing = settings.testing || settings.virtualClock
        core = DisplayCore(
            simulation: simulation, deadline: settings.deadline, limits: settings.limits, strictLayouts: settings.strictLayouts,
            startingState: settings.startingState, restoration: restoration,
            countsCoverage: testing,  // the Testing interface serves it
            maximumSnapshots: Layout1.Testing.maximumSnapshots, layoutChecks: settings.layoutChecks, logger: logger)
        self.logger = logger
        self.store = store
        self.connection = connection
        server = ObjectServer(connection: connection, managerPath: Layout1.rootPath)
        clock = ServiceClock(settings.virtualClock ? .virtual : .real, connection: connection)
        serves = testing ? [.testing] : []
        server.incomingLimit = Self.incomingLimit(settings.limits)
        server.sendFailed = { what, error in logger.error("cannot send \(what): \(error); staying on the bus") }
    }

    /// Exports the display and the windows of the apps open at start, and starts watching for adapters' connections
    /// leaving the bus. Call on the connection's thread.
    public func export() {
        // Every signal the connection sends goes to the journal as it is sent, at the serial of the moment.
        connection.emitted = { [unowned self] bytes in
            assumeIsolated { service in service.journal.sent(bytes, serial: service.simulation.serial) }
        }
        let display = simulation.display
        displayPropertyNames = Dictionary(uniqueKeysWithValues: DisplayProperty.allCases.map {
            (Encoding.displayProperty($0, display).name, $0)
        })
        server.export(Layout1.rootPath, testingInterfaces + [
            ObjectServer.Interface(
                Layout1.Display.interface, methods: displayMethods,
                properties: reading { Encoding.displayProperties($0.simulation.display).dictionary },
                property: { [unowned self] name in
                    assumeIsolated { service in
                        service.displayPropertyNames[name].map { Encoding.displayProperty($0, service.simulation.display).value }
                    }
                },
                setProperty: { [unowned self] name, value, call in
                    // A setting's property: Set is SetTraits with one key (the same checks, transition and
                    // durable reply).
                    let changes = try Layout1.Display.setTraits.input([.vardict([name: value])])
                    try assumeIsolated { service in
                        _ = try service.run(.setTraits(changes), call)
                        service.replyOnceSaved(call, [])
                    }
                }),
        ])
        for app in simulation.appNames { exportWindow(app) }
        for display in simulation.state.displays { exportExternalDisplay(display) }
        // Only the bus's own NameOwnerChanged: one that a peer sends straight to the daemon is not delivered.
        connection.subscribe(sender: Connection.busName) { [weak self] signal in
            guard signal.interface == Connection.busName, signal.member == "NameOwnerChanged",
                  signal.arguments.count == 3, let name = signal.arguments[0].string,
                  signal.arguments[2].string == "", name.hasPrefix(":") else { return }
            self?.assumeIsolated { service in
                _ = try? service.handle(.connectionLeft(name), member: "NameOwnerChanged", from: Connection.busName)
            }
        }
    }

    /// The largest call the contract can need: a restoration state or a report at its byte limit, with room for
    /// the names around it, and a value at its depth limit inside `Properties.Set`'s variant. Anything past it is
    /// refused before it is read (`IncomingLimit`); what passes is checked exactly by `PublishBudget`.
    static func incomingLimit(_ limits: Limits) -> IncomingLimit {
        IncomingLimit(
            bytes: max(limits.restorationBytes, limits.reportBytes) + 4096, depth: limits.valueDepth + 1,
            errorName: Layout1.Error.limitExceeded,
            bytesSetting: "limits.restoration-bytes and limits.report-bytes, plus 4096 bytes for names",
            depthSetting: "limits.value-depth, plus 1 for a property's variant")
    }

    /// The match rule that routes `NameOwnerChanged` to the daemon (added before it takes its name).
    public static let nameOwnerChangedRule =
        "type='signal',sender='org.freedesktop.DBus',interface='org.freedesktop.DBus',member='NameOwnerChanged'"

    public var state: DisplayState { simulation.state }
    public var serial: UInt64 { simulation.serial }

    // MARK: Methods of org.traitd.Layout1.Display

    /// One handler for each method of `Layout1.Display`, its arguments decoded by the declaration.
    private var displayMethods: [ObjectServer.Method] {
        typealias D = Layout1.Display
        return [
            command(D.setDevice) { service, call, device in try service.run(.setDevice(device), call) },
            command(D.rotate) { service, call, orientation in try service.run(.rotate(orientation), call) },
            command(D.setArrangement) { service, call, arrangement in try service.run(.setArrangement(arrangement), call) },
            command(D.openApp) { service, call, arguments in
                let (app, role) = arguments
                let started = try service.run(.openApp(app, role), call)
                return (Layout1.windowPath(app), started)
            },
            command(D.closeApp) { service, call, app in try service.run(.closeApp(app), call) },
            command(D.beginDividerDrag) { service, call, _ in try service.run(.beginDividerDrag, call) },
            command(D.moveDivider) { service, call, x in try service.run(.moveDivider(x), call) },
            command(D.endDividerDrag) { service, call, _ in try service.run(.endDividerDrag, call) },
            command(D.setTraits) { service, call, changes in try service.run(.setTraits(changes), call) },
            command(D.setWindowing) { service, call, mode in try service.run(.setWindowing(mode), call) },
            command(D.setKeyboard) { service, call, mode in try service.run(.setKeyboard(mode), call) },
            command(D.connectDisplay) { service, call, profile in
                _ = try service.run(.connectDisplay(profile: profile), call)
                return service.simulation.state.displays.last!.id
            },
            command(D.disconnectDisplay) { service, call, id in try service.run(.disconnectDisplay(id: id), call) },
            on(D.listDevices) { service, _, _ in service.simulation.catalog.ids },
            on(D.getState) { service, _, _ in
                let windows = service.simulation.appNames.map {
                    ObjectProperties(path: Layout1.windowPath($0), properties: service.windowProperties($0))
                }
                return (service.simulation.serial, Encoding.displayProperties(service.simulation.display).dictionary, windows)
            },
            on(D.getEvents) { service, _, since in try service.events(after: since) },
            on(D.registerAdapter) { service, call, names in
                _ = try service.handle(.register(app: names.0, adapter: names.1, owner: call.sender), call)
            },
            on(D.unregisterAdapter) { service, call, names in
                _ = try service.handle(.unregister(app: names.0, adapter: names.1, caller: call.sender), call)
            },
            on(D.listAdapters) { service, _, _ in service.core.registry.all },
            on(D.getRestorationState) { service, _, app in try refused { try service.core.restorationState(of: app) } },
        ]
    }

    /// Which display property a D-Bus name stands for (the names are the contract's, whatever the values are;
    /// made by `export`).
    private(set) var displayPropertyNames: [String: DisplayProperty] = [:]

    /// The properties of an object, read on the connection's thread (see `on`).
    nonisolated func reading(
        _ body: @escaping @Sendable (isolated DisplayService) -> [String: DBusValue]
    ) -> () -> [String: DBusValue] {
        { [unowned self] in assumeIsolated { body($0) } }
    }

    /// Binds a command's `handler` to `method`, as `on` does; the reply leaves once the state the command led
    /// to is on disk (`replyWhenSaved`), so that a client told its change was made never loses it to a crash.
    /// A refusal is sent at once: it changed nothing.
    nonisolated func command<Input, Output>(
        _ method: MethodDeclaration<Input, Output>,
        _ handler: @escaping @Sendable (isolated DisplayService, ObjectServer.MethodCall, Input) throws -> Output
    ) -> ObjectServer.Method {
        method.bind { [unowned self] call, input in
            try assumeIsolated { service in
                let output = try handler(service, call, input)
                service.replyOnceSaved(call, method.outputValues(output))
                return output
            }
        }
    }

    /// Binds `handler` to `method`: the object server calls it on the connection's thread, which is this
    /// actor's executor, so it runs isolated to the service.
    nonisolated func on<Input, Output>(
        _ method: MethodDeclaration<Input, Output>,
        _ handler: @escaping @Sendable (isolated DisplayService, ObjectServer.MethodCall, Input) throws -> Output
    ) -> ObjectServer.Method {
        method.bind { [unowned self] call, input in try assumeIsolated { try handler($0, call, input) } }
    }

    /// Applies `command` and announces its plans, a stage each; returns the ids of the transitions it started.
    func run(_ command: Command, _ call: ObjectServer.MethodCall) throws -> [UInt64] {
        try run(command, member: call.member, from: call.sender)
    }

    /// `run` for a command from `sender` (a bus connection, or `the desktop` for `--follow-desktop`).
    func run(_ command: Command, member: String, from sender: String) throws -> [UInt64] {
        try handle(.command(command), member: member, from: sender).began
    }

    /// `handle` for `call`.
    func handle(_ input: DisplayCore.Input, _ call: ObjectServer.MethodCall, saving: Bool = true) throws -> DisplayCore.Outcome {
        try handle(input, member: call.member, from: call.sender, saving: saving)
    }

    /// Hands `input` to the core, sends the events it makes, then saves what changed (unless `saving` is false:
    /// the caller saves, with a reply that waits for the write). A refusal is logged and thrown as its D-Bus
    /// error; it changed nothing.
    ///
    /// Each event is sent as the core makes it (it carries what its sending needs: `CoreEvent`): a window's
    /// adapters hear its first signals while the rest of the plan is still being worked out (a transition's
    /// latency is the work before the signal an adapter waits for). The signals sent meanwhile are journaled
    /// once the engine has returned, at the serial it leaves (`SignalJournal`); calls that waited are answered
    /// once the state is saved.
    func handle(
        _ input: DisplayCore.Input, member: String, from sender: String, saving: Bool = true
    ) throws -> DisplayCore.Outcome {
        let serial = simulation.serial
        journal.engineRuns()
        let outcome: DisplayCore.Outcome
        do {
            outcome = try core.handle(input) { announce($0) }
        } catch {
            journal.engineReturned(serial: simulation.serial)  // a refusal changes nothing and sends nothing; kept exact all the same
            logger.info("refused \(member) from \(sender): \(error.message)")
            throw error.dbusError
        }
        // The events of a command that changed the state are that command's, in the journal.
        journal.commandSerial = input.isCommand && simulation.serial != serial ? simulation.serial : nil
        journal.engineReturned(serial: simulation.serial)
        journal.commandSerial = nil
        if outcome.stateChanged, saving { save() }
        for answer in outcome.answered { answered(answer) }
        if input.isCommand {
            if simulation.serial == serial {
                logger.debug("\(member) from \(sender): nothing changes")
            } else {
                logger.info("\(member) from \(sender): serial \(simulation.serial)")
            }
        }
        return outcome
    }

    /// `GetEvents`: the journal after `serial`, or `EventsLost` saying how far back it reaches.
    func events(after serial: UInt64) throws -> [JournalEntry] {
        guard let events = journal.events(after: serial) else {
            throw DBusError(Layout1.Error.eventsLost,
                            "signals after serial \(serial) are no longer kept: the journal holds the last "
                                + "\(SignalJournal.maximumSignals) signals (at most \(SignalJournal.maximumBytes >> 20) MiB), "
                                + "complete after serial \(journal.oldestComplete) (now \(simulation.serial)); read the state "
                                + "with GetState and follow from there")
        }
        return events
    }
}
