import FoundationEssentials
import Spawn
import Synchronization
import Vocabulary

#if canImport(Glibc)
    import Glibc
#endif

/// The display and the accessibility bus the desktop bridge's apps live on, started and owned by the host.
///
/// Why Xvfb (an X server in memory) and no Wayland compositor: any GTK 3/4 or Qt app runs on it unmodified, a
/// window is resized by one request from outside (`ConfigureWindow`, `XConnection`: X11 lets any client do it, where a
/// Wayland compositor decides sizes itself and weston, sway and mutter each need their own protocol or IPC), and
/// it needs neither a GPU nor a window manager. The accessibility bus is a private one (at-spi2-core's
/// `dbus-daemon` with its `accessibility.conf`, and `at-spi2-registryd`), so that the trees the host reads are
/// its apps' alone; apps find it through `AT_SPI_BUS_ADDRESS`. The display's settings (text size, dark, contrast)
/// reach the apps through XSETTINGS, served by `xsettingsd` where it is installed (`ToolkitSettings`).
public final class DesktopSession: Sendable {
    /// The X display (`:N`).
    public let display: String
    /// The accessibility bus's address.
    public let accessibilityAddress: String
    /// Xvfb, the accessibility bus and its registry, in the order they started.
    public let processes: [pid_t]
    /// The apps' configuration folder (`XDG_CONFIG_HOME`): the toolkits' settings for the bridge, and a fresh
    /// start for every app (none of the user's own settings), removed with the session.
    let configuration: String
    /// `xsettingsd`, serving `ToolkitSettings` on the display; nil where it is not installed (the apps then keep
    /// their toolkit's defaults: the host logs it, `traitctl doctor` says so).
    let settingsDaemon: pid_t?
    /// What `xsettingsd` serves now.
    private let settings: Mutex<ToolkitSettings>
    /// Whether the host serves `org.a11y.Bus` on the apps' session bus (`AdapterHost.serveAccessibilityBus`):
    /// then apps are not told the address in `AT_SPI_BUS_ADDRESS`, which Qt 6 takes too early to use.
    private let accessibilityBusServed = Atomic<Bool>(false)

    /// The apps find the accessibility bus on their session bus, as on a desktop (call before any app starts).
    public func servesAccessibilityBus() { accessibilityBusServed.store(true, ordering: .relaxed) }

    /// Where xsettingsd is looked for.
    static let settingsDaemonPath = "/usr/bin/xsettingsd"

    /// GTK 3's and 4's settings on the session: animations off. A window resized across a breakpoint (an
    /// `AdwLeaflet` folding) otherwise animates for a quarter of a second, which the bridge waits out reading
    /// the tree again; a test harness wants the end of the layout, not its motion (the page of the web bridge
    /// is not animated either: it is read after its next rendering).
    static let toolkitSettings = "[Settings]\ngtk-enable-animations=0\n"

    /// The largest window in device pixels: a 13-inch iPad in landscape at 2x is 2732 x 2048.
    static let screenSide = 2800
    static let screen = "\(screenSide)x\(screenSide)x24"
    /// Device pixels a point (GDK_SCALE, QT_SCALE_FACTOR): a point is one of the toolkit's logical pixels.
    static let scale = 2

    public init(log: String) throws {
        var started: [pid_t] = []
        configuration = FileManager.default.temporaryDirectory.appendingPathComponent("traitd-desktop-\(getpid())").path
        for toolkit in ["gtk-3.0", "gtk-4.0"] {
            try FileManager.default.createDirectory(atPath: "\(configuration)/\(toolkit)", withIntermediateDirectories: true)
            try Data(Self.toolkitSettings.utf8).write(to: URL(fileURLWithPath: "\(configuration)/\(toolkit)/settings.ini"))
        }
        do {
            let (xvfb, number) = try Self.startReporting(
                "Xvfb", ["-displayfd", "3", "-screen", "0", Self.screen, "-nolisten", "tcp", "-noreset"], log: log)
            started.append(xvfb)
            display = ":" + number
            let (bus, address) = try Self.startReporting(
                "dbus-daemon", ["--config-file=/usr/share/defaults/at-spi2/accessibility.conf", "--nofork",
                                "--print-address=3", "--address=unix:tmpdir=/tmp"], log: log)
            started.append(bus)
            accessibilityAddress = address
            // Where the accessibility bus is, on the display as at-spi's launcher puts it: Qt 5 apps read it only
            // there (the root window's AT_SPI_BUS), GTK from AT_SPI_BUS_ADDRESS; without it KCalc never appeared.
            let x = try XConnection(display: display)
            try x.setRootProperty("AT_SPI_BUS", to: address)
            // The pointer in the screen's far corner, where no window reaches (the largest is 2732 px): left where
            // Xvfb puts it, in the middle, it came to rest over a widget of an app grown past it and opened its
            // tooltip, whose label GTK 4 reports in the window's tree at its own coordinates.
            try x.warpPointer(x: Int16(Self.screenSide - 1), y: Int16(Self.screenSide - 1))
            var environment = ProcessInfo.processInfo.environment
            environment["AT_SPI_BUS_ADDRESS"] = address
            started.append(try Spawn.start("/usr/libexec/at-spi2-registryd", [], environment: environment) { actions in
                Spawn.logging(to: log, &actions)
            })
            // The settings, served before any app starts, so that an app reads them as it starts.
            let initial = ToolkitSettings(DisplayTraits())
            try Data(initial.configuration.utf8).write(to: URL(fileURLWithPath: "\(configuration)/xsettingsd.conf"))
            if FileManager.default.isExecutableFile(atPath: Self.settingsDaemonPath) {
                environment["DISPLAY"] = display
                let daemon = try Spawn.start(Self.settingsDaemonPath, ["-c", "\(configuration)/xsettingsd.conf"], environment: environment) { actions in
                    Spawn.logging(to: log, &actions)
                }
                started.append(daemon)
                settingsDaemon = daemon
            } else {
                settingsDaemon = nil
            }
            settings = Mutex(initial)
        } catch {
            for pid in started { kill(pid, SIGTERM) }
            throw error
        }
        processes = started
    }

    /// The environment of an app on this session: the X display, the accessibility bus, GTK on X11 at 2x with
    /// its animations off (`configuration`), and the accessibility of Qt turned on; the session bus is the
    /// caller's (traitd's, for its portal). A Qt app given a platform theme (`QtTheme`) has it named, and a
    /// configuration folder of its own, where the theme's file is the app's alone.
    func environment(session: String?, qt: (theme: QtTheme, configuration: String)? = nil) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["DISPLAY"] = display
        environment["AT_SPI_BUS_ADDRESS"] = accessibilityBusServed.load(ordering: .relaxed) ? nil : accessibilityAddress
        environment["GDK_BACKEND"] = "x11"
        environment["GDK_SCALE"] = String(Self.scale)
        environment["GSK_RENDERER"] = "cairo"  // no GPU under Xvfb
        environment["QT_QPA_PLATFORM"] = "xcb"
        environment["QT_SCALE_FACTOR"] = String(Self.scale)
        // Qt 5 takes XSETTINGS' Xft/DPI (GTK's, twice 96 at the session's scale) as its logical DPI, and a KDE
        // app scales its whole window by it on top of QT_SCALE_FACTOR: KCalc's window came out 421 x 442 in a
        // 320 x 768 slot. Its DPI stays 96; its text follows the text size through its platform theme's fonts.
        environment["QT_FONT_DPI"] = "96"
        environment["QT_LINUX_ACCESSIBILITY_ALWAYS_ON"] = "1"
        environment["QT_ACCESSIBILITY"] = "1"
        environment["NO_AT_BRIDGE"] = nil
        environment["WAYLAND_DISPLAY"] = nil
        environment["XDG_CONFIG_HOME"] = qt?.configuration ?? configuration
        environment["QT_QPA_PLATFORMTHEME"] = qt?.theme.name
        if let session { environment["DBUS_SESSION_BUS_ADDRESS"] = session }
        return environment
    }

    /// Publishes `wanted` to the session's apps (xsettingsd re-reads its file on SIGHUP and sets the property
    /// the apps watch), where it changes them. Without xsettingsd, nothing changes.
    func apply(_ wanted: ToolkitSettings) {
        guard let settingsDaemon else { return }
        settings.withLock { current in
            guard current != wanted else { return }
            let path = "\(configuration)/xsettingsd.conf"
            guard (try? Data(wanted.configuration.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)) != nil else { return }
            current = wanted
            kill(settingsDaemon, SIGHUP)
        }
    }

    public func close() {
        for pid in processes.reversed() {
            kill(pid, SIGTERM)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
        }
        try? FileManager.default.removeItem(atPath: configuration)
    }

    /// Starts a server that writes one line (its display number, its address) to descriptor 3; returns its pid
    /// and that line, once written.
    private static func startReporting(_ path: String, _ arguments: [String], log: String) throws -> (pid_t, String) {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw DevToolsError("cannot make a pipe: \(String(cString: strerror(errno)))") }
        let writer = fcntl(fds[1], F_DUPFD_CLOEXEC, 10)
        Glibc.close(fds[1])
        let pid: pid_t
        do {
            pid = try Spawn.start(path, arguments, environment: ProcessInfo.processInfo.environment, keeping: 4) { actions in
                Spawn.logging(to: log, &actions)
                posix_spawn_file_actions_adddup2(&actions, writer, 3)
            }
        } catch {
            Glibc.close(fds[0])
            Glibc.close(writer)
            throw error
        }
        Glibc.close(writer)
        defer { Glibc.close(fds[0]) }
        var line: [UInt8] = []
        var byte: UInt8 = 0
        while read(fds[0], &byte, 1) == 1, byte != UInt8(ascii: "\n") { line.append(byte) }
        guard !line.isEmpty else {
            kill(pid, SIGTERM)
            throw DevToolsError("\(path) did not start (its output is in \(log))")
        }
        return (pid, String(decoding: line, as: UTF8.self))
    }
}
