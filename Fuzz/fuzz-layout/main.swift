// Fuzz target: the layout-file parser (`*.layout`). Any text either parses or throws a ParseError with a
// file:line:column position inside the input; nothing else.
import FuzzSupport
import Layout

@_cdecl("LLVMFuzzerTestOneInput")
func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = FuzzTarget.bytes(data, size)
    let text = FuzzTarget.text(bytes)
    do {
        _ = try LayoutParser.parse(text, file: "fuzz.layout")
    } catch {
        let message = "\(error)"
        precondition(message.hasPrefix("fuzz.layout:"), "an error without its position: \(message)")
    }
    return 0
}

FuzzTarget.main(fuzzOneInput)
