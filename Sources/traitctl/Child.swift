import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A child process of `traitctl run`, started with posix_spawn so that it begins with default signal handling
/// and nothing blocked. Foundation's `Process` passes on the signal mask of the thread that starts it, and in an
/// async command that is a worker thread blocking almost every signal: `dbus-daemon` started that way never saw
/// the SIGTERM that should stop it, and a user's command could not be interrupted.
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
    private var exitStatus: Int32?

    /// `ownGroup`: the child leads a process group of its own, so that a Ctrl-C at the terminal, which goes to the
    /// foreground group, reaches the command but not the bus and daemons that `traitctl run` stops itself.
    init(_ path: String, _ arguments: [String], environment: [String: String], output: Output, ownGroup: Bool,
         name: String? = nil) throws {
        self.name = name ?? URL(fileURLWithPath: path).lastPathComponent
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        switch output {
        case .inherit: break
        case .file(let file):
            posix_spawn_file_actions_addopen(&actions, 1, file, O_WRONLY | O_CREAT | O_APPEND, 0o600)
            posix_spawn_file_actions_adddup2(&actions, 1, 2)
        case .descriptor(let fd):
            posix_spawn_file_actions_adddup2(&actions, fd, 1)
            posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        }
        if ownGroup { posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0) }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t(), all = sigset_t()
        sigemptyset(&none)
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        var flags = POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF
        if ownGroup {
            posix_spawnattr_setpgroup(&attributes, 0)
            flags |= POSIX_SPAWN_SETPGROUP
        }
        posix_spawnattr_setflags(&attributes, Int16(flags))
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        let result = posix_spawnp(&pid, path, &actions, &attributes, argv, envp)
        guard result == 0 else { throw RunError("cannot start \(path): \(String(cString: strerror(result)))") }
        self.pid = pid
    }

    /// The exit status (128 + N for signal N), or nil while it runs.
    func poll() -> Int32? {
        if exitStatus == nil {
            var raw: Int32 = 0
            if waitpid(pid, &raw, WNOHANG) == pid { exitStatus = Self.status(raw) }
        }
        return exitStatus
    }

    /// Waits for the child to exit; returns its status.
    func wait() -> Int32 {
        while exitStatus == nil {
            var raw: Int32 = 0
            let result = waitpid(pid, &raw, 0)
            if result == pid { exitStatus = Self.status(raw) } else if result < 0, errno != EINTR { exitStatus = -1 }
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
        signal(SIGKILL)
        _ = wait()
        return false
    }

    private static func status(_ raw: Int32) -> Int32 { (raw & 0x7f) == 0 ? (raw >> 8) & 0xff : 128 + (raw & 0x7f) }
}
