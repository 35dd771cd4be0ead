import CSpawn
import Dispatch
import Foundation
import Spawn

#if canImport(Glibc)
    import Glibc
#endif

/// A child process for a test: started with `Spawn` (default signal handling, nothing blocked), its output read
/// from pipes as it comes, its exit seen the moment it happens.
///
/// Nothing here blocks Swift's cooperative pool: a thread of the process's own reads its output and another
/// waits for it to exit (`waitpid` without `WNOHANG`); tasks wait for those events through `Watched`
/// (`wait(timeout:)`, `waitForOutput`, `run`), never by polling. On a two-core machine the pool has two threads,
/// and a test that held one with a `usleep` loop starved every other test's waits.
public final class ChildProcess: Sendable {
    /// What the reading and reaping threads have seen so far.
    public struct Progress: Sendable {
        public var output: [UInt8] = []
        public var errors: [UInt8] = []
        /// Both pipes reached their end (the process and everything that inherited them closed them).
        public var outputClosed = false
        /// The exit status (or 128 + signal) once the process has ended.
        public var exit: Int32?
    }

    public enum Stream: Sendable { case output, errors }

    public let pid: pid_t
    public let arguments: [String]
    private let progress = Watched(Progress())
    /// Held while pipes are made and a child starts (see `init`).
    private static let spawning = NSLock()

    public init(_ executable: String, _ arguments: [String], environment: [String: String]? = nil) throws {
        self.arguments = [executable] + arguments
        // Close-on-exec, so that a process another test starts at the same moment does not inherit our pipes' write
        // ends (its copy would keep a pipe open after ours exits). Glibc's module has no pipe2, so the pipes are
        // made and marked under `spawning`, which every start holds. dup2 onto 1 and 2 clears the flag in the child.
        var output: [Int32] = [0, 0], errors: [Int32] = [0, 0]
        Self.stopsChildrenAtExit
        pid = try Self.spawning.withLock {
            guard pipe(&output) == 0 else { throw TestFailure("pipe: \(String(cString: strerror(errno)))") }
            guard pipe(&errors) == 0 else {
                close(output[0]); close(output[1])
                throw TestFailure("pipe: \(String(cString: strerror(errno)))")
            }
            for fd in output + errors { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
            defer { close(output[1]); close(errors[1]) }
            do {
                // Its own process group: what it starts in turn (a test's pytest, its buses and daemons) is stopped
                // with it when a deadline passes or the run ends (`stopGroup`).
                return try Spawn.start(executable, arguments, environment: environment ?? ProcessInfo.processInfo.environment,
                                       ownGroup: true) {
                    posix_spawn_file_actions_addopen(&$0, 0, "/dev/null", O_RDONLY, 0)
                    posix_spawn_file_actions_adddup2(&$0, output[1], 1)
                    posix_spawn_file_actions_adddup2(&$0, errors[1], 2)
                }
            } catch {
                close(output[0]); close(errors[0])
                throw TestFailure("\(error)")
            }
        }
        Self.running.update { _ = $0.insert(pid) }
        Self.startReading(output: output[0], errors: errors[0], into: progress)
        Self.startReaping(pid, into: progress)
    }

    // MARK: Nothing outlives the process that started it

    /// The children started and not reaped yet. `deinit` stops a child whose value is let go of, but a process
    /// that ends through `exit` (a benchmark giving up at its time limit, the test runner when it is done) lets go
    /// of nothing: its daemons and buses ran on for good (a `traitd` and two `dbus-daemon`s after every `make test`,
    /// from the benchmark that gives up on a silent peer). So `exit` asks every child still running to stop.
    private static let running = Watched(Set<pid_t>())

    /// Registers the exit hook once, before the first child starts.
    private static let stopsChildrenAtExit: Void = {
        atexit {
            for pid in ChildProcess.running.current { _ = Glibc.kill(-pid, SIGTERM) }
        }
    }()

    /// Waits until the process `pid` (not necessarily a child of this one) has ended: true when it has, false after
    /// `timeout` seconds (times `TestTiming.scale`). Through a pidfd, which a thread polls: no polling of the pid.
    public static func waitForExit(ofProcess pid: pid_t, timeout: Double = 30) async -> Bool {
        let descriptor = pidfd_open(pid, 0)
        guard descriptor >= 0 else { return errno == ESRCH }  // gone already
        let ended = Watched(false)
        Thread.detachNewThread {
            var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            while poll(&entry, 1, -1) < 0 && errno == EINTR {}
            close(descriptor)
            ended.update { $0 = true }
        }
        return await ended.wait(timeout: timeout) { $0 } != nil
    }

    /// Runs a command to completion (its exit and the end of its output) and returns (exit status, stdout,
    /// stderr); throws when it has not finished after `timeout` seconds (then it is killed).
    public static func run(_ executable: String, _ arguments: [String], environment: [String: String]? = nil,
                           timeout: Double = 60) async throws -> (status: Int32, stdout: String, stderr: String) {
        let child = try ChildProcess(executable, arguments, environment: environment)
        guard let done = await child.progress.wait(timeout: timeout, until: { $0.exit != nil && $0.outputClosed }) else {
            // The whole group: a command killed alone left what it had started running, parented to 1 (a pytest
            // past its deadline left 24 buses, daemons, hosts and Chromium helpers).
            child.stopGroup(SIGKILL)
            throw TestFailure("\(child.arguments.joined(separator: " ")) did not finish in \(timeout * TestTiming.scale) s")
        }
        return (done.exit!, Self.text(done.output), Self.text(done.errors))
    }

    public var standardOutput: String { Self.text(progress.current.output) }
    public var standardError: String { Self.text(progress.current.errors) }

    /// The exit status (or 128 + signal) once the process has ended; nil if it is still running after
    /// `timeout` seconds (times `TestTiming.scale`).
    @discardableResult
    public func wait(timeout: Double = 30) async -> Int32? {
        await progress.wait(timeout: timeout) { $0.exit != nil }?.exit
    }

    /// Waits until `text` appears in the process's output (`stream`) `occurrences` times; throws if the process
    /// ends first or after `timeout` seconds, with what it printed.
    public func waitForOutput(_ text: String, occurrences: Int = 1, in stream: Stream = .output, timeout: Double = 30)
        async throws {
        let bytes = Array(text.utf8)
        let found: @Sendable (Progress) -> Bool = {
            Self.count(bytes, in: stream == .output ? $0.output : $0.errors) >= occurrences
        }
        let seen = await progress.wait(timeout: timeout) { found($0) || $0.exit != nil }
        guard let seen, found(seen) else {
            let how = seen.map { "it exited with \($0.exit!)" } ?? "timed out after \(timeout * TestTiming.scale) s"
            throw TestFailure("\(arguments.joined(separator: " ")) never printed '\(text)' (\(how)): \(standardOutput) \(standardError)")
        }
    }

    public var isRunning: Bool { progress.current.exit == nil }

    public func kill(_ signal: Int32 = SIGTERM) {
        if isRunning { _ = Glibc.kill(pid, signal) }
    }

    /// Sends `signal` to the process and to everything it started that is still in its process group (the
    /// group it leads: see `init`), whether or not the process itself still runs.
    public func stopGroup(_ signal: Int32 = SIGKILL) {
        _ = Glibc.kill(-pid, signal)
    }

    /// Asks the process to stop (SIGTERM) and waits for it; kills it (SIGKILL) if it has not stopped after
    /// `timeout` seconds. Returns its exit status.
    @discardableResult
    public func stop(timeout: Double = 10) async -> Int32? {
        kill(SIGTERM)
        if let status = await wait(timeout: timeout) { return status }
        kill(SIGKILL)
        return await wait(timeout: timeout)
    }

    /// A process still running when the test lets go of it is asked to stop, and killed 5 s later if it has not:
    /// a daemon gets to close its files, and nothing outlives the test run. No one waits here (a `deinit` may run
    /// on the cooperative pool); the reaping thread collects it.
    deinit {
        guard isRunning else { return }
        _ = Glibc.kill(pid, SIGTERM)
        let (pid, progress) = (pid, progress)
        DispatchQueue.global().asyncAfter(deadline: .now() + 5) {
            if progress.current.exit == nil { _ = Glibc.kill(-pid, SIGKILL) }
        }
    }

    // MARK: Internals

    private static func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    /// How many times `needle` occurs in `haystack`, not overlapping.
    private static func count(_ needle: [UInt8], in haystack: [UInt8]) -> Int {
        guard !needle.isEmpty, haystack.count >= needle.count else { return 0 }
        var count = 0, start = 0
        while start <= haystack.count - needle.count {
            if haystack[start] == needle[0], haystack[start..<(start + needle.count)].elementsEqual(needle) {
                count += 1
                start += needle.count
            } else {
                start += 1
            }
        }
        return count
    }

    /// A thread that reads both pipes until both end (a full pipe could otherwise stop the child).
    private static func startReading(output: Int32, errors: Int32, into progress: Watched<Progress>) {
        Thread.detachNewThread {
            var fds = [pollfd(fd: output, events: Int16(POLLIN), revents: 0), pollfd(fd: errors, events: Int16(POLLIN), revents: 0)]
            var buffer = [UInt8](repeating: 0, count: 65536)
            var open = 2
            while open > 0 {
                if poll(&fds, nfds_t(fds.count), -1) < 0 {
                    if errno == EINTR { continue }
                    break
                }
                for index in fds.indices where fds[index].fd >= 0 && fds[index].revents != 0 {
                    let count = read(fds[index].fd, &buffer, buffer.count)
                    if count > 0 {
                        let chunk = buffer[..<count]
                        progress.update { index == 0 ? $0.output.append(contentsOf: chunk) : $0.errors.append(contentsOf: chunk) }
                    } else if count == 0 || errno != EINTR {
                        close(fds[index].fd)
                        fds[index].fd = -1
                        open -= 1
                    }
                }
            }
            progress.update { $0.outputClosed = true }
        }
    }

    /// A thread that waits for the process to end (the only one that reaps it).
    private static func startReaping(_ pid: pid_t, into progress: Watched<Progress>) {
        Thread.detachNewThread {
            // Seen ended but not reaped yet (WNOWAIT), it leaves `running` while its pid cannot be reused: the exit
            // hook never signals another process that got the number.
            var info = siginfo_t()
            while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) < 0 && errno == EINTR {}
            running.update { _ = $0.remove(pid) }
            var raw: Int32 = 0
            var result: pid_t
            repeat { result = waitpid(pid, &raw, 0) } while result < 0 && errno == EINTR
            let status = result == pid ? Spawn.exitStatus(raw) : -1
            progress.update { $0.exit = status }
        }
    }
}

extension ChildProcess {
    /// The process's resident set size in KiB (`VmRSS`), 0 when it is gone.
    public var residentKiB: Int { ProcessMemory.read(pid: pid).residentKiB }
}
