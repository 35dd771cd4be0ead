/// App names: `[A-Za-z0-9_-]{1,64}`, so that they are safe in object paths, logs and shell scripts.
public enum AppName {
    public static let maximumLength = 64
    public static let rule = "1-64 characters from A-Z, a-z, 0-9, '_' and '-'"

    public static func isValid(_ name: String) -> Bool {
        guard (1...maximumLength).contains(name.utf8.count) else { return false }
        return name.utf8.allSatisfy { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "_")
                || byte == UInt8(ascii: "-")
        }
    }
}
