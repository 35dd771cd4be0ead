import Vocabulary

/// Split View, Slide Over and Picture in Picture: the arrangement, apps opened and closed in their roles, the
/// divider's drag, and the rules that keep a split possible (a phone has no room for a second app).
extension Simulation {
    /// Another arrangement: offered by the device in this orientation, and with a secondary app for a split.
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
            // Slide Over is the secondary slot: say so, or `slide-over` refused for a `secondary` app reads as a riddle.
            let shared = role == .slideOver ? " (Slide Over is the secondary slot: one app holds it, beside or over the primary)" : ""
            throw .roleTaken("app '\(holder.name)' holds the \(slot.rawValue) role\(shared); close it first")
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
}
