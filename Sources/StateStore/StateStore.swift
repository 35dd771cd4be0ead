import DBus
import Dispatch
import FoundationEssentials
import Glibc
import TraitModel
import Vocabulary

/// What the daemon keeps between runs: the display (device, orientation, arrangement, apps and their roles,
/// apps in the background) and every app's restoration state.
public struct SavedState: Codable, Equatable, Sendable {
    public static let currentVersion = 1

    public var version: Int
    public var display: DisplayState
    /// app -> its `RestorationState` (`a{sv}`) in the D-Bus wire format, base64: exact for every D-Bus type.
    public var restoration: [String: String]

    public init(display: DisplayState, restoration: [String: [String: DBusValue]]) throws {
        version = Self.currentVersion
        self.display = display
        self.restoration = try restoration.mapValues { Data(try Marshalling.encode([.vardict($0)])).base64EncodedString() }
    }

    /// The restoration states, decoded; throws when one is not a marshalled `a{sv}`.
    public func restorationStates() throws -> [String: [String: DBusValue]] {
        try restoration.mapValues { text in
            guard let data = Data(base64Encoded: text) else { throw StateStore.Problem("a restoration state is not base64") }
            let values = try Marshalling.decode([UInt8](data))
            guard values.count == 1, values[0].signature == "a{sv}", let dictionary = values[0].dictionary else {
                throw StateStore.Problem("a restoration state is not an a{sv} dictionary")
            }
            return dictionary.mapValues(\.unwrapped)
        }
    }
}

/// The state file, `state.json` in the state directory.
///
/// Writes are atomic (a temporary file, fsync, rename, fsync of the directory), so a crash or `kill -9` at
/// any moment leaves either the old file or the new one, never a torn one. They run on a queue of their own
/// and coalesce: when changes come faster than the disk, only the latest state is written. A caller that must
/// know its state is on disk (`SetRestorationState`, whose reply promises it) passes a completion, called once
/// a write that includes its state has been synced; callers waiting together share one write and one fsync
/// (group commit). Writes nobody waits for are at least `quietInterval` apart: under a stream of commands
/// (thousands a second) the file is written a few dozen times a second, not once per command (its open, fsyncs
/// and rename were a quarter of the daemon's CPU); a waiting caller ends the pause at once. A file that cannot
/// be loaded is moved aside, never overwritten.
public final class StateStore: Sendable {
    public struct Problem: Error, CustomStringConvertible {
        public let description: String
        public init(_ description: String) { self.description = description }
    }

    public enum Loaded {
        /// No state file yet: a first start.
        case nothing
        case state(SavedState)
        /// The file could not be loaded; it now lives at `movedTo` (nil when even that failed, in which case the
        /// store stops saving so that the file is not overwritten).
        case movedAside(movedTo: String?, reason: String)
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
    private struct Shared {
        var pending: Data?
        /// Completions waiting for the next write (the one of `pending`).
        var waiting: [Completion] = []
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
    }
    private let shared = Locked(Shared())
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

    /// Reads the state file. Anything wrong with it (unreadable, not JSON, a newer version) moves it aside.
    public func load() -> Loaded {
        // A temporary file is a write that a crash cut short; the state file beside it is whole.
        unlink(path + ".tmp")
        guard FileManager.default.fileExists(atPath: path) else { return .nothing }
        do {
            guard let data = FileManager.default.contents(atPath: path) else { throw Problem("cannot read it") }
            let state = try Self.decode(data)
            shared.withLock {
                $0.lastWritten = data
                $0.latest = data
            }
            return .state(state)
        } catch {
            return moveAside(reason: Self.describe(error))
        }
    }

    /// The state in a state file's bytes; throws for anything that is not a whole state of this version.
    public static func decode(_ data: Data) throws -> SavedState {
        let state = try JSONDecoder().decode(SavedState.self, from: data)
        guard state.version == SavedState.currentVersion else {
            throw Problem("it has version \(state.version); this traitd reads version \(SavedState.currentVersion)")
        }
        _ = try state.restorationStates()
        return state
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

    /// Moves the state file aside as `state.json.corrupt-<time>` (for a file that parsed but that the
    /// simulation refuses, too).
    public func moveAside(reason: String) -> Loaded {
        let stamp = Self.localTimeStamp()
        var target = path + ".corrupt-" + stamp
        var n = 1
        while FileManager.default.fileExists(atPath: target) {
            n += 1
            target = path + ".corrupt-" + stamp + "-\(n)"
        }
        if rename(path, target) == 0 {
            shared.withLock {
                $0.lastWritten = nil
                $0.latest = nil
            }
            return .movedAside(movedTo: target, reason: reason)
        }
        shared.withLock { $0.disabled = true }
        return .movedAside(movedTo: nil, reason: reason + "; moving it aside failed too (\(String(cString: strerror(errno))))")
    }

    /// Moves the state file aside (as `moveAside` does) after part of it was dropped; returns where it went.
    public func keepCopy() -> String? {
        if case .movedAside(let target, _) = moveAside(reason: "") { return target }
        return nil
    }

    /// Queues `state` for writing and returns at once. `whenDurable`, when given, is called (on the store's
    /// queue) once a write that includes `state` has been synced to disk.
    public func save(_ state: SavedState, whenDurable: Completion? = nil) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        guard let data = try? encoder.encode(state) else {
            log(.failed("cannot encode the state; not saved"))
            whenDurable?(.failure(Problem("the state cannot be encoded")))
            return
        }
        enum Next { case nothing, durable, failed(String), drain }
        let next = shared.withLock { shared -> Next in
            if shared.disabled { return .failed("saving is off: the state file could not be moved aside") }
            // Nothing new, and nothing still on its way to the disk: what is asked is there already.
            if data == shared.latest, data == shared.lastWritten, shared.pending == nil, !shared.draining {
                return .durable
            }
            // Anything else is written (again): a caller waiting for this state must see a write of it, even
            // when the same state was handed over before and its write failed.
            shared.pending = data
            shared.latest = data
            if let whenDurable { shared.waiting.append(whenDurable) }
            if shared.draining { return .nothing }
            shared.draining = true
            return .drain
        }
        if whenDurable != nil { waiterArrived.signal() }
        switch next {
        case .nothing: break
        case .durable: whenDurable?(.success(()))
        case .failed(let reason): whenDurable?(.failure(Problem(reason)))
        case .drain: queue.async { [self] in drain() }
        }
    }

    /// Waits until every queued state is on disk.
    public func flush() { queue.sync {} }

    // MARK: Internals

    private func drain() {
        while true {
            // Nobody waits for the next state: let more changes gather into it, up to the quiet interval.
            if let lastStart = shared.withLock({ $0.pending != nil && $0.waiting.isEmpty ? $0.lastWriteStart : nil }) {
                let resume = lastStart + Self.quietInterval
                while DispatchTime.now() < resume, waiterArrived.wait(timeout: resume) == .success {
                    if shared.withLock({ !$0.waiting.isEmpty }) { break }
                }
            }
            while waiterArrived.wait(timeout: .now()) == .success {}  // signals of callers served already
            let start = DispatchTime.now()
            guard let (data, completions) = shared.withLock({ shared -> (Data, [Completion])? in
                defer {
                    shared.pending = nil
                    shared.waiting = []
                }
                guard let pending = shared.pending else {
                    shared.draining = false
                    return nil
                }
                shared.lastWriteStart = start
                return (pending, shared.waiting)
            }) else { return }
            let result: Result<Void, Problem>
            do {
                try write(data)
                shared.withLock {
                    $0.lastWritten = data
                    $0.writeCount += 1
                }
                result = .success(())
                log(.saved("saved the state to \(path); \(completions.count) acknowledgement(s) waited for this write"))
            } catch {
                log(.failed("cannot save the state to \(path): \(error)"))
                result = .failure((error as? Problem) ?? Problem("\(error)"))
            }
            for completion in completions { completion(result) }
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

    private static func describe(_ error: Error) -> String {
        switch error {
        case DecodingError.dataCorrupted(let context):
            return "it is not a traitd state file (\(context.debugDescription))"
        case DecodingError.keyNotFound(let key, _):
            return "it has no '\(key.stringValue)'"
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
            return "'\(context.codingPath.map(\.stringValue).joined(separator: "."))' has the wrong type"
        default:
            return "\(error)"
        }
    }
}
