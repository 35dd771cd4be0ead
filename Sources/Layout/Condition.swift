import Vocabulary

/// Where a section of a layout file applies: size classes, orientation, device, window size and aspect ratio,
/// combined with `and`, `or` and `not`, as libadwaita's `AdwBreakpoint` conditions and Interface Builder's
/// size-class variations. `[any]` always holds.
///
///     [w:compact]                                  the window is horizontally compact
///     [w:regular landscape]                        both (juxtaposition, `,` and `and` all mean and)
///     [min-width: 600 and max-aspect-ratio: 4/3]   at least 600 pt wide, at most 4:3
///     [phone or (split and not portrait)]
///     [dark and content-size >= accessibility-medium]
public indirect enum Condition: Sendable, Equatable, CustomStringConvertible {
    /// Always holds: `[any]`, and constraints outside any section.
    case any
    /// The horizontal size class is this one: `[w:compact]`.
    case horizontal(SizeClass)
    /// The vertical size class is this one: `[h:regular]`.
    case vertical(SizeClass)
    /// The device is held wider than tall, either way round: `[landscape]`.
    case landscape
    /// The device is held taller than wide, either way up: `[portrait]`.
    case portrait
    /// The device is of this idiom: `[pad]`.
    case idiom(Idiom)
    /// The window is narrower than the screen (Split View, Slide Over).
    case split
    /// Bounds on the window, inclusive, in points (`min-width: 600` holds at 600).
    case minWidth(Double), maxWidth(Double), minHeight(Double), maxHeight(Double)
    /// Bounds on width / height, inclusive.
    case minAspectRatio(Double), maxAspectRatio(Double)
    /// A display-wide setting has a value: `[dark]`, `[right-to-left]`, `[high-contrast]`, `[bold-text]` (the
    /// words of `DisplayTrait.conditions`).
    case trait(DisplayTrait, String)
    /// The text size compares with a category: `[content-size >= accessibility-medium]` (`<=`, `==` too).
    case contentSize(ContentSizeComparison, ContentSizeCategory)
    /// A breakpoint the file declared (`breakpoint narrow max-width: 500sp`), by its name: libadwaita's
    /// condition, judged as the daemon judges a window's breakpoints (`BreakpointCondition.holds(in:)`).
    case breakpoint(String, BreakpointCondition)
    /// The condition does not hold: `not portrait`.
    case not(Condition)
    /// Every part holds: `w:compact and landscape`.
    case and([Condition])
    /// At least one part holds: `phone or split`.
    case or([Condition])

    /// The conjunction of the parts given; `.any` when none is (Interface Builder's size-class variations).
    /// `landscape`: true for `[landscape]`, false for `[portrait]`.
    public init(horizontal: SizeClass? = nil, vertical: SizeClass? = nil, landscape: Bool? = nil) {
        let parts = [horizontal.map(Condition.horizontal), vertical.map(Condition.vertical),
                     landscape.map { $0 ? Condition.landscape : .portrait }].compactMap { $0 }
        self = parts.isEmpty ? .any : parts.count == 1 ? parts[0] : .and(parts)
    }

    /// Whether the condition holds for a window in `e`.
    public func holds(in e: LayoutEnvironment) -> Bool {
        switch self {
        case .any: return true
        case .horizontal(let c): return e.traits.horizontalSizeClass == c
        case .vertical(let c): return e.traits.verticalSizeClass == c
        case .landscape: return e.orientation.isLandscape
        case .portrait: return !e.orientation.isLandscape
        case .idiom(let i): return e.traits.idiom == i
        case .split: return e.isSplit
        case .minWidth(let v): return e.width >= v
        case .maxWidth(let v): return e.width <= v
        case .minHeight(let v): return e.height >= v
        case .maxHeight(let v): return e.height <= v
        case .minAspectRatio(let v): return e.aspectRatio >= v
        case .maxAspectRatio(let v): return e.aspectRatio <= v
        case .trait(let trait, let value): return e.traits.display[trait] == value
        case .contentSize(let comparison, let category): return comparison.holds(e.traits.display.contentSize, category)
        case .breakpoint(_, let condition): return condition.holds(in: e.breakpointWindow)
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
        case .landscape: return "landscape"
        case .portrait: return "portrait"
        case .idiom(let i): return i.rawValue
        case .split: return "split"
        case .minWidth(let v): return "min-width: \(v.compact)"
        case .maxWidth(let v): return "max-width: \(v.compact)"
        case .minHeight(let v): return "min-height: \(v.compact)"
        case .maxHeight(let v): return "max-height: \(v.compact)"
        case .minAspectRatio(let v): return "min-aspect-ratio: \(v.compact)"
        case .maxAspectRatio(let v): return "max-aspect-ratio: \(v.compact)"
        case .trait(let trait, let value):
            return trait.conditions.first { $0.value == value }?.key ?? "\(trait.word) == \(value)"
        case .contentSize(let comparison, let category): return "content-size \(comparison.rawValue) \(category.rawValue)"
        case .breakpoint(let name, _): return name
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

/// How `[content-size ...]` compares the text size with a category, in `ContentSizeCategory`'s order.
public enum ContentSizeComparison: String, Sendable, CaseIterable {
    /// `>=`: the current category is this one or larger.
    case atLeast = ">="
    /// `<=`: the current category is this one or smaller.
    case atMost = "<="
    /// `==`: the current category is exactly this one.
    case equal = "=="

    func holds(_ size: ContentSizeCategory, _ category: ContentSizeCategory) -> Bool {
        switch self {
        case .atLeast: return size >= category
        case .atMost: return size <= category
        case .equal: return size == category
        }
    }
}
