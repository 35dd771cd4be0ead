import DBus
import DisplayCore
import LayoutJudge
import TraitModel
import TraitProtocol
import TransitionEngine
import Vocabulary

/// The window objects: `/org/traitd/Layout1/window/<app>`, their properties, `ReportLayout` and
/// `SetRestorationState`.
extension DisplayService {
    /// Exports `app`'s window object; `opening`, the window's geometry as its event gave it, is what its
    /// `InterfacesAdded` announces (the engine, still running, holds the simulation).
    func exportWindow(_ app: String, opening window: WindowGeometry? = nil) {
        let announced = window.map { [Layout1.windowInterface: windowProperties(app, $0)] } ?? [:]
        server.export(Layout1.windowPath(app), [
            ObjectServer.Interface(
                Layout1.Window.interface, methods: windowMethods(app),
                properties: reading { $0.windowProperties(app) }),
        ], announcing: announced)
    }

    /// Every property of `app`'s window as the simulation has it now.
    func windowProperties(_ app: String) -> [String: DBusValue] {
        simulation.windows[app].map { windowProperties(app, $0) } ?? [:]
    }

    /// Every property of `app`'s window: its geometry, then what adapters and the app's client put there.
    func windowProperties(_ app: String, _ window: WindowGeometry) -> [String: DBusValue] {
        (Encoding.windowProperties(app: app, window) + [Layout1.Window.adapters.entry(core.registry.adapters(for: app))]
            + layoutProperties(core.reports[app] ?? [:]) + [Layout1.Window.restorationState.entry(core.restoration[app] ?? [:])]).dictionary
    }

    /// One handler for each method of `app`'s `Layout1.Window`.
    private func windowMethods(_ app: String) -> [ObjectServer.Method] {
        [
            on(Layout1.Window.reportLayout) { service, call, report in
                let (id, adapter, frames, extras) = report
                let (budget, checks) = (service.core.budget, service.core.layoutChecks)
                _ = try service.handle(.report(app: app, id: id, adapter: adapter, sender: call.sender) { window in
                    try LayoutReport(reading: frames, extras: extras, budget: budget, judgedAs: adapter, in: window, checks: checks)
                }, call)
            },
            on(Layout1.Window.setRestorationState) { service, call, state in
                try service.setRestorationState(app: app, state, call)
            },
            on(Layout1.Window.explain) { service, _, _ in try refused { try service.core.explanation(of: app) } },
            command(Layout1.Window.setFrame) { service, call, frame in try service.run(.setFrame(app: app, frame), call) },
            command(Layout1.Window.tile) { service, call, position in try service.run(.tile(app: app, position), call) },
            command(Layout1.Window.raise) { service, call, _ in try service.run(.raise(app: app), call) },
            command(Layout1.Window.beginResize) { service, call, _ in try service.run(.beginResize(app: app), call) },
            command(Layout1.Window.resizeTo) { service, call, size in try service.handle(.resizeStep(app: app, size), call).began },
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
            command(Layout1.Window.setBreakpoints) { service, call, texts in
                try service.checkDeclaring(app, call, "declare its breakpoints")
                // Parsed at the edge, once: the model holds conditions, never their text.
                var breakpoints: [String: BreakpointCondition] = [:]
                for (name, text) in texts.sorted(by: { $0.key < $1.key }) {
                    do {
                        breakpoints[name] = try BreakpointCondition(parsing: text)
                    } catch {
                        throw DBusError(DBusError.invalidArgsName, "breakpoint '\(name.prefix(64))': \(error), in '\(text.prefix(200))'")
                    }
                }
                return try service.run(.setBreakpoints(app: app, breakpoints), call)
            },
            command(Layout1.Window.setTraitOverrides) { service, call, request in
                try service.checkDeclaring(app, call, "override its traits")
                return try service.run(.setTraitOverrides(app: app, request), call)
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
        let adapters = core.registry.adapters(for: app)
        guard adapters.contains(where: { core.registry.owner(app: app, adapter: $0) == call.sender }) else {
            throw DBusError(DBusError.accessDeniedName, "only a connection that registered an adapter for '\(app)' may \(what); "
                + (adapters.isEmpty ? "it has none (RegisterAdapter first)" : "its adapters: \(adapters.joined(separator: ", "))"))
        }
    }

    /// Lets go of the corner: answered at once, or, with a step still waiting, once the engine has applied it
    /// and ended the resize (`.answered`); either way once the state is on disk.
    private func endResize(_ app: String, _ call: ObjectServer.MethodCall) throws {
        let reply = call.deferReply()
        let caller = waitingCalls.add(reply)
        let ended: [UInt64]?
        do {
            ended = try handle(.endResize(app: app, caller: caller), call).ended
        } catch {
            _ = waitingCalls.take(caller)
            throw error
        }
        guard let ended else { return }
        _ = waitingCalls.take(caller)
        replyWhenSaved(reply, Layout1.Window.endResize.outputValues(ended))
    }

    /// `Layouts` (the frames of every report but a failed one), `LayoutExtras` (every report's extras) and
    /// `LayoutProblems` (every report's problems, by adapter).
    func layoutProperties(_ reports: [String: LayoutReport]) -> [PropertyValue] {
        let window = Layout1.Window.self
        return [
            window.layouts.entry(reports.filter { $0.value.failure == nil }.mapValues(\.frames)),
            window.layoutExtras.entry(reports.mapValues(\.extras)),
            window.layoutProblems.entry(reports.keys.sorted().flatMap { reports[$0]!.problems }),
        ]
    }

    /// Replaces `app`'s restoration state (the core checks it: its depth, its size, what its window and all
    /// windows would then publish; a refusal changes nothing). The reply goes out once the new state is on disk
    /// (see `save`): an app told its state is set never loses it to a crash.
    private func setRestorationState(app: String, _ value: DBusValue, _ call: ObjectServer.MethodCall) throws {
        let changed = try handle(.setRestoration(app: app, value), call, saving: false).stateChanged
        let reply = call.deferReply()
        // Unchanged, the state may still be on its way to the disk: the reply waits for it all the same.
        changed ? save(replyWhenDurable: reply) : replyWhenSaved(reply, [])
    }
}
