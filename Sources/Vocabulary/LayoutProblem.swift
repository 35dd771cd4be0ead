/// One way a reported layout breaks the geometry traitd published to its window: the rule it breaks, the
/// adapter and element it was found in, and a sentence with the numbers. A window publishes its latest
/// reports' problems as `LayoutProblems` (`a(ssss)`: adapter, element, rule, message).
public struct LayoutProblem: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The adapter whose report it was found in.
    public var adapter: String
    /// The element, or for `overlap` both, as `a & b` (element names hold no spaces).
    public var element: String
    public var rule: LayoutRule
    /// What is wrong, with the numbers, for a person.
    public var message: String

    public init(adapter: String, element: String, rule: LayoutRule, message: String) {
        self.adapter = adapter
        self.element = element
        self.rule = rule
        self.message = message
    }

    /// `adapter element rule: message`, as `traitctl status` and scenario traces print it.
    public var description: String { "\(adapter) \(element) \(rule): \(message)" }
}

/// The checks traitd makes of every report it accepts, by the names they have on the bus and in text.
public enum LayoutRule: String, Sendable, CaseIterable, Codable, CustomStringConvertible {
    /// The app lays itself out no smaller than a size larger than its window (a desktop app's minimum size): one
    /// problem for the app, first, where its widgets past the window's edge would each be another.
    case minimumSize = "minimum-size"
    /// The page is wider than its window, so it scrolls sideways (WCAG 1.4.10, Reflow: content usable at 320 CSS
    /// px without horizontal scrolling), naming its widest element.
    case reflow
    /// An element reaches outside the window.
    case outsideWindow = "outside-window"
    /// Content, a control or text reaches outside the safe area (into the status bar, the home indicator,
    /// the sensor housing's margins).
    case outsideSafeArea = "outside-safe-area"
    /// Two elements of content, controls or text partly overlap: neither holds the other.
    case overlap
    /// A control smaller than 44 x 44 points on a phone or an iPad (Apple's Human Interface Guidelines).
    case smallTarget = "small-target"
    /// A control or text under the docked keyboard (or a hardware keyboard's shortcut bar): a person cannot
    /// reach it while typing.
    case underKeyboard = "under-keyboard"
    /// A control or text under iPadOS 26's window controls (they add nothing to the safe area, so the other
    /// rules cannot see them).
    case underWindowControls = "under-window-controls"
    /// Text that does not fit its element: cut short with an ellipsis, clipped at its element's edge, or clamped
    /// to fewer lines than it has (XCUITest's `textClipped` audit), as the adapter measured it.
    case clippedText = "clipped-text"
    /// Text whose colour stands out from its background less than WCAG 1.4.3 asks (4.5:1; 3:1 for large text, 24
    /// px or 18.66 px bold), as the adapter computed it (a page's computed colours).
    case lowContrast = "low-contrast"

    public var description: String { rawValue }
}

/// Text that does not fit its element, as an adapter measures it (`clipped-text`): how it is cut, and the size
/// the text needs, in points.
public struct ClippedText: Sendable, Hashable, Codable {
    /// How the text is cut.
    public enum Cut: String, Sendable, Hashable, Codable, CaseIterable {
        /// Cut short with an ellipsis (`text-overflow: ellipsis`, a label's ellipsize mode).
        case ellipsized
        /// Cut at its element's edge (`overflow: hidden`).
        case clipped
        /// Fewer lines shown than it has (`-webkit-line-clamp`, a label's line limit).
        case clamped
    }

    /// How the text is cut.
    public var cut: Cut
    /// The size the whole text needs, in points.
    public var needed: Size

    /// Text cut by `cut` that needs `needed` points.
    public init(cut: Cut, needed: Size) {
        self.cut = cut
        self.needed = needed
    }
}

/// Text that stands out from its background less than WCAG 1.4.3 asks (`low-contrast`), as an adapter measures
/// it: the contrast ratio of its colour against its background (1 to 21), and the ratio its size needs.
public struct LowContrast: Sendable, Hashable, Codable {
    /// The contrast ratio, (L1 + 0.05) / (L2 + 0.05) of the two relative luminances.
    public var ratio: Double
    /// What WCAG 1.4.3 asks of text of its size: 4.5, or 3 for large text.
    public var required: Double

    public init(ratio: Double, required: Double) {
        self.ratio = ratio
        self.required = required
    }
}

/// A page wider than its window, as the web bridge measures it (`reflow`): the width it lays itself out at, in
/// points, and its widest element, the one to blame.
public struct Reflow: Sendable, Hashable, Codable {
    public var element: String
    public var width: Double

    public init(element: String, width: Double) {
        self.element = element
        self.width = width
    }
}

/// Where an app or a page needs more room than its window gives, as a bridge measures it: judged as one
/// `minimum-size` or `reflow` problem instead of one per element carried past the window's edge.
public enum Overflow: Sendable, Hashable {
    /// A desktop app lays itself out no smaller than this (its window does not shrink further).
    case minimumSize(Size)
    /// A page is wider than its window.
    case reflow(Reflow)
}
