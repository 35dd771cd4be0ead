// Fuzz target: the YAML config (laid over the embedded default) and the device-profile loader. Any text
// either loads or throws an error that names the file; nothing else.
import FuzzSupport
import TraitConfig

/// Made once, on first use (libFuzzer may call the target before any top-level code runs).
enum Fixed { static let embedded = DaemonConfig.embedded() }

@_cdecl("LLVMFuzzerTestOneInput")
func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = FuzzTarget.bytes(data, size)
    let text = FuzzTarget.text(bytes)
    for check in [
        { _ = try DaemonConfig(text: text, file: "fuzz.yaml", base: Fixed.embedded) },
        { _ = try ProfileLoader.parse(text, file: "fuzz.yaml") },
    ] {
        do {
            try check()
        } catch {
            let message = "\(error)"
            precondition(message.contains("fuzz.yaml"), "an error that does not name the file: \(message)")
        }
    }
    return 0
}

FuzzTarget.main(fuzzOneInput)
