import DBus
import TraitProtocol
import Vocabulary

/// The daemon's signals, decoded (``TraitEvent``) or as they came (``signals(of:)``), from the moment the
/// subscription is in place (when the call returns), and only the daemon's: a signal another peer sends
/// straight to this connection is dropped.
extension TraitClient {
    /// Every signal of the daemon, decoded. With `app`, only the signals of that app's window: an adapter needs
    /// no more, and the bus then sends it no more.
    public func events(of app: String? = nil) async throws -> AsyncStream<TraitEvent> {
        try await stream(of: app, interface: nil) { TraitEvent($0) }
    }

    /// Only the signals of `org.traitd.Layout1.Window` from `app`'s window (transitions, app states,
    /// completions): what an adapter needs. The bus sends it none of the window's `PropertiesChanged`, which
    /// carry every adapter's layouts and grow with the number of adapters.
    public func windowSignals(of app: String) async throws -> AsyncStream<TraitEvent> {
        try await stream(of: app, interface: Self.windowInterface) { TraitEvent($0) }
    }

    /// The transition signals of one app's window, decoded.
    public func transitions(of app: String) async throws -> AsyncFilterSequence<AsyncStream<TraitEvent>> {
        try await events(of: app).filter { $0.transition != nil }
    }

    /// Every signal of the daemon as it came, for tools that show the wire (`traitctl watch --json`);
    /// `TraitEvent(signal)` decodes one.
    public func signals(of app: String? = nil) async throws -> AsyncStream<Connection.Signal> {
        try await stream(of: app, interface: nil) { $0 }
    }

    /// The journal's signals after the state reached `serial` (`GetEvents`), then every signal from then on, with
    /// no gap and no repeat: the live subscription is in place before the journal is asked for, and a signal
    /// that reaches this connection before the journal's reply is in the journal (the bus keeps the daemon's
    /// messages in order), so it is dropped from the live stream, which takes only what comes after the reply.
    /// `EventsLost` when the journal no longer holds them all.
    public func signals(since serial: UInt64) async throws -> (past: [Connection.Signal], live: AsyncStream<Connection.Signal>) {
        let (stream, continuation) = AsyncStream<Connection.Signal>.makeStream()
        let replied = Locked(false)
        let id = try await subscribe(of: nil, interface: nil) { signal in
            if replied.withLock({ $0 }) { continuation.yield(signal) }
        }
        continuation.onTermination = { [connection] _ in connection.unsubscribe(id) }
        let method = Layout1.Display.getEvents
        let message = try Message.methodCall(destination: Self.busName, path: Self.rootPath, interface: Self.displayInterface,
                                             member: method.name)
        try message.append(method.arguments(serial))
        let owner = try await connection.nameOwner(Self.busName)
        let reply = try await connection.call(message, onReply: { replied.withLock { $0 = true } })
        // The journal has every signal; the live stream, the daemon's objects' (under its root).
        let past = try method.reply(reply).filter { $0.path.hasPrefix(Self.rootPath) }.map { entry in
            Connection.Signal(sender: owner, path: entry.path, interface: entry.interface, member: entry.member,
                              arguments: entry.arguments)
        }
        return (past, stream)
    }

    private func stream<Element: Sendable>(
        of app: String?, interface: String?, _ transform: @escaping @Sendable (Connection.Signal) -> Element
    ) async throws -> AsyncStream<Element> {
        let (stream, continuation) = AsyncStream<Element>.makeStream()
        let id = try await subscribe(of: app, interface: interface) { continuation.yield(transform($0)) }
        continuation.onTermination = { [connection] _ in connection.unsubscribe(id) }
        return stream
    }

    /// Calls `handler` on the connection's thread with each of the daemon's signals (of `app`'s window, of
    /// `interface`), in the order they arrive, before any message that came after it (a reply included): a
    /// caller that needs every signal sent before a call's answer to be handled by then uses this, not a
    /// stream. Returns the subscription, for `connection.unsubscribe`.
    public func subscribe(
        of app: String? = nil, interface: String? = nil, _ handler: @escaping @Sendable (Connection.Signal) -> Void
    ) async throws -> UInt64 {
        let path = app.map(Self.windowPath)
        var rule = path.map { "path='\($0)'" } ?? "path_namespace='\(Self.rootPath)'"
        if let interface { rule += ",interface='\(interface)'" }
        // Only signals from the daemon that owns the name now: anyone can send a signal straight to us.
        return try await connection.subscribe(sender: Self.busName, matching: rule) { signal in
            guard path.map({ signal.path == $0 }) ?? signal.path.hasPrefix(Self.rootPath),
                  interface.map({ signal.interface == $0 }) ?? true else { return }
            handler(signal)
        }
    }
}
