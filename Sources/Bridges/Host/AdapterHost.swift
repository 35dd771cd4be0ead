import Adapters
import DBus
import FoundationEssentials
import Logging
import TraitClient
import TraitProtocol

/// The adapter host's bus side: registers every adapter for its app with the daemon, follows the windows'
/// transitions, lays them out and reports with `ReportLayout`.
///
/// - Registrations belong to the host's connection, so when the host dies the daemon lists its adapters as
///   missed in any open transition, and forgets them.
/// - When the daemon (re)appears on the bus, the host registers again and reports each open window's layout
///   as it is (transition 0).
/// - `replace(adapters:)` swaps the adapter set (SIGHUP): registrations that went are withdrawn, new ones are
///   made, and every window is laid out again.
///
/// An actor whose executor is the client connection's thread: signal handlers run there and enter it
/// synchronously (`assumeIsolated`), its async methods run there between their calls to the daemon.
public actor AdapterHost {
    public nonisolated let client: TraitClient
    public nonisolated var unownedExecutor: UnownedSerialExecutor { client.connection.unownedExecutor }
    private let logger: Logger
    /// Waits this long before each report (to play a slow host in tests; 0 normally).
    private let delay: Duration
    private var adapters: [any LayoutAdapter]
    /// The bridges to programs outside the host (`--web`): registered and reported like the adapters, laid
    /// out asynchronously; not replaced on SIGHUP (their programs keep running).
    private let bridges: [any BridgeAdapter]
    private var windows: [String: WindowTracker] = [:]
    private var display = DisplayFacts()
    /// The adapters registered with the daemon now, as "app/adapter".
    private var registered: Set<String> = []
    /// Each bridge's latest layout and report ("app/adapter"): the next waits for it, so that a bridge lays out
    /// transitions one at a time and in their order.
    private var bridgeQueues: [String: Task<Void, Never>] = [:]
    /// The bridges whose programs are ready (or failed to get ready), as "app/adapter": registered from then on.
    private var readyBridges: Set<String> = []
    /// app -> how many transitions of its window the host has laid out: a report of the window as it is
    /// (transition 0) still on its way when a transition comes is dropped, as it answers the older geometry.
    private var transitionsLaidOut: [String: Int] = [:]
    private var daemon: String?
    /// app -> the breakpoints the host last declared for its window (`SetBreakpoints`, from its layout files):
    /// declared again when they differ from the files' (`declareBreakpoints`).
    private var declaredBreakpoints: [String: [String: BreakpointCondition]] = [:]
    /// `org.a11y.Bus`, where the host serves it (`serveAccessibilityBus`).
    private var accessibilityService: ObjectServer?

    public init(bus: Connection.Bus, adapters: [any LayoutAdapter], bridges: [any BridgeAdapter] = [], delay: Duration,
         logger: Logger) throws {
        client = try TraitClient(bus: bus)
        self.adapters = adapters
        self.bridges = bridges
        self.delay = delay
        self.logger = logger
    }

    /// Subscribes to the daemon's signals and to its name, and attaches if it is on the bus already. The
    /// bridges' programs get ready meanwhile, each on its own: the other adapters register at once, and each
    /// bridge registers once its program is ready or has failed to get ready (within its limits), so a client
    /// that waits for the registrations finds the pages loaded, and a command that shows no window holds back
    /// only its own bridge (it once held every adapter back for 30 s). A bridge that cannot get ready reports
    /// `failed` with why.
    public func start() async throws {
        for bridge in bridges {
            let key = Self.key(bridge.app, bridge.name)
            bridgeQueues[key] = Task {
                do {
                    let ready = try await bridge.prepare()
                    logger.info("\(bridge.name) for \(bridge.app): \(ready)")
                } catch {
                    logger.error("\(bridge.name) for \(bridge.app) is not ready: \(error)")
                }
                await bridgeReady(bridge)
            }
        }
        let connection = client.connection
        let daemon = TraitClient.busName
        // Each subscription names its sender, and the connection checks it on every signal: a signal that a
        // peer sends straight to the host (a forged NameOwnerChanged or ViewWillTransitionToSize) is dropped.
        try await connection.subscribe(
            sender: Connection.busName,
            matching: "interface='\(Connection.busName)',member='NameOwnerChanged',arg0='\(daemon)'"
        ) { [weak self] signal in self?.assumeIsolated { $0.nameOwnerChanged(signal) } }
        try await connection.subscribe(sender: daemon, matching: "interface='\(TraitClient.windowInterface)'") {
            [weak self] signal in self?.assumeIsolated { $0.received(TraitEvent(signal)) }
        }
        // The display's signals reach the same handler (a handler gets every signal from its sender), and so do
        // the windows' property changes: a window's origin (where the keyboard is in it) and its safe area adapted
        // to the window controls change without a transition signal of their own.
        try await connection.addMatch("type='signal',sender='\(daemon)',path='\(TraitClient.rootPath)'")
        try await connection.addMatch(
            "type='signal',sender='\(daemon)',interface='org.freedesktop.DBus.Properties',member='PropertiesChanged',"
            + "path_namespace='\(TraitClient.rootPath)/window'")
        if let owner = try await connection.nameOwner(daemon) {
            await attach(owner)
        } else {
            logger.notice("\(daemon) is not on the bus; waiting for it")
        }
    }

    /// Serves `org.a11y.Bus` on the host's bus, which is the desktop apps' session bus, naming `address`
    /// (`AccessibilityBusService`: how Qt 6 finds the accessibility bus); before `start`, so that every app finds
    /// it. Returns whether it does: not where another process holds the name (a desktop's own session bus).
    public func serveAccessibilityBus(address: String) async -> Bool {
        let service = AccessibilityBusService.export(on: client.connection, address: address)
        guard (try? await client.connection.requestName(AccessibilityBusService.name)) == .primaryOwner else {
            service.unexport(AccessibilityBusService.path)
            return false
        }
        accessibilityService = service
        return true
    }

    /// Replaces the adapter set; withdraws registrations that went, and registers and reports the rest.
    public func replace(adapters new: [any LayoutAdapter]) async {
        let keep = Set(new.map { Self.key($0.app, $0.name) } + bridges.map { Self.key($0.app, $0.name) })
        let old = registered.filter { !keep.contains($0) }.sorted()
        adapters = new
        guard daemon != nil else { return }
        for key in old {
            let (app, name) = Self.split(key)
            do {
                try await client.unregisterAdapter(name, for: app)
                logger.info("unregistered \(name) for \(app)")
            } catch {
                logger.warning("cannot unregister \(name) for \(app): \(error)")
            }
            registered.remove(key)
        }
        await registerAll()
        await declareBreakpoints()
        await layOutAll()
    }

    // MARK: Attaching to the daemon

    /// The daemon owns its name (at start, or after a restart): learn the windows, register, report.
    private func attach(_ owner: String) async {
        daemon = owner
        registered = []
        declaredBreakpoints = [:]
        logger.info("traitd is on the bus as \(owner); registering \(adapters.count + bridges.count) adapter(s)")
        do {
            let state = try await client.state()
            display.update(state)
            windows = [:]
            for window in state.windows {
                windows[window.app] = WindowTracker(window: window, display: display)
            }
        } catch {
            logger.error("cannot read the daemon's state: \(error)")
        }
        await registerAll()
        await declareBreakpoints()
        await layOutAll()
    }

    // MARK: Breakpoints

    /// The breakpoints `app`'s registered layout files declare, by name (a name two files give: the later
    /// adapter's, in the host's order).
    private func wantedBreakpoints(of app: String) -> [String: BreakpointCondition] {
        var wanted: [String: BreakpointCondition] = [:]
        for adapter in adapters where adapter.app == app && registered.contains(Self.key(app, adapter.name)) {
            wanted.merge(adapter.breakpoints) { $1 }
        }
        return wanted
    }

    /// Declares each open window's breakpoints where the host's last declaration is not its files' (a new
    /// window, a SIGHUP, the daemon back): from the connection that is the window's adapter. A refusal is
    /// logged and changes no registration: the files' sections still follow their conditions.
    private func declareBreakpoints() async {
        for app in windows.keys.sorted() {
            let wanted = wantedBreakpoints(of: app)
            guard wanted != (declaredBreakpoints[app] ?? [:]) else { continue }
            do {
                try await client.setBreakpoints(of: app, wanted.mapValues(\.description))
                declaredBreakpoints[app] = wanted
                logger.info("declared \(app)'s breakpoints: \(wanted.keys.sorted().joined(separator: ", "))")
            } catch {
                logger.warning("cannot declare \(app)'s breakpoints: \(error)")
            }
        }
    }

    /// Whether `app`'s window has lost the breakpoints the host declared (a `Reset`, a snapshot restored, the app
    /// closed and opened): the ones that hold by the files' conditions are not the ones the daemon names.
    private func breakpointsLost(_ app: String, _ context: WindowContext) -> Bool {
        guard let declared = declaredBreakpoints[app], !declared.isEmpty, let published = windows[app]?.breakpoints else { return false }
        let window = BreakpointCondition.Window(width: context.width, height: context.height, traits: context.traits)
        return BreakpointCondition.holding(declared, in: window) != published
    }

    /// `bridge`'s program is ready (or failed to get ready): it registers, and reports its window as it is.
    private func bridgeReady(_ bridge: any BridgeAdapter) async {
        readyBridges.insert(Self.key(bridge.app, bridge.name))
        guard daemon != nil else { return }
        await registerAll()
        report(app: bridge.app, transition: 0, only: bridge.name)
    }

    private func registerAll() async {
        let ready = bridges.filter { readyBridges.contains(Self.key($0.app, $0.name)) }
        let all = adapters.map { ($0.app, $0.name) } + ready.map { ($0.app, $0.name) }
        // Marked before the call: a bridge that gets ready while this loop waits for a reply runs the loop again,
        // and would register (and log) the same adapter twice. The call is sent before the wait, so a report that
        // follows it on this connection reaches the daemon after it.
        for (app, name) in all where !registered.contains(Self.key(app, name)) {
            registered.insert(Self.key(app, name))
            do {
                try await client.registerAdapter(name, for: app)
                logger.info("registered \(name) for \(app)")
            } catch {
                registered.remove(Self.key(app, name))
                logger.error("cannot register \(name) for \(app): \(error)")
            }
        }
    }

    /// Reports every open window's layout as it is now, outside any transition (transition 0).
    private func layOutAll() async {
        let apps = windows.keys.sorted()
        for app in apps { report(app: app, transition: 0) }
    }

    // MARK: Signals

    /// The bus says the daemon's name changed hands.
    private func nameOwnerChanged(_ signal: Connection.Signal) {
        guard signal.member == "NameOwnerChanged", signal.arguments.count == 3,
              signal.arguments[0].string == TraitClient.busName, let new = signal.arguments[2].string else { return }
        if new.isEmpty {
            logger.notice("traitd left the bus; waiting for it to come back")
            daemon = nil
            registered = []
            windows = [:]
        } else {
            Task { await attach(new) }
        }
    }

    /// A signal from the daemon (the connection has checked that it comes from the name's owner), decoded.
    private func received(_ event: TraitEvent) {
        switch event {
        case .displayChanged(let changes):
            let reducedMotion = display.reduceMotion
            display.update(changes)
            for app in windows.keys {
                windows[app]!.orientation = display.orientation
                (windows[app]!.screenWidth, windows[app]!.screenHeight) = (display.screenWidth, display.screenHeight)
                windows[app]!.reduceMotion = display.reduceMotion
            }
            // Reduce Motion alone changes a property, not a window: a page hears it now (prefers-reduced-motion)
            // and its new layout is reported as the window as it is (transition 0), not at the next transition.
            if display.reduceMotion != reducedMotion {
                for app in windows.keys.sorted() { report(app: app, transition: 0) }
            }
        case .windowOpened(let window):
            windows[window.app] = WindowTracker(window: window, display: display)
            // A new window has no declarations: the files' breakpoints go to it.
            declaredBreakpoints[window.app] = nil
            Task { await declareBreakpoints() }
            // A window that opens on screen gets its first layout as a transition of its own (its
            // `ViewWillLayoutSubviews` follows); one that opens off screen is laid out as it is.
            if window.state == .background { report(app: window.app, transition: 0) }
        case .windowClosed(let app):
            windows[app] = nil
        case .unrecognized(let signal):
            logger.warning("cannot read \(signal.member) from traitd at \(signal.path): \(signal.problem)")
        default:
            if let app = event.app, let id = windows[app]?.handle(event) {
                if let context = windows[app]?.context, breakpointsLost(app, context) {
                    declaredBreakpoints[app] = nil
                    Task { await declareBreakpoints() }
                }
                report(app: app, transition: id)
            }
        }
    }

    // MARK: Reports

    /// Lays out `app`'s window with each of its adapters (or the one named `only`) and reports, each report on
    /// its own task.
    private func report(app: String, transition: UInt64, only: String? = nil) {
        let work = adapters.filter { $0.app == app && registered.contains(Self.key($0.app, $0.name)) && (only ?? $0.name) == $0.name }
        let bridged = bridges.filter { $0.app == app && registered.contains(Self.key($0.app, $0.name)) && (only ?? $0.name) == $0.name }
        let context = windows[app]?.context
        guard let context, !work.isEmpty || !bridged.isEmpty else { return }
        if transition != 0 { transitionsLaidOut[app, default: 0] += 1 }
        let laidOut = transitionsLaidOut[app, default: 0]
        for adapter in work {
            let result = adapter.layout(context)
            Task { await send(result, of: adapter.name, app: app, transition: transition, context, laidOut: laidOut) }
        }
        for bridge in bridged {
            let key = Self.key(bridge.app, bridge.name), before = bridgeQueues[key]
            bridgeQueues[key] = Task {
                await before?.value
                // A transition of the window came while this layout waited for the bridge: the daemon completed
                // this one when the next began (or, for the window as it was, refuses it while one is open), so its
                // layout would be stale; only the newest is laid out (a stuck program's queue drains at once when
                // it comes back, and holds no work meanwhile).
                guard transitionsLaidOut[app, default: 0] == laidOut else { return }
                await send(await bridge.layout(context), of: bridge.name, app: app, transition: transition, context, laidOut: laidOut)
            }
        }
    }

    /// Reports one adapter's result, after the host's `--delay-ms`; a report of the window as it is
    /// (transition 0) is dropped when a transition came since it was laid out (`laidOut`).
    private func send(_ result: AdapterResult, of adapter: String, app: String, transition: UInt64, _ context: WindowContext,
                      laidOut: Int) async {
        if delay > .zero { try? await Task.sleep(for: delay) }
        // On the host's executor: a transition handled meanwhile has moved the count on.
        if transition == 0, transitionsLaidOut[app, default: 0] != laidOut {
            logger.debug("\(app) \(adapter): a transition came; its report replaces the one of the window as it was")
            return
        }
        let (frames, extras) = Self.wire(result)
        do {
            try await client.reportLayout(app: app, transition: transition, adapter: adapter, frames: frames, extras: extras)
            logger.info("\(app) #\(transition) \(Self.size(context)) \(adapter): \(Self.summary(result))")
        } catch let error as DBusError where Self.refusesTheLayout(error) && !frames.isEmpty {
            // The layout itself was refused (a negative width, a page taller than traitd's coordinates, over the
            // byte budget): the transition hears `failed` with traitd's reason now, not `missed` at its deadline.
            logger.warning("\(app) #\(transition) \(adapter): the daemon refused the layout, reported as failed: \(error.message)")
            await send(.failed("\(adapter): traitd refused the layout: \(error.message)"), of: adapter, app: app,
                       transition: transition, context, laidOut: laidOut)
        } catch {
            logger.warning("\(app) #\(transition) \(adapter): the daemon refused the report: \(error)")
        }
    }

    /// Whether `error` refuses what a report says (its frames or its size), rather than when or by whom it was
    /// sent: such a refusal is reported as the layout's failure.
    static func refusesTheLayout(_ error: DBusError) -> Bool {
        error.name == DBusError.invalidArgsName || error.name == Layout1.Error.limitExceeded
    }

    /// A result as `ReportLayout`'s frames and extras; a failure is reported with no frames and `error`.
    static func wire(_ result: AdapterResult) -> ([String: Rect], [String: DBusValue]) {
        switch result {
        case .failed(let reason):
            return ([:], [Layout1.Window.Extras.error: .string(reason)])
        case .laidOut(let frames, let extras, let kinds, let scrolledIn, let overflow, let contentBoxes, let clippedText, let lowContrast):
            var wire = extras.mapValues { extra -> DBusValue in
                switch extra {
                case .string(let s): return .string(s)
                case .number(let d): return .double(d)
                case .bool(let b): return .boolean(b)
                }
            }
            if !kinds.isEmpty { wire[Layout1.Window.Extras.kinds] = Layout1.Window.Extras.kindsParameter.encode(kinds) }
            if !scrolledIn.isEmpty {
                wire[Layout1.Window.Extras.scrolledIn] = Layout1.Window.Extras.scrolledInParameter.encode(scrolledIn)
            }
            switch overflow {
            case .minimumSize(let size)?: wire[Layout1.Window.Extras.minimumSize] = Layout1.Window.Extras.minimumSizeParameter.encode(size)
            case .reflow(let reflow)?: wire[Layout1.Window.Extras.reflow] = Layout1.Window.Extras.reflowParameter.encode(reflow)
            case nil: break
            }
            if !contentBoxes.isEmpty {
                wire[Layout1.Window.Extras.contentBoxes] = Layout1.Window.Extras.contentBoxesParameter.encode(contentBoxes.sorted())
            }
            if !clippedText.isEmpty {
                wire[Layout1.Window.Extras.clippedText] = Layout1.Window.Extras.clippedTextParameter.encode(clippedText)
            }
            if !lowContrast.isEmpty {
                wire[Layout1.Window.Extras.lowContrast] = Layout1.Window.Extras.lowContrastParameter.encode(lowContrast)
            }
            return (frames, wire)
        }
    }

    static func summary(_ result: AdapterResult) -> String {
        switch result {
        case .failed(let reason): return "failed: " + reason.replacing("\n", with: " ")
        case .laidOut(let frames, let extras, _, _, _, _, _, _):
            let shown = frames.keys.sorted().map { "\($0)=(\(frames[$0]!.values.map(\.compact).joined(separator: ",")))" }
            return (shown + extras.keys.sorted().map { "\($0)=\(extras[$0]!)" })
                .joined(separator: " ")
        }
    }

    /// `694x768 R/R landscape`
    static func size(_ c: WindowContext) -> String {
        let classes = [c.traits.horizontalSizeClass, c.traits.verticalSizeClass].map { $0 == .regular ? "R" : "C" }
            .joined(separator: "/")
        return "\(c.width.compact)x\(c.height.compact) \(classes) \(c.orientation.isLandscape ? "landscape" : "portrait")"
    }

    static func key(_ app: String, _ adapter: String) -> String { app + "/" + adapter }

    static func split(_ key: String) -> (app: String, adapter: String) {
        let parts = key.split(separator: "/", maxSplits: 1)
        return (String(parts[0]), String(parts[1]))
    }
}
