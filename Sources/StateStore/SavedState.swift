import BusValues
import FoundationEssentials
import TraitModel
import Vocabulary

/// What the daemon keeps between runs: the display (device, orientation, arrangement, apps and their roles,
/// apps in the background) and every app's restoration state.
public struct SavedState: Codable, Equatable, Sendable {
    public static let currentVersion = 1

    public var version: Int
    public var display: DisplayState
    /// app -> its `RestorationState` (`a{sv}`) in the D-Bus wire format, base64: exact for every D-Bus type. The
    /// bytes are a whole signal carrying the state (`WireMessage`; libdbus's `dbus_message_marshal` wrote the
    /// same bytes before traitd wrote them itself).
    public var restoration: [String: String]

    /// Where the marshalled signal says it comes from: nothing reads it, but a message must have them.
    static let storedPath = "/org/traitd/Stored", storedInterface = "org.traitd.Stored", storedMember = "Values"

    public init(display: DisplayState, restoration: [String: [String: DBusValue]]) throws {
        version = Self.currentVersion
        self.display = display
        self.restoration = try restoration.mapValues { state in
            let bytes = try WireMessage.signal(path: Self.storedPath, interface: Self.storedInterface, member: Self.storedMember,
                                               [.vardict(state)])
            return Data(bytes).base64EncodedString()
        }
    }

    /// The restoration states, decoded; throws when one is not a marshalled `a{sv}`.
    public func restorationStates() throws -> [String: [String: DBusValue]] {
        try restoration.mapValues { text in
            guard let data = Data(base64Encoded: text) else { throw StateStore.Problem("a restoration state is not base64") }
            let values: [DBusValue]
            do {
                values = try WireMessage(reading: [UInt8](data)).values
            } catch {
                throw StateStore.Problem("a restoration state is \(error)")
            }
            guard values.count == 1, values[0].signature == "a{sv}",
                  let dictionary = try? values[0].uniqueDictionary("a restoration state") else {
                throw StateStore.Problem("a restoration state is not an a{sv} dictionary with one value per key")
            }
            return dictionary
        }
    }
}
