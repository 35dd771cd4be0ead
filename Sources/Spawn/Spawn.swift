import CSpawn

#if canImport(Glibc)
    import Glibc
#endif

/// Starting child processes the way traitctl run and the tests need: posix_spawn with default signal
/// dispositions and nothing blocked, whatever the calling thread has.
///
/// Foundation's `Process` passes on the signal mask of the thread that starts it, and in async code that is a
/// worker thread blocking almost every signal: a `dbus-daemon` started that way never sees the SIGTERM that
/// should stop it. `traitctl run` (its `Child`) and the tests' `ChildProcess` both start processes here.
///
/// A child gets standard input, output and error (as `streams` sets them) and no other descriptor of ours:
/// whatever the parent holds without close-on-exec (a pipe another library made, a socket of the test runner's)
/// would otherwise stay open for as long as the child lives, and a reader waiting for that pipe's end waits with
/// it. That is how a crashed test process hung `make tsan` for good: ThreadSanitizer's symbolizer, waiting on a
/// pipe that a `dbus-daemon` the test had started still held, kept the test runner's output open.
public enum Spawn {
    /// Starts `path` (looked up on PATH when it has no slash) with `arguments` and `environment`; returns its pid.
    /// `streams` adds the redirections the caller wants; with `ownGroup` the child leads a process group of its
    /// own (a Ctrl-C at the terminal, sent to the foreground group, then does not reach it). The child keeps
    /// descriptors below `keeping` (3: the standard streams; Chromium's debugging pipe also wants 3 and 4).
    public static func start(_ path: String, _ arguments: [String], environment: [String: String], ownGroup: Bool = false,
                             keeping: Int32 = 3,
                             streams: (inout posix_spawn_file_actions_t) -> Void = { _ in }) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        streams(&actions)
        posix_spawn_file_actions_addclosefrom_np(&actions, keeping)  // after the caller's dup2s onto 0, 1, 2 (...)
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
        guard result == 0 else { throw SpawnError("cannot start \(path): \(String(cString: strerror(result)))") }
        return pid
    }

    /// A server's streams (for `streams`): no input, and its output and errors appended to the file `log`.
    public static func logging(to log: String, _ actions: inout posix_spawn_file_actions_t) {
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, log, O_WRONLY | O_CREAT | O_APPEND, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
    }

    /// A wait status as a shell reports it: the exit code, or 128 + N when signal N ended the process.
    public static func exitStatus(_ raw: Int32) -> Int32 { (raw & 0x7f) == 0 ? (raw >> 8) & 0xff : 128 + (raw & 0x7f) }

    /// The path of `name` in the folder of the running executable (the package's binaries sit together).
    public static func besideThisExecutable(_ name: String) -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        let me = count > 0 ? String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self) : CommandLine.arguments[0]
        let folder = me.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        return (folder.isEmpty ? "." : folder) + "/" + name
    }
}

public struct SpawnError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
