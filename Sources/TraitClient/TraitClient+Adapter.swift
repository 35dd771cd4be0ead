import DBus
import TraitProtocol
import Vocabulary

/// The adapter side of the protocol: register for an app, report a layout for each transition, and keep an
/// app's restoration state. A registration belongs to this client's connection and ends when it closes.
extension TraitClient {
    private typealias D = Layout1.Display
    private typealias W = Layout1.Window

    /// Registers this connection as `adapter` of `app`'s window: its transitions wait for this adapter's reports.
    public func registerAdapter(_ adapter: String, for app: String) async throws {
        try await call(D.registerAdapter, (app, adapter))
    }

    /// Ends a registration this connection made.
    public func unregisterAdapter(_ adapter: String, for app: String) async throws {
        try await call(D.unregisterAdapter, (app, adapter))
    }

    /// Every registration: app, adapter and the connection that owns it.
    public func listAdapters() async throws -> [AdapterRegistration] { try await call(D.listAdapters, ()) }

    /// Reports `adapter`'s layout of `app`'s window for `transition` (0: the current geometry, outside any
    /// transition): element frames in window coordinates. Put `"error": .string(reason)` in `extras` to report a
    /// layout that failed.
    public func reportLayout(
        app: String, transition: UInt64, adapter: String, frames: [String: Rect], extras: [String: DBusValue] = [:]
    ) async throws {
        try await call(W.reportLayout, (transition, adapter, frames, extras), window: app)
    }

    /// Replaces `app`'s restoration state; returns once the daemon has it on disk.
    public func setRestorationState(_ state: [String: DBusValue], for app: String) async throws {
        try await call(W.setRestorationState, .vardict(state), window: app)
    }

    /// `app`'s restoration state, whether it is on screen or in the background (`GetRestorationState`).
    public func restorationState(of app: String) async throws -> [String: DBusValue] {
        try await call(D.getRestorationState, app)
    }

    /// `/org/traitd/Layout1/window/<app>`, the app name escaped as the daemon does.
    public static func windowPath(_ app: String) -> String { Layout1.windowPath(app) }
}
