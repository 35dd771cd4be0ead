import TraitConfig
import TraitModel
import Vocabulary

/// `traitctl devices --json`: each device profile as scripts read it (as `simctl list -j devicetypes` does),
/// its shape fixed here: the model names, the screen in points and pixels, scale, idiom, gamut, the reference's
/// confidence, the orientations and windowing modes offered, and per orientation the vertical size class, the
/// full-screen safe area and every window width with its horizontal size class and the arrangements it makes,
/// the free-form rules and the keyboard.
struct DeviceJSON: Encodable {
    struct Table: Encodable {
        let vertical: String
        /// top, left, bottom, right in points.
        let safeArea: [Double]
        /// slot (`full`, `two-thirds`, `half`, `one-third`, `slide-over`) -> width and horizontal size class.
        let widths: [String: Width]
        let arrangements: [String]
    }
    struct Width: Encodable {
        let width: Double
        let horizontal: String
    }
    struct FreeForm: Encodable {
        let regularWidth: Double
        let minimumSize: [Double]
        let tileGap: Double
        /// iPadOS 26's window controls, width and height.
        let windowControls: [Double]
    }
    /// The docked keyboard per orientation (its keys and predictive bar), the modes offered, how sure.
    struct Keyboard: Encodable {
        let portrait: [String: Double]
        let landscape: [String: Double]
        let modes: [String]
        let confidence: String
    }

    let id: String
    /// The models the profile stands for (`iPhone 14 Pro, 15, 15 Pro, 16`).
    let name: String
    let idiom: String
    let scale: Double
    let displayGamut: String
    /// `high`, `medium` or `low`, as the reference table says.
    let confidence: String
    /// Landscape width and height, in points and in pixels.
    let screen: [Double]
    let pixels: [Double]
    let orientations: [String]
    let windowing: [String]
    let landscape: Table
    let portrait: Table
    let freeForm: FreeForm
    let keyboard: Keyboard

    init(_ p: DeviceProfile) {
        (id, name, idiom, scale, displayGamut, confidence) = (p.id, p.name, p.idiom.rawValue, p.scale, p.gamut.rawValue, p.confidence)
        screen = [p.landscapeScreen.width, p.landscapeScreen.height]
        pixels = screen.map { $0 * p.scale }
        orientations = p.orientations.map(\.rawValue)
        windowing = p.offeredWindowing.map(\.rawValue)
        func table(_ orientation: Orientation) -> Table {
            let t = p.table(orientation)
            return Table(
                vertical: t.vertical.rawValue, safeArea: t.safeArea.values,
                widths: Dictionary(uniqueKeysWithValues: t.widths.map { ($0.key.rawValue, Width(width: $0.value.width, horizontal: $0.value.horizontal.rawValue)) }),
                arrangements: p.offeredArrangements(orientation).map(\.rawValue))
        }
        landscape = table(.landscapeLeft)
        portrait = table(.portrait)
        freeForm = FreeForm(regularWidth: p.freeForm.regularWidth,
                            minimumSize: [p.freeForm.minimumSize.width, p.freeForm.minimumSize.height], tileGap: p.freeForm.tileGap,
                            windowControls: [p.freeForm.windowControls.width, p.freeForm.windowControls.height])
        func height(_ h: KeyboardTable.Height) -> [String: Double] { ["keys": h.keys, "bar": h.bar, "docked": h.docked] }
        keyboard = Keyboard(portrait: height(p.keyboard.portrait), landscape: height(p.keyboard.landscape),
                            modes: p.offeredKeyboards.map(\.rawValue), confidence: p.keyboard.confidence)
    }
}
