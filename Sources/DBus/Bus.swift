/// Calls to the message bus itself (`org.freedesktop.DBus`).
extension Connection {
    public static let busName = "org.freedesktop.DBus"
    public static let busPath = "/org/freedesktop/DBus"

    public enum RequestNameReply: UInt32, Sendable {
        case primaryOwner = 1, inQueue = 2, exists = 3, alreadyOwner = 4
    }

    /// Asks for `name` without queueing: the reply says whether this connection now owns it.
    public func requestName(_ name: String) async throws -> RequestNameReply {
        let doNotQueue: UInt32 = 4
        let reply = try await callBus("RequestName", [.string(name), .uint32(doNotQueue)])
        guard case .uint32(let code)? = reply.first, let result = RequestNameReply(rawValue: code) else {
            throw DBusError.failed("unexpected reply to RequestName")
        }
        return result
    }

    public func releaseName(_ name: String) async throws {
        _ = try await callBus("ReleaseName", [.string(name)])
    }

    /// The unique name that owns `name`, or nil when nobody does.
    public func nameOwner(_ name: String) async throws -> String? {
        do {
            return try await callBus("GetNameOwner", [.string(name)]).first?.string
        } catch let error as DBusError where error.name == "org.freedesktop.DBus.Error.NameHasNoOwner" {
            return nil
        }
    }

    /// Asks the bus to route messages matching `rule` to this connection.
    public func addMatch(_ rule: String) async throws {
        _ = try await callBus("AddMatch", [.string(rule)])
    }

    public func removeMatch(_ rule: String) async throws {
        _ = try await callBus("RemoveMatch", [.string(rule)])
    }

    private func callBus(_ member: String, _ arguments: [DBusValue]) async throws -> [DBusValue] {
        try await call(
            destination: Self.busName, path: Self.busPath, interface: Self.busName, member: member, arguments)
    }
}

extension Connection {
    /// Which bus a connection is to.
    public enum Bus: Sendable, Equatable, CustomStringConvertible {
        case session, system, address(String)

        /// `session`, `system`, or anything else taken as a D-Bus address (`unix:path=...`).
        public init(argument: String) {
            switch argument {
            case "session": self = .session
            case "system": self = .system
            default: self = .address(argument)
            }
        }

        public var description: String {
            switch self {
            case .session: return "session"
            case .system: return "system"
            case .address(let a): return a
            }
        }
    }
}
