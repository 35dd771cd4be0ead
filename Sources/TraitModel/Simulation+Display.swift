import Vocabulary

/// The commands that change the whole display: another device, a rotation, the display-wide settings. Each
/// returns the plans to announce, or throws and changes nothing.
extension Simulation {
    /// Another device: the orientation and arrangement move to the nearest it offers (and the app that owns
    /// the screen there supports, as a rotation's), and a second app it has no room for goes to the background.
    public mutating func setDevice(_ id: String) throws(ModelError) -> [Plan] {
        try refuseDuringDrag()
        let profile = try catalog.profile(id)
        var next = state
        next.device = id
        next.orientation = Self.ownersOrientation(profile.nearestOrientation(to: next.orientation), in: next, profile: profile)
        next.arrangement = next.arrangement.nearest(in: profile.offeredArrangements(next.orientation))
        next.keyboard = Self.nearestKeyboard(next.keyboard, on: profile)
        var events: [String: [LifecycleEvent]] = [:]
        if !profile.offeredWindowing.contains(next.windowing) {
            events = Self.leaveFreeForm(&next, profile: profile, windows: windows)
        }
        events.merge(Self.dismissSecondaryIfNoRoom(&next, profile: profile, windows: windows)) { $1 }
        return moveInOneStage(to: next, reason: .device, lifecycle: events)
    }

    /// Turns the device (allowed during a divider drag, which goes on in the new orientation). A half turn
    /// takes twice as long as a quarter turn.
    /// The app that owns the screen may keep the interface in an orientation it supports
    /// (`interfaceOrientation(turningTo:)`): then nothing turns.
    public mutating func rotate(to orientation: Orientation) throws(ModelError) -> [Plan] {
        guard profile.offers(orientation) else {
            throw .notOffered("\(profile.id) does not offer \(orientation.rawValue); offered orientations: "
                + profile.orientations.map(\.rawValue).joined(separator: ", "))
        }
        return try rotate(state, to: interfaceOrientation(turningTo: orientation))
    }

    /// `next` turned to `orientation` (offered), in one stage.
    mutating func rotate(_ next: DisplayState, to orientation: Orientation) throws(ModelError) -> [Plan] {
        var next = next
        let turns = max(1, state.orientation.quarterTurns(to: orientation))
        next.orientation = orientation
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
}
