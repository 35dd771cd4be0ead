/// The traits a window publishes, as `UITraitCollection`: size classes, idiom and display scale.
public struct TraitCollection: Sendable, Hashable, Codable {
    public var horizontalSizeClass: SizeClass
    public var verticalSizeClass: SizeClass
    public var idiom: Idiom
    public var displayScale: Double

    public init(horizontalSizeClass: SizeClass, verticalSizeClass: SizeClass, idiom: Idiom, displayScale: Double) {
        self.horizontalSizeClass = horizontalSizeClass
        self.verticalSizeClass = verticalSizeClass
        self.idiom = idiom
        self.displayScale = displayScale
    }
}
