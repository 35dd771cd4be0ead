import Vocabulary

/// Free-form windows (Stage Manager, iPadOS 26's windowed apps): the windowing mode, and the commands that
/// place, tile, raise and live-resize a window. Every rule a source does not give is in `FreeFormRules`.
extension Simulation {
    // MARK: Commands

    /// Changes the windowing mode in one transition:
    /// - from Split View, every window on screen keeps its frame as a free window (Slide Over in front, then
    ///   the primary, then the secondary); a secondary app waiting off screen goes to the background list;
    /// - back to Split View, the front window becomes the primary and the next one the secondary, in the
    ///   arrangement the display had before (2/3 when it had none with two apps); the others go to the
    ///   background (`WillResignActive`, `DidEnterBackground`); the frames are remembered for the way back;
    /// - between Stage Manager and windowed, the windows stay, down to the mode's limit.
    /// Phones offer Split View only.
    public mutating func setWindowing(_ mode: Windowing) throws(ModelError) -> [Plan] {
        try refuseDuringDrag()
        guard profile.offeredWindowing.contains(mode) else {
            throw .notOffered("\(profile.id) offers only \(profile.offeredWindowing.map(\.rawValue).joined(separator: ", ")) "
                + "windowing; stage-manager and windowed are the iPad's")
        }
        guard mode != state.windowing else { return [] }
        var next = state
        var events: [String: [LifecycleEvent]] = [:]
        if mode.isFreeForm, !state.windowing.isFreeForm {
            enterFreeForm(&next)
        } else if !mode.isFreeForm {
            events = Self.leaveFreeForm(&next, profile: profile, windows: windows)
        }
        next.windowing = mode
        events.merge(keepWithinLimit(&next)) { $1 }
        return moveInOneStage(to: next, reason: .windowing, lifecycle: events)
    }

    /// Opens an app as a free window (at its remembered frame, else `FreeFormRules.defaultFrame`), in front of
    /// the others, or as Picture in Picture over them. Past the mode's limit, the window at the back goes to
    /// the background, as Stage Manager sends the least recent app off the stage.
    mutating func openFreeForm(_ name: String, role: Role) throws(ModelError) -> [Plan] {
        switch role {
        case .window:
            break
        case .pip:
            if let holder = state.app(holding: .pip) {
                throw .roleTaken("app '\(holder.name)' holds the pip role; close it first")
            }
            guard !state.stacking.isEmpty else {
                throw .missingApp("Picture in Picture floats over a window; open one with role 'window' first")
            }
        default:
            throw .notOffered("in \(state.windowing) windowing apps open as 'window' (or 'pip'), not '\(role)'; "
                + "SetWindowing('split-view') for the arrangements")
        }
        var next = state
        var events: [String: [LifecycleEvent]] = [:]
        next.apps.append(.init(name: name, role: role))
        if next.background.contains(name) {
            next.background.removeAll { $0 == name }
            events[name] = [.willEnterForeground, .didBecomeActive]
        }
        if role == .window {
            let screen = geometry.screen
            // A remembered frame is fitted to the screen by `commit` (`fitFrames`).
            next.frames[name] = next.frames[name] ?? profile.freeForm.defaultFrame(screen: screen, onStage: next.stacking.count)
            next.bringToFront(name)
            events.merge(keepWithinLimit(&next)) { $1 }
        }
        return moveInOneStage(to: next, reason: .arrangement, lifecycle: events)
    }

    /// Moves and sizes a free window: at least the minimum size, at most the screen, inside it
    /// (`OutOfRange` otherwise, naming the allowed range). A move alone is a property change; a new size a
    /// transition.
    public mutating func setFrame(_ app: String, _ frame: Rect) throws(ModelError) -> [Plan] {
        try refuseDuringDrag()
        try checkFreeWindow(app)
        if let problem = profile.freeForm.problem(with: frame, screen: screen(of: app)) { throw .outOfRange(problem) }
        // Within the restrictions as far as the screen allows (the rule `fitFrames` holds windows to): a minimum
        // larger than the screen leaves the screen's size, which its own frame once was refused for.
        if let restrictions = state.declarations[app]?.sizeRestrictions,
           Self.held(app, frame, in: state, profile: profile).size != frame.size {
            throw .outOfRange("'\(app)' declared its size restrictions, \(restrictions) (SetSizeRestrictions); "
                + "\(frame.width.compact) x \(frame.height.compact) is outside them")
        }
        var next = state
        next.frames[app] = frame
        return moveInOneStage(to: next, reason: .resize)
    }

    /// Puts a free window in a tile (`FreeFormRules.tile`: halves and quarters with the tile gap between them).
    public mutating func tile(_ app: String, _ position: TilePosition) throws(ModelError) -> [Plan] {
        try refuseDuringDrag()
        try checkFreeWindow(app)
        var next = state
        next.frames[app] = profile.freeForm.tile(position, screen: screen(of: app))
        return moveInOneStage(to: next, reason: .resize)
    }

    /// Brings a free window to the front (the key window): `Stacking` changes; no window changes size, so
    /// there is no transition. Every window on the stage stays active (UIKit keeps every visible scene in the
    /// foreground and active; only the key window moves).
    public mutating func raise(_ app: String) throws(ModelError) -> [Plan] {
        try refuseDuringDrag()
        try checkFreeWindow(app)
        var next = state
        next.bringToFront(app)
        return moveInOneStage(to: next, reason: .resize)
    }

    /// The user takes a free window's corner: it comes to the front and becomes inactive until `endResize`
    /// (as both apps do during a divider drag).
    public mutating func beginResize(_ app: String) throws(ModelError) -> [Plan] {
        try refuseDuringDrag()
        try checkFreeWindow(app)
        var next = state
        next.bringToFront(app)
        return [commit(next, drag: nil, resizing: app, reason: .resize, duration: 0)].compactMap { $0 }
    }

    /// One step of a live resize: the window takes `size`, its top-left corner staying, held between the
    /// minimum size and the screen's right and bottom edges (`FreeFormRules.resized`); no animation.
    public mutating func resize(_ app: String, to size: Size) throws(ModelError) -> [Plan] {
        try checkResize(app, to: size)
        var next = state
        next.frames[app] = profile.freeForm.resized(
            windows[app]!.frame, to: state.declarations[app]?.sizeRestrictions?.clamp(size) ?? size, screen: screen(of: app))
        return [commit(next, drag: nil, resizing: app, reason: .resize, duration: 0)].compactMap { $0 }
    }

    /// Whether `resize(app, to:)` would be accepted now: the check a coalesced step gets before it waits.
    public func checkResize(_ app: String, to size: Size) throws(ModelError) {
        try checkResizing(app)
        guard size.width.isFinite, size.height.isFinite else {
            throw .invalidArgument("a size's width and height must be finite numbers; got \(size)")
        }
    }

    /// The user lets go: the window keeps the size it reached and becomes active again.
    public mutating func endResize(_ app: String) throws(ModelError) -> [Plan] {
        try checkResizing(app)
        return [commit(state, drag: nil, resizing: nil, reason: .resize, duration: 0)].compactMap { $0 }
    }

    // MARK: Rules

    /// The screen `app`'s window is on, in points.
    public func screen(of app: String) -> Size { Self.screen(of: app, in: state, profile: profile) }

    static func screen(of app: String, in state: DisplayState, profile: DeviceProfile) -> Size {
        externalScreen(state.display(of: app), in: state)?.size ?? profile.screenSize(state.orientation)
    }

    /// The monitor of display `id`, or nil for the device's own screen (or an id no longer connected).
    static func externalScreen(_ id: String, in state: DisplayState) -> ExternalScreen? {
        guard let connected = state.displays.first(where: { $0.id == id }) else { return nil }
        return try? ExternalScreen.named(connected.profile)
    }

    /// From Split View: each window on screen keeps its frame as a free window, front to back Slide Over,
    /// primary, secondary; a secondary waiting off screen goes to the background list.
    private func enterFreeForm(_ next: inout DisplayState) {
        next.stacking = []
        for app in Self.ordered(state) where app.role != .pip {
            guard let window = windows[app.name], let index = next.apps.firstIndex(where: { $0.name == app.name }) else { continue }
            next.frames[app.name] = window.frame
            if window.state == .background {
                next.apps.remove(at: index)
                next.remember(inBackground: app.name)
                continue
            }
            next.apps[index].role = .window
            if window.role == .slideOver { next.stacking.insert(app.name, at: 0) } else { next.stacking.append(app.name) }
        }
    }

    /// Back to Split View (`setWindowing`, or a device that offers nothing else): the front window is the
    /// primary, the next the secondary; the others go to the background. Returns their lifecycle events.
    static func leaveFreeForm(
        _ next: inout DisplayState, profile: DeviceProfile, windows: [String: WindowGeometry]
    ) -> [String: [LifecycleEvent]] {
        guard next.windowing.isFreeForm else { return [:] }
        var events: [String: [LifecycleEvent]] = [:]
        let order = next.stacking
        for (depth, name) in order.enumerated() {
            guard let index = next.apps.firstIndex(where: { $0.name == name }) else { continue }
            if depth < 2 {
                next.apps[index].role = depth == 0 ? .primary : .secondary
            } else {
                next.apps.remove(at: index)
                next.remember(inBackground: name)
                events[name] = LifecycleEvent.events(from: windows[name]?.state ?? .active, to: .background)
            }
        }
        let offered = profile.offeredArrangements(next.orientation)
        if order.count > 1 {
            let wanted = next.arrangement.isSplit ? next.arrangement : .splitTwoThirds
            next.arrangement = wanted.nearest(in: offered.filter(\.isSplit))
        } else {
            next.arrangement = .full
        }
        next.windowing = .splitView
        next.stacking = []
        // An external display mirrors the device's screen in Split View: windows that were on a monitor come back
        // to the device, their remembered frames fitted to its screen by `commit` and the simulation's start.
        next.placement = [:]
        return events
    }

    /// Sends the windows at the back past the mode's limit to the background; returns their lifecycle events.
    func keepWithinLimit(_ next: inout DisplayState) -> [String: [LifecycleEvent]] {
        guard next.windowing.isFreeForm else { return [:] }
        var events: [String: [LifecycleEvent]] = [:]
        // Each screen is a stage of its own, with its own limit (`DisplayState.stage(on:)`, also what a loaded
        // state is held to).
        for display in next.screens {
            while case let here = next.stage(on: display), here.count > windowLimit(next.windowing), let gone = here.last {
                next.stacking.removeAll { $0 == gone }
                next.apps.removeAll { $0.name == gone }
                next.placement[gone] = nil
                next.remember(inBackground: gone)
                events[gone] = LifecycleEvent.events(from: windows[gone]?.state ?? .active, to: .background)
            }
        }
        return events
    }

    /// A free window's geometry in `state`: its frame, the traits its width gives, the safe area of its
    /// screen (none on a monitor, whose scale it takes), inactive while it is being resized.
    static func freeWindow(
        _ app: String, in state: DisplayState, geometry: DisplayGeometry, profile: DeviceProfile, resizing: String?
    ) -> WindowGeometry {
        // `problems(in:)` and every command keep a frame for each window; the fallback only guards the lookup.
        let frame = state.frames[app] ?? profile.freeForm.defaultFrame(screen: geometry.screen, onStage: 0)
        var traits = geometry.traits(horizontal: profile.freeForm.horizontal(width: frame.width))
        var safeArea = geometry.safeArea(of: frame, role: .window)
        let display = state.display(of: app)
        if let external = externalScreen(display, in: state) {
            traits.displayScale = external.scale
            safeArea = .zero
        }
        // iPadOS 26 keeps a resizing scene active and says so with isInteractivelyResizing (docs/reference:
        // system-chrome, "Activation"); only the Split View divider makes both sides resign active.
        var window = WindowGeometry(role: .window, frame: frame, traits: traits, state: .active, safeArea: safeArea, display: display)
        window.interactivelyResizing = resizing == app
        return window
    }

    /// Every frame made one a window can have now, the one rule for frames: an open free window's held within
    /// its app's size restrictions, then every frame (remembered ones too: a background app's, Split View's
    /// for the way back) fitted to its screen (`FreeFormRules.fit`). `commit` applies it to every new state and
    /// the simulation to a state it is given (a file, the config), so a state a command reaches reloads equal:
    /// a background app's frame from before a rotation once stayed unfitted until the next restart fitted it.
    static func fitFrames(_ state: inout DisplayState, profile: DeviceProfile) {
        // A frame that cannot be a window's is left as it is, for `problems(in:)` to refuse.
        for (name, frame) in state.frames where DisplayState.isPlausible(frame) {
            let open = state.windowing.isFreeForm && state.app(named: name)?.role == .window
            state.frames[name] = open ? held(name, frame, in: state, profile: profile)
                : profile.freeForm.fit(frame, screen: screen(of: name, in: state, profile: profile))
        }
    }

    /// A free-form state as a config file gives it (apps with Split View roles, no frames): every app but PiP
    /// a window, each on the stage (in the order of `apps` after those the stacking names) with a frame.
    static func completeFreeForm(_ state: inout DisplayState, profile: DeviceProfile) {
        for index in state.apps.indices where state.apps[index].role != .pip { state.apps[index].role = .window }
        let windows = state.apps.filter { $0.role == .window }.map(\.name)
        state.stacking = state.stacking.filter(windows.contains)
        for name in windows where !state.stacking.contains(name) { state.stacking.append(name) }
        let screen = profile.screenSize(state.orientation)
        for (depth, name) in state.stacking.enumerated().reversed() where state.frames[name] == nil {
            state.frames[name] = profile.freeForm.defaultFrame(screen: screen, onStage: state.stacking.count - 1 - depth)
        }
    }

    /// `app` is a free window on screen.
    func checkFreeWindow(_ app: String) throws(ModelError) {
        guard state.windowing.isFreeForm else {
            throw .notOffered("windows have frames of their own in stage-manager and windowed windowing; "
                + "the display is in split-view (SetWindowing first)")
        }
        guard let open = state.app(named: app) else {
            let names = state.stacking.isEmpty ? "none" : state.stacking.joined(separator: ", ")
            throw .noSuchApp("no window '\(app.shortened)' is open; open windows: \(names)")
        }
        guard open.role == .window else {
            throw .notOffered("'\(app)' is a \(open.role) window, which the system places; only role 'window' can be")
        }
    }

    private func checkResizing(_ app: String) throws(ModelError) {
        try checkFreeWindow(app)
        guard resizing == app else {
            let now = resizing.map { "; window '\($0)' is" } ?? "; no window is"
            throw .notDragging("window '\(app)' is not being resized\(now) (start with its BeginResize)")
        }
    }
}
