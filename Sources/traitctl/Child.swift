import Foundation
import Spawn

#if canImport(Glibc)
    import Glibc
#endif

/// A child process of `traitctl run`, started through `Spawn` (default signal handling, nothing blocked: a
/// `dbus-daemon` started by Foundation's `Process` from an async command never saw its SIGTERM).
final class Child {
    enum Output {
        case inherit
        /// Appended to this file.
        case file(String)
        /// Written to this descriptor (the write end of a pipe), which the child keeps and the parent closes.
        case descriptor(Int32)
    }

    let pid: pid_t
    let name: String
    /// Whether the child leads a process group of its own (`ownGroup`).
    private let leadsGroup: Bool
    private var exitStatus: Int32?

    /// `ownGroup`: the child leads a process group of its own, so that a Ctrl-C at the terminal, which goes to the
    /// foreground group, reaches the command but not the bus and daemons that `traitctl run` stops itself.
    /// `input`: a descriptor to read as standard input (else the terminal's, or /dev/null with `ownGroup`).
    init(_ path: String, _ arguments: [String], environment: [String: String], output: Output, ownGroup: Bool,
         input: Int32? = nil, name: String? = nil) throws {
        self.name = name ?? URL(fileURLWithPath: path).lastPathComponent
        leadsGroup = ownGroup
        pid = try Spawn.start(path, arguments, environment: environment, ownGroup: ownGroup) { actions in
            switch output {
            case .inherit: break
            case .file(let file):
                posix_spawn_file_actions_addopen(&actions, 1, file, O_WRONLY | O_CREAT | O_APPEND, 0o600)
                posix_spawn_file_actions_adddup2(&actions, 1, 2)
            case .descriptor(let fd):
                posix_spawn_file_actions_adddup2(&actions, fd, 1)
                posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
            }
            if let input {
                posix_spawn_file_actions_adddup2(&actions, input, 0)
            } else if ownGroup {
                posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
            }
        }
    }

    /// The exit status (128 + N for signal N), or nil while it runs.
    func poll() -> Int32? {
        if exitStatus == nil {
            var raw: Int32 = 0
            if waitpid(pid, &raw, WNOHANG) == pid { exitStatus = Spawn.exitStatus(raw) }
        }
        return exitStatus
    }

    /// Waits for the child to exit; returns its status.
    func wait() -> Int32 {
        while exitStatus == nil {
            var raw: Int32 = 0
            let result = waitpid(pid, &raw, 0)
            if result == pid { exitStatus = Spawn.exitStatus(raw) } else if result < 0, errno != EINTR { exitStatus = -1 }
        }
        return exitStatus!
    }

    func signal(_ number: Int32) {
        if poll() == nil { kill(pid, number) }
    }

    /// SIGTERM, then SIGKILL if it has not exited after `grace` seconds; true if SIGTERM was enough.
    @discardableResult
    func stop(grace: Double = 5) -> Bool {
        signal(SIGTERM)
        let deadline = Date().addingTimeInterval(grace)
        while poll() == nil, Date() < deadline { usleep(5_000) }
        guard poll() == nil else { return true }
        // Killed, it cannot stop what it started (the adapter host's Xvfb, accessibility bus, browser and apps,
        // which a host too slow to stop on a busy machine once left behind): a leader's whole group goes with it.
        if leadsGroup { kill(-pid, SIGKILL) } else { signal(SIGKILL) }
        _ = wait()
        return false
    }
}
