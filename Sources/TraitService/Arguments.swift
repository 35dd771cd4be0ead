import DBus
import TraitModel

/// Turns method arguments into model values, refusing anything malformed with `InvalidArgs` and a message that
/// says what was wrong and what is allowed. Argument *types* were already checked by the object server.
enum Arguments {
    /// No argument of ours needs more than this; a longer one is refused before it is echoed or parsed.
    static let maximumStringLength = 256

    static func string(_ value: DBusValue, _ what: String) throws -> String {
        guard let s = value.string else { throw DBusError.invalidArgs("\(what) must be a string") }
        guard !s.isEmpty else { throw DBusError.invalidArgs("\(what) is empty") }
        guard s.utf8.count <= maximumStringLength else {
            throw DBusError.invalidArgs("\(what) is \(s.utf8.count) bytes long; at most \(maximumStringLength) are allowed")
        }
        return s
    }

    static func choice<T: RawRepresentable & CaseIterable>(_ value: DBusValue, _ what: String, _: T.Type) throws -> T
    where T.RawValue == String {
        let text = try string(value, what)
        guard let result = T(rawValue: text) else {
            throw DBusError.invalidArgs(
                "unknown \(what) '\(text.printable)'; expected one of: \(T.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return result
    }

    static func appName(_ value: DBusValue) throws -> String {
        let name = try string(value, "the app name")
        guard AppName.isValid(name) else {
            throw DBusError.invalidArgs("'\(name.printable)' is not a valid app name: use \(AppName.rule)")
        }
        return name
    }

    static func adapterName(_ value: DBusValue) throws -> String {
        let name = try string(value, "the adapter name")
        try LayoutReport.checkName(name, what: "adapter")
        return name
    }
}
