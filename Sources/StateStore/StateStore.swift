import BusValues
import Dispatch
import FoundationEssentials
import Glibc
import Locks
import TraitModel
import Vocabulary

/// The state file, `state.json` in the state directory.
///
/// Writes are atomic (a temporary file, fsync, rename, fsync of the directory), so a crash or `kill -9` at
/// any moment leaves either the old file or the new one, never a torn one. They run on a queue of their own
/// and coalesce: when changes come faster than the disk, only the latest state is written. A caller that must
/// know its state is on disk (every command, whose reply promises it: `whenSaved`) is called back once a
/// write that includes everything handed over before it has been synced; callers waiting together share one
/// write and one fsync (group commit). Writes nobody waits for are at least `quietInterval` apart (the file
/// open, fsyncs and rename were a quarter of the daemon's CPU when every change wrote); a waiting caller ends
/// the pause at once. A file that cannot be loaded is moved aside, never overwritten (`restore`).
public final class StateStore: Sendable {
    public struct Problem: Error, CustomStringConvertible {
        public let description: String
        public init(_ description: String) { self.description = description }
    }

    public let directory: String
    public var path: String { directory + "/state.json" }
    /// What the store tells its owner's log: each write, and why one failed.
    public enum LogEntry: Sendable {
        case saved(String), failed(String)
    }
    private let log: @Sendable (LogEntry) -> Void
    private let queue = DispatchQueue(label: "traitd.state-store")
    /// Called once the state handed to `save` is on disk, or with the reason it could not be written.
    public typealias Completion = @Sendable (Result<Void, Problem>) -> Void

    /// What callers and the writer share.
    ///
    /// Each state handed to `save` gets the next number (`handedOver`); `durable` is the number of the latest
    /// one on disk. A waiter waits for a number: the latest handed over when it asked (`whenSaved`). So a
    /// waiter that comes while a write is under way is answered by that write if the write holds what it
    /// waits for, and by the next one otherwise, never by one that was already on its way without it.
    struct Shared {
        var pending: Data?
        /// The number of `pending`.
        var pendingNumber: UInt64 = 0
        var handedOver: UInt64 = 0
        var durable: UInt64 = 0
        /// Completions waiting for a number to be durable, in the order they came.
        var waiting: [(number: UInt64, completion: Completion)] = []
        var draining = false
        var disabled = false
        /// The latest state handed to `save` (written or not) and the latest one on disk.
        var latest: Data?
        var lastWritten: Data?
        var writeCount = 0
        /// When the last write started, kept across drains: a drain that found nothing more to write ends, and
        /// the next save starts another, whose first write must still keep the interval (it did not, and a
        /// burst of saves slower than the disk was written once each).
        var lastWriteStart: DispatchTime?

        /// Whether anyone waits for `pending`: then it is written at once.
        var someoneWaitsForPending: Bool { pending != nil && waiting.contains { $0.number > durable } }
    }
    let shared = Locked(Shared())
    /// The least time between the starts of two writes that no caller waits for.
    public static let quietInterval = 0.025
    /// Signalled when a caller starts waiting for a write: the writer's pause ends.
    private let waiterArrived = DispatchSemaphore(value: 0)
    /// How many writes (each with its fsyncs) have completed; for tests and the log.
    public var writes: Int { shared.withLock { $0.writeCount } }

    /// Uses `directory`, creating it (mode 0700) when missing.
    public init(directory: String, log: @escaping @Sendable (LogEntry) -> Void = { _ in }) throws {
        self.directory = directory
        self.log = log
        do {
            try FileManager.default.createDirectory(
                atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw Problem("cannot create the state directory \(directory): \(Self.describeFileError(error))")
        }
        guard access(directory, W_OK | X_OK) == 0 else {
            throw Problem("the state directory \(directory) is not writable")
        }
    }

    /// Where the state lives when nothing else is said: `$STATE_DIRECTORY` (systemd's `StateDirectory=`, the
    /// first when there are several), else `$XDG_STATE_HOME/traitd`, else `~/.local/state/traitd`.
    public static func defaultDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let systemd = environment["STATE_DIRECTORY"]?.split(separator: ":").first, !systemd.isEmpty {
            return String(systemd)
        }
        if let xdg = environment["XDG_STATE_HOME"], xdg.hasPrefix("/") { return xdg + "/traitd" }
        return (environment["HOME"] ?? FileManager.default.homeDirectoryForCurrentUser.path) + "/.local/state/traitd"
    }

    /// What went wrong with a file operation, as strerror words it ("Not a directory").
    static func describeFileError(_ error: any Error) -> String {
        if let posix = (error as? CocoaError)?.underlying as? POSIXError { return String(cString: strerror(posix.code.rawValue)) }
        if let posix = error as? POSIXError { return String(cString: strerror(posix.code.rawValue)) }
        return "\(error)"
    }

    /// Local time as `20261123T142604` (strftime: FoundationEssentials has no date formatter with time zones).
    static func localTimeStamp() -> String {
        var now = time(nil)
        var parts = tm()
        localtime_r(&now, &parts)
        var text = [CChar](repeating: 0, count: 32)
        let count = strftime(&text, text.count, "%Y%m%dT%H%M%S", &parts)
        return String(decoding: text.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Queues `state` for writing and returns at once. `whenDurable`, when given, is called (on the store's
    /// queue) once a write that includes `state` has been synced to disk (`whenSaved`).
    public func save(_ state: SavedState, whenDurable: Completion? = nil) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        guard let data = try? encoder.encode(state) else {
            log(.failed("cannot encode the state; not saved"))
            whenDurable?(.failure(Problem("the state cannot be encoded")))
            return
        }
        // The caller's wait is registered under the same lock as the hand-over, so that the write of this state
        // is the one that answers it (or the write that already holds it).
        let (start, next) = shared.withLock { shared -> (Bool, Wait?) in
            var start = false
            // Nothing new, and nothing still on its way to the disk: what is asked is there already.
            let unchanged = data == shared.latest && data == shared.lastWritten && shared.pending == nil && !shared.draining
            if !shared.disabled, !unchanged {
                // Anything else is written (again): a caller waiting for this state must see a write of it, even
                // when the same state was handed over before and its write failed.
                shared.handedOver += 1
                shared.pending = data
                shared.pendingNumber = shared.handedOver
                shared.latest = data
                if !shared.draining {
                    shared.draining = true
                    start = true
                }
            }
            return (start, whenDurable.map { Self.register($0, &shared) })
        }
        if start { queue.async { [self] in self.drain() } }
        if let whenDurable, let next { answer(whenDurable, next) }
    }

    /// Whether every state handed to `save` so far is on disk (then `whenSaved` would answer at once).
    public var isDurable: Bool { shared.withLock { $0.durable >= $0.handedOver && !$0.disabled } }

    /// Calls `completion` once every state handed to `save` so far is on disk: at once (on the caller's
    /// thread) when it is already, else on the store's queue after the write that holds it, shared with every
    /// other caller waiting meanwhile (group commit). A caller waiting ends the writer's quiet pause.
    public func whenSaved(_ completion: @escaping Completion) {
        answer(completion, shared.withLock { Self.register(completion, &$0) })
    }

    /// What a caller's wait comes to when it is registered.
    private enum Wait { case durable, failed(String), later, drain }

    /// Registers `completion` (under the lock) for the latest state handed over, unless it is on disk already.
    private static func register(_ completion: @escaping Completion, _ shared: inout Shared) -> Wait {
        if shared.disabled { return .failed("saving is off: the state file could not be moved aside") }
        if shared.durable >= shared.handedOver { return .durable }
        shared.waiting.append((shared.handedOver, completion))
        // The latest state's write failed and nothing is queued: it is written again for this caller.
        guard shared.pending == nil, !shared.draining, let latest = shared.latest else { return .later }
        shared.pending = latest
        shared.pendingNumber = shared.handedOver
        shared.draining = true
        return .drain
    }

    /// Acts on a registered wait (out of the lock).
    private func answer(_ completion: Completion, _ wait: Wait) {
        switch wait {
        case .durable: completion(.success(()))
        case .failed(let reason): completion(.failure(Problem(reason)))
        case .later: waiterArrived.signal()
        case .drain:
            waiterArrived.signal()
            queue.async { [self] in drain() }
        }
    }

    /// Waits until every queued state is on disk.
    public func flush() { queue.sync {} }

    // MARK: Internals

    private func drain() {
        while true {
            // Nobody waits for the next state: let more changes gather into it, up to the quiet interval.
            if let lastStart = shared.withLock({ $0.pending != nil && !$0.someoneWaitsForPending ? $0.lastWriteStart : nil }) {
                let resume = lastStart + Self.quietInterval
                while DispatchTime.now() < resume, waiterArrived.wait(timeout: resume) == .success {
                    if shared.withLock({ $0.someoneWaitsForPending }) { break }
                }
            }
            while waiterArrived.wait(timeout: .now()) == .success {}  // signals of callers served already
            let start = DispatchTime.now()
            guard let (data, number) = shared.withLock({ shared -> (Data, UInt64)? in
                guard let pending = shared.pending else {
                    shared.draining = false
                    return nil
                }
                shared.pending = nil
                shared.lastWriteStart = start
                return (pending, shared.pendingNumber)
            }) else { return }
            let result: Result<Void, Problem>
            do {
                try write(data)
                result = .success(())
            } catch {
                log(.failed("cannot save the state to \(path): \(error)"))
                result = .failure((error as? Problem) ?? Problem("\(error)"))
            }
            // Every waiter this write answers: those waiting for its number or an earlier one. A failed write
            // answers them too (with its failure): what they waited for is not on disk.
            let answered = shared.withLock { shared -> [Completion] in
                if case .success = result {
                    shared.lastWritten = data
                    shared.writeCount += 1
                    shared.durable = max(shared.durable, number)
                }
                let answered = shared.waiting.filter { $0.number <= number }.map(\.completion)
                shared.waiting.removeAll { $0.number <= number }
                return answered
            }
            if case .success = result {
                log(.saved("saved the state to \(path); \(answered.count) acknowledgement(s) waited for this write"))
            }
            for completion in answered { completion(result) }
        }
    }

    private func write(_ data: Data) throws {
        let temporary = path + ".tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw Problem("open \(temporary): \(String(cString: strerror(errno)))") }
        var failure: String?
        data.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let n = Glibc.write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    failure = "write: \(String(cString: strerror(errno)))"
                    return
                }
                offset += n
            }
        }
        if failure == nil, fsync(fd) != 0 { failure = "fsync: \(String(cString: strerror(errno)))" }
        close(fd)
        if let failure {
            unlink(temporary)
            throw Problem(failure)
        }
        guard rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw Problem("rename to \(path): \(reason)")
        }
        // The rename is durable once the directory is synced.
        let dir = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if dir >= 0 {
            fsync(dir)
            close(dir)
        }
    }
}
