import Vocabulary

/// The whole display set back to a state it had (a test's `Reset` to the configuration's start, or a snapshot):
/// one stage, one transition for each window that changes, windows that are not in `target` closed and those
/// only there opened.
extension Simulation {
    /// Moves to `target`, which must obey every rule a state obeys (`problems(in:)`: a snapshot the simulation
    /// took does); a divider drag or a live resize in progress ends with it. No animation: a test asked for it.
    public mutating func restore(_ target: DisplayState) throws(ModelError) -> [Plan] {
        let problems = Self.problems(in: target, profile: try catalog.profile(target.device), windowedLimit: windowedLimit)
        guard problems.isEmpty else { throw .invalidState(problems) }
        return [commit(target, drag: nil, resizing: nil, reason: .reset, duration: 0)].compactMap { $0 }
    }
}
