import DBus
import LayoutJudge
import TraitModel
import TraitProtocol
import TransitionEngine
import Vocabulary

/// The window objects: `/org/traitd/Layout1/window/<app>`, their properties, `ReportLayout` and
/// `SetRestorationState`.
extension DisplayService {
    func exportWindow(_ app: String) {
        server.export(Layout1.windowPath(app), [
            ObjectServer.Interface(
                Layout1.Window.interface, methods: windowMethods(app),
                properties: reading { $0.windowProperties(app) }),
        ])
    }

    /// Every property of `app`'s window: its geometry from the simulation, then what adapters and the app's
    /// client put there.
    func windowProperties(_ app: String) -> [String: DBusValue] {
        guard let window = simulation.windows[app] else { return [:] }
        return (Encoding.windowProperties(app: app, window) + [Layout1.Window.adapters.entry(registry.adapters(for: app))]
            + layoutProperties(app) + [Layout1.Window.restorationState.entry(restoration[app] ?? [:])]).dictionary
    }

    /// One handler for each method of `app`'s `Layout1.Window`.
    private func windowMethods(_ app: String) -> [ObjectServer.Method] {
        [
            on(Layout1.Window.reportLayout) { service, call, report in
                let (id, adapter, frames, extras) = report
                try service.reportLayout(app: app, id: id, adapter: adapter, frames: frames, extras: extras, call)
            },
            on(Layout1.Window.setRestorationState) { service, call, state in
                try service.setRestorationState(app: app, state, call)
            },
            on(Layout1.Window.explain) { service, _, _ in try service.explanation(of: app) },
            command(Layout1.Window.setFrame) { service, call, frame in try service.run(.setFrame(app: app, frame), call) },
            command(Layout1.Window.tile) { service, call, position in try service.run(.tile(app: app, position), call) },
            command(Layout1.Window.raise) { service, call, _ in try service.run(.raise(app: app), call) },
            command(Layout1.Window.beginResize) { service, call, _ in try service.run(.beginResize(app: app), call) },
            command(Layout1.Window.resizeTo) { service, call, size in try service.resizeStep(app, to: size, call) },
            command(Layout1.Window.moveToDisplay) { service, call, display in
                try service.run(.moveToDisplay(app: app, display: display), call)
            },
            // What the app declares and asks: only its own adapters' connections may.
            command(Layout1.Window.setSizeRestrictions) { service, call, sizes in
                try service.checkDeclaring(app, call, "declare its size restrictions")
                return try service.run(.setSizeRestrictions(app: app, SizeRestrictions(minimum: sizes.0, maximum: sizes.1)), call)
            },
            command(Layout1.Window.setSupportedOrientations) { service, call, orientations in
                try service.checkDeclaring(app, call, "declare its supported orientations")
                return try service.run(.setSupportedOrientations(app: app, orientations), call)
            },
            command(Layout1.Window.requestGeometryUpdate) { service, call, request in
                try service.checkDeclaring(app, call, "request its geometry")
                return try service.run(.requestGeometryUpdate(app: app, request), call)
            },
            // Answered by `endResize` itself (a deferred reply: what the handler returns is not sent), at once
            // or once the step it waits for is applied.
            on(Layout1.Window.endResize) { service, call, _ in
                try service.endResize(app, call)
                return []
            },
        ]
    }

    /// An app's declarations and requests come from the app: a connection that registered an adapter for its
    /// window (`AccessDenied` for any other, naming who may).
    private func checkDeclaring(_ app: String, _ call: ObjectServer.MethodCall, _ what: String) throws {
        let adapters = registry.adapters(for: app)
        guard adapters.contains(where: { registry.owner(app: app, adapter: $0) == call.sender }) else {
            throw DBusError(DBusError.accessDeniedName, "only a connection that registered an adapter for '\(app)' may \(what); "
                + (adapters.isEmpty ? "it has none (RegisterAdapter first)" : "its adapters: \(adapters.joined(separator: ", "))"))
        }
    }

    /// A live-resize step: applied now, or kept waiting while the window's transition is open, its reply naming
    /// the transition that will carry it (`TransitionEngine+LiveResize`).
    private func resizeStep(_ app: String, to size: Size, _ call: ObjectServer.MethodCall) throws -> [UInt64] {
        try engineCall(call.member, from: call.sender) { engine, adapters, send throws(ModelError) in
            try engine.resizeStep(app, to: size, adapters: adapters, emit: send)
        }
    }

    /// Lets go of the corner: answered at once, or, with a step still waiting, once the engine has applied it
    /// and ended the resize (`.answered`); either way once the state is on disk.
    private func endResize(_ app: String, _ call: ObjectServer.MethodCall) throws {
        let reply = call.deferReply()
        let caller = waitingCall(reply)
        let ended: [UInt64]?
        do {
            ended = try engineCall(call.member, from: call.sender) { engine, adapters, send throws(ModelError) in
                try engine.endResize(app, caller: caller, adapters: adapters, emit: send)
            }
        } catch {
            waitingCalls[caller] = nil
            throw error
        }
        guard let ended else { return }
        waitingCalls[caller] = nil
        replyWhenSaved(reply, Layout1.Window.endResize.outputValues(ended))
    }

    /// Accepts an adapter's layout for transition `id` (or, with id 0, for the window's current geometry
    /// outside any transition: refused while one is open). Checks in order: the adapter is registered for this
    /// app, by the caller; the report is well formed; the transition is open and the adapter has not reported
    /// for it yet. A refused report changes nothing. An accepted one is judged against the window
    /// (`LayoutReport`, `LayoutProblems`).
    private func reportLayout(
        app: String, id: UInt64, adapter: String, frames: [String: Rect], extras: [String: DBusValue],
        _ call: ObjectServer.MethodCall
    ) throws {
        guard let owner = registry.owner(app: app, adapter: adapter) else {
            throw DBusError(Layout1.Error.noSuchAdapter,
                            "no adapter '\(adapter)' is registered for app '\(app)'; call RegisterAdapter first")
        }
        guard owner == call.sender else {
            throw DBusError(DBusError.accessDeniedName,
                            "adapter '\(adapter)' for app '\(app)' belongs to \(owner); only it may report for it")
        }
        // The window exists (its object answered this call); the report is judged against what it shows now,
        // which is what the open transition published.
        let window = simulation.windows[app]!
        let report = try LayoutReport(
            frames: frames, extras: extras, budget: budget, judgedAs: adapter,
            in: PublishedWindow(size: window.frame.size, safeAreaInsets: window.safeArea, idiom: window.traits.idiom,
                                dockedKeyboard: window.dockedKeyboard, windowControls: window.windowControls))
        let old = layouts[app]?[adapter]?.bytes ?? 0
        try budget.checkTotals(app: app, window: publishedBytes(app) - old + report.bytes,
                               total: totalPublishedBytes - old + report.bytes)
        do {
            try engine.checkReport(app: app, id: id, adapter: adapter)
        } catch {
            switch error {
            case .stale(let message): throw DBusError(Layout1.Error.staleTransition, message)
            case .alreadyReported(let message): throw DBusError(Layout1.Error.alreadyReported, message)
            }
        }
        layouts.set(report, app: app, adapter: adapter)
        if let failure = report.failure {
            logger.info("adapter \(adapter) failed to lay out \(app) for transition \(id): \(failure)")
        } else {
            logger.debug("adapter \(adapter) reported \(report.frames.count) frame(s) for \(app), transition \(id)")
        }
        for problem in report.problems {
            logger.info("\(app) transition \(id): \(problem.rule) in \(adapter)'s \(problem.element): \(problem.message)")
        }
        let failed = report.failure != nil || (strictLayouts && !report.problems.isEmpty)
        // Announced at once for id 0; otherwise once, when the transition completes, rather than once per report.
        engineEvent { engine, adapters, send in
            engine.reported(app: app, id: id, adapter: adapter, failed: failed, adapters: adapters, emit: send)
        }
    }

    /// `Layouts` (the frames of every report but a failed one), `LayoutExtras` (every report's extras) and
    /// `LayoutProblems` (every report's problems, by adapter).
    func layoutProperties(_ app: String) -> [PropertyValue] {
        let reports = layouts[app] ?? [:]
        let window = Layout1.Window.self
        return [
            window.layouts.entry(reports.filter { $0.value.failure == nil }.mapValues(\.frames)),
            window.layoutExtras.entry(reports.mapValues(\.extras)),
            window.layoutProblems.entry(reports.keys.sorted().flatMap { reports[$0]!.problems }),
        ]
    }

    /// Replaces `app`'s restoration state. The reply goes out once the new state is on disk (see `save`):
    /// an app told its state is set never loses it to a crash. Checked first, on the decoded value: its
    /// depth (`value-depth`), its size (`restoration-bytes`) and what its window and all windows would then
    /// publish (`window-bytes`, `total-bytes`); a refusal changes nothing.
    private func setRestorationState(app: String, _ value: DBusValue, _ call: ObjectServer.MethodCall) throws {
        guard let state = try value.uniqueDictionary("the restoration state") else {
            throw DBusError.invalidArgs("the restoration state must be a{sv}")
        }
        try budget.checkDepth(value, "the restoration state")
        let bytes = DBusValue.vardict(state).wireSize
        try budget.checkBytes(bytes, "the restoration state", limit: limits.restorationBytes, key: "restoration-bytes")
        let old = restorationBytes(app)
        try budget.checkTotals(app: app, window: publishedBytes(app) - old + bytes, total: totalPublishedBytes - old + bytes)
        let reply = call.deferReply()
        guard state != restoration[app] ?? [:] else {
            // Unchanged, but perhaps still on its way to the disk: the reply waits for it all the same.
            replyWhenSaved(reply, [])
            return
        }
        restoration[app] = state.isEmpty ? nil : state
        logger.debug("\(call.sender) set the restoration state of \(app): \(state.count) key(s), \(bytes) bytes")
        announceRestoration(of: app)
        save(replyWhenDurable: reply)
    }

    /// `GetRestorationState(app)`: the state of an app on screen or in the background (which has no window
    /// object to read it from). Any other app has none to keep: `NoSuchApp`, naming the apps that have one.
    func restorationState(of app: String) throws -> [String: DBusValue] {
        guard simulation.windows[app] != nil || simulation.state.background.contains(app) else {
            let open = simulation.appNames.isEmpty ? "none" : simulation.appNames.joined(separator: ", ")
            let background = simulation.state.background.isEmpty ? "none" : simulation.state.background.joined(separator: ", ")
            throw DBusError(Layout1.Error.noSuchApp,
                            "app '\(app)' is neither open nor in the background (open: \(open); background: \(background))")
        }
        return restoration[app] ?? [:]
    }

    // MARK: What windows publish

    /// Bytes of `app`'s restoration state, in the wire format.
    func restorationBytes(_ app: String) -> Int {
        if let known = restorationSizes[app] { return known }
        let bytes = restoration[app].map { DBusValue.vardict($0).wireSize } ?? 0
        restorationSizes[app] = bytes
        return bytes
    }

    /// Bytes `app`'s window publishes from its clients: its restoration state and every adapter's report.
    func publishedBytes(_ app: String) -> Int {
        restorationBytes(app) + layouts.bytes(of: app)
    }

    /// The same for every window and app in the background.
    var totalPublishedBytes: Int {
        restoration.keys.reduce(layouts.totalBytes) { $0 + restorationBytes($1) }
    }
}
