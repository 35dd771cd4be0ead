import ArgumentParser
import DBus
import Foundation
import Spawn
import TraitClient
import TraitConfig

/// `traitctl run -- COMMAND...`: a private bus with traitd on it for one command, as `dbus-run-session` gives
/// a private session bus. The test fixture in one line:
///
///     traitctl run --adapters -- pytest tests/
///
/// Starts `dbus-daemon`, then `traitd --no-state` (and `traitd-adapters` with `--adapters`), waits until they
/// are ready, runs the command with `DBUS_SESSION_BUS_ADDRESS` set, then stops everything and exits with the
/// command's status (128 + N when a signal N ended it). SIGINT, SIGTERM and SIGHUP are passed on to the
/// command. Killed with SIGKILL itself, traitctl cannot clean up, so a watchdog does (`PrivateTraitd.Watchdog`):
/// the bus, traitd and the host go, and the folder; the command, which traitctl did not start in a group of its
/// own, is left to its caller, as `dbus-run-session` leaves it.
struct Run: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run a command against a private bus with traitd (and optionally the adapter host) on it.",
        discussion: """
            Examples: traitctl run -- ./my-tests.sh; traitctl run --adapters --device ipad-mini-6 -- pytest; \
            traitctl run -- traitctl status. The command's exit status is traitctl's.
            """)

    @Flag(help: "Start the adapter host (traitd-adapters) too, and wait until it has registered its adapters.")
    var adapters = false
    @Option(help: ArgumentHelp("Start on this device profile (traitctl devices lists them).", valueName: "id"),
            completion: .custom(Completions.device))
    var device: String?
    @Option(help: ArgumentHelp("A YAML file for traitd's --config.", valueName: "file"))
    var config: String?
    @Flag(help: "traitd also serves org.freedesktop.portal.Settings on the private bus (traitd --portal): GTK and libadwaita apps started by the command follow the simulated appearance, contrast and text size.")
    var portal = false
    @Flag(help: "Print what is started and stopped on stderr.") var verbose = false
    @Argument(parsing: .postTerminator, help: "The command and its arguments (after --).")
    var command: [String] = []

    func validate() throws {
        guard !command.isEmpty else { throw ValidationError("no command: write it after --, as in traitctl run -- true") }
    }

    func run() async throws {
        let fixture = PrivateTraitd(verbose: verbose)
        let status: Int32
        do {
            try await fixture.start(config: config, adapters: adapters, device: device, portal: portal)
            status = try fixture.runCommand(command)
        } catch {
            fixture.stop()
            FileHandle.standardError.write(Data("traitctl run: \(Failure(error).description)\n".utf8))
            throw ExitCode(125)  // as env(1) and timeout(1): the command did not run
        }
        fixture.stop()
        throw ExitCode(status)
    }
}

/// The bus, traitd and the host of one `traitctl run`, in a temporary folder that goes with them.
final class PrivateTraitd {
    let verbose: Bool
    let folder: URL
    private var bus: Child?
    private var daemon: Child?
    private var host: Child?
    private var watchdog: Watchdog?
    private(set) var address = ""
    /// Variables the command gets beside the bus's address (`traitctl explore`: PYTHONPATH).
    var extraEnvironment: [String: String] = [:]
    private var signalSources: [DispatchSourceSignal] = []

    init(verbose: Bool) {
        self.verbose = verbose
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("traitctl-run-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
    }

    var environment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["DBUS_SESSION_BUS_ADDRESS"] = address
        environment.removeValue(forKey: "DBUS_STARTER_ADDRESS")
        environment.merge(extraEnvironment) { _, extra in extra }
        return environment
    }

    /// The adapter host's arguments for folders of layout files, web pages and desktop apps (app, URL or command),
    /// run beside the built-in adapters or, without `builtIns`, alone (`--only-layouts`); with `aria`, the bridges
    /// send accessibility snapshots, with `screenshots`, pictures.
    static func hostArguments(builtIns: Bool, layouts: [String], web: [(String, String)] = [], apps: [(String, String)] = [],
                              aria: Bool = false, screenshots: Bool = false) -> [String] {
        let arguments = layouts.flatMap { ["--layouts", $0] } + web.flatMap { ["--web", "\($0.0)=\($0.1)"] }
            + apps.flatMap { ["--app", "\($0.0)=\($0.1)"] }
        let bridged = !web.isEmpty || !apps.isEmpty
        return (builtIns || arguments.isEmpty ? [] : ["--only-layouts"]) + (aria && bridged ? ["--aria-snapshots"] : [])
            + (screenshots && bridged ? ["--screenshots"] : []) + arguments
    }

    /// `hostArguments` go to the adapter host (`--layouts DIR`); `daemonArguments` to traitd (`--testing`).
    func start(config: String?, adapters: Bool, device: String?, portal: Bool = false, hostArguments: [String] = [],
               daemonArguments: [String] = []) async throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        watchdog = try Watchdog(folder: folder)
        try startBus()
        note("bus at \(address)")
        var arguments = ["--bus", address, "--no-state"]
        if let config { arguments += ["--config", config] }
        if portal { arguments.append("--portal") }
        arguments += daemonArguments
        let daemon = try Child(try tool("traitd"), arguments, environment: environment, output: .file(log("traitd")), ownGroup: true)
        self.daemon = daemon
        watchdog?.watch(daemon)
        let client = try TraitClient(bus: .address(address))
        defer { client.close() }
        try await waitUntil("traitd takes its name", daemon) { try await client.connection.nameOwner(TraitClient.busName) != nil }
        note("traitd is up (pid \(daemon.pid))")
        if let device { try await client.setDevice(device) }
        if adapters {
            // The host reads the daemon's configuration too: its `adapters:` and `bridges:` sections are the host's.
            let arguments = (config.map { ["--config", $0] } ?? []) + hostArguments
            let bridges = Self.bridges(config: config, hostArguments: hostArguments)
            let host = try Child(try tool("traitd-adapters"), ["--bus", address] + arguments, environment: environment,
                                 output: .file(log("traitd-adapters")), ownGroup: true)
            self.host = host
            watchdog?.watch(host)
            // The host registers its adapters one call after another once it sees traitd, and each bridge once its
            // page or app is ready (or failed to be, within the bridge's limits: a minute): ready when every bridge
            // is registered, and the list is not empty and has stayed the same for a quarter of a second.
            var last: [String] = []
            var steadySince = Date()
            try await waitUntil("the adapter host registers its adapters", host, seconds: bridges.isEmpty ? 15 : 75) {
                let now = try await client.listAdapters().map { "\($0.app)/\($0.adapter)" }
                if now != last { last = now; steadySince = Date() }
                return !now.isEmpty && bridges.isSubset(of: now) && Date().timeIntervalSince(steadySince) >= 0.25
            }
            note("traitd-adapters registered \(last.joined(separator: ", "))")
        }
    }

    /// Runs the command in traitctl's process group (the terminal's foreground one), passing on SIGINT, SIGTERM
    /// and SIGHUP sent to traitctl alone; returns its status.
    func runCommand(_ command: [String]) throws -> Int32 {
        let child = try Child("/usr/bin/env", command, environment: environment, output: .inherit, ownGroup: false)
        for number in [SIGINT, SIGTERM, SIGHUP] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { child.signal(number) }
            source.resume()
            signalSources.append(source)
        }
        let status = child.wait()
        note("\(command[0]) exited with status \(status)")
        return status
    }

    /// Stops the host, traitd and the bus (SIGTERM, then SIGKILL after 5 s), and removes the folder.
    func stop() {
        for source in signalSources { source.cancel() }
        for child in [host, daemon, bus].compactMap({ $0 }) where child.poll() == nil {
            note(child.stop() ? "\(child.name) stopped" : "\(child.name) did not stop in 5 s: killed")
        }
        watchdog?.dismiss()
        try? FileManager.default.removeItem(at: folder)
    }

    /// Cleans up when traitctl cannot: a shell in a process group of its own that reads, from a pipe only
    /// traitctl writes to, the process groups it started (one line each). A normal stop ends with "done". If
    /// the pipe closes without it, traitctl died (SIGKILL, a crash): the watchdog sends SIGTERM to every
    /// group, SIGKILL a second later, and removes the folder. (PR_SET_PDEATHSIG would not do: it fires when
    /// the *thread* that spawned the child exits, and traitctl's threads come and go.)
    final class Watchdog {
        private let child: Child
        private var pipe: Int32

        static let script = #"""
            groups=
            while read -r line; do
                [ "$line" = done ] && exit 0
                groups="$groups -$line"
            done
            [ -n "$groups" ] || exit 0
            kill -TERM $groups 2>/dev/null
            sleep 1
            kill -KILL $groups 2>/dev/null
            rm -rf "$1"
            """#

        init(folder: URL) throws {
            var fds: [Int32] = [0, 0]
            // Close-on-exec: no other child holds the write end, so it closes when traitctl goes.
            guard Glibc.pipe(&fds) == 0 else { throw RunError("cannot make a pipe: \(String(cString: strerror(errno)))") }
            for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
            defer { close(fds[0]) }
            do {
                child = try Child("/bin/sh", ["-c", Self.script, "traitctl-run-watchdog", folder.path],
                                  environment: ["PATH": "/usr/bin:/bin"], output: .file("/dev/null"), ownGroup: true,
                                  input: fds[0], name: "watchdog")
            } catch {
                close(fds[1])
                throw error
            }
            pipe = fds[1]
            // A watchdog that died must not take traitctl with it on the next write.
            signal(SIGPIPE, SIG_IGN)
        }

        /// `process` leads a group of its own; the watchdog stops that group if traitctl dies.
        func watch(_ process: Child) { send("\(process.pid)\n") }

        /// Everything is stopped: the watchdog exits without doing anything.
        func dismiss() {
            guard pipe >= 0 else { return }
            send("done\n")
            close(pipe)
            pipe = -1
            _ = child.wait()
        }

        private func send(_ line: String) {
            guard pipe >= 0 else { return }
            _ = line.withCString { write(pipe, $0, strlen($0)) }
        }
    }

    // MARK: Details

    /// `dbus-daemon --session` listening in the folder, its address read from its first line of output.
    private func startBus() throws {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw RunError("cannot make a pipe: \(String(cString: strerror(errno)))") }
        defer { close(fds[0]) }
        let command = ["dbus-daemon", "--session", "--nofork", "--nopidfile", "--print-address=1",
                       "--address=unix:dir=\(folder.path)"]
        do {
            bus = try Child("/usr/bin/env", command, environment: environment, output: .descriptor(fds[1]), ownGroup: true,
                        name: "dbus-daemon")
        } catch {
            close(fds[1])
            throw error
        }
        close(fds[1])
        if let bus { watchdog?.watch(bus) }
        var output: [UInt8] = []
        var byte: UInt8 = 0
        while read(fds[0], &byte, 1) == 1, byte != UInt8(ascii: "\n") { output.append(byte) }
        address = String(decoding: output, as: UTF8.self)
        guard address.hasPrefix("unix:") else {
            throw RunError("dbus-daemon did not start (install the dbus-daemon package); it said: \(address)")
        }
    }

    private func log(_ name: String) -> String { folder.appendingPathComponent(name + ".log").path }

    /// Polls `ready` every 20 ms for up to 15 s; fails with the end of the child's log if it exits first.
    /// The bridges the host will register, as "app/adapter": the configuration's `bridges:` with the host's
    /// `--web` and `--app` over them.
    static func bridges(config: String?, hostArguments: [String]) -> Set<String> {
        var bridges = Set((config.flatMap { try? DaemonConfig.load(path: $0) }?.bridges).map {
            $0.web.map { "\($0.app)/web" } + $0.apps.map { "\($0.app)/desktop" }
        } ?? [])
        for (flag, value) in zip(hostArguments, hostArguments.dropFirst()) {
            guard let app = value.split(separator: "=", maxSplits: 1).first else { continue }
            if flag == "--web" { bridges.insert("\(app)/web") }
            if flag == "--app" { bridges.insert("\(app)/desktop") }
        }
        return bridges
    }

    private func waitUntil(_ what: String, _ child: Child, seconds: Double = 15, _ ready: () async throws -> Bool) async throws {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if (try? await ready()) == true { return }
            if let status = child.poll() {
                let text = (try? String(contentsOfFile: log(child.name), encoding: .utf8)) ?? ""
                throw RunError("waiting until \(what): \(child.name) exited with status \(status)\n"
                    + text.split(separator: "\n").suffix(5).joined(separator: "\n"))
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw RunError("waiting until \(what): gave up after \(Int(seconds)) s")
    }

    /// A program beside traitctl (the package's own), else on PATH.
    private func tool(_ name: String) throws -> String {
        guard let path = Self.tool(name) else { throw RunError("\(name) is neither beside traitctl nor on PATH") }
        return path
    }

    /// A program beside traitctl (the package's own), else on PATH; nil when neither has it.
    static func tool(_ name: String) -> String? {
        let beside = Spawn.besideThisExecutable(name)
        if FileManager.default.isExecutableFile(atPath: beside) { return beside }
        for directory in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            let path = "\(directory)/\(name)"
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return nil
    }

    private func note(_ text: String) {
        if verbose { FileHandle.standardError.write(Data("traitctl run: \(text)\n".utf8)) }
    }
}

struct RunError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
