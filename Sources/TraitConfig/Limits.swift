/// Bounds on what clients may ask of the daemon, so that no client can make it grow without limit. Each is a
/// key under `limits:` in the configuration; a call past one is refused with
/// `org.traitd.Layout1.Error.LimitExceeded` and a message that names the limit.
public struct Limits: Sendable, Equatable {
    /// Adapter registrations one bus connection may hold.
    public var adaptersPerConnection = 64
    /// Adapters registered for one app's window, across all connections.
    public var adaptersPerWindow = 256
    /// Elements in one `ReportLayout`.
    public var elementsPerReport = 256
    /// Entries in one report's extras.
    public var extrasPerReport = 64
    /// Bytes of one window's restoration state, in the D-Bus wire format.
    public var restorationBytes = 65_536

    public init() {}
}
