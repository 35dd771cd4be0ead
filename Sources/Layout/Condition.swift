/// Where a section of a layout file applies: size classes, orientation, device, window size and aspect ratio,
/// combined with `and`, `or` and `not`, as libadwaita's `AdwBreakpoint` conditions and Interface Builder's
/// size-class variations. `[any]` always holds.
///
///     [w:compact]                                  the window is horizontally compact
///     [w:regular landscape]                        both (juxtaposition, `,` and `and` all mean and)
///     [min-width: 600 and max-aspect-ratio: 4/3]   at least 600 pt wide, at most 4:3
///     [phone or (split and not portrait)]
public indirect enum Condition: Sendable, Equatable, CustomStringConvertible {
    /// Always holds: `[any]`, and constraints outside any section.
    case any
    /// The horizontal size class is this one: `[w:compact]`.
    case horizontal(LayoutTraits.SizeClass)
    /// The vertical size class is this one: `[h:regular]`.
    case vertical(LayoutTraits.SizeClass)
    /// The device is held this way: `[landscape]`.
    case orientation(LayoutTraits.Orientation)
    /// The device is of this idiom: `[pad]`.
    case idiom(LayoutEnvironment.Idiom)
    /// The window is narrower than the screen (Split View, Slide Over).
    case split
    /// Bounds on the window, inclusive, in points (`min-width: 600` holds at 600).
    case minWidth(Double), maxWidth(Double), minHeight(Double), maxHeight(Double)
    /// Bounds on width / height, inclusive.
    case minAspectRatio(Double), maxAspectRatio(Double)
    /// The condition does not hold: `not portrait`.
    case not(Condition)
    /// Every part holds: `w:compact and landscape`.
    case and([Condition])
    /// At least one part holds: `phone or split`.
    case or([Condition])

    /// The conjunction of the parts given; `.any` when none is (Interface Builder's size-class variations).
    public init(horizontal: LayoutTraits.SizeClass? = nil, vertical: LayoutTraits.SizeClass? = nil,
                orientation: LayoutTraits.Orientation? = nil) {
        let parts = [horizontal.map(Condition.horizontal), vertical.map(Condition.vertical),
                     orientation.map(Condition.orientation)].compactMap { $0 }
        self = parts.isEmpty ? .any : parts.count == 1 ? parts[0] : .and(parts)
    }

    /// Whether the condition holds for a window in `e`.
    public func holds(in e: LayoutEnvironment) -> Bool {
        switch self {
        case .any: return true
        case .horizontal(let c): return e.traits.horizontal == c
        case .vertical(let c): return e.traits.vertical == c
        case .orientation(let o): return e.traits.orientation == o
        case .idiom(let i): return e.idiom == i
        case .split: return e.isSplit
        case .minWidth(let v): return e.width >= v
        case .maxWidth(let v): return e.width <= v
        case .minHeight(let v): return e.height >= v
        case .maxHeight(let v): return e.height <= v
        case .minAspectRatio(let v): return e.aspectRatio >= v
        case .maxAspectRatio(let v): return e.aspectRatio <= v
        case .not(let c): return !c.holds(in: e)
        case .and(let cs): return cs.allSatisfy { $0.holds(in: e) }
        case .or(let cs): return cs.contains { $0.holds(in: e) }
        }
    }

    /// As a section header: `[w:compact and min-width: 600]`.
    public var description: String { "[" + text + "]" }

    /// The condition in the layout language, parenthesised where a part is itself an `and` or `or`.
    var text: String {
        switch self {
        case .any: return "any"
        case .horizontal(let c): return "w:\(c.rawValue)"
        case .vertical(let c): return "h:\(c.rawValue)"
        case .orientation(let o): return o.rawValue
        case .idiom(let i): return i.rawValue
        case .split: return "split"
        case .minWidth(let v): return "min-width: \(v.text)"
        case .maxWidth(let v): return "max-width: \(v.text)"
        case .minHeight(let v): return "min-height: \(v.text)"
        case .maxHeight(let v): return "max-height: \(v.text)"
        case .minAspectRatio(let v): return "min-aspect-ratio: \(v.text)"
        case .maxAspectRatio(let v): return "max-aspect-ratio: \(v.text)"
        case .not(let c): return "not " + c.operand
        case .and(let cs): return cs.map(\.operand).joined(separator: " and ")
        case .or(let cs): return cs.map(\.operand).joined(separator: " or ")
        }
    }

    private var operand: String {
        switch self {
        case .and, .or: return "(" + text + ")"
        default: return text
        }
    }
}

/// The traits a layout is solved for: the window's size classes and the device's orientation.
public struct LayoutTraits: Sendable, Equatable {
    /// UIKit's size class, as a layout file writes it (`w:compact`).
    public enum SizeClass: String, Sendable, CaseIterable {
        /// Constrained space: a narrow window (or a short one, vertically).
        case compact
        /// Expansive space.
        case regular
    }

    /// The device's orientation, without the side (a layout does not care which way landscape is turned).
    public enum Orientation: String, Sendable, CaseIterable {
        /// Taller than wide.
        case portrait
        /// Wider than tall.
        case landscape
    }

    /// The window's horizontal size class.
    public var horizontal: SizeClass
    /// The window's vertical size class.
    public var vertical: SizeClass
    /// The device's orientation.
    public var orientation: Orientation

    /// The traits from their three parts.
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

/// Everything a layout is solved in: the window's size and traits, the device's idiom, whether the window is
/// narrower than the screen, and the window's safe area (the `safe` guide).
public struct LayoutEnvironment: Sendable, Equatable {
    /// The kind of device, as UIKit's `UIUserInterfaceIdiom` (a layout file's `[phone]`, `[pad]`).
    public enum Idiom: String, Sendable, CaseIterable {
        /// An iPhone.
        case phone
        /// An iPad.
        case pad
    }

    /// The window's width in points.
    public var width: Double
    /// The window's height in points.
    public var height: Double
    /// The window's size classes and the device's orientation.
    public var traits: LayoutTraits
    /// The kind of device.
    public var idiom: Idiom
    /// The window is narrower than the screen: a Split View side or a Slide Over window.
    public var isSplit: Bool
    /// The window's safe area, inset from its edges: where the `safe` guide is.
    public var safeArea: LayoutInsets

    /// The environment of a window of `width` by `height` points; traits from
    /// ``LayoutTraits/defaults(width:height:)`` unless given, a pad, not split, no insets.
    public init(width: Double, height: Double, traits: LayoutTraits? = nil, idiom: Idiom = .pad, isSplit: Bool = false,
                safeArea: LayoutInsets = .zero) {
        self.width = width
        self.height = height
        self.traits = traits ?? .defaults(width: width, height: height)
        self.idiom = idiom
        self.isSplit = isSplit
        self.safeArea = safeArea
    }

    /// width / height; infinite for a window with no height.
    public var aspectRatio: Double { height > 0 ? width / height : .infinity }
}

/// The safe area's insets from the window's edges, in points (UIKit's `safeAreaInsets`).
public struct LayoutInsets: Sendable, Equatable {
    /// From the top edge down.
    public var top: Double
    /// From the left edge in.
    public var left: Double
    /// From the bottom edge up.
    public var bottom: Double
    /// From the right edge in.
    public var right: Double

    /// The insets from their four values.
    public init(top: Double, left: Double, bottom: Double, right: Double) {
        (self.top, self.left, self.bottom, self.right) = (top, left, bottom, right)
    }

    /// No insets: the safe area is the whole window.
    public static let zero = LayoutInsets(top: 0, left: 0, bottom: 0, right: 0)
}
