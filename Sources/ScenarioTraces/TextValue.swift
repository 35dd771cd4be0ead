import DBus

/// A value written as text (`traitctl restore set mail scroll=120.5`, a scenario's `restore:` step), typed by
/// its form: 42 is an int64, 1.5 a double, true or false a boolean, anything else a string; `string:` before
/// it forces a string (`string:42`).
public enum TextValue {
    public static func value(_ text: String) -> DBusValue {
        if text.hasPrefix("string:") { return .string(String(text.dropFirst(7))) }
        if let n = Int64(text) { return .int64(n) }
        if let d = Double(text), text.contains(where: { $0 == "." || $0 == "e" || $0 == "E" }) { return .double(d) }
        if text == "true" || text == "false" { return .boolean(text == "true") }
        return .string(text)
    }
}
