import Bridges
import Adapters
import ArgumentParser
import DBus
import DefaultConfig
import FoundationEssentials
import Glibc
import Logging
import TraitConfig
import TraitModel
import Vocabulary
import UnixSignals

/// `traitd-adapters`: the adapter host. Loads the built-in adapters the configuration turns on and every layout
/// file, registers each for its app with traitd, and reports a layout for every transition of those windows.
@main
struct TraitdAdapters: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "traitd-adapters",
        abstract: "Lay out traitd's windows with the built-in adapters and layout files, and report to the daemon.",
        discussion: """
            Adapters: the built-in ones under `adapters:` in the configuration (the embedded default turns all four \
            on), the layout files of Config/layouts (built in), then *.layout in $XDG_CONFIG_HOME/traitd/layouts \
            (or ~/.config/traitd/layouts), then *.layout in each --layouts directory; a file replaces an earlier one \
            of the same name. A layout file is the adapter named after it (support-panel.layout). A file that \
            cannot be used is logged as FILE:LINE:COLUMN and skipped; the others keep working.
            --web APP=URL puts a web page (file:// or http://localhost) in app APP's window as the adapter web: \
            headless Chromium (Debian's chromium) gets the window's size, scale, orientation, appearance, contrast, \
            text size, direction and safe area for each transition, and every rendered element with an id is \
            reported (docs/adapters.md, "Web pages"). \
            --app APP=COMMAND runs an unmodified desktop app (GTK, Qt) on a display of the host's own (Xvfb) with an \
            accessibility bus of its own, resizes its real window to app APP's window for each transition, and \
            reports its visible widgets as the adapter desktop (docs/adapters.md, "Desktop apps"). The \
            configuration's bridges: section gives pages and programs too (web: and apps:); --web and --app replace \
            its entry for the same app.
            SIGHUP reloads the configuration and the files. SIGTERM or SIGINT exits 0. When traitd restarts, the \
            host registers again as soon as the name reappears.
            """,
        version: "0.1.0")

    @Option(name: .long, help: ArgumentHelp("session, system, or a D-Bus address such as unix:path=/run/bus.",
                                            valueName: "bus"))
    var bus: String?

    @Option(name: .long, help: ArgumentHelp("A YAML file laid over the embedded default (its adapters: section).",
                                            valueName: "file"))
    var config: String?

    @Option(name: .long, help: ArgumentHelp("A directory of *.layout files (repeatable; later ones win).",
                                            valueName: "dir"))
    var layouts: [String] = []

    @Option(name: .long, help: ArgumentHelp("trace, debug, info, notice, warning, error or critical.",
                                            valueName: "level"))
    var logLevel: String = "info"

    @Option(name: .long, help: ArgumentHelp("Wait this long before each report, to play a slow host (tests).",
                                            valueName: "ms"))
    var delayMs: Int = 0

    @Flag(name: .long, help: "Print the adapters this configuration and these files give, with their settings, and exit.")
    var list = false
    // Read once, where the option is parsed (`webPage`, `desktopApp`): a mistake is the option's.
    @Option(name: .long, help: ArgumentHelp("A web page as app APP's adapter web: APP=URL, the URL file:// or http://localhost (repeatable).",
                                            valueName: "app=url"), transform: Self.webPage)
    var web: [BridgeSetup.WebPage] = []
    @Option(name: .long, help: ArgumentHelp("An unmodified desktop app as app APP's adapter desktop: APP=COMMAND, the command split into words as a shell would, without a shell (repeatable).",
                                            valueName: "app=command"), transform: Self.desktopApp)
    var app: [BridgeSetup.DesktopApp] = []
    @Option(name: .long, help: ArgumentHelp("The Chromium binary the web pages run in.", valueName: "path"))
    var chromium: String = DevToolsPipe.defaultBrowser

    @Flag(name: .long, help: "The bridges write each window's pixels as a PNG before each report, named by its extra screenshot (traitctl render and traitd-view draw them); a little slower.")
    var screenshots = false

    @Flag(name: .long, help: "The bridges send each window's accessibility snapshot with each report, as its extra ariaSnapshot (roles, names, states and nesting as Playwright writes aria snapshots; traitctl aria prints it); slower on long pages.")
    var ariaSnapshots = false

    @Flag(name: .long, help: "Desktop apps: read each app's widgets by walking its tree, five calls a widget, not from its cache (org.a11y.atspi.Cache) and a call a widget: slower, for an app whose cache is wrong, or to compare the two.")
    var walkTrees = false

    @Flag(name: .long, help: "Run only the layout files of the --layouts directories: no built-in adapters, no embedded or user layout files (to explore or test those files alone).")
    var onlyLayouts = false

    func validate() throws {
        guard Logger.Level(rawValue: logLevel) != nil else {
            throw ValidationError("unknown log level '\(logLevel)'; expected one of: \(Logger.Level.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        guard (0...60_000).contains(delayMs) else { throw ValidationError("--delay-ms must be from 0 to 60000") }
        var apps: Set<String> = []
        for page in web where !apps.insert(page.app).inserted {
            throw ValidationError("--web \(page.app)=...: one page per app (app '\(page.app)' is given twice)")
        }
        var desktopApps: Set<String> = []
        for desktop in app where !desktopApps.insert(desktop.app).inserted {
            throw ValidationError("--app \(desktop.app)=...: one program per app (app '\(desktop.app)' is given twice)")
        }
        for dir in layouts {
            var info = stat()
            guard stat(dir, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else {
                throw ValidationError("--layouts \(dir): no such directory")
            }
        }
    }

    /// `APP=URL`, checked: a valid app name, and a URL of a local page.
    static func webPage(_ text: String) throws -> BridgeSetup.WebPage {
        guard let equals = text.firstIndex(of: "=") else {
            throw ValidationError("--web takes APP=URL (mail=file:///home/me/page.html); got '\(text)'")
        }
        let app = String(text[..<equals]), url = String(text[text.index(after: equals)...])
        guard AppName.isValid(app) else { throw ValidationError("--web \(text): '\(app)' is not a valid app name: \(AppName.rule)") }
        guard BridgeSetup.isLocalPage(url) else { throw ValidationError("--web \(text): the URL must be \(BridgeSetup.localPageRule)") }
        return BridgeSetup.WebPage(app: app, url: url)
    }

    /// `APP=COMMAND`, checked: a valid app name, and a command of at least one word.
    static func desktopApp(_ text: String) throws -> BridgeSetup.DesktopApp {
        guard let equals = text.firstIndex(of: "=") else {
            throw ValidationError("--app takes APP=COMMAND (notes=gnome-calculator); got '\(text)'")
        }
        let app = String(text[..<equals])
        guard AppName.isValid(app) else { throw ValidationError("--app \(text): '\(app)' is not a valid app name: \(AppName.rule)") }
        let words: [String]
        do {
            words = try ShellWords.split(String(text[text.index(after: equals)...]))
        } catch {
            throw ValidationError("--app \(text): \(error)")
        }
        guard !words.isEmpty else { throw ValidationError("--app \(text): no command after '='") }
        return BridgeSetup.DesktopApp(app: app, command: words)
    }

    func run() async throws {
        let level = Logger.Level(rawValue: logLevel)!
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        let logger = Logger(label: "traitd-adapters")
        let plugins = Plugins(configFile: config, directories: (onlyLayouts ? [] : [DaemonConfig.userLayoutDirectory]) + layouts,
                              onlyLayouts: onlyLayouts)
        let settings: DaemonConfig
        do {
            settings = try plugins.configuration()
        } catch {
            Self.fail("traitd-adapters: \(error)", code: 78)  // EX_CONFIG
        }
        // The configuration's pages and programs, with the command line's in place of theirs for the same apps.
        let setup = settings.bridges.laidOver(by: BridgeSetup(web: web, apps: app))
        if onlyLayouts && layouts.isEmpty && setup.isEmpty {
            Self.fail("traitd-adapters: --only-layouts needs at least one --layouts directory (or a web page or a desktop app: --web, --app, bridges:)", code: 64)
        }
        if list {
            plugins.printList(settings, bridges: setup)
            return
        }
        // Signals are trapped before anything can arrive, so that a SIGHUP right after start is not fatal.
        let signals = await UnixSignalsSequence(trapping: .sighup, .sigterm, .sigint)
        let host: AdapterHost
        var browser: DevToolsPipe?
        var desktop: DesktopSession?
        /// The apps' session bus, where it is the host's own bus too (not with --bus system).
        var desktopSessionBus: String?
        var bridges: [any BridgeAdapter] = []
        // The bridges' pictures, in a folder of this host's that goes with it.
        let pictures = screenshots
            ? FileManager.default.temporaryDirectory.appendingPathComponent("traitd-adapters-screenshots-\(getpid())").path : nil
        if let pictures {
            do {
                try FileManager.default.createDirectory(atPath: pictures, withIntermediateDirectories: true)
            } catch {
                Self.fail("traitd-adapters: cannot make the screenshots' folder \(pictures): \(error)", code: 73)  // EX_CANTCREAT
            }
        }
        defer { if let pictures { try? FileManager.default.removeItem(atPath: pictures) } }
        // The programs' output files go with the host, as its pictures do (97 were left after a day).
        var logs: [String] = []
        func removeLogs() { for log in logs { try? FileManager.default.removeItem(atPath: log) } }
        do {
            if !setup.web.isEmpty {
                let log = FileManager.default.temporaryDirectory.appendingPathComponent("traitd-adapters-chromium-\(getpid()).log").path
                logs.append(log)
                let started = try DevToolsPipe(browser: chromium, log: log)
                browser = started
                logger.info("web pages in \(chromium) (pid \(started.pid)), its output in \(log)")
                bridges = setup.web.map { WebPage(app: $0.app, url: $0.url, browser: started, screenshots: pictures, ariaSnapshots: ariaSnapshots) }
            }
            if !setup.apps.isEmpty {
                let log = FileManager.default.temporaryDirectory.appendingPathComponent("traitd-adapters-desktop-\(getpid()).log").path
                logs.append(log)
                let session = try DesktopSession(log: log)
                desktop = session
                logger.info("""
                    desktop apps on display \(session.display), accessibility bus \(session.accessibilityAddress) \
                    (pids \(session.processes.map(String.init).joined(separator: " "))), their output in \(log)
                    """)
                let accessibility = try Connection(bus: .address(session.accessibilityAddress))
                let sessionBus = bus.flatMap { $0 == "session" || $0 == "system" ? nil : $0 }
                    ?? ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"]
                desktopSessionBus = (bus ?? settings.bus) == "system" ? nil : sessionBus
                bridges += setup.apps.map {
                    DesktopApp(app: $0.app, command: $0.command, session: session, sessionBus: sessionBus,
                               accessibility: accessibility, walkTrees: walkTrees, log: log, screenshots: pictures,
                               ariaSnapshots: ariaSnapshots) as any BridgeAdapter
                }
            }
            host = try AdapterHost(bus: Connection.Bus(argument: bus ?? settings.bus), adapters: plugins.load(settings, logger),
                                   bridges: bridges, delay: .milliseconds(delayMs), logger: logger)
            if let desktop, let sessionBus = desktopSessionBus {
                if await host.serveAccessibilityBus(address: desktop.accessibilityAddress) {
                    desktop.servesAccessibilityBus()
                    logger.info("org.a11y.Bus served on \(sessionBus): apps find the accessibility bus there")
                } else {
                    logger.notice("org.a11y.Bus is held by another process on \(sessionBus): Qt 6 apps will not appear on the accessibility bus")
                }
            }
            try await host.start()
        } catch {
            for bridge in bridges { await bridge.stop() }
            browser?.close()
            desktop?.close()
            removeLogs()
            Self.fail("traitd-adapters: \(error)", code: 1)
        }

        let (lost, lostContinuation) = AsyncStream<Void>.makeStream()
        host.client.connection.onDisconnect { lostContinuation.finish() }
        let exit = await withTaskGroup(of: Int32?.self) { group in
            group.addTask {
                for await _ in lost {}
                return 1
            }
            group.addTask {
                for await signal in signals {
                    if signal == .sighup {
                        logger.notice("SIGHUP: reloading the configuration and the layout files")
                        do {
                            await host.replace(adapters: plugins.load(try plugins.configuration(), logger))
                        } catch {
                            logger.error("the configuration cannot be reloaded, keeping the adapters as they are: \(error)")
                        }
                    } else {
                        return 0
                    }
                }
                return 0
            }
            let first = await group.next() ?? 0
            group.cancelAll()
            return first ?? 0
        }
        host.client.close()
        for bridge in bridges { await bridge.stop() }
        browser?.close()
        desktop?.close()
        removeLogs()
        if exit != 0 { Self.fail("traitd-adapters: the bus closed the connection", code: exit) }
    }

    static func fail(_ message: String, code: Int32) -> Never {
        // Glibc's `stderr` is a mutable global that Swift 6 will not read; file descriptor 2 is the same stream.
        let line = message + "\n"
        _ = line.withCString { write(2, $0, strlen($0)) }
        Glibc.exit(code)
    }
}

/// Where the adapters come from: the configuration's built-in ones and the layout files.
struct Plugins: Sendable {
    let configFile: String?
    let directories: [String]
    /// `--only-layouts`: the directories' files and nothing else.
    var onlyLayouts = false

    /// The configuration, its `adapters:` section checked against the built-in adapters' settings.
    func configuration() throws -> DaemonConfig {
        let schemas = BuiltInAdapter.all.map { kind in
            AdapterSchema(name: kind.name, settings: kind.settings.map { ($0.key, $0.range) })
        }
        return try configFile.map { try DaemonConfig.load(path: $0, adapterSchemas: schemas) }
            ?? .embedded(adapterSchemas: schemas)
    }

    /// The layout sources: the embedded Config/layouts files, then each directory's *.layout in name order.
    func sources() -> [LayoutFileLoader.Source] {
        var sources = onlyLayouts ? [] : DefaultConfig.layouts.map { (path: "<embedded>/" + $0.name, text: Optional($0.text)) }
        for directory in directories {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
            for name in names.sorted() where name.hasSuffix(".layout") {
                let path = directory + "/" + name
                sources.append((path, FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) }))
            }
        }
        return sources
    }

    /// Every adapter: built-in ones first, then the layout files; problems are logged.
    func load(_ settings: DaemonConfig, _ logger: Logger) -> [any LayoutAdapter] {
        let builtIn = settings.adapters.compactMap { setup -> (any LayoutAdapter)? in
            guard setup.enabled, !onlyLayouts else { return nil }
            return BuiltInAdapter.named(setup.name)?.make(app: setup.app, values: setup.values)
        }
        let files = LayoutFileLoader.load(sources())
        for line in files.replaced { logger.info("\(line)") }
        for problem in files.problems { logger.error("skipped a layout file: \(problem)") }
        logger.info("""
            adapters: \((builtIn + files.adapters.map { $0 as any LayoutAdapter }).map { "\($0.name) (\($0.app))" }.joined(separator: ", "))
            """)
        return builtIn + files.adapters
    }

    func printList(_ settings: DaemonConfig, bridges: BridgeSetup) {
        print("Built-in adapters (the configuration's adapters: section):")
        for kind in BuiltInAdapter.all {
            let setup = settings.adapters.first { $0.name == kind.name }
            let state = setup.map { $0.enabled ? "for \($0.app)" : "off (\($0.app))" } ?? "off"
            print("  \(kind.name) \(state): \(kind.summary)")
            for setting in kind.settings {
                let value = setup?.values[setting.key] ?? setting.defaultValue
                print("      \(setting.key) = \(value.compact) (default \(setting.defaultValue.compact)): \(setting.help)")
            }
        }
        print("Layout files (\(directories.joined(separator: ", "))):")
        let files = LayoutFileLoader.load(sources())
        for adapter in files.adapters { print("  \(adapter.name) for \(adapter.app): \(adapter.path)") }
        for line in files.replaced { print("  \(line)") }
        for problem in files.problems { print("  skipped: \(problem)") }
        print("Bridges (the configuration's bridges: section, --web and --app):")
        for page in bridges.web { print("  web for \(page.app): \(page.url)") }
        for program in bridges.apps { print("  desktop for \(program.app): \(program.command.joined(separator: " "))") }
        if bridges.isEmpty { print("  none") }
    }
}
