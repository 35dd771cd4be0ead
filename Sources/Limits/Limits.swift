/// Bounds on what clients may ask of the daemon (the config's `limits:`). A call past one is refused with
/// `org.traitd.Layout1.Error.LimitExceeded`, naming the limit, and changes nothing.
///
/// The byte and depth limits exist so that everything traitd later publishes (each window's
/// `RestorationState`, `Layouts` and `LayoutExtras`, and `GetState` and `GetManagedObjects`, which carry all of
/// them at once) stays far inside what D-Bus carries: 64 nested containers and 64 MiB per array in any
/// message, 128 MiB per message, and the bus's own `max_message_size` (32 MiB on a system bus by default).
/// traitd's deepest wrapping of a client's value is 9 containers (`GetManagedObjects` around `LayoutExtras`),
/// so a value of at most `valueDepth` (32) stays within 41 of D-Bus's 64.
public struct Limits: Sendable, Equatable {
    /// Adapter registrations one bus connection may hold.
    public var adaptersPerConnection = 64
    /// Adapters registered for one app's window, across all connections.
    public var adaptersPerWindow = 256
    /// Adapter registrations in all (they are listed by `ListAdapters`, one message).
    public var adaptersTotal = 4096
    /// Elements in one `ReportLayout`.
    public var elementsPerReport = 256
    /// Entries in one report's extras.
    public var extrasPerReport = 64
    /// Containers nested in one restoration state or one report's extras, counting its own `a{sv}` (an
    /// `a{sv}` of plain values is 3 deep: the array, the dict entry, the variant).
    public var valueDepth = 32
    /// Bytes of one window's restoration state, in the D-Bus wire format.
    public var restorationBytes = 65_536
    /// Bytes of one `ReportLayout`'s frames and extras, in the D-Bus wire format.
    public var reportBytes = 65_536
    /// Bytes one window publishes from its clients: its restoration state and every adapter's latest report.
    public var windowBytes = 1_048_576
    /// Bytes all windows and apps in the background publish from their clients, together.
    public var totalBytes = 8_388_608

    public init() {}

    /// How each limit is spelt in the config, with the range it may be set to. The byte ranges keep the sum
    /// of everything published (`total-bytes`, at most 16 MiB) inside a system bus's 32 MiB message limit.
    public static let keys: [(key: String, path: any WritableKeyPath<Limits, Int> & Sendable, range: ClosedRange<Double>)] = [
        ("adapters-per-connection", \.adaptersPerConnection, 1...4096),
        ("adapters-per-window", \.adaptersPerWindow, 1...4096),
        ("adapters-total", \.adaptersTotal, 1...65_536),
        ("elements-per-report", \.elementsPerReport, 1...65_536),
        ("extras-per-report", \.extrasPerReport, 0...4096),
        ("value-depth", \.valueDepth, 3...40),
        ("restoration-bytes", \.restorationBytes, 64...4_194_304),
        ("report-bytes", \.reportBytes, 64...4_194_304),
        ("window-bytes", \.windowBytes, 1024...8_388_608),
        ("total-bytes", \.totalBytes, 1024...16_777_216),
    ]
}
