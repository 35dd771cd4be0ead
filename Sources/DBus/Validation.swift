import CDBus
import Glibc

/// Checks that stand between Swift values and libdbus, which aborts the whole process when it is handed
/// invalid UTF-8, an invalid object path, or an invalid bus, interface or member name.
public enum Validation {
    /// A string libdbus accepts as `s`: valid UTF-8 (always true of a Swift String) with no NUL byte, which a C
    /// string would silently cut short.
    public static func isValidString(_ s: String) -> Bool { check(s, dbus_validate_utf8) }

    public static func isValidObjectPath(_ s: String) -> Bool { check(s, dbus_validate_path) }
    public static func isValidInterfaceName(_ s: String) -> Bool { check(s, dbus_validate_interface) }
    public static func isValidMemberName(_ s: String) -> Bool { check(s, dbus_validate_member) }
    public static func isValidErrorName(_ s: String) -> Bool { check(s, dbus_validate_error_name) }
    public static func isValidBusName(_ s: String) -> Bool { check(s, dbus_validate_bus_name) }
    public static func isValidSignature(_ s: String) -> Bool { check(s, dbus_signature_validate) }
    /// A valid signature of exactly one complete type: what a variant may hold.
    public static func isValidSingleCompleteType(_ s: String) -> Bool { check(s, dbus_signature_validate_single) }

    /// Why libdbus refuses `s` as a signature, in its words ("Struct has no fields"); nil when it accepts it.
    public static func signatureProblem(_ s: String) -> String? {
        var error = CDBus.DBusError()
        dbus_error_init(&error)
        defer { dbus_error_free(&error) }
        guard s.withCString({ strlen($0) == s.utf8.count && dbus_signature_validate($0, &error) != 0 }) else {
            return dbus_error_is_set(&error) != 0 ? String(cString: error.message) : "it holds a NUL byte"
        }
        return nil
    }

    /// Runs one of libdbus's validators; a NUL byte fails first, since the C string would end there (found as a C
    /// string shorter than the Swift one: `strlen` is one vectorised pass, where `utf8.contains(0)` went byte by
    /// byte through a generic iterator, 1.4 % of traitd's time in a transition).
    private static func check(
        _ s: String, _ validate: (UnsafePointer<CChar>?, UnsafeMutablePointer<CDBus.DBusError>?) -> dbus_bool_t
    ) -> Bool {
        s.withCString { strlen($0) == s.utf8.count && validate($0, nil) != 0 }
    }

    /// Escapes any string into one valid object-path element: ASCII letters and digits stay, every other byte
    /// becomes `_` and two hex digits (so `_` itself is escaped and the mapping can be undone). The empty string
    /// becomes `_`.
    private static func isASCIILetterOrDigit(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default:
            return false
        }
    }

    public static func escapePathElement(_ s: String) -> String {
        if s.isEmpty { return "_" }
        if s.utf8.allSatisfy(Self.isASCIILetterOrDigit) { return s }  // most app names: nothing to escape
        var out = ""
        for byte in s.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                out += "_" + String(byte, radix: 16, uppercase: false).leftPadded(to: 2)
            }
        }
        return out
    }

    /// The inverse of `escapePathElement`; nil when `s` is not an escaped element.
    public static func unescapePathElement(_ s: String) -> String? {
        if s == "_" { return "" }
        var bytes: [UInt8] = []
        var utf8 = Array(s.utf8)[...]
        while let byte = utf8.popFirst() {
            if byte == UInt8(ascii: "_") {
                guard utf8.count >= 2, let value = UInt8(String(decoding: utf8.prefix(2), as: UTF8.self), radix: 16)
                else { return nil }
                bytes.append(value)
                utf8 = utf8.dropFirst(2)
            } else {
                bytes.append(byte)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
