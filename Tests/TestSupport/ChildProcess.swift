import Foundation
import Spawn

#if canImport(Glibc)
    import Glibc
#endif

/// A child process started with posix_spawn, its output going to files (so it can never block on a full pipe).
///
/// Foundation's `Process.waitUntilExit` can hang when called off the main thread on Linux; this uses `waitpid`.
// @unchecked: `status` (the one mutable field) is read and written under `lock` only.
public final class ChildProcess: @unchecked Sendable {
    public let pid: pid_t
    public let arguments: [String]
    private let outputURL: URL
    private let errorURL: URL
    private var status: Int32?
    private let lock = NSLock()

    public init(_ executable: String, _ arguments: [String], environment: [String: String]? = nil) throws {
        self.arguments = [executable] + arguments
        let dir = FileManager.default.temporaryDirectory
        let output = dir.appendingPathComponent("traitd-child-\(UUID().uuidString).out")
        let errors = dir.appendingPathComponent("traitd-child-\(UUID().uuidString).err")
        outputURL = output
        errorURL = errors
        // Children start with default signal handling and nothing blocked, whatever the test runner set.
        do {
            pid = try Spawn.start(executable, arguments, environment: environment ?? ProcessInfo.processInfo.environment) {
                posix_spawn_file_actions_addopen(&$0, 0, "/dev/null", O_RDONLY, 0)
                posix_spawn_file_actions_addopen(&$0, 1, output.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
                posix_spawn_file_actions_addopen(&$0, 2, errors.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
            }
        } catch {
            throw TestFailure("\(error)")
        }
    }

    /// Runs a command to completion and returns (exit status, stdout, stderr).
    public static func run(_ executable: String, _ arguments: [String], environment: [String: String]? = nil,
                           timeout: Double = 30) throws -> (status: Int32, stdout: String, stderr: String) {
        let child = try ChildProcess(executable, arguments, environment: environment)
        guard let status = child.wait(timeout: timeout) else {
            child.kill(SIGKILL)
            _ = child.wait(timeout: 5)
            throw TestFailure("\(child.arguments.joined(separator: " ")) did not finish in \(timeout) s")
        }
        return (status, child.standardOutput, child.standardError)
    }

    public var standardOutput: String { (try? String(contentsOf: outputURL, encoding: .utf8)) ?? "" }
    public var standardError: String { (try? String(contentsOf: errorURL, encoding: .utf8)) ?? "" }

    /// Exit status (or 128 + signal); nil if the process is still running after `timeout` seconds.
    public func wait(timeout: Double = 30) -> Int32? {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if let status = lock.withLock({ self.status }) { return status }
            var raw: Int32 = 0
            let result = waitpid(pid, &raw, WNOHANG)
            if result == pid {
                let code = Spawn.exitStatus(raw)
                lock.withLock { status = code }
                return code
            }
            if result < 0 { return lock.withLock { status } ?? -1 }
            if Date() > deadline { return nil }
            usleep(2_000)
        }
    }

    public var isRunning: Bool { wait(timeout: 0) == nil }

    public func kill(_ signal: Int32 = SIGTERM) {
        if isRunning { _ = Glibc.kill(pid, signal) }
    }

    deinit {
        if isRunning {
            _ = Glibc.kill(pid, SIGKILL)
            _ = wait(timeout: 5)
        }
        try? FileManager.default.removeItem(at: outputURL)
        try? FileManager.default.removeItem(at: errorURL)
    }
}

extension ChildProcess {
    /// The process's resident set size in KiB (`VmRSS`), 0 when it is gone.
    public var residentKiB: Int { ProcessMemory.read(pid: pid).residentKiB }
}
