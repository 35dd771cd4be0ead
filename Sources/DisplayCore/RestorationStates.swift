import BusValues
import Limits
import TraitModel

/// Every app's restoration state (`SetRestorationState`), kept for open apps and apps in the background, with
/// each one's size in the wire format measured once after it changes, and their sum kept as they change (every
/// report checks the budget, which reads it; summed there, it was a walk over every app at every report).
/// Nothing the simulation does changes a state; an app closed with `CloseApp` takes its state with it.
public struct RestorationStates: Sendable, Equatable {
    public private(set) var states: [String: [String: DBusValue]] = [:]
    private var sizes: [String: Int] = [:]
    /// Bytes of every state.
    public private(set) var totalBytes = 0

    public init(_ states: [String: [String: DBusValue]] = [:]) {
        self.states = states
        sizes = states.mapValues { DBusValue.vardict($0).wireSize }
        totalBytes = sizes.values.reduce(0, +)
    }

    public subscript(app: String) -> [String: DBusValue]? { states[app] }

    /// Bytes of `app`'s state in the wire format (0 without one).
    public func bytes(of app: String) -> Int { sizes[app] ?? 0 }

    /// Sets `app`'s state (an empty one removes it), measured as `bytes`.
    mutating func set(_ state: [String: DBusValue], of app: String, bytes: Int) {
        states[app] = state.isEmpty ? nil : state
        totalBytes -= sizes.updateValue(bytes, forKey: app) ?? 0
        if state.isEmpty { sizes[app] = nil } else { totalBytes += bytes }
    }

    /// Only the states of apps that are open or in the background in `simulation`.
    func kept(by simulation: Simulation) -> RestorationStates {
        let apps = Set(simulation.appNames + simulation.state.background)
        guard states.keys.contains(where: { !apps.contains($0) }) else { return self }
        var kept = self
        for app in states.keys where !apps.contains(app) { kept.set([:], of: app, bytes: 0) }
        return kept
    }
}
