import Vocabulary

extension TraitCollection {
    /// The tests' shorthand: an iPad window's traits (2x) with these size classes.
    static func pad(_ horizontal: SizeClass, _ vertical: SizeClass = .regular) -> TraitCollection {
        TraitCollection(horizontalSizeClass: horizontal, verticalSizeClass: vertical, idiom: .pad, displayScale: 2)
    }
}
