// Fuzz target: the layout-file parser (`*.layout`). Any text either parses or throws a ParseError with a
// file:line:column position inside the input; nothing else. A small layout that parses is also solved, with
// its conditions and extras evaluated, in a phone window with a safe area: it solves or reports a conflict.
import FuzzSupport
import Layout
import Vocabulary

@_cdecl("LLVMFuzzerTestOneInput")
func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = FuzzTarget.bytes(data, size)
    let text = FuzzTarget.text(bytes)
    do {
        let document = try LayoutParser.parse(text, file: "fuzz.layout")
        if document.constraints.count <= 64 {
            let phone = LayoutEnvironment(
                width: 390, height: 844,
                traits: TraitCollection(horizontalSizeClass: .compact, verticalSizeClass: .regular, idiom: .phone, displayScale: 3),
                orientation: .portrait, safeArea: EdgeInsets(top: 47, left: 0, bottom: 34, right: 0))
            for environment in [phone, LayoutEnvironment(width: 694, height: 768, isSplit: true)] {
                _ = document.extras(in: environment)
                do {
                    _ = try document.solve(in: environment)
                } catch let error as LayoutError {
                    switch error {
                    case .conflict, .notFinite: break
                    case .syntax: preconditionFailure("solving threw \(error)")
                    }
                }
            }
        }
    } catch {
        let message = "\(error)"
        precondition(message.hasPrefix("fuzz.layout:"), "an error without its position: \(message)")
    }
    return 0
}

FuzzTarget.main(fuzzOneInput)
