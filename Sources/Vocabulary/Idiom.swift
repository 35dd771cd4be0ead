/// The kind of device the traits describe (`UIUserInterfaceIdiom`).
public enum Idiom: String, Sendable, CaseIterable, Codable, CustomStringConvertible {
    case pad
    case phone

    /// The name on the bus and in config files, also in text and logs.
    public var description: String { rawValue }
}
