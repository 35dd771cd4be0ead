/// The part an app window plays on the display.
public enum Role: String, Sendable, CaseIterable, Codable, CustomStringConvertible {
    /// Full screen, or the left side of a split.
    case primary
    /// The right side of a split (or, with `full`, the app waiting in the background).
    case secondary
    /// The secondary app floating over the primary.
    case slideOver = "slide-over"
    /// A floating Picture-in-Picture window.
    case pip
    /// A free-form window (Stage Manager, windowed apps): any frame, overlapping others (`Windowing.isFreeForm`).
    case window

    /// The name on the bus and in config files, also in text and logs.
    public var description: String { rawValue }

    public static var names: String { allCases.map(\.rawValue).joined(separator: ", ") }
}
