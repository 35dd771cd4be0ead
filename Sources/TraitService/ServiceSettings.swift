import Limits

/// The service's settings from the configuration.
public struct ServiceSettings: Sendable {
    /// Seconds a transition waits for its adapters.
    public var deadline: Double
    public var limits: Limits

    public init(deadline: Double = 0.5, limits: Limits = Limits()) {
        self.deadline = deadline
        self.limits = limits
    }
}
