import Limits
import Vocabulary

/// Who is registered as which adapter for which app. A registration belongs to the bus connection that made
/// it (its unique name, the owner): only the owner may report for it or unregister it, and it ends when the
/// owner leaves the bus.
///
/// Plain data, no bus: the core keeps it.
public struct AdapterRegistry: Sendable {
    /// A registration as `ListAdapters` publishes it.
    public typealias Registration = AdapterRegistration

    /// app -> adapter -> owner
    private var byApp: [String: [String: String]] = [:]
    /// owner -> how many registrations it holds
    private var counts: [String: Int] = [:]
    /// Registrations in all.
    private(set) var total = 0
    let limits: Limits

    public init(limits: Limits) { self.limits = limits }

    /// Registers `adapter` for `app` on behalf of `owner`. Registering again from the same owner is a no-op and
    /// returns false; a name another connection holds is refused.
    public mutating func register(app: String, adapter: String, owner: String) throws(Refusal) -> Bool {
        if let holder = byApp[app]?[adapter] {
            guard holder == owner else {
                throw Refusal(.adapterExists,
                              "adapter '\(adapter)' for app '\(app)' is already registered by \(holder)")
            }
            return false
        }
        guard counts[owner, default: 0] < limits.adaptersPerConnection else {
            throw Refusal(.limitExceeded,
                          "this connection already holds \(limits.adaptersPerConnection) adapter registrations "
                                + "(limits.adapters-per-connection); unregister one first")
        }
        guard total < limits.adaptersTotal else {
            throw Refusal(.limitExceeded,
                          "\(limits.adaptersTotal) adapters are registered already (limits.adapters-total)")
        }
        guard byApp[app, default: [:]].count < limits.adaptersPerWindow else {
            throw Refusal(.limitExceeded,
                          "app '\(app)' already has \(limits.adaptersPerWindow) adapters (limits.adapters-per-window)")
        }
        byApp[app, default: [:]][adapter] = owner
        counts[owner, default: 0] += 1
        total += 1
        return true
    }

    /// Removes a registration that `caller` owns.
    public mutating func unregister(app: String, adapter: String, caller: String) throws(Refusal) {
        guard let holder = byApp[app]?[adapter] else {
            throw Refusal(.noSuchAdapter, "no adapter '\(adapter)' is registered for app '\(app)'")
        }
        guard holder == caller else {
            throw Refusal(.accessDenied,
                          "adapter '\(adapter)' for app '\(app)' belongs to \(holder); only it may unregister it")
        }
        remove(app: app, adapter: adapter, owner: holder)
    }

    /// Ends every registration of a connection that left the bus; returns what it held.
    public mutating func removeOwner(_ owner: String) -> [Registration] {
        guard counts[owner] != nil else { return [] }
        let gone = all.filter { $0.owner == owner }
        for registration in gone { remove(app: registration.app, adapter: registration.adapter, owner: owner) }
        return gone
    }

    public func owner(app: String, adapter: String) -> String? { byApp[app]?[adapter] }

    public func adapters(for app: String) -> [String] { byApp[app]?.keys.sorted() ?? [] }

    /// Every app's adapters, as a transition that begins now expects them.
    public var adaptersByApp: [String: [String]] { byApp.mapValues { $0.keys.sorted() } }

    public func holds(_ owner: String) -> Bool { counts[owner] != nil }

    /// Every registration, by app, then adapter.
    public var all: [Registration] {
        byApp.flatMap { app, adapters in adapters.map { Registration(app: app, adapter: $0.key, owner: $0.value) } }
            .sorted { ($0.app, $0.adapter) < ($1.app, $1.adapter) }
    }

    private mutating func remove(app: String, adapter: String, owner: String) {
        byApp[app]?[adapter] = nil
        if byApp[app]?.isEmpty == true { byApp[app] = nil }
        counts[owner, default: 1] -= 1
        total -= 1
        if counts[owner] == 0 { counts[owner] = nil }
    }
}
