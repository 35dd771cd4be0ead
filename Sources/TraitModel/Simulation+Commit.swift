import Vocabulary

/// The one place a new state is taken: `commit` compares it with the current one and makes the plan that
/// announces the change (what changed on the display, each window's change and its steps); every command ends
/// here.
extension Simulation {
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
        // The catalog holds every device a state can name: `apply` checked it.
        let nextProfile = catalog.profiles[next.device]!
        Self.fitFrames(&next, profile: nextProfile)
        guard next != state || nextDrag != drag || nextResizing != resizing else { return nil }
        // Reduce Motion: nothing animates.
        let duration = next.traits.reducesMotion ? 0 : duration
        let nextWindows = Self.layout(
            next, drag: nextDrag, resizing: nextResizing, profile: nextProfile, previous: windows, previousProfile: profile)
        let context = TransitionContext(reason: reason, duration: duration, orientation: next.orientation, traits: next.traits)
        // The display before and after, each worked out once: the plan carries the one after the stage, and the
        // two say whether the divider, the background and the stacking changed.
        let displayBefore = display
        var plan = Plan(display: displayBefore, reason: reason)
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
        for display in next.displays where state.displays.contains(display) {
            let stage = next.stage(on: display.id)
            if stage != state.stage(on: display.id) { plan.displayWindows[display.id] = stage }
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
                                                 lifecycle: lifecycle[name], rotated: rotated,
                                                 screen: nextProfile.screenSize(next.orientation)))
            }
        }
        if next.keyboard != state.keyboard { plan.displayChanges.insert(.keyboard) }
        if nextProfile.keyboardFrame(next.keyboard, next.orientation) != displayBefore.keyboardFrame {
            plan.displayChanges.insert(.keyboardFrame)
        }
        state = next
        drag = nextDrag
        resizing = nextResizing
        windows = nextWindows
        serial += 1
        plan.display = display
        if plan.display.dividerPosition != displayBefore.dividerPosition { plan.displayChanges.insert(.divider) }
        if plan.display.stacking != displayBefore.stacking { plan.displayChanges.insert(.stacking) }
        if plan.display.dragging != displayBefore.dragging { plan.displayChanges.insert(.dragging) }
        if plan.display.backgroundApps != displayBefore.backgroundApps { plan.displayChanges.insert(.background) }
        return plan
    }
}
