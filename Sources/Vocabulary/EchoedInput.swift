extension String {
    /// At most 40 characters, control characters as `?`, for error messages that echo user input: a 3 MB name
    /// in a refusal is echoed as its first 40 characters and its size. Linear in the 41 characters it looks at,
    /// whatever the input's length.
    public var shortened: String {
        let head = String(unicodeScalars.prefix(41).map { $0.value < 0x20 ? "?" : Character($0) })
        return head.count > 40 ? String(head.prefix(40)) + "… (\(utf8.count) bytes)" : head
    }
}
