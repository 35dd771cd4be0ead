import CDBus
import Foundation

/// A private connection to a message bus, with its own dispatch thread.
///
/// Message handlers, `perform` jobs and timers all run on that one thread, in order; code built on a
/// connection can therefore keep its state without locks as long as it only touches it from there.
/// `send` and `call` may be used from any thread.
public final class Connection: @unchecked Sendable {
    public enum Bus: Sendable, Equatable, CustomStringConvertible {
        case session, system, address(String)

        /// `session`, `system`, or anything else taken as a D-Bus address (`unix:path=...`).
        public init(argument: String) {
            switch argument {
            case "session": self = .session
            case "system": self = .system
            default: self = .address(argument)
            }
        }

        public var description: String {
            switch self {
            case .session: return "session"
            case .system: return "system"
            case .address(let a): return a
            }
        }
    }

    /// A signal as it arrived, safe to hand to other threads.
    public struct Signal: Sendable {
        public let sender: String?
        public let path: String
        public let interface: String
        public let member: String
        public let arguments: [DBusValue]
    }

    /// Return `true` when the message was handled (method calls then need a reply sent by the handler).
    public typealias MessageHandler = (Message) -> Bool

    let raw: OpaquePointer
    private let loop = EventLoop()
    private var handlers: [MessageHandler] = []  // loop thread only
    private var disconnectHandlers: [() -> Void] = []  // loop thread only
    private var disconnected = false  // loop thread only
    private let signalLock = NSLock()
    private var signalSubscribers: [UInt64: (Signal) -> Void] = [:]
    private var nextSubscriber: UInt64 = 1

    /// The unique name the bus gave this connection (`:1.42`).
    public let uniqueName: String

    public init(bus: Bus) throws {
        Self.initializeThreads
        var error = CDBus.DBusError()
        dbus_error_init(&error)
        defer { dbus_error_free(&error) }

        var connection: OpaquePointer?
        switch bus {
        case .session: connection = dbus_bus_get_private(DBUS_BUS_SESSION, &error)
        case .system: connection = dbus_bus_get_private(DBUS_BUS_SYSTEM, &error)
        case .address(let address):
            guard Validation.isValidString(address) else { throw DBusError.invalidArgs("invalid bus address") }
            connection = dbus_connection_open_private(address, &error)
            if let c = connection, dbus_bus_register(c, &error) == 0 {
                dbus_connection_close(c)
                dbus_connection_unref(c)
                connection = nil
            }
        }
        guard let connection else {
            let name = dbus_error_is_set(&error) != 0 ? String(cString: error.name) : DBusError.failedName
            let text = dbus_error_is_set(&error) != 0 ? String(cString: error.message) : "no connection"
            throw DBusError(name, "cannot connect to the \(bus) bus: \(text)")
        }
        raw = connection
        uniqueName = dbus_bus_get_unique_name(connection).map { String(cString: $0) } ?? ""
        // The shared-connection default would exit the whole process when the bus goes away.
        dbus_connection_set_exit_on_disconnect(connection, 0)
        installCallbacks()
        loop.start(name: "dbus \(uniqueName)")
    }

    /// Closes the connection and stops its thread. Pending calls fail with `Disconnected`; disconnect handlers
    /// are not called (they are for the bus going away).
    public func close() {
        loop.perform { [self] in
            disconnected = true
            dbus_connection_flush(raw)
            dbus_connection_close(raw)
            while dbus_connection_dispatch(raw) == DBUS_DISPATCH_DATA_REMAINS {}
        }
        loop.stop()
    }

    deinit {
        dbus_connection_unref(raw)
    }

    private static let initializeThreads: Void = { _ = dbus_threads_init_default() }()

    // MARK: Running code on the connection's thread

    /// Runs `work` on the connection's thread, after what is already queued.
    public func perform(_ work: @escaping () -> Void) { loop.perform(work) }

    /// Runs `work` on the connection's thread after `seconds`; returns an id for `cancel(timer:)`.
    @discardableResult
    public func schedule(after seconds: Double, _ work: @escaping () -> Void) -> UInt64 {
        loop.schedule(after: seconds, work)
    }

    public func cancel(timer: UInt64) { loop.cancel(timer: timer) }

    public var isOnConnectionThread: Bool { loop.isOnLoopThread }

    /// Adds a handler for incoming messages; handlers run on the connection's thread in the order added.
    public func addHandler(_ handler: @escaping MessageHandler) {
        perform { [self] in handlers.append(handler) }
    }

    /// Called once, on the connection's thread, when the bus closes the connection.
    public func onDisconnect(_ handler: @escaping () -> Void) {
        perform { [self] in disconnectHandlers.append(handler) }
    }

    // MARK: Sending

    /// Queues a message for sending. Safe from any thread.
    public func send(_ message: Message) throws {
        guard dbus_connection_send(raw, message.raw, nil) != 0 else {
            throw DBusError(DBusError.disconnectedName, "the connection is closed")
        }
        // A message sent from another thread is written by whichever thread holds the I/O path; wake the loop
        // so that it notices a write watch that was just enabled.
        if !loop.isOnLoopThread { loop.wake() }
    }

    /// Sends a method call and waits for its reply; an error reply is thrown as `DBusError`.
    ///
    /// The call is sent, and its notify function installed, on the connection's thread: pending calls complete
    /// only there (during dispatch), so the reply can never slip between sending and installing the notify
    /// function. (From another thread that window is a real race: libdbus completes a pending call without its
    /// lock, and a reply was lost about once in a few thousand calls under load.)
    public func call(_ message: Message, timeout: Double = 25) async throws -> [DBusValue] {
        try await withCheckedThrowingContinuation { continuation in
            let state = PendingCallState(continuation)
            let send = { [self] in
                var pending: OpaquePointer?
                guard dbus_connection_send_with_reply(raw, message.raw, &pending, Int32(timeout * 1000)) != 0,
                    let pending
                else {
                    state.finish(.failure(DBusError(DBusError.disconnectedName, "the connection is closed")))
                    return
                }
                let box = Unmanaged.passRetained(state).toOpaque()
                let installed = dbus_pending_call_set_notify(
                    pending,
                    { pending, data in
                        guard let pending, let data else { return }
                        Unmanaged<PendingCallState>.fromOpaque(data).takeUnretainedValue().complete(pending)
                    }, box, { data in data.map { Unmanaged<PendingCallState>.fromOpaque($0).release() } })
                if installed == 0 {
                    Unmanaged<PendingCallState>.fromOpaque(box).release()
                    state.finish(.failure(DBusError.failed("out of memory")))
                } else if dbus_pending_call_get_completed(pending) != 0 {
                    state.complete(pending)
                }
                dbus_pending_call_unref(pending)
            }
            if loop.isOnLoopThread {
                send()
            } else if !loop.performIfRunning(send) {
                state.finish(.failure(DBusError(DBusError.disconnectedName, "the connection is closed")))
            }
        }
    }

    /// A method call built and sent in one step.
    public func call(
        destination: String, path: String, interface: String, member: String, _ arguments: [DBusValue] = [],
        timeout: Double = 25
    ) async throws -> [DBusValue] {
        let message = try Message.methodCall(destination: destination, path: path, interface: interface, member: member)
        try message.append(arguments)
        return try await call(message, timeout: timeout)
    }

    /// Emits a signal.
    public func emit(path: String, interface: String, member: String, _ arguments: [DBusValue]) throws {
        let message = try Message.signal(path: path, interface: interface, member: member)
        try message.append(arguments)
        try send(message)
    }

    // MARK: Receiving signals

    /// Calls `handler` (on the connection's thread) for every signal this connection receives. Pair with
    /// `addMatch` so that the bus routes the signals here. Returns an id for `unsubscribe`.
    @discardableResult
    public func subscribe(_ handler: @escaping (Signal) -> Void) -> UInt64 {
        signalLock.withLock {
            defer { nextSubscriber += 1 }
            signalSubscribers[nextSubscriber] = handler
            return nextSubscriber
        }
    }

    public func unsubscribe(_ id: UInt64) {
        _ = signalLock.withLock { signalSubscribers.removeValue(forKey: id) }
    }

    // MARK: Internals

    private func installCallbacks() {
        let me = Unmanaged.passUnretained(loop).toOpaque()
        dbus_connection_set_watch_functions(
            raw,
            { watch, data in
                Unmanaged<EventLoop>.fromOpaque(data!).takeUnretainedValue().addWatch(watch!)
                return 1
            },
            { watch, data in Unmanaged<EventLoop>.fromOpaque(data!).takeUnretainedValue().removeWatch(watch!) },
            { watch, data in Unmanaged<EventLoop>.fromOpaque(data!).takeUnretainedValue().toggleWatch(watch!) },
            me, nil)
        dbus_connection_set_timeout_functions(
            raw,
            { timeout, data in
                Unmanaged<EventLoop>.fromOpaque(data!).takeUnretainedValue().addTimeout(timeout!)
                return 1
            },
            { timeout, data in
                Unmanaged<EventLoop>.fromOpaque(data!).takeUnretainedValue().removeTimeout(timeout!)
            },
            { timeout, data in
                Unmanaged<EventLoop>.fromOpaque(data!).takeUnretainedValue().toggleTimeout(timeout!)
            },
            me, nil)
        dbus_connection_set_wakeup_main_function(
            raw, { data in Unmanaged<EventLoop>.fromOpaque(data!).takeUnretainedValue().wake() }, me, nil)
        dbus_connection_set_dispatch_status_function(
            raw, { _, _, data in Unmanaged<EventLoop>.fromOpaque(data!).takeUnretainedValue().wake() }, me, nil)

        let connection = Unmanaged.passUnretained(self).toOpaque()
        dbus_connection_add_filter(
            raw,
            { _, message, data in
                let connection = Unmanaged<Connection>.fromOpaque(data!).takeUnretainedValue()
                return connection.filter(Message(borrowing: message!))
            }, connection, nil)

        loop.dispatch = { [unowned self] in
            while dbus_connection_dispatch(raw) == DBUS_DISPATCH_DATA_REMAINS {}
        }
    }

    /// Runs on the loop thread, inside `dbus_connection_dispatch`.
    private func filter(_ message: Message) -> DBusHandlerResult {
        if message.kind == .signal, message.interface == "org.freedesktop.DBus.Local",
            message.member == "Disconnected"
        {
            if !disconnected {
                disconnected = true
                for handler in disconnectHandlers { handler() }
            }
            return DBUS_HANDLER_RESULT_HANDLED
        }
        if message.kind == .signal, let path = message.path, let interface = message.interface,
            let member = message.member
        {
            let subscribers = signalLock.withLock { Array(signalSubscribers.values) }
            if !subscribers.isEmpty {
                let signal = Signal(
                    sender: message.sender, path: path, interface: interface, member: member,
                    arguments: message.arguments())
                for subscriber in subscribers { subscriber(signal) }
            }
        }
        for handler in handlers where handler(message) {
            return DBUS_HANDLER_RESULT_HANDLED
        }
        return DBUS_HANDLER_RESULT_NOT_YET_HANDLED
    }
}

/// The continuation of one pending call, resumed exactly once whichever path completes it first.
private final class PendingCallState: @unchecked Sendable {
    private let lock = NSLock()
    private var continuation: CheckedContinuation<[DBusValue], any Error>?

    init(_ continuation: CheckedContinuation<[DBusValue], any Error>) { self.continuation = continuation }

    /// A call whose connection closed before it was sent or answered: libdbus frees the pending call (or the
    /// loop drops the unsent job) without a reply, and the caller hears `Disconnected` instead of waiting forever.
    deinit {
        continuation?.resume(throwing: DBusError(DBusError.disconnectedName, "the connection closed before the reply came"))
    }

    func complete(_ pending: OpaquePointer) {
        guard let taken = lock.withLock({ () -> CheckedContinuation<[DBusValue], any Error>? in
            defer { continuation = nil }
            return continuation
        }) else { return }
        guard let raw = dbus_pending_call_steal_reply(pending) else {
            taken.resume(throwing: DBusError(DBusError.noReplyName, "no reply"))
            return
        }
        let reply = Message(owning: raw)
        let arguments = reply.arguments()
        if reply.kind == .error {
            let text = arguments.first?.string ?? ""
            taken.resume(throwing: DBusError(reply.errorName ?? DBusError.failedName, text))
        } else {
            taken.resume(returning: arguments)
        }
    }

    func finish(_ result: Result<[DBusValue], any Error>) {
        let taken = lock.withLock { () -> CheckedContinuation<[DBusValue], any Error>? in
            defer { continuation = nil }
            return continuation
        }
        taken?.resume(with: result)
    }
}
