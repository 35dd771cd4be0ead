import DBus
import TraitModel
import TraitProtocol

/// `org.traitd.Layout1.Testing` on the root object, with `traitd --testing` or `--clock virtual`: the virtual
/// clock, `Reset` to the configuration's start, and snapshots of the whole simulation.
extension DisplayService {
    /// The interface, when it is served.
    var testingInterfaces: [ObjectServer.Interface] {
        guard testing else { return [] }
        typealias T = Layout1.Testing
        return [ObjectServer.Interface(T.interface, methods: [
            on(T.advanceClock) { service, call, milliseconds in
                guard service.clock.kind == .virtual else {
                    throw DBusError(Layout1.Error.notOffered,
                                    "the clock is real; start traitd with --clock virtual to move it by hand")
                }
                guard let now = service.clock.advance(by: milliseconds) else {
                    throw DBusError.invalidArgs("the virtual clock stands at \(service.clock.now) ms and goes no further than "
                        + "\(ServiceClock.latest) ms (about 285,000 years); got an advance of \(milliseconds) ms")
                }
                service.logger.debug("\(call.sender) advanced the virtual clock by \(milliseconds) ms to \(now) ms")
                return now
            },
            command(T.reset) { service, call, _ in
                let started = try service.run(.restore(service.startingState), call)
                service.replaceRestoration(with: [:])
                return started
            },
            on(T.saveSnapshot) { service, call, name in
                guard service.snapshots[name] != nil || service.snapshots.count < T.maximumSnapshots else {
                    throw DBusError(Layout1.Error.limitExceeded,
                                    "traitd keeps at most \(T.maximumSnapshots) snapshots; restore or replace one of: "
                                    + service.snapshots.keys.sorted().joined(separator: ", "))
                }
                service.snapshots[name] = (service.simulation.state, service.restoration)
                service.logger.info("\(call.sender) saved snapshot \(name) at serial \(service.simulation.serial)")
            },
            command(T.restoreSnapshot) { service, call, name in
                guard let snapshot = service.snapshots[name] else {
                    let kept = service.snapshots.keys.sorted()
                    throw DBusError.invalidArgs("no snapshot '\(name)'; snapshots: " + (kept.isEmpty ? "none" : kept.joined(separator: ", ")))
                }
                let started = try service.run(.restore(snapshot.state), call)
                service.replaceRestoration(with: snapshot.restoration)
                return started
            },
            on(T.listSnapshots) { service, _, _ in service.snapshots.keys.sorted() },
            on(T.coverage) { service, _, _ in service.engine.driven.sorted() },
        ], properties: { [:] })]
    }

    /// Every app's restoration state replaced by `states` (kept for the apps open or in the background), each
    /// open window whose state changed announced, and the whole saved.
    func replaceRestoration(with states: [String: [String: DBusValue]]) {
        let before = restoration
        restoration = Self.kept(states, by: simulation)
        for app in simulation.appNames where before[app] != restoration[app] { announceRestoration(of: app) }
        save()
    }
}
