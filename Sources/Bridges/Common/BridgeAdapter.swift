import Adapters

/// An adapter whose layout comes from a program outside the host (a page in headless Chromium: `WebPage`; a
/// desktop app on the host's own display: `DesktopApp`): laid out asynchronously and reported as the host's pure
/// adapters are. The host calls a bridge's `layout` one transition at a time, in their order (`AdapterHost`),
/// so a bridge, which suspends at every call to its program, never lays out two at once. A bridge that cannot
/// lay out (the program died, the page would not load, a call to it passed its limit) reports `failed` with why.
public protocol BridgeAdapter: Sendable {
    /// The adapter's name on the bus (`web`).
    var name: String { get }
    /// The app whose window it lays out.
    var app: String { get }
    /// Gets the program ready (the page loaded, the app's window shown), first in the bridge's queue: its
    /// layouts wait for it, no other adapter does. Returns what is ready, for the host's log; a failure is
    /// logged, and the bridge's reports say it. Bounded like every call the bridge makes.
    func prepare() async throws -> String
    func layout(_ window: WindowContext) async -> AdapterResult
    /// Ends the program, if the bridge started one (the host is exiting).
    func stop() async
}
