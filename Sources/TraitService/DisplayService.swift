import DBus
import Limits
import Logging
import StateStore
import TraitModel
import TraitProtocol
import TransitionEngine
import Vocabulary

/// The daemon's objects on the bus: the display at `/org/traitd/Layout1` and a window object per open app.
///
/// The shell around the `TransitionEngine`: it decodes and checks a call's arguments, hands the command to the
/// engine, encodes each event the engine returns once and sends it (`DisplayService+Announce`), and keeps
/// what is the bus's: adapter registrations, the reports' frames and extras, the restoration states, the
/// deadlines' timers, and the state file (`StateStore`).
///
/// An actor whose executor is the connection's thread (`Connection.unownedExecutor`): the object server's
/// handlers, the bus's signals and the transition deadlines all run there and enter it synchronously with
/// `assumeIsolated`; other threads reach it with `await`. The compiler, not a comment, keeps its state on that
/// one thread.
public actor DisplayService {
    var engine: TransitionEngine
    /// The simulation the engine holds (read only here: only the engine changes it).
    var simulation: Simulation { engine.simulation }
    let server: ObjectServer
    public nonisolated let connection: Connection
    public nonisolated var unownedExecutor: UnownedSerialExecutor { connection.unownedExecutor }
    /// Transition id -> the clock's timer for its deadline, while it runs.
    var deadlineTimers: [UInt64: UInt64] = [:]
    /// What the deadlines run on: the connection's timers, or the virtual clock (`--clock virtual`).
    let clock: ServiceClock
    /// Whether `org.traitd.Layout1.Testing` is served (`--testing`, `--clock virtual`).
    let testing: Bool
    /// `--strict-layouts`: a report with layout problems counts as failed.
    let strictLayouts: Bool
    /// What `Reset` goes back to: the configuration's starting state.
    let startingState: DisplayState
    /// `SaveSnapshot`'s: name -> the display and the restoration states.
    var snapshots: [String: (state: DisplayState, restoration: [String: [String: DBusValue]])] = [:]
    let logger: Logger
    let limits: Limits
    let budget: PublishBudget
    var registry: AdapterRegistry
    /// app -> adapter -> its latest accepted report, with each app's bytes.
    var layouts = LayoutReports()
    /// app -> what its latest transition changed and how it completed, for `Explain`.
    var lastTransitions: [String: TransitionNote] = [:]
    /// Every signal sent, for `GetEvents`.
    var journal = SignalJournal()
    /// The serial a command made, while its events are being sent (the journal marks them as that command's).
    var announcingSerial: UInt64?
    /// Signals sent while the engine runs (`stream`), in the wire format: journaled once it has returned, at
    /// the serial it leaves (the journal's serial is the engine's, which is busy until then).
    var sentWhileTheEngineRuns: [[UInt8]]?
    /// app -> its restoration state. Kept for open apps and apps in the background; nothing the simulation
    /// does changes it.
    var restoration: [String: [String: DBusValue]] { didSet { restorationSizes = [:] } }
    /// app -> bytes of its restoration state, measured once after each change (every report checks the budget).
    var restorationSizes: [String: Int] = [:]
    /// Calls the engine answers later (`EndResize` while a step waits): the engine's caller id -> the reply.
    var waitingCalls: [UInt64: ObjectServer.DeferredReply] = [:]
    private var nextCaller: UInt64 = 1
    /// The serial of the state last handed to the store.
    var savedSerial: UInt64 = 0
    let store: StateStore?
    /// Whether `org.freedesktop.portal.Settings` is exported (`traitd --portal`): settings changes announce
    /// `SettingChanged` too.
    var servesPortal = false

    public init(
        simulation: Simulation, connection: Connection, settings: ServiceSettings, store: StateStore?,
        restoration: [String: [String: DBusValue]] = [:], logger: Logger
    ) {
        engine = TransitionEngine(simulation: simulation, deadline: settings.deadline, logger: logger)
        self.logger = logger
        self.limits = settings.limits
        self.store = store
        self.restoration = Self.kept(restoration, by: simulation)
        self.connection = connection
        registry = AdapterRegistry(limits: settings.limits)
        budget = PublishBudget(limits: settings.limits)
        server = ObjectServer(connection: connection, managerPath: Layout1.rootPath)
        clock = ServiceClock(settings.virtualClock ? .virtual : .real, connection: connection)
        testing = settings.testing || settings.virtualClock
        engine.countsCoverage = testing  // the Testing interface serves it
        strictLayouts = settings.strictLayouts
        startingState = settings.startingState ?? simulation.state
        server.incomingLimit = Self.incomingLimit(settings.limits)
        server.sendFailed = { what, error in logger.error("cannot send \(what): \(error); staying on the bus") }
    }

    /// Exports the display and the windows of the apps open at start, and starts watching for adapters' connections
    /// leaving the bus. Call on the connection's thread.
    public func export() {
        // Every signal the connection sends goes to the journal as it is sent, at the serial of the moment.
        connection.emitted = { [unowned self] bytes in
            assumeIsolated { service in
                if service.sentWhileTheEngineRuns != nil {
                    service.sentWhileTheEngineRuns?.append(bytes)
                } else {
                    service.journal(bytes)
                }
            }
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
            self?.assumeIsolated { $0.connectionLeft(name) }
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
            on(D.registerAdapter) { service, call, names in try service.registerAdapter(app: names.0, adapter: names.1, call) },
            on(D.unregisterAdapter) { service, call, names in
                try service.unregisterAdapter(app: names.0, adapter: names.1, call)
            },
            on(D.listAdapters) { service, _, _ in service.registry.all },
            on(D.getRestorationState) { service, _, app in try service.restorationState(of: app) },
        ]
    }

    /// The properties of an object, read on the connection's thread (see `on`).
    /// Which display property a D-Bus name stands for (the names are the contract's, whatever the values are;
    /// made by `export`).
    private(set) var displayPropertyNames: [String: DisplayProperty] = [:]

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
        try engineCall(member, from: sender) { engine, adapters, send throws(ModelError) in
            try engine.run(command, adapters: adapters, emit: send)
        }
    }

    /// Calls the engine with the adapters registered now, sends the events it made, then saves what changed.
    /// A refusal is logged and thrown as its D-Bus error; it changed nothing.
    func engineCall<Result>(
        _ member: String, from sender: String,
        _ body: (inout TransitionEngine, [String: [String]], (EngineEvent) -> Void) throws(ModelError) -> Result
    ) throws -> Result {
        let serial = simulation.serial
        let result: Result
        var heldBack: [EngineEvent] = []
        sentWhileTheEngineRuns = []
        do {
            result = try body(&engine, registry.adaptersByApp) { stream($0, heldBack: &heldBack) }
        } catch {
            journalSentWhileTheEngineRan()  // a refusal changes nothing and sends nothing; kept exact all the same
            logger.info("refused \(member) from \(sender): \(error.message)")
            throw error.dbusError
        }
        // The events of a command that changed the state are that command's, in the journal.
        announcingSerial = simulation.serial == serial ? nil : simulation.serial
        journalSentWhileTheEngineRan()
        announce(heldBack)
        announcingSerial = nil
        if simulation.serial == serial {
            logger.debug("\(member) from \(sender): nothing changes")
        } else {
            logger.info("\(member) from \(sender): serial \(simulation.serial)")
        }
        return result
    }

    /// Calls the engine for something that is not a command (a report, an adapter leaving, a deadline), whose
    /// events may still change the state (a waiting live-resize step applied), sends them and saves what
    /// changed; the registrations are gathered only if the engine asks for them.
    func engineEvent(_ body: (inout TransitionEngine, () -> [String: [String]], (EngineEvent) -> Void) -> Void) {
        var heldBack: [EngineEvent] = []
        sentWhileTheEngineRuns = []
        body(&engine, { registry.adaptersByApp }) { stream($0, heldBack: &heldBack) }
        journalSentWhileTheEngineRan()
        announce(heldBack)
    }

    /// One event the engine makes while it runs (`engineCall`, `engineEvent`), sent at once: a window's adapters
    /// hear its first signals while the rest of the plan is still being worked out (a transition's latency is
    /// the work before the signal an adapter waits for). But the first event whose sending reads the engine's
    /// state (exporting a window: its `InterfacesAdded` carries the window's properties), which the engine holds
    /// exclusively until it returns, is held back, and so is every one after it, in order, to be sent then.
    /// The signals sent meanwhile are journaled once the engine has returned (`sentWhileTheEngineRuns`): the
    /// caller sets it to `[]` before and calls `journalSentWhileTheEngineRan` after, whatever happened.
    private func stream(_ event: EngineEvent, heldBack: inout [EngineEvent]) {
        if heldBack.isEmpty, !event.readsTheEngine { announce(event) } else { heldBack.append(event) }
    }

    /// Journals the signals `stream` sent, at the serial the engine left.
    private func journalSentWhileTheEngineRan() {
        let sent = sentWhileTheEngineRuns ?? []
        sentWhileTheEngineRuns = nil
        for bytes in sent { journal(bytes) }
    }

    /// Records a signal sent in the journal, at the serial of the moment.
    private func journal(_ bytes: [UInt8]) {
        let serial = simulation.serial
        journal.record(SignalJournal.Entry(serial: serial, message: bytes, ofItsCommand: announcingSerial == serial))
    }

    /// Sends the events the engine held back, then saves what changed. Each event is encoded as it is sent.
    private func announce(_ events: [EngineEvent]) {
        for event in events { announce(event) }
        stateChanged()
    }

    /// After the engine ran: restoration states of apps that are gone go too, and a new state is saved.
    private func stateChanged() {
        guard simulation.serial != savedSerial else { return }
        pruneRestoration()
        save()
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

    /// A caller id for the engine, for a call it answers later (`.answered`), with the call's reply.
    func waitingCall(_ reply: ObjectServer.DeferredReply) -> UInt64 {
        defer { nextCaller += 1 }
        waitingCalls[nextCaller] = reply
        return nextCaller
    }

    // MARK: Adapters

    private func registerAdapter(app: String, adapter: String, _ call: ObjectServer.MethodCall) throws {
        guard try registry.register(app: app, adapter: adapter, owner: call.sender) else { return }
        logger.info("adapter \(adapter) registered for \(app) by \(call.sender)")
        adaptersChanged(app)
    }

    private func unregisterAdapter(app: String, adapter: String, _ call: ObjectServer.MethodCall) throws {
        try registry.unregister(app: app, adapter: adapter, caller: call.sender)
        logger.info("adapter \(adapter) for \(app) unregistered by \(call.sender)")
        adapterGone(app: app, adapter: adapter)
    }

    /// A connection left the bus: its registrations end, and open transitions stop waiting for them.
    func connectionLeft(_ name: String) {
        let gone = registry.removeOwner(name)
        guard !gone.isEmpty else { return }
        logger.info("\(name) left the bus; its adapters end: \(gone.map { "\($0.adapter) (\($0.app))" }.joined(separator: ", "))")
        for registration in gone { adapterGone(app: registration.app, adapter: registration.adapter) }
    }

    private func adapterGone(app: String, adapter: String) {
        engineEvent { engine, adapters, send in engine.adapterLeft(app: app, adapter: adapter, adapters: adapters, emit: send) }
        // Its frames were computed for sizes it will no longer follow: they go with it.
        layouts.remove(app: app, adapter: adapter)
        adaptersChanged(app, layoutsToo: true)
    }

    private func adaptersChanged(_ app: String, layoutsToo: Bool = false) {
        guard simulation.windows[app] != nil else { return }
        let changed = [Layout1.Window.adapters.entry(registry.adapters(for: app))] + (layoutsToo ? layoutProperties(app) : [])
        server.propertiesChanged(path: Layout1.windowPath(app), interface: Layout1.windowInterface, changed)
    }
}
