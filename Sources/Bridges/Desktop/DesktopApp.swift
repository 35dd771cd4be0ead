import Adapters
import DBus
import FoundationEssentials
import Pixels
import Spawn
import TraitProtocol
import Vocabulary

#if canImport(Glibc)
    import Glibc
#endif

/// `traitd-adapters --app APP=COMMAND`: an unmodified desktop app (GTK, Qt) as app APP's adapter `desktop`.
///
/// The host starts COMMAND on its own display (`DesktopSession`: Xvfb and a private accessibility bus), with the
/// session bus traitd is on (so that traitd's portal, `traitd --portal`, gives a libadwaita app its dark mode and
/// contrast); each layout first publishes the window's display settings as XSETTINGS (`ToolkitSettings`: the
/// text size reaches GTK apps this way) and, after a change of text size, waits for the app to lay out again. For each transition the app's top-level window is resized to the simulated window's
/// size (points times 2 in device pixels: GDK_SCALE and QT_SCALE_FACTOR are 2, so a point is one of the
/// toolkit's logical pixels whatever the device's scale, which changes how sharp the app is drawn, not where
/// its widgets go); the bridge waits until the app's window reports that size on the accessibility bus (or
/// stops changing: an app with a larger minimum size keeps it), then reads the tree until a read is of one layout
/// (no `BoundsChanged` from the app came during it; from an app that sends none, its frames read again agree:
/// a settled tree, never a fixed sleep), and reports the top-level as `window` and every visible
/// widget with an area as `ROLE:NAME` (`button:Undo`; spaces in a role become `-`, characters of a name that
/// are not A-Z a-z 0-9 _ - . become `_`; `.2`, `.3` where the same name comes again, in tree order), in points
/// in window coordinates, with `kinds` from the roles. An app that exits reports `failed`, naming its status;
/// one that hangs misses the transition at its deadline (each of the bridge's calls gives up after 5 s).
public actor DesktopApp: BridgeAdapter {
    public nonisolated let name = "desktop"
    public nonisolated let app: String
    nonisolated let command: [String]
    private let session: DesktopSession
    private let sessionBus: String?
    private let reader: AccessibilityReader
    private let log: String
    /// Where the window's screenshot goes before each report (`--screenshots`), or nil.
    private let screenshots: String?
    /// Whether each report carries the window's accessibility snapshot (`--aria-snapshots`).
    private let ariaSnapshots: Bool
    private var pid: pid_t?
    private var exitStatus: Int32?
    /// The app's top-level X window (xdotool's id) and accessible window.
    private var window: (x: String, bus: String, path: String)?
    /// Device pixels the X window has beyond the app's content, each way (GTK 4 draws client-side decorations
    /// with a shadow margin around the window the accessibility bus reports): measured once, while the app is idle.
    private var margin = (width: 0, height: 0)
    /// The host's display, to resize and raise the window with a request instead of a process; nil when it could
    /// not be had (then xdotool does it, as before).
    private var display: XConnection?
    /// How the window is resized, for the host's log: the X connection, or xdotool and why.
    private(set) var resizer = "xdotool"
    /// The text scale the app last laid out with (nil before its first layout), and the frames of that tree:
    /// after a change of text size the bridge waits for the app to lay out again (`awaitRelayout`).
    private var laidOutTextScale: Double?
    private var lastFrames: [Rect]?
    /// The platform theme a Qt app is given to follow the display's settings (`QtTheme`), nil for other apps;
    /// and the settings its file holds now.
    nonisolated let qtTheme: QtTheme?
    private var qtSettings: ToolkitSettings?
    /// How long a Qt app may take to read its theme's new settings (qt5ct waits 3 s after its folder changes).
    static let qtSettingsLimit: Duration = .seconds(10)

    /// The most lines a report's accessibility snapshot has (about 16 KiB: a report is at most 64 KiB).
    static let ariaLines = 400

    /// How long an app may take to show its window.
    static let windowLimit: Duration = .seconds(30)

    /// How much larger the app's device pixels are than points (the session's GDK_SCALE).
    static let scale = Double(DesktopSession.scale)

    public init(app: String, command: [String], session: DesktopSession, sessionBus: String?, accessibility: Connection,
         walkTrees: Bool = false, log: String, screenshots: String? = nil, ariaSnapshots: Bool = false) {
        self.app = app
        self.screenshots = screenshots
        self.ariaSnapshots = ariaSnapshots
        self.command = command
        self.session = session
        self.sessionBus = sessionBus
        self.reader = AccessibilityReader(connection: accessibility, walkOnly: walkTrees)
        self.log = log
        self.qtTheme = command.first.flatMap { QtTheme.forCommand($0) }
    }

    /// Starts the app, and waits for its window on the display and on the accessibility bus.
    public func prepare() async throws -> String {
        try await start()
        let settings = qtTheme.map { ", settings through \($0.name)" } ?? ""
        return "\(command.joined(separator: " ")) (pid \(pid ?? 0)), resized with \(resizer)\(settings)"
    }

    private func start() async throws {
        var qt: (theme: QtTheme, configuration: String)?
        if let qtTheme {
            try writeQtSettings(ToolkitSettings(DisplayTraits()), theme: qtTheme)
            qt = (qtTheme, qtConfiguration)
        }
        let started = try Spawn.start(command[0], Array(command.dropFirst()), environment: session.environment(session: sessionBus, qt: qt)) {
            [log] actions in
            Spawn.logging(to: log, &actions)
        }
        pid = started
        do {
            display = try XConnection(display: session.display)
            resizer = "ConfigureWindow on \(session.display)"
        } catch {
            resizer = "xdotool (no X connection: \(error))"
        }
        // A visible window of the process, looked for until it shows, the app exits (`true`, a command that
        // fails at once, is told at once: xdotool's --sync would wait out its 30 s for a process that is gone)
        // or `windowLimit` passes.
        var x: String?
        let giveUp = ContinuousClock.now + Self.windowLimit
        while x == nil {
            if isGone { throw DevToolsError("\(command[0]) exited with status \(exitStatus ?? -1) before showing a window (its output is in \(log))") }
            guard ContinuousClock.now < giveUp else {
                throw DevToolsError("\(command[0]) showed no window in \(Self.windowLimit) (its output is in \(log))")
            }
            let search = try await ChildRun.run("xdotool", ["search", "--onlyvisible", "--pid", String(started)],
                                                environment: session.environment(session: sessionBus))
            x = search.status == 0 ? search.output.split(separator: "\n").first.map(String.init) : nil
            if x == nil { try await Task.sleep(for: .milliseconds(50)) }  // the app maps its window
        }
        guard let x else { return }
        for _ in 0..<1500 {
            if let windows = try await reader.windows(ofProcess: started), let first = windows.first {
                window = (x, first.bus, first.path)
                await reader.learnToolkit(ofAppAt: first.bus)
                try await reader.followBounds(of: first.bus)
                margin = try await measureMargin(x: x, bus: first.bus, path: first.path)
                return
            }
            if isGone { break }
            try await Task.sleep(for: .milliseconds(20))  // the app registers with the accessibility registry
        }
        throw DevToolsError("\(command[0]) did not appear on the accessibility bus (its output is in \(log))")
    }

    /// Ends the app and reaps it: SIGTERM, then SIGKILL if it is still there after 5 s.
    public func stop() async {
        guard let pid, !isGone else { return }
        kill(pid, SIGTERM)
        for _ in 0..<500 where !isGone { try? await Task.sleep(for: .milliseconds(10)) }
        if !isGone {
            kill(pid, SIGKILL)
            var raw: Int32 = 0
            waitpid(pid, &raw, 0)
        }
    }

    private var isGone: Bool {
        guard let pid else { return true }
        if exitStatus != nil { return true }
        var raw: Int32 = 0
        if waitpid(pid, &raw, WNOHANG) == pid { exitStatus = Spawn.exitStatus(raw) }
        return exitStatus != nil
    }

    public func layout(_ context: WindowContext) async -> AdapterResult {
        if isGone { return .failed("desktop: \(command[0]) exited with status \(exitStatus ?? -1)") }
        guard let window else { return .failed("desktop: \(command[0]) has no window yet") }
        do {
            // The display's settings reach the app through XSETTINGS (the session's, shared by its apps).
            let settings = ToolkitSettings(context.traits.display)
            let boundsBefore = reader.boundsChanges.load(ordering: .relaxed)
            session.apply(settings)
            if let qtTheme, settings != qtSettings { try await applyQtSettings(settings, theme: qtTheme) }
            let textChanged = laidOutTextScale.map { $0 != settings.textScale } ?? false
            try await resize(window, to: Size(width: context.width, height: context.height))
            if textChanged, (session.settingsDaemon != nil && reader.toolkit.followsSettings) || qtTheme != nil {
                try await awaitRelayout(window, since: boundsBefore)
            }
            guard let read = try await readSettled(window, textChanged: textChanged) else { return .failed("desktop: \(command[0])'s window is not visible") }
            laidOutTextScale = settings.textScale
            lastFrames = read.frames
            let tree = reader.inWindowCoordinates(read)
            let elements = Self.elements(of: tree)
            let (frames, kinds, scrolledIn) = (elements.frames, elements.kinds, elements.scrolledIn)
            var extras: [String: Extra] = [:]
            var lowContrast: [String: LowContrast] = [:]
            if ariaSnapshots {
                extras[Layout1.Window.Extras.ariaSnapshot] = .string(AriaSnapshot.yaml(DesktopAria.nodes(of: Self.drawn(tree)),
                                                                                       maximumLines: Self.ariaLines))
            }
            if let screenshots {
                let shot = try await screenshot(window.x, size: tree.frame, into: screenshots)
                extras[Layout1.Window.Extras.screenshot] = .string(shot.path)
                lowContrast = Self.lowContrast(elements, in: shot.picture)
            }
            // An app whose window stays larger than the one it was given (its minimum size) is judged for that,
            // once (`minimum-size`), not for each widget it carries past the edge.
            let drawn = tree.frame.size
            let overflow = drawn.width > context.width + 0.5 || drawn.height > context.height + 0.5
                ? Overflow.minimumSize(Size(width: max(drawn.width, context.width), height: max(drawn.height, context.height))) : nil
            // GTK 4 gives content boxes: its controls are drawn larger than reported, by their padding and border.
            let contentBoxes = reader.toolkit.contentBoxes ? Set(kinds.filter { $0.value == .control }.keys) : []
            return .laidOut(frames: frames, extras: extras, kinds: kinds, scrolledIn: scrolledIn, overflow: overflow,
                            contentBoxes: contentBoxes, lowContrast: lowContrast)
        } catch {
            // A call that failed because the app died can come before its exit is visible: give the exit a second.
            for _ in 0..<100 where !isGone { try? await Task.sleep(for: .milliseconds(10)) }
            if isGone { return .failed("desktop: \(command[0]) exited with status \(exitStatus ?? -1)") }
            return .failed("desktop: \(command[0]): \(error)")
        }
    }

    /// The window's tree once the app has laid it out: no `BoundsChanged` came during the read; from an app that
    /// sends none, the tree's frames read again agree with the tree. Else the app is still laying out, and the
    /// tree is read anew. A new text size is laid out in passes (the fonts, then the window the app asks to grow
    /// to, then its widgets at that size), with quiet moments between them: then the same tree twice running, as
    /// Playwright takes two equal screenshots, at most 20 times.
    private func readSettled(_ window: (x: String, bus: String, path: String), textChanged: Bool) async throws -> AccessibleNode? {
        var settled: AccessibleNode?
        if reader.reportsBounds {
            settled = try await reader.settledTree(bus: window.bus, path: window.path)
            if textChanged {
                for _ in 0..<20 {
                    let again = try await reader.settledTree(bus: window.bus, path: window.path)
                    if again?.frames == settled?.frames { break }
                    settled = again
                }
            }
        } else {
            settled = try await reader.tree(bus: window.bus, path: window.path)
            for _ in 0..<10 {
                guard let read = settled, try await reader.frames(of: read) != read.frames.map(Optional.some) else { break }
                settled = try await reader.tree(bus: window.bus, path: window.path)
            }
        }
        return settled
    }

    /// The Qt app's own configuration folder (`XDG_CONFIG_HOME`): its theme's file is its alone.
    private nonisolated var qtConfiguration: String { "\(session.configuration)/apps/\(app)" }

    /// Writes `settings` as `theme`'s file, whole or not at all (`.atomic`: written aside, then renamed over it).
    private func writeQtSettings(_ settings: ToolkitSettings, theme: QtTheme) throws {
        let folder = "\(qtConfiguration)/\(theme.folder)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try Data(settings.qtConfiguration(theme).utf8).write(to: URL(fileURLWithPath: "\(folder)/\(theme.file)"), options: .atomic)
        qtSettings = settings
    }

    /// Gives the Qt app `settings` and waits until it has read them: its theme re-reads its file a while after
    /// the folder changes, on a timer of its own, and the layout read before that would be the old one.
    private func applyQtSettings(_ settings: ToolkitSettings, theme: QtTheme) async throws {
        let watch = try ConfigReadWatch(folder: "\(qtConfiguration)/\(theme.folder)")
        try writeQtSettings(settings, theme: theme)
        guard await watch.opened(theme.file, within: Self.qtSettingsLimit) else {
            throw DevToolsError("\(command[0]) did not read its new settings (\(theme.name)'s \(theme.file)) within \(Self.qtSettingsLimit)")
        }
    }

    /// After a change of text size, waits until the app has laid out again: a `BoundsChanged` since the change
    /// (from an app that sends them), or its tree's frames no longer those of its last report; at most 200 reads
    /// of the window's tree (a few seconds), as an app whose layout the text does not move (no text at all) never
    /// gives either sign. No sleep: each read is a round trip to the app, which answers between its own events.
    private func awaitRelayout(_ window: (x: String, bus: String, path: String), since bounds: Int) async throws {
        guard let lastFrames else { return }
        for _ in 0..<200 {
            if reader.boundsChanges.load(ordering: .relaxed) > bounds { return }
            guard let tree = try await reader.tree(bus: window.bus, path: window.path) else { return }
            if tree.frames != lastFrames { return }
        }
    }

    /// The app's window as it is drawn, written as a PNG: the X window read with `xwd` (raised first, so that
    /// another desktop app's window does not cover it), less its decorations' margin, half each side (GTK 4's
    /// shadow is drawn around the window), at the display's 2 device pixels a point. Returns the file's path.
    private func screenshot(_ x: String, size: Rect, into folder: String) async throws
        -> (path: String, picture: (width: Int, height: Int, pixels: [UInt8])) {
        let environment = session.environment(session: sessionBus)
        if let display, let id = UInt32(x) {
            try display.raise(window: id)
        } else {
            _ = try await ChildRun.run("xdotool", ["windowraise", x], environment: environment)
        }
        // Two captures alike in a row (Playwright's rule for a stable picture): a picture taken mid-repaint is not kept.
        let dump = try await Screenshot.stable { () async throws -> [UInt8] in
            let read = try await ChildRun.run("xwd", ["-id", x, "-silent"], environment: environment)
            guard read.status == 0 else { throw DevToolsError("xwd could not read window \(x) (status \(read.status))") }
            return read.bytes
        }
        let (width, height) = (Int((size.width * Self.scale).rounded()), Int((size.height * Self.scale).rounded()))
        let picture = try Screenshot.rgb(xwd: dump, crop: (margin.width / 2, margin.height / 2, width, height))
        let path = try Screenshot.write(PNG.rgb(width: picture.width, height: picture.height, pixels: picture.pixels),
                                        folder: folder, app: app, adapter: name)
        return (path, picture)
    }

    /// The X window's size less the accessible window's (in device pixels), read while the app is idle: the
    /// accessible window read twice alike around the X window's geometry. Learnt from a resize instead, it was
    /// taken from a size the app was still passing through on a loaded machine, and every later size was off.
    private func measureMargin(x: String, bus: String, path: String) async throws -> (width: Int, height: Int) {
        for _ in 0..<100 {
            let before = try await reader.frame(bus: bus, path: path)
            let geometry = try await ChildRun.run("xdotool", ["getwindowgeometry", "--shell", x],
                                                  environment: session.environment(session: sessionBus))
            let after = try await reader.frame(bus: bus, path: path)
            let values = Dictionary(geometry.output.split(separator: "\n").compactMap { line -> (String, Int)? in
                let parts = line.split(separator: "=", maxSplits: 1)
                return parts.count == 2 ? (String(parts[0]), Int(parts[1]) ?? 0) : nil
            }) { first, _ in first }
            guard let frame = after, frame == before, let width = values["WIDTH"], let height = values["HEIGHT"] else { continue }
            return (width - Int((frame.width * Self.scale).rounded()), height - Int((frame.height * Self.scale).rounded()))
        }
        throw DevToolsError("\(command[0])'s window did not hold still long enough to measure")
    }

    /// Resizes the app's X window to `target` (with its decorations' margin) and waits until its accessible window
    /// reports that size, or stops short of it: an app whose minimum size is larger keeps that size, which then
    /// stays the same for many reads once it has changed. Never a fixed time.
    private func resize(_ window: (x: String, bus: String, path: String), to target: Size) async throws {
        var frame = try await reader.frame(bus: window.bus, path: window.path)
        guard frame?.size != target else { return }
        let width = Int((target.width * Self.scale).rounded()) + margin.width
        let height = Int((target.height * Self.scale).rounded()) + margin.height
        if let display, let id = UInt32(window.x) {
            try display.resize(window: id, width: width, height: height)
        } else {
            _ = try await ChildRun.run("xdotool", ["windowsize", window.x, String(width), String(height)],
                                       environment: session.environment(session: sessionBus))
        }
        let before = frame
        var unchanged = 0
        for _ in 0..<1000 {
            let now = try await reader.frame(bus: window.bus, path: window.path)
            if now?.size == target || isGone { return }
            unchanged = now != before && now == frame ? unchanged + 1 : 0
            if unchanged >= 50 { return }
            frame = now
        }
    }

    /// The window as `window`, then every visible widget with an area under it, named and given a kind. A widget
    /// that reaches a point or two past the window is drawn to its edge (GTK 4's header bar puts its 1-pt border
    /// outside the window's extents, which no one sees); one that reaches further is reported whole, cut off by
    /// the window as a person sees it (a GTK 3 app's column in a window narrower than its content).
    /// A tab bar scrolls its tabs (its arrows bring a tab it cuts into view), so a tab is reported as scrolled in
    /// its bar (`scrolledIn`) and judged by what the bar shows of it: qt6ct's last tabs, cut by their bar inside
    /// the window, were reported 44 pt past the window's edge.
    static func elements(of window: AccessibleNode) -> Elements {
        let bounds = Rect(x: 0, y: 0, width: window.frame.width, height: window.frame.height)
        var frames = ["window": bounds]
        var kinds: [String: ElementKind] = ["window": .container]
        var scrolledIn: [String: String] = [:]
        var nodes: [String: AccessibleNode] = [:]
        var seen: [String: Int] = [:]
        func visit(_ node: AccessibleNode, named parent: String?, clip: Rect) {
            for child in node.children where isDrawn(child, of: node, in: clip) {
                if frames.count >= 255 { return }
                var reported: String?
                // A label with no text draws nothing (KCalc's empty status label): nothing to report.
                let childKind = kind(of: child)
                let empty = childKind == .text && child.children.isEmpty && child.name.allSatisfy(\.isWhitespace)
                if !empty, let drawn = Self.withinBorder(child.frame, of: bounds) {
                    let base = elementName(child)
                    seen[base, default: 0] += 1
                    let name = seen[base]! == 1 ? base : "\(base.prefix(60)).\(seen[base]!)"
                    frames[name] = drawn
                    kinds[name] = childKind
                    nodes[name] = child
                    if node.role == "page tab list", let parent { scrolledIn[name] = parent }
                    reported = name
                }
                visit(child, named: reported, clip: child.frame.intersection(clip) ?? clip)
            }
        }
        // The tree as read, not `drawn(window)`: a widget's kind follows from all it holds, drawn or not (a bar
        // whose items are hidden is still a container).
        visit(window, named: "window", clip: bounds)
        return Elements(frames: frames, kinds: kinds, scrolledIn: scrolledIn, nodes: nodes)
    }

    /// What a window reports: its elements' frames and kinds, what scrolls in what, and the widget each name is.
    struct Elements {
        var frames: [String: Rect]
        var kinds: [String: ElementKind]
        var scrolledIn: [String: String]
        var nodes: [String: AccessibleNode]
    }

    /// `window` with only the widgets that are drawn: a widget wholly outside what its ancestors leave visible is
    /// not (a list's row scrolled away, a page of a stack slid out), nor one without an area, nor what either holds
    /// (Qt 5 lists a closed combo box's popup rows, SHOWING and 753 pt wide, under a list of size 0: KCharSelect's
    /// took every overlap of its reports), nor a stack's or squeezer's hidden page (`isHiddenPage`). What the
    /// layout reports and what the accessibility snapshot holds.
    static func drawn(_ window: AccessibleNode) -> AccessibleNode {
        func prune(_ node: AccessibleNode, clip: Rect) -> AccessibleNode {
            var pruned = node
            pruned.children = node.children.compactMap { child in
                isDrawn(child, of: node, in: clip) ? prune(child, clip: child.frame.intersection(clip) ?? clip) : nil
            }
            return pruned
        }
        return prune(window, clip: Rect(x: 0, y: 0, width: window.frame.width, height: window.frame.height))
    }

    /// Whether `child` of `parent` is drawn, `clip` being what `parent`'s ancestors and it leave visible (the
    /// rules `drawn` applies).
    static func isDrawn(_ child: AccessibleNode, of parent: AccessibleNode, in clip: Rect) -> Bool {
        child.frame.width > 0 && child.frame.height > 0 && child.frame.intersects(clip) && !isHiddenPage(child, of: parent)
            && !isOverflowedMenuItem(child, of: parent)
    }

    /// A menu bar's item that does not wholly fit the bar: Qt hides it behind the bar's "»" button (the items
    /// that do not fit go to its menu) and leaves its extents where it would be (KCalc's Settings at the largest
    /// text, 160 pt wide from x 168 in a 320-pt bar: nothing drawn there).
    static func isOverflowedMenuItem(_ child: AccessibleNode, of parent: AccessibleNode) -> Bool {
        parent.role == "menu bar" && parent.frame.width > 0 && !parent.frame.contains(child.frame, tolerance: 1)
    }

    /// Text that stands out from its background less than WCAG 1.4.3 asks, measured on the window's pixels
    /// (`TextContrast`: the accessibility bus gives no colours): labels, and buttons that draw their own text (Qt's
    /// push buttons hold no label), not disabled ones (WCAG exempts them): 4.5:1, or 3:1 for large text, whose ink
    /// stands 17 pt or more (the cap height of 24-px text).
    static func lowContrast(_ elements: Elements, in picture: (width: Int, height: Int, pixels: [UInt8])) -> [String: LowContrast] {
        var found: [String: LowContrast] = [:]
        for (name, node) in elements.nodes.sorted(by: { $0.key < $1.key }) {
            guard let frame = elements.frames[name] else { continue }
            // A push button narrower than 24 pt draws an arrow or an icon (qt6ct's tab-scroll arrows), not text.
            let drawsText = elements.kinds[name] == .text || (node.role == "push button" && node.children.isEmpty && frame.width >= 24)
            guard drawsText, !node.name.allSatisfy(\.isWhitespace), node.has(.enabled) || node.has(.sensitive) else { continue }
            let region = (x: Int((frame.x * scale).rounded()), y: Int((frame.y * scale).rounded()),
                          width: Int((frame.width * scale).rounded()), height: Int((frame.height * scale).rounded()))
            guard let measured = TextContrast.measure(rgb: picture.pixels, width: picture.width, height: picture.height, region: region)
            else { continue }
            let required = Double(measured.inkHeight) / scale >= 17 ? 3.0 : 4.5
            if measured.ratio < required { found[name] = LowContrast(ratio: measured.ratio, required: required) }
            if found.count >= 32 { break }
        }
        return found
    }

    /// `frame`, without what it has past `bounds` where that is a border's point or two; nil when nothing of it
    /// lies within.
    static func withinBorder(_ frame: Rect, of bounds: Rect) -> Rect? {
        guard let inside = frame.intersection(bounds) else { return nil }
        let overhang = max(bounds.x - frame.x, bounds.y - frame.y, frame.maxX - bounds.maxX, frame.maxY - bounds.maxY)
        return overhang <= 2 ? inside : frame
    }

    /// A squeezer's or a stack's child that is not the one shown, though the toolkit does not say so: GTK 4 before
    /// 4.10 marks no widget but the window SHOWING, and a hidden child keeps the extents of its last allocation.
    /// Such a child reaches past its parent (GNOME Clocks' view switcher, 509 pt wide in a 69-pt squeezer at a
    /// 320-pt window) while a sibling, the one shown, fills the parent exactly. No box, grid or overlay allocates
    /// a child past itself, so a drawn widget never matches this.
    static func isHiddenPage(_ child: AccessibleNode, of parent: AccessibleNode) -> Bool {
        let p = parent.frame
        guard p.width > 0, p.height > 0 else { return false }
        if isSqueezedOut(child, of: parent) { return true }
        guard !p.contains(child.frame, tolerance: 1) else { return false }
        return parent.children.contains { $0 != child && $0.frame == p }
    }

    /// A squeezer (libadwaita's `AdwSqueezer`, which GTK 4 names after its class) shows the first of its
    /// children that fits it, centred at its natural size, and hides the others, which keep the extents of their
    /// last allocation even where those lie inside it: GNOME Clocks at 1024 pt, back from 507, reported its title
    /// ("Clocks", laid out at 507 and hidden since) over the view switcher's tabs. A child's natural size does not
    /// change with the window, so the first child whose extents fit inside the squeezer is the one that fits now:
    /// it is shown, and every other child is not drawn.
    static func isSqueezedOut(_ child: AccessibleNode, of squeezer: AccessibleNode) -> Bool {
        guard squeezer.role == "widget", squeezer.name == "AdwSqueezer" else { return false }
        let shown = squeezer.children.first { $0.frame.width > 0 && $0.frame.height > 0 && squeezer.frame.contains($0.frame, tolerance: 1) }
        return shown.map { $0 != child } ?? false
    }

    /// `button:Undo`: the role (spaces as `-`) and the accessible name (other characters than A-Z a-z 0-9 _ - .
    /// as `_`), at most 58 characters, leaving room for an index.
    static func elementName(_ node: AccessibleNode) -> String {
        func clean(_ text: String) -> String {
            String(text.map { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" || $0 == ".") ? $0 : "_" })
        }
        let role = clean(node.role.replacing(" ", with: "-"))
        let name = clean(String(node.name.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed()))
        return String((name.isEmpty ? role : role + ":" + name).prefix(58))
    }

    /// What a role is for the layout checks; text a person types into is a control, whatever its role. Two kinds
    /// of widget are drawn over others by design and are `background` (not judged for overlaps or the safe area):
    /// a scroll bar (GTK 3's overlay scroll bars lie over the rows they scroll, and show only while the pointer
    /// moves), and GTK 4's nameless internal pieces, which it names after their class (`AdwGizmo`: a tab's 6-pt
    /// attention dot, drawn only when the tab needs attention).
    static func kind(of node: AccessibleNode) -> ElementKind {
        if node.editable { return .control }
        if node.role == "scroll bar" || (node.role == "widget" && node.children.isEmpty && node.name.hasPrefix("Adw")
                                         && node.name.allSatisfy { $0.isLetter }) {
            return .background
        }
        switch node.role {
        case "button", "push button", "toggle button", "check box", "radio button", "menu item", "check menu item",
             "radio menu item", "combo box", "spin button", "slider", "link", "entry", "password text", "switch":
            return .control
        case "label", "text", "heading", "paragraph", "static", "caption":
            return .text
        case "image", "icon", "canvas", "animation", "drawing area", "video":
            return .content
        default:
            return node.children.isEmpty ? .content : .container
        }
    }
}
