/// Whether a string is a valid object path, interface, member, error or bus name: libdbus's rules
/// (`_dbus_validate_path`, `_dbus_validate_interface`, `_dbus_validate_member`, `_dbus_validate_bus_name`, in
/// dbus-marshal-validate.c), step for step, over the UTF-8 bytes.
///
/// What writes and reads the wire format without libdbus (`WireWriter`, `WireMessage`) checks names with these;
/// `DBus.Validation` asks libdbus itself where a value goes to libdbus. `fuzz-dbus-value` holds the two equal on
/// every string it tries.
public enum NameRules {
    /// The longest bus, interface, member or error name.
    public static let maximumNameLength = 255

    /// The path and interface libdbus keeps for itself (its `Disconnected` signal): the bus refuses a message
    /// that uses either, and closes the connection that sent it.
    public static let localPath = "/org/freedesktop/DBus/Local"
    /// The interface of libdbus's own `Disconnected` signal.
    public static let localInterface = "org.freedesktop.DBus.Local"

    /// `/`, or `/` and elements of ASCII letters, digits and `_`, separated by one `/`, with none after the last.
    public static func isValidObjectPath(_ s: String) -> Bool {
        var s = s
        return s.withUTF8 { bytes in
            guard bytes.first == UInt8(ascii: "/") else { return false }
            var lastSlash = 0
            for index in 1..<bytes.count {
                if bytes[index] == UInt8(ascii: "/") {
                    guard index - lastSlash >= 2 else { return false }  // an empty element
                    lastSlash = index
                } else if !isNameCharacter(bytes[index]) {
                    return false
                }
            }
            return bytes.count == 1 || bytes.count - lastSlash >= 2  // no slash at the end
        }
    }

    /// Two or more elements separated by `.`, each starting with a letter or `_` and going on with letters,
    /// digits and `_`; at most 255 bytes.
    public static func isValidInterfaceName(_ s: String) -> Bool {
        var s = s
        return s.withUTF8 { dotted($0, from: 0, busName: false, needsDot: true) }
    }

    /// An error name follows an interface name's rules.
    public static func isValidErrorName(_ s: String) -> Bool { isValidInterfaceName(s) }

    /// One element: a letter or `_`, then letters, digits and `_`; at most 255 bytes.
    public static func isValidMemberName(_ s: String) -> Bool {
        var s = s
        return s.withUTF8 { bytes in
            guard !bytes.isEmpty, bytes.count <= maximumNameLength, isInitialNameCharacter(bytes[0]) else { return false }
            for index in 1..<bytes.count where !isNameCharacter(bytes[index]) { return false }
            return true
        }
    }

    /// A unique name (`:` and elements of letters, digits, `_` and `-`, any of them first, separated by `.`) or a
    /// well-known one (two or more elements, none starting with a digit); at most 255 bytes.
    public static func isValidBusName(_ s: String) -> Bool {
        var s = s
        return s.withUTF8 { bytes in
            guard !bytes.isEmpty, bytes.count <= maximumNameLength else { return false }
            if bytes[0] == UInt8(ascii: ":") { return dotted(bytes, from: 1, busName: true, needsDot: false) }
            return dotted(bytes, from: 0, busName: true, needsDot: true)
        }
    }

    // MARK: Internals

    /// libdbus's walk over dotted names: the first byte (unless `from` skips a unique name's `:`) must start an
    /// element, as must every byte after a `.`; the others must be name characters (`busName`: `-` too, and a
    /// unique name's elements may start with a digit).
    private static func dotted(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, busName: Bool, needsDot: Bool) -> Bool {
        guard !bytes.isEmpty, bytes.count <= maximumNameLength else { return false }
        let unique = start > 0
        func initial(_ byte: UInt8) -> Bool {
            unique ? isBusNameCharacter(byte) : busName ? isInitialBusNameCharacter(byte) : isInitialNameCharacter(byte)
        }
        func following(_ byte: UInt8) -> Bool { busName ? isBusNameCharacter(byte) : isNameCharacter(byte) }
        var index = start
        if start == 0 {
            guard bytes[0] != UInt8(ascii: "."), initial(bytes[0]) else { return false }
            index = 1
        }
        var sawDot = false
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: ".") {
                guard index + 1 < bytes.count, initial(bytes[index + 1]) else { return false }
                sawDot = true
                index += 1  // the byte after the dot is checked
            } else if !following(bytes[index]) {
                return false
            }
            index += 1
        }
        return sawDot || !needsDot
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
    }

    private static func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }

    private static func isInitialNameCharacter(_ byte: UInt8) -> Bool { isLetter(byte) || byte == UInt8(ascii: "_") }

    private static func isNameCharacter(_ byte: UInt8) -> Bool { isInitialNameCharacter(byte) || isDigit(byte) }

    private static func isInitialBusNameCharacter(_ byte: UInt8) -> Bool {
        isInitialNameCharacter(byte) || byte == UInt8(ascii: "-")
    }

    private static func isBusNameCharacter(_ byte: UInt8) -> Bool { isNameCharacter(byte) || byte == UInt8(ascii: "-") }
}
