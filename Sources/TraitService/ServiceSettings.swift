import Limits
import TraitModel
import Vocabulary

/// The service's settings from the configuration.
public struct ServiceSettings: Sendable {
    /// Seconds a transition waits for its adapters.
    public var deadline: Double
    public var limits: Limits
    /// `--clock virtual`: deadlines run on a clock that moves only with `AdvanceClock`.
    public var virtualClock = false
    /// `--testing`: serve `org.traitd.Layout1.Testing` (also with the virtual clock).
    public var testing = false
    /// `--strict-layouts`: a report with layout problems completes its transition as failed.
    public var strictLayouts = false
    /// Which layout checks are made, by which rule (the config's `layout-checks:`).
    public var layoutChecks = LayoutChecks()
    /// The configuration's starting state, what `Reset` goes back to (nil: the state the service starts in).
    public var startingState: DisplayState?

    public init(deadline: Double = 0.5, limits: Limits = Limits()) {
        self.deadline = deadline
        self.limits = limits
    }
}
