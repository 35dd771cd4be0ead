import DBus
import FoundationEssentials
import TraitModel
import Vocabulary

/// What the daemon keeps between runs: the display (device, orientation, arrangement, apps and their roles,
/// apps in the background) and every app's restoration state.
public struct SavedState: Codable, Equatable, Sendable {
    public static let currentVersion = 1

    public var version: Int
    public var display: DisplayState
    /// app -> its `RestorationState` (`a{sv}`) in the D-Bus wire format, base64: exact for every D-Bus type.
    public var restoration: [String: String]

    public init(display: DisplayState, restoration: [String: [String: DBusValue]]) throws {
        version = Self.currentVersion
        self.display = display
        self.restoration = try restoration.mapValues { Data(try Marshalling.encode([.vardict($0)])).base64EncodedString() }
    }

    /// The restoration states, decoded; throws when one is not a marshalled `a{sv}`.
    public func restorationStates() throws -> [String: [String: DBusValue]] {
        try restoration.mapValues { text in
            guard let data = Data(base64Encoded: text) else { throw StateStore.Problem("a restoration state is not base64") }
            let values = try Marshalling.decode([UInt8](data))
            guard values.count == 1, values[0].signature == "a{sv}",
                  let dictionary = try? values[0].uniqueDictionary("a restoration state") else {
                throw StateStore.Problem("a restoration state is not an a{sv} dictionary with one value per key")
            }
            return dictionary
        }
    }
}
