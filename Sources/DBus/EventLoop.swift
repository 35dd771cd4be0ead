import CDBus
import Dispatch
import Glibc

/// The thread that owns one connection's I/O and dispatch.
///
/// libdbus calls the watch, timeout, wake-up and dispatch-status callbacks with the connection lock held, from
/// whichever thread touched the connection; those callbacks only record what changed (under `lock`) and wake
/// the loop. Everything that calls back into libdbus (`dbus_watch_handle`, `dbus_timeout_handle`,
/// `dbus_connection_dispatch`) happens on the loop thread, with `lock` released.
///
/// The loop also runs work handed to it (`perform`) and timers (`schedule`), so that code using the
/// connection can be single-threaded: message handlers, jobs and timers all run on this one thread.
///
/// It is also a `SerialExecutor`: an actor that returns it as its executor (`Connection.unownedExecutor`) runs
/// on the connection's thread, so the object server's handlers can call into the actor synchronously
/// (`assumeIsolated`) and tasks reach it with `await`.
// @unchecked: every mutable field is guarded by `lock` (the loop thread's id by its own mutex), except
// `dispatch`, which is set before `start` and, in `Connection.deinit`, only once the loop has stopped or from the
// loop thread itself.
final class EventLoop: @unchecked Sendable, SerialExecutor {
    struct Watch { var fd: Int32; var flags: UInt32; var enabled: Bool }
    struct Timeout { var interval: Int32; var enabled: Bool; var deadline: ContinuousClock.Instant }
    struct Timer { var id: UInt64; var deadline: ContinuousClock.Instant; var work: @Sendable () -> Void }

    private let lock = Lock()
    private var watches: [OpaquePointer: Watch] = [:]
    private var timeouts: [OpaquePointer: Timeout] = [:]
    private var jobs: [@Sendable () -> Void] = []
    private var timers: [Timer] = []
    private var nextTimerID: UInt64 = 1
    private var stopping = false
    /// A self-pipe: writing a byte wakes `poll`.
    private let wakeRead: Int32
    private let wakeWrite: Int32
    private let finished = DispatchSemaphore(value: 0)
    /// Written by the loop thread as it starts, read from any thread (ThreadSanitizer caught the unguarded
    /// version: `send` asks from other threads while the loop starts).
    private let loopThreadID = Locked<pthread_t?>(nil)

    /// Called on the loop thread, between reading and polling, to drain libdbus's incoming queue.
    var dispatch: () -> Void = {}

    init() {
        var fds: [Int32] = [-1, -1]
        if pipe(&fds) != 0 { fatalError("traitd: cannot create a pipe: \(String(cString: strerror(errno)))") }
        for fd in fds {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
        (wakeRead, wakeWrite) = (fds[0], fds[1])
    }

    deinit {
        close(wakeRead)
        close(wakeWrite)
    }

    func start(name: String) {
        startThread(name: name) { [self] in run() }
    }

    /// Asks the loop to finish its queued jobs and exit, and waits for it (unless called on the loop itself).
    /// Stopping again does the same: once the loop has ended, at once.
    func stop() {
        lock.withLock { stopping = true }
        wake()
        guard !isOnLoopThread else { return }
        finished.wait()
        finished.signal()  // a latch, not a count: the next `stop` finds the loop ended
    }

    /// Whether `stop()` was called: the loop runs what is queued and ends.
    var isStopping: Bool { lock.withLock { stopping } }

    var isOnLoopThread: Bool {
        guard let id = loopThreadID.withLock({ $0 }) else { return false }
        return pthread_equal(id, pthread_self()) != 0
    }

    // MARK: Work and timers

    func perform(_ work: @escaping @Sendable () -> Void) {
        lock.withLock { jobs.append(work) }
        wake()
    }

    /// Queues `work` unless the loop is stopping; returns false (having queued nothing) when it is.
    func performIfRunning(_ work: @escaping @Sendable () -> Void) -> Bool {
        let queued = lock.withLock { () -> Bool in
            guard !stopping else { return false }
            jobs.append(work)
            return true
        }
        if queued { wake() }
        return queued
    }

    @discardableResult
    func schedule(after seconds: Double, _ work: @escaping @Sendable () -> Void) -> UInt64 {
        let deadline = ContinuousClock.now + .milliseconds(Int64((seconds * 1000).rounded(.up)))
        let id = lock.withLock {
            defer { nextTimerID += 1 }
            timers.append(Timer(id: nextTimerID, deadline: deadline, work: work))
            return nextTimerID
        }
        wake()
        return id
    }

    func cancel(timer id: UInt64) {
        lock.withLock { timers.removeAll { $0.id == id } }
    }

    // MARK: SerialExecutor

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedSerialExecutor()
        perform { job.runSynchronously(on: executor) }
    }

    /// Called by `assumeIsolated` when it cannot tell from the running task: a handler is on the executor
    /// exactly when it runs on the loop thread.
    func checkIsolated() {
        precondition(isOnLoopThread, "expected to run on the connection's thread")
    }

    /// Wakes the loop from its `poll`. Not from the loop's own thread: the loop reads its watches, timeouts, jobs
    /// and timers afresh before every poll, so whatever changed there is seen without a wake-up (libdbus toggles
    /// the write watch on every message sent, and each of those was a write and a read of the pipe, seven of
    /// each per transition).
    func wake() {
        if isOnLoopThread { return }
        var byte: UInt8 = 1
        _ = write(wakeWrite, &byte, 1)  // a full pipe already means "wake up"
    }

    // MARK: Callbacks from libdbus (connection lock held: record and wake only)

    func addWatch(_ watch: OpaquePointer) {
        let info = Watch(
            fd: dbus_watch_get_unix_fd(watch), flags: dbus_watch_get_flags(watch),
            enabled: dbus_watch_get_enabled(watch) != 0)
        lock.withLock { watches[watch] = info }
        wake()
    }

    func toggleWatch(_ watch: OpaquePointer) {
        let enabled = dbus_watch_get_enabled(watch) != 0
        lock.withLock { watches[watch]?.enabled = enabled }
        wake()
    }

    func removeWatch(_ watch: OpaquePointer) {
        lock.withLock { _ = watches.removeValue(forKey: watch) }
        wake()
    }

    func addTimeout(_ timeout: OpaquePointer) {
        let interval = dbus_timeout_get_interval(timeout)
        let info = Timeout(
            interval: interval, enabled: dbus_timeout_get_enabled(timeout) != 0,
            deadline: .now + .milliseconds(Int64(interval)))
        lock.withLock { timeouts[timeout] = info }
        wake()
    }

    func toggleTimeout(_ timeout: OpaquePointer) {
        let enabled = dbus_timeout_get_enabled(timeout) != 0
        let interval = dbus_timeout_get_interval(timeout)
        lock.withLock {
            timeouts[timeout]?.enabled = enabled
            timeouts[timeout]?.interval = interval
            timeouts[timeout]?.deadline = .now + .milliseconds(Int64(interval))
        }
        wake()
    }

    func removeTimeout(_ timeout: OpaquePointer) {
        lock.withLock { _ = timeouts.removeValue(forKey: timeout) }
        wake()
    }

    // MARK: The loop

    private func run() {
        loopThreadID.withLock { $0 = pthread_self() }
        while runQueuedJobs() {
            runDueTimers()
            dispatch()
            pollOnce()
        }
        finished.signal()
    }

    /// Runs the jobs queued so far; false once the loop is stopping and none are left. The jobs are released
    /// when this returns, before the loop sleeps in `poll`: a job's captures (a connection dropped by its
    /// owner, say) must not live on until the next wake-up.
    private func runQueuedJobs() -> Bool {
        let (work, exit) = lock.withLock { () -> ([@Sendable () -> Void], Bool) in
            defer { jobs.removeAll() }
            return (jobs, stopping && jobs.isEmpty)
        }
        if exit { return false }
        for job in work { job() }
        return true
    }

    private func runDueTimers() {
        let now = ContinuousClock.now
        let due = lock.withLock { () -> [Timer] in
            let due = timers.filter { $0.deadline <= now }.sorted { $0.deadline < $1.deadline }
            timers.removeAll { $0.deadline <= now }
            return due
        }
        for timer in due { timer.work() }
    }

    private func pollOnce() {
        let now = ContinuousClock.now
        let (watchList, timeoutList, timerDeadline, busy) = lock.withLock {
            (
                watches.filter { $0.value.enabled }, timeouts.filter { $0.value.enabled },
                timers.map(\.deadline).min(), !jobs.isEmpty || stopping
            )
        }
        var deadline = timerDeadline
        for (_, t) in timeoutList where deadline == nil || t.deadline < deadline! { deadline = t.deadline }
        var waitMs: Int32 = -1
        if busy {
            waitMs = 0
        } else if let deadline {
            let ms = (deadline - now).components
            let total = ms.seconds * 1000 + ms.attoseconds / 1_000_000_000_000_000
            waitMs = Int32(clamping: max(0, total + 1))
        }

        var fds = [pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
        var owners: [OpaquePointer] = []
        for (watch, info) in watchList {
            var events: Int16 = 0
            if info.flags & DBUS_WATCH_READABLE.rawValue != 0 { events |= Int16(POLLIN) }
            if info.flags & DBUS_WATCH_WRITABLE.rawValue != 0 { events |= Int16(POLLOUT) }
            fds.append(pollfd(fd: info.fd, events: events, revents: 0))
            owners.append(watch)
        }
        let ready = poll(&fds, nfds_t(fds.count), waitMs)
        if ready > 0 {
            if fds[0].revents != 0 {
                var buffer = [UInt8](repeating: 0, count: 256)
                while read(wakeRead, &buffer, buffer.count) > 0 {}
            }
            for (index, watch) in owners.enumerated() {
                let revents = fds[index + 1].revents
                guard revents != 0 else { continue }
                var flags: UInt32 = 0
                if revents & Int16(POLLIN) != 0 { flags |= DBUS_WATCH_READABLE.rawValue }
                if revents & Int16(POLLOUT) != 0 { flags |= DBUS_WATCH_WRITABLE.rawValue }
                if revents & Int16(POLLERR) != 0 { flags |= DBUS_WATCH_ERROR.rawValue }
                if revents & Int16(POLLHUP) != 0 { flags |= DBUS_WATCH_HANGUP.rawValue }
                // The watch may have been removed by an earlier handle in this round.
                guard lock.withLock({ watches[watch] != nil }) else { continue }
                dbus_watch_handle(watch, flags)
            }
        }
        let later = ContinuousClock.now
        for (timeout, info) in timeoutList where info.deadline <= later {
            guard lock.withLock({ timeouts[timeout] != nil }) else { continue }
            lock.withLock { timeouts[timeout]?.deadline = later + .milliseconds(Int64(info.interval)) }
            dbus_timeout_handle(timeout)
        }
    }
}
