/// Which of a connection's incoming signals reach which subscriber, and the owners of the well-known names the
/// connection follows: any peer can send a signal straight to a connection, whatever its match rules say, so
/// every signal's sender is checked against what its subscriber asked for (`Connection.subscribe`).
///
/// The subscriptions are guarded by a lock (a subscriber may come from any thread); the names and owners are
/// the connection's thread's only (`deliver` runs there, inside `dbus_connection_dispatch`, and
/// `Connection.watchOwner` changes them there).
// @unchecked: `subscribers` and `nextSubscriber` under `lock`; the rest on the connection's thread only.
final class SignalRouter: @unchecked Sendable {
    private struct Subscriber {
        let sender: String
        let handler: @Sendable (Connection.Signal) -> Void
    }
    private let lock = Lock()
    private var subscribers: [UInt64: Subscriber] = [:]
    private var nextSubscriber: UInt64 = 1
    /// Well-known names whose owners the connection follows, and their owners ("" for none). Loop thread only.
    var watchedNames: Set<String> = []
    var owners: [String: String] = [:]
    /// Callers of `watchOwner(of:)` waiting for the first answer about a name. Loop thread only.
    var ownerWaiters: [String: [@Sendable () -> Void]] = [:]

    func subscribe(sender: String, _ handler: @escaping @Sendable (Connection.Signal) -> Void) -> UInt64 {
        lock.withLock {
            defer { nextSubscriber += 1 }
            subscribers[nextSubscriber] = Subscriber(sender: sender, handler: handler)
            return nextSubscriber
        }
    }

    func unsubscribe(_ id: UInt64) {
        _ = lock.withLock { subscribers.removeValue(forKey: id) }
    }

    /// A signal the connection received: the owners it follows are brought up to date, then each subscriber
    /// whose sender it really comes from gets it. Its arguments are read only when someone may want them.
    func deliver(_ message: Message) {
        guard let path = message.path, let interface = message.interface, let member = message.member else { return }
        let subscribers = lock.withLock { Array(self.subscribers.values) }
        guard !subscribers.isEmpty || !watchedNames.isEmpty else { return }
        let signal = Connection.Signal(
            sender: message.sender, path: path, interface: interface, member: member, arguments: message.arguments())
        followOwners(signal)
        for subscriber in subscribers where isFrom(signal, subscriber.sender) { subscriber.handler(signal) }
    }

    /// Whether `signal` really comes from `sender` (see `Connection.subscribe(sender:_:)`).
    private func isFrom(_ signal: Connection.Signal, _ sender: String) -> Bool {
        guard let actual = signal.sender, !actual.isEmpty else { return false }
        if !Connection.isWellKnown(sender) { return actual == sender }
        return owners[sender] == actual
    }

    /// Keeps `owners` current from the bus's own `NameOwnerChanged`.
    private func followOwners(_ signal: Connection.Signal) {
        guard signal.sender == Connection.busName, signal.interface == Connection.busName,
              signal.member == "NameOwnerChanged", signal.arguments.count == 3,
              let name = signal.arguments[0].string, watchedNames.contains(name), let owner = signal.arguments[2].string
        else { return }
        owners[name] = owner
    }
}
