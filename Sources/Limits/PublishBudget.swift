import BusValues

/// The depth and byte limits on what clients hand the daemon to publish: restoration states and reports.
///
/// Why the limits live in three places: `Limits` is what the config may set (plain numbers, which the YAML
/// config reader uses); `PublishBudget` (here, on D-Bus's values, `BusValues`, which link no libdbus) checks a
/// client's value against them; `WireLimits` and `DBus.IncomingLimit` are the D-Bus specification's own
/// maximums and the object server's refusal of an oversized call before it is decoded, which the bus module
/// needs without knowing traitd's config.
///
/// Checked on the decoded value before anything is stored, so that every message traitd later builds from
/// them is one the bus accepts (see `Limits`). Plain data, no bus.
public struct PublishBudget: Sendable {
    public let limits: Limits

    public init(limits: Limits) { self.limits = limits }

    /// Refuses a value nested deeper than `value-depth`. `what` names it in the message.
    public func checkDepth(_ value: DBusValue, _ what: String) throws { try checkDepth(value.nestingDepth, what) }

    /// The same on a depth already measured (`DBusValue.vardictDepth`).
    public func checkDepth(_ depth: Int, _ what: String) throws {
        guard depth <= limits.valueDepth else {
            throw Self.exceeded("\(what) nests \(depth) containers deep; at most \(limits.valueDepth) are allowed "
                                + "(limits.value-depth)")
        }
    }

    /// Refuses `bytes` past `limit` (a value of `Limits`, named `key` in the config).
    public func checkBytes(_ bytes: Int, _ what: String, limit: Int, key: String) throws {
        guard bytes <= limit else {
            throw Self.exceeded("\(what) would be \(bytes) bytes; at most \(limit) are allowed (limits.\(key))")
        }
    }

    /// Refuses a change that would take `app`'s published bytes to `window`, and everyone's to `total`, past
    /// `window-bytes` or `total-bytes`.
    public func checkTotals(app: String, window: Int, total: Int) throws {
        try checkBytes(window, "what window '\(app)' publishes (its restoration state and reports)",
                       limit: limits.windowBytes, key: "window-bytes")
        try checkBytes(total, "what all windows publish together", limit: limits.totalBytes, key: "total-bytes")
    }

    /// The restoration states a saved state may bring back: each one within `value-depth` and
    /// `restoration-bytes`, and all of them within `window-bytes` and `total-bytes` (apps in name order win).
    /// Returns what is kept and, for each app whose state is dropped, why.
    public func admit(restoration states: [String: [String: DBusValue]])
        -> (kept: [String: [String: DBusValue]], dropped: [(app: String, reason: String)])
    {
        var kept: [String: [String: DBusValue]] = [:]
        var dropped: [(String, String)] = []
        var total = 0
        for app in states.keys.sorted() {
            let value = DBusValue.vardict(states[app]!)
            let bytes = value.wireSize
            do {
                try checkDepth(value, "the restoration state")
                try checkBytes(bytes, "the restoration state", limit: limits.restorationBytes, key: "restoration-bytes")
                try checkTotals(app: app, window: bytes, total: total + bytes)
                try WireLimits.check([value])
                kept[app] = states[app]
                total += bytes
            } catch let error as Exceeded {
                dropped.append((app, error.message))
            } catch let error as DBusError {
                dropped.append((app, error.message))
            } catch {
                dropped.append((app, "\(error)"))
            }
        }
        return (kept, dropped)
    }

    /// A value past one of the limits; the daemon's `LimitExceeded` on the bus (the name is the contract's, given
    /// where the refusal is sent).
    public struct Exceeded: Error, Sendable, Equatable {
        public let message: String
    }

    static func exceeded(_ message: String) -> Exceeded { Exceeded(message: message) }
}
