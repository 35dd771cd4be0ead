import FoundationEssentials
import Spawn
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A helper program run to its end without blocking Swift's cooperative pool: its output is read, and its exit
/// waited for, on a thread of its own (`xdotool` for the desktop bridge). Every run has a deadline: past it the
/// program is killed and the run throws, naming it (an `xwd` of a window that hangs would otherwise hold the
/// bridge for good).
enum ChildRun {
    struct Result: Sendable {
        let status: Int32
        /// What it wrote to its standard output, as it wrote it (`xwd`'s picture).
        let bytes: [UInt8]
        var output: String { String(decoding: bytes, as: UTF8.self) }
    }

    /// How long a helper may run unless its caller says otherwise.
    static let defaultLimit: Duration = .seconds(10)

    static func run(_ path: String, _ arguments: [String], environment: [String: String],
                    limit: Duration = defaultLimit) async throws -> Result {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw DevToolsError("cannot make a pipe: \(String(cString: strerror(errno)))") }
        let (reader, writer) = (fds[0], fds[1])
        let pid: pid_t
        do {
            pid = try Spawn.start(path, arguments, environment: environment) { actions in
                posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
                posix_spawn_file_actions_adddup2(&actions, writer, 1)
                posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
            }
        } catch {
            Glibc.close(reader)
            Glibc.close(writer)
            throw error
        }
        Glibc.close(writer)
        // Set, under the lock, once the program has exited and before it is reaped: the deadline kills only a
        // program that has not (never a process that took its id since).
        let ending = Ending()
        let deadline = Task {
            try? await Task.sleep(for: limit)
            guard !Task.isCancelled else { return }
            ending.state.withLock { state in
                if !state.exited {
                    kill(pid, SIGKILL)
                    state.killed = true
                }
            }
        }
        defer { deadline.cancel() }
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result, Never>) in
            startThread {
                var output: [UInt8] = []
                var buffer = [UInt8](repeating: 0, count: 65536)
                while true {
                    let count = read(reader, &buffer, buffer.count)
                    if count < 0 && errno == EINTR { continue }
                    guard count > 0 else { break }
                    output += buffer[..<count]
                }
                Glibc.close(reader)
                var info = siginfo_t()
                while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) < 0 && errno == EINTR {}
                ending.state.withLock { $0.exited = true }
                var raw: Int32 = 0
                while waitpid(pid, &raw, 0) < 0 && errno == EINTR {}
                continuation.resume(returning: Result(status: Spawn.exitStatus(raw), bytes: output))
            }
        }
        if ending.state.withLock({ $0.killed }) { throw DevToolsError("\(path) did not finish within \(limit) and was killed") }
        return result
    }

    /// Whether the program has exited (not yet reaped), and whether its deadline killed it.
    private final class Ending: Sendable {
        let state = Mutex((exited: false, killed: false))
    }
}
