import ArgumentParser
import DBus
import Foundation
import TraitClient

/// `traitctl doctor [--app COMMAND] [--web URL]`: what a run needs, each part checked, with what to do about
/// each that fails: the session bus, traitd on it and its version, the portal, the binaries, the desktop
/// bridge's display and accessibility bus, Chromium and its version, fonts, the Python package; with `--app` or
/// `--web`, the app or page brought up for real on a private bus, through the bridge, as a run would.
struct Doctor: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check what traitd needs on this machine, and say what to do for each part that fails.",
        discussion: """
            One line per check: ok, warn (works, with less) or FAIL with its fix. Exit 0 when nothing failed, 1 \
            otherwise. --app COMMAND starts the app on the adapter host's own display and checks that its widgets \
            appear on the accessibility bus; --web URL loads the page in headless Chromium; both on a private bus \
            with a daemon of their own (traitctl run's), whatever the session bus holds.
            """)

    @OptionGroup var options: BusOptions
    @Option(help: ArgumentHelp("An app to bring up through the desktop bridge (a command, as traitd-adapters --app takes it).",
                               valueName: "command"))
    var app: String?
    @Option(help: ArgumentHelp("A page to load through the web bridge (file:// or http://localhost).", valueName: "url"))
    var web: String?
    @Option(help: ArgumentHelp("The browser the web bridge runs (traitd-adapters --chromium).", valueName: "path"))
    var chromium = "/usr/lib/chromium/chromium"

    /// One check's outcome.
    enum Verdict: String { case ok, warn, fail = "FAIL" }

    func run() async throws {
        var failed = false
        func say(_ verdict: Verdict, _ what: String, _ detail: String) {
            if verdict == .fail { failed = true }
            print("\(verdict.rawValue.padding(toLength: 4, withPad: " ", startingAt: 0)) \(what): \(detail)")
        }
        await checkBus(say)
        for tool in ["traitd", "traitd-adapters"] {
            if let path = PrivateTraitd.tool(tool) {
                say(.ok, tool, path)
            } else {
                say(.fail, tool, "not beside traitctl nor on PATH: make release, or install the Debian package or the wheel")
            }
        }
        checkDesktop(say)
        await checkBrowser(say)
        if let fonts = await Self.output(of: "/usr/bin/fc-list", []), fonts.status == 0, !fonts.text.isEmpty {
            say(.ok, "fonts", "\(fonts.text.split(separator: "\n").count) font files (fontconfig)")
        } else {
            say(.fail, "fonts", "fontconfig lists no font: pages and apps draw no text (apt install fonts-dejavu-core fontconfig)")
        }
        await checkPython(say)
        if app != nil || web != nil { await checkBridges(say) }
        if failed { throw ExitCode(1) }
    }

    // MARK: The checks

    private func checkBus(_ say: (Verdict, String, String) -> Void) async {
        let client: TraitClient
        do {
            client = try TraitClient(bus: Connection.Bus(argument: options.bus))
        } catch {
            let fix = options.bus == "session" && ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"] == nil
                ? "no session bus (DBUS_SESSION_BUS_ADDRESS is not set): after make run, source .build/session-bus.env; or run traitctl run -- COMMAND"
                : "\(error)"
            return say(.fail, "bus", fix)
        }
        defer { client.close() }
        say(.ok, "bus", options.bus)
        guard let owner = try? await client.connection.nameOwner(TraitClient.busName) else {
            return say(.fail, "traitd", "\(TraitClient.busName) is not on the \(options.bus) bus: start traitd (make run, or traitd --bus ...)")
        }
        // The running daemon's own binary tells its version (`/proc/PID/exe --version`).
        var version = "version unknown"
        if let reply = try? await client.connection.call(
            destination: Connection.busName, path: "/org/freedesktop/DBus", interface: Connection.busName,
            member: "GetConnectionUnixProcessID", [.string(owner)], timeout: 5),
           case .uint32(let pid)? = reply.first,
           let exe = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/exe"),
           let answer = await Self.output(of: exe, ["--version"]), answer.status == 0 {
            version = answer.text.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        say(.ok, "traitd", "on the bus as \(owner), \(version)")
        let portal = try? await client.connection.nameOwner("org.freedesktop.portal.Desktop")
        if portal != nil {
            say(.ok, "portal", "org.freedesktop.portal.Desktop answers: libadwaita apps follow dark mode and contrast")
        } else {
            say(.warn, "portal", "no settings portal on this bus: libadwaita apps under test will not follow dark mode and contrast (traitd --portal)")
        }
    }

    private func checkDesktop(_ say: (Verdict, String, String) -> Void) {
        let parts: [(String, String, String)] = [
            ("Xvfb", "/usr/bin/Xvfb", "apt install xvfb"),
            ("accessibility bus", "/usr/share/defaults/at-spi2/accessibility.conf", "apt install at-spi2-core"),
            ("accessibility registry", "/usr/libexec/at-spi2-registryd", "apt install at-spi2-core"),
            ("xdotool", "/usr/bin/xdotool", "apt install xdotool"),
        ]
        for (what, path, fix) in parts {
            if FileManager.default.fileExists(atPath: path) {
                say(.ok, what, path)
            } else {
                say(.fail, what, "no \(path): desktop apps cannot be bridged (\(fix))")
            }
        }
        // Optional: without it apps are bridged, but keep their own text size and theme.
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/xsettingsd") {
            say(.ok, "xsettingsd", "/usr/bin/xsettingsd: GTK apps follow the text size, dark mode and contrast")
        } else {
            say(.warn, "xsettingsd", "no /usr/bin/xsettingsd: desktop apps will not follow the text size (apt install xsettingsd)")
        }
        // GTK 3 has no dark Adwaita of its own; Qt apps hear the settings through a platform theme.
        if !FileManager.default.fileExists(atPath: "/usr/share/themes/Adwaita-dark/gtk-3.0") {
            say(.warn, "GTK 3 dark theme", "no Adwaita-dark for GTK 3: GTK 3 apps stay light in dark mode (apt install gnome-themes-extra)")
        }
        for (theme, qt) in [("qt5ct", 5), ("qt6ct", 6)] where !FileManager.default.fileExists(atPath: "/usr/share/\(theme)") {
            say(.warn, theme, "no \(theme): Qt \(qt) apps will not follow dark mode nor the text size (apt install \(theme))")
        }
    }

    private func checkBrowser(_ say: (Verdict, String, String) -> Void) async {
        guard FileManager.default.isExecutableFile(atPath: chromium) else {
            return say(.fail, "chromium", "no browser at \(chromium): web pages cannot be bridged (apt install chromium, or --chromium PATH)")
        }
        let answer = await Self.output(of: chromium, ["--version"])
        let version = answer.map { $0.text.trimmingCharacters(in: .whitespacesAndNewlines) } ?? ""
        say(.ok, "chromium", version.isEmpty ? chromium : "\(chromium), \(version)")
    }

    private func checkPython(_ say: (Verdict, String, String) -> Void) async {
        let python = ProcessInfo.processInfo.environment["TRAITD_PYTHON"]
            ?? (FileManager.default.isExecutableFile(atPath: "/usr/bin/python3") ? "/usr/bin/python3" : "python3")
        var environment = ProcessInfo.processInfo.environment
        environment["PYTHONPATH"] = Explore.pythonPath()
        let probe = "import traitd, importlib.util as u; print(traitd.__file__); "
            + "print(' '.join(m for m in ('hypothesis', 'dbus_fast') if u.find_spec(m) is None))"
        guard let answer = await Self.output(of: "/usr/bin/env", [python, "-c", probe], environment: environment), answer.status == 0 else {
            return say(.fail, "python", "\(python) cannot import the traitd package: pip install the wheel (make wheel), or PYTHONPATH=clients/python")
        }
        let lines = answer.text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        say(.ok, "python", "\(python): traitd from \(lines.first ?? "?")")
        if let missing = lines.dropFirst().first, !missing.isEmpty {
            say(.warn, "explore", "\(python) lacks \(missing): traitctl explore needs them (apt install python3-hypothesis python3-dbus-fast)")
        }
    }

    /// The app and the page through the bridges, on a private bus: ok when their first layout is in, FAIL with the
    /// bridge's own reason otherwise.
    private func checkBridges(_ say: (Verdict, String, String) -> Void) async {
        let daemon = PrivateTraitd(verbose: false)
        defer { daemon.stop() }
        let config = FileManager.default.temporaryDirectory.appendingPathComponent("traitctl-doctor-\(getpid()).yaml")
        defer { try? FileManager.default.removeItem(at: config) }
        var bridges: [(app: String, adapter: String, what: String)] = []
        var host = ["--only-layouts", "--chromium", chromium]
        if let app {
            host += ["--app", "notes=\(app)"]
            bridges.append(("notes", "desktop", "app \(app)"))
        }
        if let web {
            host += ["--web", "mail=\(web)"]
            bridges.append(("mail", "web", "page \(web)"))
        }
        do {
            try "transitions: { deadline-ms: 60000 }\n".write(to: config, atomically: true, encoding: .utf8)
            try await daemon.start(config: config.path, adapters: true, device: nil, hostArguments: host)
            let client = try TraitClient(bus: .address(daemon.address))
            defer { client.close() }
            // Each bridge reports its window as it is once its program is ready (or failed to be): a minute at most.
            var state = try await client.state()
            let giveUp = ContinuousClock.now + .seconds(60)
            while ContinuousClock.now < giveUp, !bridges.allSatisfy({ bridge in
                state.windows.first { $0.app == bridge.app }?.reportedAdapters.contains(bridge.adapter) == true
            }) {
                try await Task.sleep(for: .milliseconds(100))
                state = try await client.state()
            }
            for bridge in bridges {
                let window = state.windows.first { $0.app == bridge.app }
                if let reason = window?.failures[bridge.adapter] {
                    say(.fail, bridge.what, reason)
                } else if let frames = window?.layouts[bridge.adapter] {
                    say(.ok, bridge.what, "\(frames.count) elements read through the \(bridge.adapter) bridge")
                } else {
                    say(.fail, bridge.what, "registered, but no layout came; see the host's log with traitctl run --verbose")
                }
            }
        } catch {
            for bridge in bridges { say(.fail, bridge.what, "\(Failure(error).description)") }
        }
    }

    // MARK: Helpers

    /// What `path` prints, run to its end or killed after `limit` seconds (nil then, or when it cannot start);
    /// waited for with a continuation, never blocking a thread of the pool.
    static func output(of path: String, _ arguments: [String], environment: [String: String]? = nil, limit: Double = 10)
        async -> (status: Int32, text: String)? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        if let environment { process.environment = environment }
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        let collected = Collected()
        pipe.fileHandleForReading.readabilityHandler = { handle in collected.append(handle.availableData) }
        return await withCheckedContinuation { continuation in
            process.terminationHandler = { process in
                pipe.fileHandleForReading.readabilityHandler = nil
                collected.append(pipe.fileHandleForReading.readDataToEndOfFile())
                let timedOut = process.terminationReason == .uncaughtSignal && collected.killed
                continuation.resume(returning: timedOut ? nil : (process.terminationStatus, collected.text))
            }
            do {
                try process.run()
            } catch {
                pipe.fileHandleForReading.readabilityHandler = nil
                return continuation.resume(returning: nil)
            }
            DispatchQueue.global().asyncAfter(deadline: .now() + limit) {
                if process.isRunning {
                    collected.killed = true
                    process.terminate()
                }
            }
        }
    }

    /// A child's output as it comes, and whether its deadline ended it.
    private final class Collected: @unchecked Sendable {
        private let lock = NSLock()
        private var data = Data()
        private var deadlinePassed = false
        var killed: Bool {
            get { lock.withLock { deadlinePassed } }
            set { lock.withLock { deadlinePassed = newValue } }
        }
        func append(_ more: Data) { lock.withLock { data.append(more) } }
        var text: String { lock.withLock { String(decoding: data, as: UTF8.self) } }
    }
}
