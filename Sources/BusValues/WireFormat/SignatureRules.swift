/// Whether a D-Bus signature is valid: libdbus's rules (`_dbus_validate_signature_with_reason`), step for step,
/// without its allocations.
///
/// libdbus keeps the fields counted in each open struct and dict entry in a linked list, and allocates or frees a
/// node of it, under a global lock, for nearly every character: checking the signatures of a few-hundred-byte
/// signal that way cost more than writing it (callgrind). `WireWriter` checks every signature it writes with
/// this instead. `fuzz-dbus-value` holds the two equal on every string it tries, against libdbus's own
/// validators (`Validation.isValidSignature`, `Validation.isValidSingleCompleteType`).
public enum SignatureRules {
    /// `signature` is valid (`single`: and is exactly one complete type, as a variant's signature must be).
    public static func isValid(_ signature: String, single: Bool = false) -> Bool {
        var signature = signature
        return signature.withUTF8 { isValid($0, single: single) }
    }

    /// The same on a signature's characters (no length byte, no NUL).
    public static func isValid(_ signature: UnsafeBufferPointer<UInt8>, single: Bool = false) -> Bool {
        guard signature.count <= WireLimits.maximumSignatureLength else { return false }
        if single { return follows(signature) && isOneCompleteType(signature) }
        return follows(signature)
    }

    /// libdbus's limit on arrays in a row, and on structs and on dict entries nested in one signature.
    static let maximumNesting = 32

    // MARK: Internals

    /// The basic types' codes (`h`, a Unix file descriptor, among them): what a dict entry's key may be.
    private static func isBasic(_ code: UInt8) -> Bool {
        switch code {
        case UInt8(ascii: "y"), UInt8(ascii: "b"), UInt8(ascii: "n"), UInt8(ascii: "q"), UInt8(ascii: "i"),
             UInt8(ascii: "u"), UInt8(ascii: "x"), UInt8(ascii: "t"), UInt8(ascii: "d"), UInt8(ascii: "s"),
             UInt8(ascii: "o"), UInt8(ascii: "g"), UInt8(ascii: "h"):
            return true
        default:
            return false
        }
    }

    /// The rules, in libdbus's order. Every open struct and dict entry counts the complete types in it (a dict
    /// entry must end with exactly two) and must be closed by its own bracket (libdbus 1.14.4 on, CVE-2022-42010:
    /// `(a{s)i}` is refused, though the counts alone would pass it); the counts and brackets live on a stack that
    /// never holds more than one per open container and one for the whole, so a fixed buffer does.
    private static func follows(_ signature: UnsafeBufferPointer<UInt8>) -> Bool {
        withUnsafeTemporaryAllocation(of: (count: Int, opened: UInt8).self, capacity: 2 * maximumNesting + 1) { open in
            var top = 0
            open[0] = (0, 0)
            var structDepth = 0, arrayDepth = 0, dictEntryDepth = 0
            var last: UInt8 = 0
            for (index, code) in signature.enumerated() {
                switch code {
                case UInt8(ascii: "v"):
                    break
                case _ where isBasic(code):
                    break
                case UInt8(ascii: "a"):
                    arrayDepth += 1
                    if arrayDepth > maximumNesting { return false }
                case UInt8(ascii: "("):
                    structDepth += 1
                    if structDepth > maximumNesting { return false }
                    top += 1
                    open[top] = (0, code)
                case UInt8(ascii: ")"):
                    if structDepth == 0 || last == UInt8(ascii: "(") || open[top].opened != UInt8(ascii: "(") { return false }
                    top -= 1
                    structDepth -= 1
                case UInt8(ascii: "{"):
                    if last != UInt8(ascii: "a") { return false }
                    dictEntryDepth += 1
                    if dictEntryDepth > maximumNesting { return false }
                    top += 1
                    open[top] = (0, code)
                case UInt8(ascii: "}"):
                    if dictEntryDepth == 0 || open[top].opened != UInt8(ascii: "{") { return false }
                    dictEntryDepth -= 1
                    let fields = open[top].count
                    top -= 1
                    if fields != 2 { return false }
                default:
                    return false
                }
                // A complete type ended here (anything but the start of an array, struct or dict entry): one
                // more field for the container around it.
                if code != UInt8(ascii: "a"), code != UInt8(ascii: "{"), code != UInt8(ascii: "(") {
                    open[top].count += 1
                }
                if arrayDepth > 0 {
                    if code == UInt8(ascii: "a") {
                        let next = index + 1 < signature.count ? signature[index + 1] : 0
                        if next == UInt8(ascii: ")") || next == UInt8(ascii: "}") { return false }
                    } else {
                        arrayDepth = 0
                    }
                }
                if last == UInt8(ascii: "{"), !isBasic(code) { return false }
                last = code
            }
            return arrayDepth == 0 && structDepth == 0 && dictEntryDepth == 0
        }
    }

    /// Whether a valid signature is one complete type (libdbus: `dbus_signature_validate_single`, skipping one
    /// type with `_dbus_type_signature_next`).
    private static func isOneCompleteType(_ signature: UnsafeBufferPointer<UInt8>) -> Bool {
        var position = 0
        while position < signature.count, signature[position] == UInt8(ascii: "a") { position += 1 }
        guard position < signature.count else { return false }
        let open = signature[position]
        if open == UInt8(ascii: "(") || open == UInt8(ascii: "{") {
            let close = open == UInt8(ascii: "(") ? UInt8(ascii: ")") : UInt8(ascii: "}")
            var depth = 1
            while depth > 0 {
                position += 1
                guard position < signature.count else { return false }
                if signature[position] == open { depth += 1 } else if signature[position] == close { depth -= 1 }
            }
        }
        return position + 1 == signature.count
    }
}
