import DBus

/// Names of adapters, of the elements they report and of extras keys: 1-64 characters from A-Z a-z 0-9 `_ - . :`
/// (safe in logs, object properties and shell scripts; `:` for the desktop bridge's `button:Undo`).
public enum ReportName {
    public static let rule = "1-64 characters from A-Z, a-z, 0-9, '_', '-', '.' and ':'"

    public static func isValid(_ name: String) -> Bool {
        (1...64).contains(name.utf8.count)
            && name.utf8.allSatisfy { byte in
                (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                    || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
                    || byte == UInt8(ascii: ":")
            }
    }

    /// Throws `InvalidArgs` naming `what` ("adapter", "element", "extras key") and the rule.
    public static func check(_ name: String, what: String) throws {
        guard isValid(name) else {
            throw DBusError.invalidArgs("'\(name.printable)' is not a valid \(what) name: use \(rule)")
        }
    }
}
