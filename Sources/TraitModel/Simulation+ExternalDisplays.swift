import Vocabulary

/// External displays: a monitor plugged in (a stage of its own in a free-form mode, a mirror in Split View),
/// unplugged (its windows come back to the device), and a window moved from one screen to another.
extension Simulation {
    /// Plugs in a monitor (`ExternalScreen.profiles`): it gets the next id (`external-1`). In a free-form mode
    /// it is a stage of its own that windows move to (`moveToDisplay`); in Split View it mirrors the device's
    /// screen, as iPadOS did before Stage Manager, and has no windows.
    public mutating func connectDisplay(_ profileName: String) throws(ModelError) -> [Plan] {
        try refuseDuringDrag()
        _ = try ExternalScreen.named(profileName)
        guard state.displays.count < ConnectedDisplay.maximum else {
            throw .notOffered("an iPad drives \(ConnectedDisplay.maximum) external display; "
                + "disconnect \(state.displays.map(\.id).joined(separator: ", ")) first")
        }
        var next = state
        next.displays.append(ConnectedDisplay(id: ConnectedDisplay.firstFreeID(besides: state.displays), profile: profileName))
        return moveInOneStage(to: next, reason: .display)
    }

    /// Unplugs a monitor: its windows come back to the device's screen, fitted to it, behind the device's own
    /// (past the stage's limit, the ones at the back go to the background).
    public mutating func disconnectDisplay(_ id: String) throws(ModelError) -> [Plan] {
        try refuseDuringDrag()
        guard state.displays.contains(where: { $0.id == id }) else { throw unknownDisplay(id) }
        var next = state
        next.displays.removeAll { $0.id == id }
        let moving = next.placement.filter { $0.value == id }.map(\.key)
        // Their frames are fitted to the device's screen by `commit` (`fitFrames`).
        for app in moving { next.placement[app] = nil }
        // Behind the device's own windows: the device's stage keeps its order.
        next.stacking = next.stacking.filter { !moving.contains($0) } + next.stacking.filter(moving.contains)
        let events = keepWithinLimit(&next)
        return moveInOneStage(to: next, reason: .display, lifecycle: events)
    }

    /// Moves a free window to another screen (`device` or an external display's id), fitted to it, in front.
    /// It gets a transition even where its size stays: the screen under it changed (and with it, maybe, the
    /// display scale: a trait change).
    public mutating func moveToDisplay(_ app: String, to display: String) throws(ModelError) -> [Plan] {
        try refuseDuringDrag()
        try checkFreeWindow(app)
        guard display == ConnectedDisplay.device || state.displays.contains(where: { $0.id == display }) else {
            throw unknownDisplay(display)
        }
        guard display != state.display(of: app) else { return [] }
        var next = state
        next.placement[app] = display == ConnectedDisplay.device ? nil : display  // fitted to it by `commit`
        next.bringToFront(app)
        let events = keepWithinLimit(&next)
        return moveInOneStage(to: next, reason: .display, lifecycle: events)
    }

    private func unknownDisplay(_ id: String) -> ModelError {
        .invalidArgument("no display '\(id.shortened)' is connected; displays: "
            + ([ConnectedDisplay.device] + state.displays.map(\.id)).joined(separator: ", "))
    }
}
