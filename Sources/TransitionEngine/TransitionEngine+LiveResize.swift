import TraitModel
import Vocabulary

/// A live resize as the engine runs it: steps faster than the adapters wait and coalesce, and every transition
/// a call causes is named to that call.
///
/// While a window's transition is open (its adapters are laying out), a step waits, replacing any step already
/// waiting; when the transition completes, only the latest is applied. Its reply names the transition that
/// will carry it, reserved when the first of them came, so a caller that waits for the ids its calls returned
/// waits for the last layout too. An `EndResize` that comes while a step waits waits with it, and is answered
/// (`.answered`) once the step is applied and the resize ended: letting go never completes the open transition
/// early, so an adapter that reports within its deadline is never counted missed.
extension TransitionEngine {
    /// One step of a live resize: applied now (the transitions it began), or, while the window's transition is
    /// open, kept waiting (the transition that will carry it). A step that would be refused is refused now.
    public mutating func resizeStep(
        _ app: String, to size: Size, adapters: [String: [String]], emit: (EngineEvent) -> Void
    ) throws(ModelError) -> [UInt64] {
        if endingResizes[app] != nil {
            throw .notDragging("window '\(app)' is not being resized: its EndResize came already")
        }
        guard coordinator.open[app] != nil else { return try run(.resizeTo(app: app, size), adapters: adapters, emit: emit) }
        try simulation.checkResize(app, to: size)
        let id = waitingSteps[app]?.id ?? coordinator.reserveID()
        waitingSteps[app] = (size, id)
        return [id]
    }

    /// Lets go of the corner: the transitions it began, or nil when a step waits, in which case `caller` is
    /// answered by an `.answered` event once the step is applied and the resize ended.
    public mutating func endResize(
        _ app: String, caller: UInt64, adapters: [String: [String]], emit: (EngineEvent) -> Void
    ) throws(ModelError) -> [UInt64]? {
        guard let waiting = waitingSteps[app] else { return try run(.endResize(app: app), adapters: adapters, emit: emit) }
        // One caller waits per resize: a second `EndResize` replaced the first's id, and the first never got
        // a reply.
        if endingResizes[app] != nil {
            throw .notDragging("window '\(app)' is not being resized: its EndResize came already")
        }
        try simulation.checkResize(app, to: waiting.size)
        endingResizes[app] = caller
        return nil
    }

    /// Applies the step waiting for each window of `apps` (their transitions just completed), in the transition
    /// reserved for it (completed at once when the step begins none), then ends the resize whose `EndResize`
    /// waited for it and answers that call.
    mutating func applyWaitingSteps(of apps: [String], adapters: () -> [String: [String]], emit: (EngineEvent) -> Void) {
        for app in apps {
            guard let waiting = waitingSteps.removeValue(forKey: app) else { continue }
            let adapters = adapters()
            var began: [UInt64] = []
            do {
                began = try run(.resizeTo(app: app, waiting.size), adapters: adapters, reserved: (app, waiting.id), emit: emit)
            } catch {
                logger.info("a waiting resize step of \(app) no longer applies: \(error.message)")
            }
            if !began.contains(waiting.id) {
                for event in coordinator.completeUnused(app: app, id: waiting.id) { emit(event) }
            }
            guard let caller = endingResizes.removeValue(forKey: app) else { continue }
            do {
                let ended = try run(.endResize(app: app), adapters: adapters, emit: emit)
                emit(.answered(caller: caller, .success([waiting.id] + ended)))
            } catch {
                emit(.answered(caller: caller, .failure(error)))
            }
        }
    }
}
