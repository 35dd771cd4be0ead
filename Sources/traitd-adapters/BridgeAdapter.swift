import Adapters

/// An adapter whose layout comes from a program outside the host (a page in headless Chromium: `WebPage`):
/// laid out asynchronously, each transition after the one before, and reported as the host's pure adapters
/// are. A bridge that cannot lay out (the program died, the page would not load) reports `failed` with why;
/// the daemon's deadline bounds one that hangs.
protocol BridgeAdapter: Sendable {
    /// The adapter's name on the bus (`web`).
    var name: String { get }
    /// The app whose window it lays out.
    var app: String { get }
    func layout(_ window: WindowContext) async -> AdapterResult
}
