/// An app's lifecycle state, as `UIApplication.State`.
public enum AppState: String, Sendable, CaseIterable, Codable, CustomStringConvertible {
    case active
    case inactive
    case background

    /// The name on the bus and in config files, also in text and logs.
    public var description: String { rawValue }
}
