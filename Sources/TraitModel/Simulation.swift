import Vocabulary

/// The simulated display: a device, its orientation and arrangement, and the apps on it.
///
/// Pure and deterministic: `apply` takes a command and returns the plan of what changed, or throws and
/// changes nothing. `serial` increases by one with every command that changes something, and never otherwise.
public struct Simulation: Sendable {
    public let catalog: DeviceCatalog
    public var settings: TransitionSettings
    public private(set) var state: DisplayState
    public private(set) var windows: [String: WindowGeometry]
    public private(set) var serial: UInt64

    /// At most three apps in Split View: primary, secondary and Picture in Picture
    /// (`shared/reference/uikit-transitions.md`). Free-form modes allow their window limit and one PiP.
    public static let maximumApps = 3

    /// How many windows the `windowed` mode keeps on screen (the config's `windowing: windowed-limit`); no
    /// source gives iPadOS 26's, so traitd's default is 8, twice Stage Manager's stage.
    public var windowedLimit: Int = Self.defaultWindowedLimit
    public static let defaultWindowedLimit = 8

    /// The most free-form windows `mode` keeps on screen (Picture in Picture not counted).
    public func windowLimit(_ mode: Windowing) -> Int { Self.windowLimit(mode, windowedLimit: windowedLimit) }

    static func windowLimit(_ mode: Windowing, windowedLimit: Int) -> Int {
        switch mode {
        case .splitView: return 2
        case .stageManager: return FreeFormRules.stageLimit
        case .windowed: return windowedLimit
        }
    }

    public init(
        catalog: DeviceCatalog, state: DisplayState, settings: TransitionSettings = .init(), serial: UInt64 = 1,
        windowedLimit: Int = Self.defaultWindowedLimit
    ) throws(ModelError) {
        self.catalog = catalog
        self.settings = settings
        self.serial = serial
        self.windowedLimit = windowedLimit
        let profile = try catalog.profile(state.device)
        var state = state
        state.orientation = profile.nearestOrientation(to: state.orientation)
        state.arrangement = state.arrangement.nearest(in: profile.offeredArrangements(state.orientation))
        if state.windowing.isFreeForm {
            Self.completeFreeForm(&state, profile: profile)
            if !profile.offeredWindowing.contains(state.windowing) {
                _ = Self.leaveFreeForm(&state, profile: profile, windows: [:])
            }
        }
        _ = Self.dismissSecondaryIfNoRoom(&state, profile: profile, windows: [:])
        Self.fitFrames(&state, profile: profile)
        let problems = Self.problems(in: state, windowedLimit: windowedLimit)
        guard problems.isEmpty else { throw .invalidState(problems) }
        self.state = state
        self.windows = Self.layout(state, drag: nil, resizing: nil, profile: profile, previous: [:], previousProfile: nil)
    }

    public var profile: DeviceProfile { catalog.profiles[state.device]! }

    public var geometry: DisplayGeometry {
        DisplayGeometry(profile: profile, orientation: state.orientation, arrangement: state.arrangement)
    }

    /// Open apps in display order: primary, secondary, pip; free-form windows in the order they opened, then pip.
    public var appNames: [String] { Self.ordered(state).map(\.name) }

    /// The windows on screen, front to back: Picture in Picture (it floats over everything), then Slide Over,
    /// then the split's sides, primary first; in a free-form mode the stage front to back after PiP.
    public var stacking: [String] {
        let pip = state.app(holding: .pip).map { [$0.name] } ?? []
        if state.windowing.isFreeForm { return pip + state.stacking }
        let onScreen = appNames.filter { windows[$0]?.state != .background && windows[$0]?.role != .pip }
        let slideOver = onScreen.filter { windows[$0]?.role == .slideOver }
        return pip + slideOver + onScreen.filter { windows[$0]?.role != .slideOver }
    }

    /// The free-form window being resized live, if any (`BeginResize` to `EndResize`).
    public internal(set) var resizing: String?

    /// Every app not on screen, in one meaning of background: the windows that are open but off screen (a
    /// secondary app while the arrangement is full screen, `State` `background`) in display order, then the apps
    /// with no window (dismissed by the divider or by a device with no room), oldest first. `BackgroundApps` and
    /// `traitctl status` say this list; `OpenApp` brings back one of the second kind, `SetArrangement` one of the
    /// first.
    public var backgroundApps: [String] {
        appNames.filter { windows[$0]?.state == .background } + state.background
    }

    /// The divider drag in progress, if any.
    public private(set) var drag: DividerDrag?

    /// The divider's left edge: where the drag holds it, else the split's divider, else 0 (no divider, or
    /// free-form windows).
    public var dividerPosition: Double {
        state.windowing.isFreeForm ? 0 : drag?.position ?? geometry.dividerX ?? 0
    }

    public var dividerTrack: DividerTrack { DividerTrack(profile: profile, orientation: state.orientation) }

    /// Applies a command and returns what to announce, in order: usually one plan, none when nothing changes,
    /// and one per snap point when a divider move crosses several. On error nothing changes. Each command has
    /// its own method below; this is the one entry the daemon (and the tests' command lists) use.
    public mutating func apply(_ command: Command) throws(ModelError) -> [Plan] {
        switch command {
        case .setDevice(let id): return try setDevice(id)
        case .rotate(let orientation): return try rotate(to: orientation)
        case .setArrangement(let arrangement): return try setArrangement(arrangement)
        case .openApp(let name, let role): return try openApp(name, role: role)
        case .closeApp(let name): return try closeApp(name)
        case .beginDividerDrag: return try beginDividerDrag()
        case .moveDivider(let x): return try moveDivider(to: x)
        case .endDividerDrag: return try endDividerDrag()
        case .setTraits(let changes): return try setTraits(changes)
        case .setWindowing(let mode): return try setWindowing(mode)
        case .setFrame(let app, let frame): return try setFrame(app, frame)
        case .tile(let app, let position): return try tile(app, position)
        case .raise(let app): return try raise(app)
        case .beginResize(let app): return try beginResize(app)
        case .resizeTo(let app, let size): return try resize(app, to: size)
        case .endResize(let app): return try endResize(app)
        case .connectDisplay(let profile): return try connectDisplay(profile)
        case .disconnectDisplay(let id): return try disconnectDisplay(id)
        case .moveToDisplay(let app, let display): return try moveToDisplay(app, to: display)
        }
    }

    // MARK: Commands

    /// Another device: the orientation and arrangement move to the nearest it offers, and a second app it has
    /// no room for goes to the background.
    public mutating func setDevice(_ id: String) throws(ModelError) -> [Plan] {
        try refuseDuringDrag()
        let profile = try catalog.profile(id)
        var next = state
        next.device = id
        next.orientation = profile.nearestOrientation(to: next.orientation)
        next.arrangement = next.arrangement.nearest(in: profile.offeredArrangements(next.orientation))
        var events: [String: [LifecycleEvent]] = [:]
        if !profile.offeredWindowing.contains(next.windowing) {
            events = Self.leaveFreeForm(&next, profile: profile, windows: windows)
        }
        events.merge(Self.dismissSecondaryIfNoRoom(&next, profile: profile, windows: windows)) { $1 }
        Self.fitFrames(&next, profile: profile)
        return moveInOneStage(to: next, reason: .device, lifecycle: events)
    }

    /// Turns the device (allowed during a divider drag, which goes on in the new orientation). A half turn
    /// takes twice as long as a quarter turn.
    public mutating func rotate(to orientation: Orientation) throws(ModelError) -> [Plan] {
        guard profile.offers(orientation) else {
            throw .notOffered("\(profile.id) does not offer \(orientation.rawValue); offered orientations: "
                + profile.orientations.map(\.rawValue).joined(separator: ", "))
        }
        var next = state
        let turns = max(1, state.orientation.quarterTurns(to: orientation))
        next.orientation = orientation
        Self.fitFrames(&next, profile: profile)
        let offered = profile.offeredArrangements(orientation)
        next.arrangement = next.arrangement.nearest(in: offered)
        var nextDrag = drag
        if var moving = drag {
            // The drag goes on in the new orientation: the divider keeps its place as a share of the track,
            // and the windows show the nearest split the new orientation offers.
            let old = dividerTrack.end
            let new = DividerTrack(profile: profile, orientation: orientation).end
            moving.position = (moving.position * new / old).rounded()
            moving.shown = moving.shown.nearest(in: offered.filter(\.isSplit))
            nextDrag = moving
        }
        return moveInOneStage(to: next, drag: nextDrag, reason: .rotation, turns: turns)
    }

    public mutating func setArrangement(_ arrangement: Arrangement) throws(ModelError) -> [Plan] {
        try refuseDuringDrag()
        if state.windowing.isFreeForm {
            throw .notOffered("arrangements are Split View's; the display is in \(state.windowing) windowing: "
                + "size windows with SetFrame, Tile or a live resize, or SetWindowing('split-view') first")
        }
        let offered = profile.offeredArrangements(state.orientation)
        guard offered.contains(arrangement) else {
            throw .notOffered(
                "\(profile.id) does not offer \(arrangement.rawValue) in \(state.orientation.rawValue); "
                    + "offered: \(offered.map(\.rawValue).joined(separator: ", "))")
        }
        if arrangement.needsSecondary, state.app(holding: .secondary) == nil {
            throw .missingApp(
                "\(arrangement.rawValue) needs a second app; open one with OpenApp(name, 'secondary')")
        }
        var next = state
        next.arrangement = arrangement
        return moveInOneStage(to: next, reason: .arrangement)
    }

    /// Opens an app in a role; one in the background comes back (`WillEnterForeground`, `DidBecomeActive`).
    public mutating func openApp(_ name: String, role: Role) throws(ModelError) -> [Plan] {
        try refuseDuringDrag()
        try AppName.validate(name)
        if state.app(named: name) != nil { throw .appExists("app '\(name)' is already open") }
        if state.windowing.isFreeForm { return try openFreeForm(name, role: role) }
        if role == .window {
            throw .notOffered("role 'window' is a free-form window; SetWindowing('stage-manager') or ('windowed') "
                + "first, or open '\(name.shortened)' as primary, secondary, slide-over or pip")
        }
        let slot: Role = role == .slideOver ? .secondary : role
        if let holder = state.app(holding: slot) {
            throw .roleTaken("app '\(holder.name)' holds the \(slot.rawValue) role; close it first")
        }
        if slot != .primary, state.app(holding: .primary) == nil {
            throw .missingApp("there is no primary app; open one with role 'primary' first")
        }
        if slot == .secondary, !profile.offersSecondApp(state.orientation) {
            throw .notOffered("\(profile.id) shows one app at a time in \(state.orientation.rawValue) (offered: "
                + "\(profile.offeredArrangements(state.orientation).map(\.rawValue).joined(separator: ", "))); "
                + "close the primary app and open '\(name.shortened)' as primary, or open it as pip")
        }
        var next = state
        var events: [String: [LifecycleEvent]] = [:]
        next.apps.append(.init(name: name, role: slot))
        if next.background.contains(name) {
            next.background.removeAll { $0 == name }
            events[name] = [.willEnterForeground, .didBecomeActive]
        }
        if role == .slideOver {
            next.arrangement = .slideOver
        } else if slot == .secondary, next.arrangement == .full {
            // A second app dropped beside a full-screen one takes the narrow side, as on iPadOS.
            next.arrangement = .splitTwoThirds
        }
        return moveInOneStage(to: next, reason: .arrangement, lifecycle: events)
    }

    /// Closes an open app; the other side of a split takes the whole screen.
    public mutating func closeApp(_ name: String) throws(ModelError) -> [Plan] {
        try refuseDuringDrag()
        guard let app = state.app(named: name) else {
            let open = appNames.isEmpty ? "none" : appNames.joined(separator: ", ")
            throw .noSuchApp("no app '\(name.shortened)' is open; open apps: \(open)")
        }
        var next = state
        next.apps.removeAll { $0.name == name }
        if state.windowing.isFreeForm {
            // A closed window is forgotten, its frame too (as its restoration state).
            next.stacking.removeAll { $0 == name }
            next.frames[name] = nil
            return moveInOneStage(to: next, reason: .arrangement)
        }
        if app.role == .primary, let index = next.apps.firstIndex(where: { $0.role == .secondary }) {
            next.apps[index].role = .primary  // the other side takes the whole screen
        }
        if app.role != .pip { next.arrangement = .full }
        return moveInOneStage(to: next, reason: .arrangement)
    }

    /// Touches the divider: both apps become inactive until the drag ends.
    public mutating func beginDividerDrag() throws(ModelError) -> [Plan] {
        guard drag == nil else { throw .dragging("the divider is already being dragged; end the drag with EndDividerDrag") }
        try refuseDuringResize()
        guard !state.windowing.isFreeForm, state.arrangement.isSplit else {
            throw .noDivider("there is no divider to drag in \(state.arrangement.rawValue); "
                + "the split arrangements have one: \(profile.offeredArrangements(state.orientation).filter(\.isSplit).map(\.rawValue).joined(separator: ", "))")
        }
        let started = DividerDrag(position: dividerPosition, shown: state.arrangement)
        return [commit(state, drag: started, resizing: nil, reason: .drag, duration: 0)].compactMap { $0 }
    }

    /// Moves the divider during a drag: one snapshot plan per snap point crossed that changes what the windows
    /// show, then one that leaves the divider at `x`.
    public mutating func moveDivider(to x: Double) throws(ModelError) -> [Plan] {
        guard let current = drag else { throw .notDragging("no divider drag is in progress; start one with BeginDividerDrag") }
        let track = dividerTrack
        guard x.isFinite, x >= 0, x <= track.end else {
            throw .invalidArgument("the divider position must be a number from 0 to \(track.end.compact) "
                + "(the screen width \(geometry.screen.width.compact) minus the \(profile.dividerWidth.compact) pt divider); got \(x)")
        }
        // One stage per snap point crossed that changes what the windows show; the divider is at the snap
        // point during each stage but the last, which leaves it at x.
        // (A move goes one way, so each snap point comes once; only the first can be the one shown now.)
        let stages = track.crossed(from: current.position, to: x).filter { $0 != current.shown }
        var plans: [Plan] = []
        var next = current
        for (index, arrangement) in stages.enumerated() {
            next.shown = arrangement
            next.position = index == stages.count - 1
                ? x : track.snapPoints.first { $0.arrangement == arrangement }!.position
            if let plan = commit(state, drag: next, resizing: nil, reason: .snapshot, duration: 0) { plans.append(plan) }
        }
        next.position = x
        if let plan = commit(state, drag: next, resizing: nil, reason: .snapshot, duration: 0) { plans.append(plan) }
        return plans
    }

    /// Lets go of the divider: it snaps to the nearest split, or near an edge dismisses that side's app to
    /// the background.
    public mutating func endDividerDrag() throws(ModelError) -> [Plan] {
        guard let current = drag else { throw .notDragging("no divider drag is in progress; start one with BeginDividerDrag") }
        var next = state
        var events: [String: [LifecycleEvent]] = [:]
        let release = dividerTrack.release(at: current.position)
        switch release {
        case .snap(let arrangement):
            next.arrangement = arrangement
        case .dismissLeft, .dismissRight:
            let side: Role = release == .dismissLeft ? .primary : .secondary
            let gone = state.app(holding: side)!.name
            next.apps.removeAll { $0.name == gone }
            if side == .primary, let index = next.apps.firstIndex(where: { $0.role == .secondary }) {
                next.apps[index].role = .primary
            }
            next.arrangement = .full
            next.remember(inBackground: gone)
            events[gone] = [.didEnterBackground]
        }
        return [commit(next, drag: nil, resizing: nil, reason: .drag, duration: settings.duration, lifecycle: events)]
            .compactMap { $0 }
    }

    /// Changes display-wide settings, all or none: each value must be one its trait accepts. Allowed during a
    /// divider drag (dark mode at sunset does not wait for the user's finger), which goes on. A change of window
    /// traits is one transition per window on screen (reason `traits`); Reduce Motion alone changes a property.
    public mutating func setTraits(_ changes: [DisplayTrait: String]) throws(ModelError) -> [Plan] {
        var next = state
        for trait in DisplayTrait.all {
            guard let value = changes[trait] else { continue }
            guard trait.accepts(value) else {
                throw .invalidArgument("unknown \(trait.property) '\(value.shortened)'; expected one of: \(trait.valueList)")
            }
            next.traits[trait] = value
        }
        return moveInOneStage(to: next, drag: drag, reason: .traits)
    }

    // MARK: Internals

    /// Every command but a rotation and a settings change waits for a divider drag or a live resize to end.
    func refuseDuringDrag() throws(ModelError) {
        if drag != nil { throw .dragging("the divider is being dragged; end the drag with EndDividerDrag first") }
        try refuseDuringResize()
    }

    func refuseDuringResize() throws(ModelError) {
        if let app = resizing {
            throw .dragging("window '\(app)' is being resized; end the resize with its EndResize first")
        }
    }

    /// Moves to `next` in one stage, for the commands outside a drag: one animation (`turns` quarter turns for
    /// a rotation); its plan, or none when nothing changes (`commit`). A live resize goes on.
    mutating func moveInOneStage(
        to next: DisplayState, drag nextDrag: DividerDrag? = nil, reason: TransitionReason, turns: Int = 1,
        lifecycle: [String: [LifecycleEvent]] = [:]
    ) -> [Plan] {
        [commit(next, drag: nextDrag, resizing: resizing, reason: reason, duration: settings.duration * Double(turns),
                lifecycle: lifecycle)]
            .compactMap { $0 }
    }

    /// Moves to `next` (with `nextDrag`) and returns the plan that announces it, or nil when nothing changes.
    /// `lifecycle` gives the app-state events of windows that open or close (a dismissal, a return from the
    /// background); the others follow from their state before and after.
    mutating func commit(
        _ next: DisplayState, drag nextDrag: DividerDrag?, resizing nextResizing: String?, reason: TransitionReason,
        duration: Double, lifecycle: [String: [LifecycleEvent]] = [:]
    ) -> Plan? {
        var next = next
        next.forgetClosedApps()
        guard next != state || nextDrag != drag || nextResizing != resizing else { return nil }
        // Reduce Motion: nothing animates.
        let duration = next.traits.reducesMotion ? 0 : duration
        // The catalog holds every device a state can name: `apply` checked it.
        let nextProfile = catalog.profiles[next.device]!
        let nextWindows = Self.layout(
            next, drag: nextDrag, resizing: nextResizing, profile: nextProfile, previous: windows, previousProfile: profile)
        let context = TransitionContext(reason: reason, duration: duration, orientation: next.orientation, traits: next.traits)
        // Its display snapshot is taken once the stage is in place, below.
        var plan = Plan(display: display, reason: reason)
        if next.device != state.device { plan.displayChanges.formUnion([.device, .scale]) }
        if next.orientation != state.orientation { plan.displayChanges.insert(.orientation) }
        if nextProfile.screenSize(next.orientation) != profile.screenSize(state.orientation) {
            plan.displayChanges.insert(.screenSize)
        }
        if next.arrangement != state.arrangement { plan.displayChanges.insert(.arrangement) }
        for trait in next.traits.differences(from: state.traits) { plan.displayChanges.insert(.trait(trait)) }
        if next.apps.map(\.name).sorted() != state.apps.map(\.name).sorted() { plan.displayChanges.insert(.windows) }
        if next.windowing != state.windowing { plan.displayChanges.insert(.windowing) }
        if next.displays != state.displays {
            plan.displayChanges.insert(.displays)
            let before = Set(state.displays.map(\.id)), after = Set(next.displays.map(\.id))
            plan.displaysConnected = next.displays.filter { !before.contains($0.id) }
            plan.displaysDisconnected = state.displays.map(\.id).filter { !after.contains($0) }
        }
        for display in next.displays where state.displays.contains(display)
            && state.stage(on: display.id) != next.stage(on: display.id) {
            plan.displayWindows[display.id] = next.stage(on: display.id)
        }
        let names = Self.ordered(state).map(\.name) + Self.ordered(next).map(\.name)
        var seen: Set<String> = []
        for name in names where seen.insert(name).inserted {
            let before = windows[name]
            let after = nextWindows[name]
            let rotated = next.orientation != state.orientation
                && before.map { $0.state != .background } == true && after.map { $0.state != .background } == true
            if before != after || lifecycle[name] != nil || rotated {
                plan.windows.append(WindowChange(app: name, before: before, after: after, context: context,
                                                 lifecycle: lifecycle[name], rotated: rotated))
            }
        }
        let oldDivider = dividerPosition
        let wasDragging = drag != nil
        let oldBackground = backgroundApps
        let oldStacking = stacking
        state = next
        drag = nextDrag
        resizing = nextResizing
        windows = nextWindows
        serial += 1
        if dividerPosition != oldDivider { plan.displayChanges.insert(.divider) }
        if stacking != oldStacking { plan.displayChanges.insert(.stacking) }
        if wasDragging != (drag != nil) { plan.displayChanges.insert(.dragging) }
        if backgroundApps != oldBackground { plan.displayChanges.insert(.background) }
        plan.display = display
        return plan
    }

    // MARK: Internals

    /// On a device that shows one app at a time (an iPhone), the secondary app cannot stay: it goes to the
    /// background as a divider dismissal sends it (`BackgroundApps`, its restoration state kept, `OpenApp`
    /// brings it back). Returns its lifecycle events: those of leaving the screen from the state it had.
    static func dismissSecondaryIfNoRoom(
        _ state: inout DisplayState, profile: DeviceProfile, windows: [String: WindowGeometry]
    ) -> [String: [LifecycleEvent]] {
        guard !profile.offersSecondApp(state.orientation), let secondary = state.app(holding: .secondary) else { return [:] }
        state.apps.removeAll { $0.name == secondary.name }
        state.arrangement = .full
        state.remember(inBackground: secondary.name)
        let was = windows[secondary.name]?.state ?? .background
        return [secondary.name: LifecycleEvent.events(from: was, to: .background)]
    }

    /// The arrangement (in any orientation of `profile`) whose secondary window has `frame`, if one has.
    static func split(showing frame: Rect, on profile: DeviceProfile) -> Arrangement? {
        for orientation in profile.orientations {
            for arrangement in profile.offeredArrangements(orientation) where arrangement.needsSecondary {
                let geometry = DisplayGeometry(profile: profile, orientation: orientation, arrangement: arrangement)
                if geometry.secondary?.frame == frame { return arrangement }
            }
        }
        return nil
    }

    /// The open apps in display order: primary, secondary (or Slide Over), pip; free-form windows in the order
    /// they opened, then pip (`stacking` says which is in front).
    static func ordered(_ state: DisplayState) -> [DisplayState.App] {
        // Every property read asks for this order: a switch, not a dictionary made on each call.
        func rank(_ role: Role) -> Int {
            switch role {
            case .primary: 0
            case .secondary, .slideOver, .window: 1
            case .pip: 2
            }
        }
        return state.apps.enumerated().sorted { a, b in
            let (ra, rb) = (rank(a.element.role), rank(b.element.role))
            return ra != rb ? ra < rb : a.offset < b.offset
        }.map(\.element)
    }

    /// Every window's geometry for `state`. A secondary app in the background (arrangement `full`) is suspended
    /// with the geometry it last had on screen (UIKit resizes no suspended app; it sees the new size when it comes
    /// back); after a device change it takes the same split's secondary side on the new device, so no window ever
    /// publishes another device's frame or safe area. One never shown gets the narrow side of a 2/3 split. During
    /// a drag the split apps show the drag's snapshot geometry and are inactive.
    static func layout(
        _ state: DisplayState, drag: DividerDrag?, resizing: String?, profile: DeviceProfile,
        previous: [String: WindowGeometry], previousProfile: DeviceProfile?
    ) -> [String: WindowGeometry] {
        let geometry = DisplayGeometry(
            profile: profile, orientation: state.orientation, arrangement: drag?.shown ?? state.arrangement)
        let onScreen: AppState = drag == nil ? .active : .inactive
        var result: [String: WindowGeometry] = [:]
        for app in state.apps {
            switch app.role {
            case .primary:
                let (frame, horizontal) = geometry.primary
                result[app.name] = WindowGeometry(
                    role: .primary, frame: frame, traits: geometry.traits(horizontal: horizontal), state: onScreen,
                    safeArea: geometry.safeArea(of: frame, role: .primary))
            case .secondary, .slideOver:
                if let (frame, horizontal, role) = geometry.secondary {
                    result[app.name] = WindowGeometry(
                        role: role, frame: frame, traits: geometry.traits(horizontal: horizontal), state: onScreen,
                        safeArea: geometry.safeArea(of: frame, role: role))
                } else if var kept = previous[app.name], previousProfile.map({ $0.id == profile.id }) ?? true {
                    kept.state = .background
                    kept.role = .secondary
                    result[app.name] = kept
                } else {
                    // Never shown, or shown on another device: the split it was last shown in (2/3 when unknown),
                    // or the nearest this device offers in this orientation.
                    let last = previous[app.name].flatMap { kept in previousProfile.flatMap { Self.split(showing: kept.frame, on: $0) } }
                    let offered = profile.offeredArrangements(state.orientation).filter { $0.needsSecondary && $0 != .slideOver }
                    let split = (last ?? .splitTwoThirds).nearest(in: offered.isEmpty ? [.splitTwoThirds] : offered)
                    let offstage = DisplayGeometry(profile: profile, orientation: state.orientation, arrangement: split)
                    let (frame, horizontal, _) = offstage.secondary!
                    result[app.name] = WindowGeometry(
                        role: .secondary, frame: frame, traits: offstage.traits(horizontal: horizontal), state: .background,
                        safeArea: offstage.safeArea(of: frame, role: .secondary))
                }
            case .window:
                // `check` and every command keep a frame for each window; the fallback only guards the lookup.
                let frame = state.frames[app.name] ?? profile.freeForm.defaultFrame(screen: geometry.screen, onStage: 0)
                var traits = geometry.traits(horizontal: profile.freeForm.horizontal(width: frame.width))
                var safeArea = geometry.safeArea(of: frame, role: .window)
                let display = state.display(of: app.name)
                if let external = Self.externalScreen(display, in: state) {
                    traits.displayScale = external.scale
                    safeArea = .zero
                }
                result[app.name] = WindowGeometry(
                    role: .window, frame: frame, traits: traits, state: resizing == app.name ? .inactive : .active,
                    safeArea: safeArea, display: display)
            case .pip:
                let traits = TraitCollection(
                    horizontalSizeClass: .compact, verticalSizeClass: .compact, idiom: profile.idiom,
                    displayScale: profile.scale)
                result[app.name] = WindowGeometry(role: .pip, frame: geometry.pip, traits: traits, state: .active)
            }
        }
        // The traits every window shares, and the level that depends on its role (`InterfaceLevel`); a suspended
        // window's too, so that it never publishes a setting the display no longer has.
        for (name, window) in result {
            var traits = window.traits
            traits.display = state.traits.windowTraits
            traits.displayGamut = window.display == ConnectedDisplay.device ? profile.gamut : ExternalScreen.gamut
            traits.userInterfaceLevel = window.role == .slideOver || window.role == .pip ? .elevated : .base
            result[name]?.traits = traits
        }
        return result
    }
}
