extension String {
    /// A short, printable rendering for error messages: NULs and control characters escaped, long strings cut.
    public var printable: String {
        var out = ""
        for scalar in unicodeScalars.prefix(80) {
            if scalar.value < 0x20 || scalar.value == 0x7f {
                out += "\\u{\(String(scalar.value, radix: 16))}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return unicodeScalars.count > 80 ? out + "…(\(utf8.count) bytes)" : out
    }
}
