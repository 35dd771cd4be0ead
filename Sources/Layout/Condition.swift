/// The traits a layout is solved for: the window's size classes and the device's orientation.
public struct LayoutTraits: Sendable, Equatable {
    public enum SizeClass: String, Sendable, CaseIterable { case compact, regular }
    public enum Orientation: String, Sendable, CaseIterable { case portrait, landscape }

    public var horizontal: SizeClass
    public var vertical: SizeClass
    public var orientation: Orientation

    public init(horizontal: SizeClass, vertical: SizeClass, orientation: Orientation) {
        self.horizontal = horizontal
        self.vertical = vertical
        self.orientation = orientation
    }

    /// Traits for a window of this size when none are given: horizontally regular from 678 pt (the narrowest
    /// regular split width in the iPad tables; 639 and below is compact), vertically regular (as on every
    /// iPad), landscape when wider than tall.
    public static func defaults(width: Double, height: Double) -> LayoutTraits {
        LayoutTraits(horizontal: width >= 678 ? .regular : .compact, vertical: .regular,
                     orientation: width > height ? .landscape : .portrait)
    }
}

/// Where a section of a layout file applies, as Interface Builder's size-class variations: every part given
/// must hold (`[w:regular landscape]`); nothing given (`[any]`) always holds.
public struct Condition: Sendable, Equatable, CustomStringConvertible {
    public var horizontal: LayoutTraits.SizeClass?
    public var vertical: LayoutTraits.SizeClass?
    public var orientation: LayoutTraits.Orientation?

    public init(horizontal: LayoutTraits.SizeClass? = nil, vertical: LayoutTraits.SizeClass? = nil,
                orientation: LayoutTraits.Orientation? = nil) {
        self.horizontal = horizontal
        self.vertical = vertical
        self.orientation = orientation
    }

    public static let any = Condition()

    public func holds(for traits: LayoutTraits) -> Bool {
        (horizontal == nil || horizontal == traits.horizontal) && (vertical == nil || vertical == traits.vertical)
            && (orientation == nil || orientation == traits.orientation)
    }

    public var description: String {
        let parts = [horizontal.map { "w:\($0.rawValue)" }, vertical.map { "h:\($0.rawValue)" }, orientation?.rawValue]
            .compactMap { $0 }
        return "[" + (parts.isEmpty ? "any" : parts.joined(separator: " ")) + "]"
    }
}
