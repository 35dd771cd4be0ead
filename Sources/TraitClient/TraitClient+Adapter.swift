import DBus
import TraitProtocol

/// The adapter side of the protocol: register for an app, report a layout for each transition, and keep an
/// app's restoration state. A registration belongs to this client's connection and ends when it closes.
extension TraitClient {
    /// A frame in points: x, y, width, height.
    public typealias Frame = (x: Double, y: Double, width: Double, height: Double)

    /// One registration, as `ListAdapters` returns it.
    public typealias Registration = AdapterRegistration

    public func registerAdapter(_ adapter: String, for app: String) async throws {
        _ = try await display("RegisterAdapter", [.string(app), .string(adapter)])
    }

    public func unregisterAdapter(_ adapter: String, for app: String) async throws {
        _ = try await display("UnregisterAdapter", [.string(app), .string(adapter)])
    }

    public func listAdapters() async throws -> [Registration] {
        let reply = try await display("ListAdapters", [])
        return (reply.first?.elements ?? []).compactMap { item in
            guard let fields = item.elements, fields.count == 3, let app = fields[0].string,
                  let adapter = fields[1].string, let owner = fields[2].string else { return nil }
            return Registration(app: app, adapter: adapter, owner: owner)
        }
    }

    /// Reports `adapter`'s layout of `app`'s window for `transition` (0: the current geometry, outside any
    /// transition). Put `"error": .string(reason)` in `extras` to report a layout that failed.
    public func reportLayout(
        app: String, transition: UInt64, adapter: String, frames: [String: Frame], extras: [String: DBusValue] = [:]
    ) async throws {
        let entries = frames.keys.sorted().map { name -> DBusValue in
            let f = frames[name]!
            return .dictEntry(.string(name), .doubles([f.x, f.y, f.width, f.height]))
        }
        _ = try await window(app, "ReportLayout", [
            .uint64(transition), .string(adapter), .array(element: "{s(dddd)}", entries), .vardict(extras),
        ])
    }

    /// Replaces `app`'s restoration state.
    public func setRestorationState(_ state: [String: DBusValue], for app: String) async throws {
        _ = try await window(app, "SetRestorationState", [.vardict(state)])
    }

    /// `app`'s restoration state, whether it is on screen or in the background (`GetRestorationState`).
    public func restorationState(of app: String) async throws -> [String: DBusValue] {
        let reply = try await display("GetRestorationState", [.string(app)])
        return (reply.first?.dictionary ?? [:]).mapValues(\.unwrapped)
    }

    /// `/org/traitd/Layout1/window/<app>`, the app name escaped as the daemon does.
    public static func windowPath(_ app: String) -> String { Layout1.windowPath(app) }

    func window(_ app: String, _ member: String, _ arguments: [DBusValue]) async throws -> [DBusValue] {
        try await connection.call(
            destination: Self.busName, path: Self.windowPath(app), interface: Self.windowInterface, member: member,
            arguments)
    }
}
