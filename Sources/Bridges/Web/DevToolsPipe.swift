import FoundationEssentials
import Spawn
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Headless Chromium, driven over its DevTools protocol through `--remote-debugging-pipe`: the browser reads
/// commands from its descriptor 3 and writes answers and events to its descriptor 4, each message one JSON
/// object ended by a NUL byte.
///
/// Why a pipe and no client library: a pipe needs no WebSocket, no port and no endpoint discovery, it dies with
/// the browser, and no other process on the machine can reach it; the framing is a NUL, the codec Foundation's
/// JSON coders. No maintained DevTools client exists among the Swift packages this project can use, and the web
/// bridge needs ten commands (Target, Page, Emulation, Runtime), so the protocol is spoken here, typed per
/// command where it is used (`WebPage`).
public final class DevToolsPipe: Sendable {
    /// The browser's process id.
    public let pid: pid_t
    /// Where the browser keeps its profile (a fresh folder, removed at `close`).
    private let profile: String
    private let toBrowser: Int32
    private let fromBrowser: Int32
    private let state = Mutex(State())

    private struct State {
        var nextID = 1
        /// Each call waiting for its answer, with the timer that gives up on it (`limit`).
        var waiting: [Int: (continuation: CheckedContinuation<Data, any Error>, timer: Task<Void, Never>)] = [:]
        /// Events expected (`expect`), by token: the event's method and session, and whether it came.
        var expected: [Int: (method: String, session: String?, came: Bool)] = [:]
        var eventWaiters: [Int: (continuation: CheckedContinuation<Void, any Error>, timer: Task<Void, Never>)] = [:]
        /// Set when the browser's end closed: every call after fails with it.
        var ended: DevToolsError?
    }

    /// An event expected before the command that causes it is sent (so that it cannot come first unseen).
    struct Expectation: Sendable {
        fileprivate let token: Int
    }

    /// Starts expecting the next `method` event of `session`: call before the command that causes it.
    func expect(_ method: String, session: String?) -> Expectation {
        state.withLock { state in
            defer { state.nextID += 1 }
            state.expected[state.nextID] = (method, session, false)
            return Expectation(token: state.nextID)
        }
    }

    /// Returns once the expected event came (at once if it already did); throws if the browser ends first, or
    /// when `limit` passes first (`what` names the wait in the error).
    func wait(for expectation: Expectation, _ what: String, limit: Duration = DevToolsPipe.loadLimit) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            let result: Result<Void, DevToolsError>? = state.withLock { state in
                if let ended = state.ended { return .failure(ended) }
                guard let expected = state.expected[expectation.token], !expected.came else {
                    state.expected[expectation.token] = nil
                    return .success(())
                }
                let timer = Task { [weak self] in
                    try? await Task.sleep(for: limit)
                    guard !Task.isCancelled else { return }
                    let waiter = self?.state.withLock { state in
                        state.expected[expectation.token] = nil
                        return state.eventWaiters.removeValue(forKey: expectation.token)
                    }
                    waiter?.continuation.resume(throwing: DevToolsError("\(what) did not happen within \(limit)"))
                }
                state.eventWaiters[expectation.token] = (continuation, timer)
                return nil
            }
            if let result { continuation.resume(with: result.mapError { $0 as any Error }) }
        }
    }

    /// How long the browser may take to answer a call: it answers in milliseconds unless the page's script is
    /// busy (a `while(true)`, an `alert()` waiting for a person). Past it the call throws, naming it.
    static let callLimit: Duration = .seconds(10)
    /// How long a page may take to load (its load event).
    static let loadLimit: Duration = .seconds(20)

    /// The debugging pipe's browser: Debian's real binary, not its wrapper script (which runs checks through a
    /// shell first).
    public static let defaultBrowser = "/usr/lib/chromium/chromium"

    /// Starts the browser headless, with a fresh profile, its output to `log`.
    public init(browser: String = DevToolsPipe.defaultBrowser, log: String) throws {
        // A write to the pipe of a browser that just died must fail with EPIPE, not end the host with SIGPIPE.
        signal(SIGPIPE, SIG_IGN)
        guard access(browser, X_OK) == 0 else {
            throw DevToolsError("no browser at \(browser) (Debian: apt install chromium; or give --chromium PATH)")
        }
        profile = FileManager.default.temporaryDirectory.appendingPathComponent("traitd-web-\(getpid())-\(UInt32.random(in: 0...UInt32.max))").path
        var commands: [Int32] = [0, 0], answers: [Int32] = [0, 0]
        guard pipe(&commands) == 0, pipe(&answers) == 0 else { throw DevToolsError("cannot make a pipe: \(String(cString: strerror(errno)))") }
        // Out of the way of 3 and 4 first: a dup2 onto a descriptor it already is would keep close-on-exec.
        let childReads = fcntl(commands[0], F_DUPFD_CLOEXEC, 10), childWrites = fcntl(answers[1], F_DUPFD_CLOEXEC, 10)
        Glibc.close(commands[0])
        Glibc.close(answers[1])
        toBrowser = commands[1]
        fromBrowser = answers[0]
        _ = fcntl(toBrowser, F_SETFD, FD_CLOEXEC)
        _ = fcntl(fromBrowser, F_SETFD, FD_CLOEXEC)
        defer {
            Glibc.close(childReads)
            Glibc.close(childWrites)
        }
        let arguments = [
            "--headless", "--remote-debugging-pipe", "--no-first-run", "--no-default-browser-check", "--disable-gpu",
            // traitd-adapters often runs as root in containers and CI, where Chromium's sandbox cannot start (the
            // pages are the user's own: file:// and http://localhost) and /dev/shm may be a few MiB.
            "--no-sandbox", "--disable-dev-shm-usage", "--user-data-dir=\(profile)", "about:blank",
        ]
        pid = try Spawn.start(browser, arguments, environment: ProcessInfo.processInfo.environment, keeping: 5) { actions in
            Spawn.logging(to: log, &actions)
            posix_spawn_file_actions_adddup2(&actions, childReads, 3)
            posix_spawn_file_actions_adddup2(&actions, childWrites, 4)
        }
        // A thread of its own blocks in read() for the browser's lifetime: never one of Swift's cooperative pool.
        startThread { [self] in readAnswers() }
    }

    /// Sends `method` (to a page's `session`, or to the browser) and returns its `result`, decoded as `Result`.
    /// An error answer throws it, with the method's name.
    func call(_ method: String, _ parameters: some Encodable, session: String? = nil) async throws {
        _ = try await call(method, parameters, session: session, returning: Empty.self)
    }

    /// Sends `method` and decodes its `result` as `Result`. No answer within `limit` throws, naming the method.
    func call<Result: Decodable>(_ method: String, _ parameters: some Encodable, session: String? = nil,
                                 returning: Result.Type, limit: Duration = DevToolsPipe.callLimit) async throws -> Result {
        let answer: Data = try await withCheckedThrowingContinuation { continuation in
            let id: Int? = state.withLock { state in
                if let ended = state.ended {
                    continuation.resume(throwing: ended)
                    return nil
                }
                defer { state.nextID += 1 }
                let id = state.nextID
                let timer = Task { [weak self] in
                    try? await Task.sleep(for: limit)
                    guard !Task.isCancelled else { return }
                    self?.state.withLock { $0.waiting.removeValue(forKey: id) }?.continuation
                        .resume(throwing: DevToolsError("\(method) got no answer within \(limit) (the page's script is busy, or waits for a person)"))
                }
                state.waiting[id] = (continuation, timer)
                return id
            }
            guard let id else { return }
            do {
                var message = try JSONEncoder().encode(Request(id: id, method: method, sessionId: session, params: parameters))
                message.append(0)
                try write(message)
            } catch {
                if let waiting = state.withLock({ $0.waiting.removeValue(forKey: id) }) {
                    waiting.timer.cancel()
                    waiting.continuation.resume(throwing: error)
                }
            }
        }
        let envelope = try JSONDecoder().decode(Answer<Result>.self, from: answer)
        if let error = envelope.error { throw DevToolsError("\(method): \(error.message)") }
        guard let result = envelope.result else { throw DevToolsError("\(method): an answer with neither result nor error") }
        return result
    }

    /// Ends the browser (SIGTERM, then SIGKILL after 5 s) and removes its profile.
    public func close() {
        kill(pid, SIGTERM)
        var status: Int32 = 0
        for _ in 0..<50 {
            if waitpid(pid, &status, WNOHANG) == pid { break }
            usleep(100_000)
        }
        if kill(pid, 0) == 0 {
            kill(pid, SIGKILL)
            waitpid(pid, &status, 0)
        }
        Glibc.close(toBrowser)
        try? FileManager.default.removeItem(atPath: profile)
    }

    /// Why every call fails once the browser is gone.
    private var closedPipe: DevToolsError { DevToolsError("the browser (pid \(pid)) closed its debugging pipe: it exited") }

    private func write(_ message: Data) throws {
        try message.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.write(toBrowser, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    // The browser gone: the same sentence whichever end notices first (the reader's EOF, or this
                    // write's EPIPE, which can come first when it was killed).
                    if errno == EPIPE { throw closedPipe }
                    throw DevToolsError("cannot write to the browser's pipe: \(String(cString: strerror(errno)))")
                }
                offset += written
            }
        }
    }

    /// The reader thread: splits what the browser writes at NULs and answers each waiting call by its id
    /// (events, which have none, are not used). When the browser's end closes, every waiting call fails.
    private func readAnswers() {
        var pending = Data()
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = read(fromBrowser, &buffer, buffer.count)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            pending.append(contentsOf: buffer[..<count])
            while let end = pending.firstIndex(of: 0) {
                let message = Data(pending[pending.startIndex..<end])
                pending.removeSubrange(pending.startIndex...end)
                guard let header = try? JSONDecoder().decode(Identified.self, from: message) else { continue }
                if let id = header.id, let waiting = state.withLock({ $0.waiting.removeValue(forKey: id) }) {
                    waiting.timer.cancel()
                    waiting.continuation.resume(returning: message)
                } else if let method = header.method {
                    if method == "Page.javascriptDialogOpening", let session = header.sessionId { dismissDialog(session: session) }
                    eventCame(method, session: header.sessionId)
                }
            }
        }
        Glibc.close(fromBrowser)
        let ended = closedPipe
        let (calls, events) = state.withLock { state in
            state.ended = ended
            defer { (state.waiting, state.eventWaiters) = ([:], [:]) }
            return (Array(state.waiting.values), Array(state.eventWaiters.values))
        }
        for waiting in calls {
            waiting.timer.cancel()
            waiting.continuation.resume(throwing: ended)
        }
        for waiting in events {
            waiting.timer.cancel()
            waiting.continuation.resume(throwing: ended)
        }
    }

    /// Dismisses the dialog a page opened (`alert`, `confirm`, `prompt`, `beforeunload`), as Playwright does by
    /// default: no person is there to answer it, and until it is answered the page's script stands still and
    /// every call to it waits. The answer to the command is not read (no call waits for its id).
    private func dismissDialog(session: String) {
        let id = state.withLock { state in
            defer { state.nextID += 1 }
            return state.nextID
        }
        struct Dismiss: Encodable { let accept = false }
        guard var message = try? JSONEncoder().encode(Request(id: id, method: "Page.handleJavaScriptDialog", sessionId: session, params: Dismiss()))
        else { return }
        message.append(0)
        try? write(message)
    }

    /// An event came: the expectations it meets are met, and their waiters go on.
    private func eventCame(_ method: String, session: String?) {
        let woken = state.withLock { state in
            var woken: [(continuation: CheckedContinuation<Void, any Error>, timer: Task<Void, Never>)] = []
            for (token, expected) in state.expected where expected.method == method && expected.session == session && !expected.came {
                if let waiter = state.eventWaiters.removeValue(forKey: token) {
                    state.expected[token] = nil
                    woken.append(waiter)
                } else {
                    state.expected[token]?.came = true
                }
            }
            return woken
        }
        for waiter in woken {
            waiter.timer.cancel()
            waiter.continuation.resume()
        }
    }

    private struct Request<Parameters: Encodable>: Encodable {
        let id: Int
        let method: String
        let sessionId: String?
        let params: Parameters
    }

    /// What every message is read for first: a call's answer has its id, an event its method (and session).
    private struct Identified: Decodable {
        let id: Int?
        let method: String?
        let sessionId: String?
    }

    private struct Answer<Result: Decodable>: Decodable {
        struct Failure: Decodable { let message: String }
        let result: Result?
        let error: Failure?
    }

    /// A command without parameters, or an answer whose result is not read.
    struct Empty: Codable {}
}

/// Runs `body` on a new detached thread.
func startThread(_ body: @escaping @Sendable () -> Void) {
    final class Body: @unchecked Sendable {  // handed to the new thread once, then only there
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }
    let box = Unmanaged.passRetained(Body(body)).toOpaque()
    var thread = pthread_t()
    let started = pthread_create(&thread, nil, { raw in
        Unmanaged<Body>.fromOpaque(raw!).takeRetainedValue().run()
        return nil
    }, box)
    precondition(started == 0, "cannot start a thread: \(started)")
    pthread_detach(thread)
}

struct DevToolsError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
