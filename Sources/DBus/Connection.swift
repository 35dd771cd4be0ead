import CDBus
import Dispatch
import Glibc

/// A private connection to a message bus, with its own dispatch thread.
///
/// Message handlers, `perform` jobs and timers all run on that one thread, in order; code built on a
/// connection can therefore keep its state without locks as long as it only touches it from there.
/// `send` and `call` may be used from any thread.
// @unchecked: fields marked "loop thread only" are touched only by handlers and jobs on the connection's
// thread; `closed` is guarded by its lock; the rest are constants (libdbus locks `raw`), the router thread-safe
// as it says.
public final class Connection: @unchecked Sendable {
    /// Return `true` when the message was handled (method calls then need a reply sent by the handler).
    public typealias MessageHandler = @Sendable (Message) -> Bool

    let raw: OpaquePointer
    let loop = EventLoop()
    private var handlers: [MessageHandler] = []  // loop thread only
    private var disconnectHandlers: [@Sendable () -> Void] = []  // loop thread only
    private var disconnected = false  // loop thread only
    /// Called with every signal this connection emits, once it is sent, as its wire-format bytes (serial 1,
    /// what `Marshalling.decode` reads): a daemon's journal of what it said. Set once, on the connection's
    /// thread, by the process that emits there (loop thread only).
    public var emitted: ((_ bytes: [UInt8]) -> Void)?
    /// Writes the signals emitted on the connection's thread to the socket as they are (loop thread only).
    private lazy var socketWriter = SocketWriter(connection: raw)
    private let closeLock = Lock()
    private var closed = false
    /// Who gets which of the signals this connection receives, and the owners of the names it follows
    /// (`Connection+Signals`).
    let router = SignalRouter()

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
    /// Closing again does nothing.
    public func close() {
        guard closeLock.withLock({ () -> Bool in
            defer { closed = true }
            return !closed
        }) else { return }
        loop.perform { [self] in
            disconnected = true
            dbus_connection_flush(raw)
            dbus_connection_close(raw)
            while dbus_connection_dispatch(raw) == DBUS_DISPATCH_DATA_REMAINS {}
        }
        loop.stop()
    }

    /// A connection dropped without `close()` closes here: its thread stops (at once, or after the job that
    /// dropped it when that ran on the thread itself) and never calls back into this object again.
    deinit {
        let wasClosed = closeLock.withLock { () -> Bool in
            defer { closed = true }
            return closed
        }
        // Closed or not, the loop must be done with `raw` before it is released. `close()` called on the loop's own
        // thread could not wait for it, and when its job held the last reference, this `deinit` runs on that
        // thread, between two rounds of the loop: the next round dispatched the freed connection (ThreadSanitizer
        // caught the SEGV in `dbus_connection_dispatch`). `stop` is idempotent; `dispatch` is replaced either
        // after the loop ended or on its own thread.
        loop.stop()
        loop.dispatch = {}
        if !wasClosed { dbus_connection_close(raw) }
        // Nothing of libdbus's may call into the loop (which goes with this object) from here on.
        dbus_connection_set_watch_functions(raw, nil, nil, nil, nil, nil)
        dbus_connection_set_timeout_functions(raw, nil, nil, nil, nil, nil)
        dbus_connection_set_wakeup_main_function(raw, nil, nil, nil)
        dbus_connection_set_dispatch_status_function(raw, nil, nil, nil)
        dbus_connection_unref(raw)
    }

    private static let initializeThreads: Void = { _ = dbus_threads_init_default() }()

    // MARK: Running code on the connection's thread

    /// Runs `work` on the connection's thread, after what is already queued.
    public func perform(_ work: @escaping @Sendable () -> Void) { loop.perform(work) }

    /// Runs `work` on the connection's thread after `seconds`; returns an id for `cancel(timer:)`.
    @discardableResult
    public func schedule(after seconds: Double, _ work: @escaping @Sendable () -> Void) -> UInt64 {
        loop.schedule(after: seconds, work)
    }

    public func cancel(timer: UInt64) { loop.cancel(timer: timer) }

    public var isOnConnectionThread: Bool { loop.isOnLoopThread }

    /// The connection's thread as a serial executor: an actor that returns this from its own `unownedExecutor`
    /// runs its code there, in order with message handlers, jobs and timers.
    public var unownedExecutor: UnownedSerialExecutor { loop.asUnownedSerialExecutor() }

    /// Adds a handler for incoming messages; handlers run on the connection's thread in the order added.
    public func addHandler(_ handler: @escaping MessageHandler) {
        perform { [self] in handlers.append(handler) }
    }

    /// Called once, on the connection's thread, when the bus closes the connection.
    public func onDisconnect(_ handler: @escaping @Sendable () -> Void) {
        perform { [self] in disconnectHandlers.append(handler) }
    }

    // MARK: Sending

    /// Queues a message for sending. Safe from any thread: from another, the message is handed to the
    /// connection's thread and sent there, after the jobs queued before it. libdbus writes to the socket only on
    /// that thread, which is what lets `emit` write signals to it directly (`SocketWriter`).
    public func send(_ message: Message) throws {
        guard loop.isOnLoopThread else {
            nonisolated(unsafe) let message = message  // handed over: the caller does not use it again
            guard loop.performIfRunning({ [self] in _ = dbus_connection_send(raw, message.raw, nil) }) else {
                throw DBusError(DBusError.disconnectedName, "the connection is closed")
            }
            return
        }
        guard dbus_connection_send(raw, message.raw, nil) != 0 else {
            throw DBusError(DBusError.disconnectedName, "the connection is closed")
        }
    }

    /// Sends a method call and waits for its reply; an error reply is thrown as `DBusError`.
    ///
    /// The call is sent, and its notify function installed, on the connection's thread: pending calls complete
    /// only there (during dispatch), so the reply can never slip between sending and installing the notify
    /// function. (From another thread that window is a real race: libdbus completes a pending call without its
    /// lock, and a reply was lost about once in a few thousand calls under load.)
    public func call(_ message: sending Message, timeout: Double = 25) async throws -> [DBusValue] {
        try await call(message, timeout: timeout, onReply: {})
    }

    /// `call`, and `onReply` on the connection's thread when the reply is dispatched: after every message that
    /// came before it, before any that comes after (a client that must know which signals preceded a reply).
    public func call(_ message: sending Message, timeout: Double = 25, onReply: @escaping @Sendable () -> Void) async throws
        -> [DBusValue]
    {
        nonisolated(unsafe) let message = message  // `sending`: nobody else holds it
        // The reply crosses threads through a pthread mutex as well as the continuation: the continuation's
        // hand-over happens inside the concurrency runtime, which ThreadSanitizer does not see, and `make tsan`
        // once reported the caller's first read of a reply as a race with the loop thread's decoding of it.
        let reply = Locked<Result<[DBusValue], any Error>?>(nil)
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            send(message, timeout: timeout) { result in
                onReply()
                reply.withLock { $0 = result }
                continuation.resume()
            }
        }
        return try reply.withLock { $0! }.get()
    }

    /// Sends a method call; `completion` gets its reply exactly once, on the connection's thread (or, when the
    /// connection closes first, `Disconnected` on whichever thread notices).
    func send(
        _ message: Message, timeout: Double, _ completion: @escaping @Sendable (Result<[DBusValue], any Error>) -> Void
    ) {
        let state = PendingCallState(completion)
        // Callers hand the message over (`call` takes it as `sending`), so only the job below touches it.
        nonisolated(unsafe) let message = message
        let send: @Sendable () -> Void = { [self] in
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

    /// A method call built and sent in one step.
    public func call(
        destination: String, path: String, interface: String, member: String, _ arguments: [DBusValue] = [],
        timeout: Double = 25
    ) async throws -> [DBusValue] {
        let message = try Message.methodCall(destination: destination, path: path, interface: interface, member: member)
        try message.append(arguments)
        return try await call(message, timeout: timeout)
    }

    /// Emits a signal. On the connection's thread it is written in one pass and, when libdbus has nothing
    /// waiting to be written, straight to the socket (`SocketWriter`); otherwise libdbus sends it. Throws,
    /// sending nothing, what `Message.signal` throws.
    public func emit(path: String, interface: String, member: String, _ arguments: [DBusValue]) throws {
        try emit(loop.isOnLoopThread ? WireWriter.signal(path: path, interface: interface, member: member, arguments) : nil) {
            try Message.signal(path: path, interface: interface, member: member, arguments)
        }
    }

    /// Emits a declared signal, its arguments written by their parameters without making their `DBusValue`s
    /// (the same bytes); otherwise as `emit(path:interface:member:_:)`, which it falls back to where the
    /// bytes cannot go as they are written.
    public func emit<Arguments: Sendable>(
        path: String, interface: String, _ signal: SignalDeclaration<Arguments>, _ arguments: Arguments
    ) throws {
        try emit(loop.isOnLoopThread ? WireWriter.signal(path: path, interface: interface, member: signal.name, signal, arguments) : nil) {
            try Message.signal(path: path, interface: interface, member: signal.name, signal.arguments(arguments))
        }
    }

    /// Sends `written` (nil: not written, or not faithful) to the socket, or else to libdbus, or else what
    /// `message` makes (which throws the iterator's words for what the writer refused).
    private func emit(_ written: WireWriter.Written?, orElse message: () throws -> Message) throws {
        var sent: Message?
        if var written {
            try written.checkLimits()
            if socketWriter.write(&written.bytes) {
                emitted?(written.bytes)
                return
            }
            sent = Message.signal(written: written.bytes)
        }
        let signal = try sent ?? message()
        try send(signal)
        if let emitted, let bytes = try? Marshalling.bytes(of: signal) { emitted(bytes) }
    }

    /// Sends the method return to `call` carrying `values`. On the connection's thread it is written in one
    /// pass and, when libdbus has nothing waiting to be written, straight to the socket, as `emit` does;
    /// otherwise libdbus builds and sends it. Throws, sending nothing, what `Message.append` throws.
    public func sendReturn(to call: Message, _ values: [DBusValue]) throws {
        if loop.isOnLoopThread,
           var written = WireWriter.methodReturn(replySerial: call.serial, destination: call.sender, values) {
            try written.checkLimits()
            if socketWriter.write(&written.bytes) { return }
        }
        let reply = call.makeReturn()
        try reply.append(values)
        try send(reply)
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

        // The raw pointer, not `self`: the loop may run one more round after `deinit` (see there). And `deinit`
        // may run inside this drain, on this thread, when a handler drops the last reference to the connection:
        // it stops the loop and releases its own reference to `raw`. The drain keeps one of its own until it
        // returns, and dispatches no further message once the loop is stopping (the next would reach the filter
        // of the freed object). ThreadSanitizer caught the SEGV in `dbus_connection_dispatch` on the freed `raw`.
        // The loop unowned: it owns this closure and runs it only from its own thread, which holds it.
        loop.dispatch = { [raw, unowned(unsafe) loop] in
            dbus_connection_ref(raw)
            defer { dbus_connection_unref(raw) }
            while !loop.isStopping, dbus_connection_dispatch(raw) == DBUS_DISPATCH_DATA_REMAINS {}
        }
    }

    /// Runs on the loop thread, inside `dbus_connection_dispatch`.
    private func filter(_ message: Message) -> DBusHandlerResult {
        // libdbus makes this one itself, with no sender; a peer cannot send it (the bus refuses the Local path).
        if message.kind == .signal, message.sender == nil, message.interface == NameRules.localInterface,
            message.member == "Disconnected"
        {
            if !disconnected {
                disconnected = true
                for handler in disconnectHandlers { handler() }
            }
            return DBUS_HANDLER_RESULT_HANDLED
        }
        if message.kind == .signal { router.deliver(message) }
        for handler in handlers where handler(message) {
            return DBUS_HANDLER_RESULT_HANDLED
        }
        return DBUS_HANDLER_RESULT_NOT_YET_HANDLED
    }
}
