import DBus
import DisplayCore
import TraitModel
import TraitProtocol

/// `org.traitd.Layout1.Testing` on the root object, with `traitd --testing` or `--clock virtual`: the virtual
/// clock, `Reset` to the configuration's start, and snapshots of the whole simulation.
extension DisplayService {
    /// The interface, when it is served.
    var testingInterfaces: [ObjectServer.Interface] {
        guard serves.contains(.testing) else { return [] }
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
            command(T.reset) { service, call, _ in try service.handle(.reset, call).began },
            on(T.saveSnapshot) { service, call, name in _ = try service.handle(.saveSnapshot(name), call) },
            command(T.restoreSnapshot) { service, call, name in try service.handle(.restoreSnapshot(name), call).began },
            on(T.listSnapshots) { service, _, _ in service.core.snapshots.keys.sorted() },
            on(T.coverage) { service, _, _ in service.core.engine.driven.sorted() },
            on(T.adaptationCoverage) { service, _, _ in
                let adapted = service.core.engine.adapted.sorted()
                return (adapted.filter { $0.windowSizeClass != nil }, adapted.filter { $0.windowSizeClass == nil })
            },
        ], properties: { [:] })]
    }
}
