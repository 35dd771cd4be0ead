/// The safe area adapted to iPadOS 26's window controls, as UIKit 26's
/// `UIView.LayoutRegion.safeArea(cornerAdaptation:)` gives it (a window's `CornerAdaptedInsets`): `horizontal`
/// pushes the leading edge past the controls, `vertical` the top below them; where a window has no controls,
/// both are its safe area. The controls themselves add nothing to `SafeAreaInsets`, as on iPadOS 26.
public struct CornerAdaptedInsets: Sendable, Hashable, Codable {
    /// The safe area with its leading edge past the controls (`cornerAdaptation: .horizontal`).
    public var horizontal: EdgeInsets
    /// The safe area with its top below the controls (`cornerAdaptation: .vertical`).
    public var vertical: EdgeInsets

    public init(horizontal: EdgeInsets, vertical: EdgeInsets) {
        self.horizontal = horizontal
        self.vertical = vertical
    }

    /// The two regions of a window with `safeArea` and, at its top leading corner, `controls` (window
    /// coordinates; nil without) in a window `width` wide.
    public init(safeArea: EdgeInsets, controls: Rect?, width: Double) {
        guard let controls else {
            self.init(horizontal: safeArea, vertical: safeArea)
            return
        }
        var horizontal = safeArea, vertical = safeArea
        if controls.x <= 0 {
            horizontal.left = max(safeArea.left, controls.x + controls.width)
        } else {
            horizontal.right = max(safeArea.right, width - controls.x)
        }
        vertical.top = max(safeArea.top, controls.y + controls.height)
        self.init(horizontal: horizontal, vertical: vertical)
    }

    /// The keys of the window property, as UIKit names the adaptations.
    public static let keys = ["horizontal", "vertical"]
}
