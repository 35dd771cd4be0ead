import Vocabulary
import Layout

/// Something that lays out one app's window: given the window's size and traits, the frames of its elements.
///
/// Adapters are pure: no bus, no clock, no files. The adapter host (`traitd-adapters`) calls `layout(_:)` for
/// every transition of the app's window and reports the result to the daemon with `ReportLayout`; tests call
/// it directly.
public protocol LayoutAdapter: Sendable {
    /// The adapter's name on the bus (`RegisterAdapter`), unique per app.
    var name: String { get }
    /// The app whose window it lays out.
    var app: String { get }
    func layout(_ window: WindowContext) -> AdapterResult
    /// The breakpoints the adapter lays out by (a layout file's `breakpoint` lines), which the host declares for
    /// the app's window once the adapter is registered (`SetBreakpoints`): none by default.
    var breakpoints: [String: BreakpointCondition] { get }
}

extension LayoutAdapter {
    public var breakpoints: [String: BreakpointCondition] { [:] }
}

/// What an adapter knows of the window it lays out, as the transition signals tell it.
public struct WindowContext: Sendable, Equatable {
    public var width: Double
    public var height: Double
    /// The window's trait collection (`Traits`).
    public var traits: TraitCollection
    /// Which way the device is held.
    public var orientation: Orientation
    /// The screen's size in the current orientation.
    public var screenWidth: Double
    public var screenHeight: Double
    /// The window's safe-area insets (`SafeAreaInsets`).
    public var safeArea: EdgeInsets
    /// The display's Reduce Motion, as the window's last transition said (a web page's `prefers-reduced-motion`).
    public var reduceMotion = false
    /// The software keyboard in the window's coordinates, as the window's keyboard notifications last said (nil
    /// while hidden): the `keyboard` guide's input.
    public var keyboard: Rect?
    /// Whether that keyboard is docked (the notifications said `KeyboardWillShow`).
    public var keyboardDocked = false
    /// The safe area adapted to iPadOS 26's window controls (the window's `CornerAdaptedInsets`; the safe area
    /// where there are none): the `safeHorizontal` and `safeVertical` guides' input.
    public var cornerAdaptedInsets: CornerAdaptedInsets?

    public init(width: Double, height: Double, traits: TraitCollection, orientation: Orientation,
                screenWidth: Double, screenHeight: Double, safeArea: EdgeInsets = .zero) {
        self.width = width
        self.height = height
        self.traits = traits
        self.orientation = orientation
        self.screenWidth = screenWidth
        self.screenHeight = screenHeight
        self.safeArea = safeArea
    }

    /// A window of this size taking the whole screen, with the default traits for its size.
    public init(width: Double, height: Double, traits: TraitCollection? = nil) {
        let environment = LayoutEnvironment(width: width, height: height, traits: traits)
        self.init(width: width, height: height, traits: environment.traits, orientation: environment.orientation,
                  screenWidth: width, screenHeight: height)
    }

    /// Split View and Slide Over windows are narrower than the screen; a full-screen window is not.
    public var isNarrowerThanScreen: Bool { width < screenWidth }

    /// What a layout file's conditions and its `safe` and `keyboard` guides see.
    public var environment: LayoutEnvironment {
        var environment = LayoutEnvironment(width: width, height: height, traits: traits, orientation: orientation,
                                            isSplit: isNarrowerThanScreen, safeArea: safeArea)
        environment.keyboard = keyboard
        environment.keyboardDocked = keyboardDocked
        if let cornerAdaptedInsets { environment.cornerAdaptedInsets = cornerAdaptedInsets }
        return environment
    }
}

/// A value an adapter reports beside its frames (`ReportLayout`'s extras): the layout language's, so that a
/// layout file's `extra` lines and a Swift adapter report the same type.
public typealias Extra = Layout.Extra

/// A laid-out window, or why it could not be laid out.
public enum AdapterResult: Sendable, Equatable {
    /// Frames of the elements shown (hidden elements have none), in window coordinates, the extras, and for
    /// traitd's layout checks what the elements are (the extra `kinds`; an element without one is content) and
    /// which scroll in which (the extra `scrolledIn`: element -> the element it scrolls in), and where the app or
    /// page needs more room than the window gives (the extras `minimumSize` and `reflow`), which elements are
    /// known only by their content box, smaller than what is drawn (the extra `contentBoxes`), whose text
    /// does not fit them (the extra `clippedText`, by name or place), and whose text stands out too little from
    /// its background (the extra `lowContrast`).
    case laidOut(frames: [String: Rect], extras: [String: Extra], kinds: [String: ElementKind] = [:],
                 scrolledIn: [String: String] = [:], overflow: Overflow? = nil, contentBoxes: Set<String> = [],
                 clippedText: [String: ClippedText] = [:], lowContrast: [String: LowContrast] = [:])
    /// The layout cannot hold in this window (required constraints conflict): reported as failed, with no frames.
    case failed(String)

    /// Solves `document` for `window`: the frames of its views (guides shape the layout but are not reported).
    /// Free anchors, if any, are named in the extra `ambiguous`.
    static func solving(_ document: LayoutDocument, in window: WindowContext, extras: [String: Extra] = [:]) -> AdapterResult {
        do {
            let environment = window.environment
            let result = try document.solve(in: environment)
            let frames = result.frames.filter { document.views.contains($0.key) }
            var extras = extras
            extras.merge(document.extras(in: environment)) { _, fromFile in fromFile }
            if !result.ambiguous.isEmpty { extras["ambiguous"] = .string(result.ambiguous.joined(separator: ", ")) }
            return .laidOut(frames: frames, extras: extras, kinds: document.kinds.filter { frames[$0.key] != nil })
        } catch {
            return .failed("\(error)")
        }
    }
}
