/// What a reported element is, for the layout checks (`ReportLayout`'s extras `kinds`, a layout file's `kind`
/// lines): the checks ask only of what a person sees and touches that it stays in the window and the safe
/// area, apart from its neighbours and big enough to hit.
public enum ElementKind: String, Sendable, CaseIterable, Codable, CustomStringConvertible {
    /// Drawn behind the rest (a backdrop, a bar's material): may fill the window under the safe area, and
    /// lies under what it backs.
    case background
    /// Holds other elements (a column, a stack, a scroll view): may reach under the safe area, and holds or
    /// lies under what it holds.
    case container
    /// Something shown (an image, a canvas, a cell): the default for an element without a kind.
    case content
    /// Something a person taps or drags: a button, a slider's knob. It must be big enough to hit.
    case control
    /// Words to read: a label, a title.
    case text

    /// The kinds a person reads or touches, which must stay in the safe area and apart from each other.
    public var isForeground: Bool { self == .content || self == .control || self == .text }

    /// The name on the bus and in layout files, also in text and logs.
    public var description: String { rawValue }

    /// `background, container, content, control, text`: the words, for a refusal's message.
    public static let wordList = allCases.map(\.rawValue).joined(separator: ", ")
}
