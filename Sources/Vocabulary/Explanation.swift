/// One line of a window's explanation (`Explain`, `traitctl explain`): the value it explains and why, in a
/// sentence with the numbers and where they come from.
public struct Explanation: Sendable, Hashable, CustomStringConvertible {
    /// `frame`, `horizontalSizeClass`, `verticalSizeClass`, `safeArea`, `traits`, `state`; the service adds
    /// `lastTransition`, `layouts` and `problems`.
    public var topic: String
    public var text: String

    public init(_ topic: String, _ text: String) {
        self.topic = topic
        self.text = text
    }

    public var description: String { "\(topic): \(text)" }
}
