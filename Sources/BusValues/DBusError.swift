/// A D-Bus error: a name such as `org.freedesktop.DBus.Error.InvalidArgs` and a message for a person.
///
/// Method handlers throw it to send an error reply; calls that get an error reply throw it.
public struct DBusError: Error, Sendable, Equatable, CustomStringConvertible {
    public var name: String
    public var message: String

    public init(_ name: String, _ message: String) {
        self.name = name
        self.message = message
    }

    public var description: String { "\(name): \(message)" }
}

extension DBusError {
    // Standard error names from the D-Bus specification.
    public static let failedName = "org.freedesktop.DBus.Error.Failed"
    public static let invalidArgsName = "org.freedesktop.DBus.Error.InvalidArgs"
    public static let accessDeniedName = "org.freedesktop.DBus.Error.AccessDenied"
    public static let unknownMethodName = "org.freedesktop.DBus.Error.UnknownMethod"
    public static let unknownInterfaceName = "org.freedesktop.DBus.Error.UnknownInterface"
    public static let unknownObjectName = "org.freedesktop.DBus.Error.UnknownObject"
    public static let unknownPropertyName = "org.freedesktop.DBus.Error.UnknownProperty"
    public static let propertyReadOnlyName = "org.freedesktop.DBus.Error.PropertyReadOnly"
    public static let noReplyName = "org.freedesktop.DBus.Error.NoReply"
    public static let disconnectedName = "org.freedesktop.DBus.Error.Disconnected"
    public static let limitsExceededName = "org.freedesktop.DBus.Error.LimitsExceeded"
    public static let ioErrorName = "org.freedesktop.DBus.Error.IOError"

    public static func invalidArgs(_ message: String) -> DBusError { DBusError(invalidArgsName, message) }
    public static func failed(_ message: String) -> DBusError { DBusError(failedName, message) }

    /// A dictionary read from the bus whose `key` appears twice (`what` names the dictionary).
    public static func repeatedKey(_ key: String, in what: String) -> DBusError {
        invalidArgs("\(what): the key '\(key.printable)' appears twice; a dictionary has one value per key")
    }

    /// Runs `body`; a `DBusError` it throws comes out under the same name with `context` before its message
    /// (`GetState replied: no property Orientation in the reply`).
    public static func inContext<T>(_ context: String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as DBusError {
            throw DBusError(error.name, "\(context): \(error.message)")
        }
    }
}
