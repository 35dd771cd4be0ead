/// How the display shows apps: Split View and Slide Over at the device's fixed widths (iPadOS 9 to 15), or
/// free-form windows of any size that overlap (Stage Manager, iPadOS 16; windowed apps, iPadOS 26).
public enum Windowing: String, Sendable, CaseIterable, Codable, CustomStringConvertible {
    /// Full screen, Split View 2/3 · 1/2 · 1/3, Slide Over: the arrangements of the device's tables.
    case splitView = "split-view"
    /// Stage Manager: free windows, at most `FreeFormRules.stageLimit` on the stage.
    case stageManager = "stage-manager"
    /// iPadOS 26's windowed apps: free windows, at most the configured `windowed-limit`.
    case windowed

    /// Whether windows have any frame (role `window`) rather than the arrangements' fixed ones.
    public var isFreeForm: Bool { self != .splitView }

    /// The name on the bus and in config files, also in text and logs.
    public var description: String { rawValue }

    public static var names: String { allCases.map(\.rawValue).joined(separator: ", ") }
}
