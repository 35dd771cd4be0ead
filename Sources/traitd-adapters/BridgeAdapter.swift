import Adapters

/// An adapter whose layout comes from a program outside the host (a page in headless Chromium: `WebPage`; a
/// desktop app on the host's own display: `DesktopApp`): laid out asynchronously and reported as the host's pure
/// adapters are. The host calls a bridge's `layout` one transition at a time, in their order (`AdapterHost`),
/// so a bridge, which suspends at every call to its program, never lays out two at once. A bridge that cannot
/// lay out (the program died, the page would not load) reports `failed` with why; the daemon's deadline bounds
/// one that hangs.
protocol BridgeAdapter: Sendable {
    /// The adapter's name on the bus (`web`).
    var name: String { get }
    /// The app whose window it lays out.
    var app: String { get }
    /// Gets the program ready (the page loaded), before the bridge registers: a transition that waits for it
    /// then waits for a layout, not for a browser starting. A failure is logged; the bridge's reports say it.
    func prepare() async throws
    func layout(_ window: WindowContext) async -> AdapterResult
    /// Ends the program, if the bridge started one (the host is exiting).
    func stop() async
}
