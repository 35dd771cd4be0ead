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
}

/// What an adapter knows of the window it lays out, as the transition signals tell it.
public struct WindowContext: Sendable, Equatable {
    public var width: Double
    public var height: Double
    /// Size classes and the device's orientation.
    public var traits: LayoutTraits
    /// The screen's size in the current orientation.
    public var screenWidth: Double
    public var screenHeight: Double
    /// `phone` or `pad`, from the window's traits.
    public var idiom: LayoutEnvironment.Idiom
    /// The window's safe-area insets (`SafeAreaInsets`).
    public var safeArea: LayoutInsets

    public init(width: Double, height: Double, traits: LayoutTraits, screenWidth: Double, screenHeight: Double,
                idiom: LayoutEnvironment.Idiom = .pad, safeArea: LayoutInsets = .zero) {
        self.width = width
        self.height = height
        self.traits = traits
        self.screenWidth = screenWidth
        self.screenHeight = screenHeight
        self.idiom = idiom
        self.safeArea = safeArea
    }

    /// A window of this size taking the whole screen, with the default traits for its size.
    public init(width: Double, height: Double) {
        self.init(width: width, height: height, traits: .defaults(width: width, height: height),
                  screenWidth: width, screenHeight: height)
    }

    /// Split View and Slide Over windows are narrower than the screen; a full-screen window is not.
    public var isNarrowerThanScreen: Bool { width < screenWidth }

    /// What a layout file's conditions and its `safe` guide see.
    public var environment: LayoutEnvironment {
        LayoutEnvironment(width: width, height: height, traits: traits, idiom: idiom, isSplit: isNarrowerThanScreen,
                          safeArea: safeArea)
    }
}

/// An element's frame in window coordinates, in points.
public struct Frame: Sendable, Equatable, CustomStringConvertible {
    public var x, y, width, height: Double

    public init(_ x: Double, _ y: Double, _ width: Double, _ height: Double) {
        (self.x, self.y, self.width, self.height) = (x, y, width, height)
    }

    /// From the engine's `[x, y, width, height]`.
    init(_ values: [Double]) { self.init(values[0], values[1], values[2], values[3]) }

    public var description: String { "(\([x, y, width, height].map(\.layoutText).joined(separator: ",")))" }
}

/// A value an adapter reports beside its frames (`ReportLayout`'s extras): the layout language's, so that a
/// layout file's `extra` lines and a Swift adapter report the same type.
public typealias Extra = Layout.Extra

/// A laid-out window, or why it could not be laid out.
public enum AdapterResult: Sendable, Equatable {
    /// Frames of the elements shown (hidden elements have none) and the extras.
    case laidOut(frames: [String: Frame], extras: [String: Extra])
    /// The layout cannot hold in this window (required constraints conflict): reported as failed, with no frames.
    case failed(String)

    /// Solves `document` for `window`: the frames of its views (guides shape the layout but are not reported).
    /// Free anchors, if any, are named in the extra `ambiguous`.
    static func solving(_ document: LayoutDocument, in window: WindowContext, extras: [String: Extra] = [:]) -> AdapterResult {
        do {
            let environment = window.environment
            let result = try document.solve(in: environment)
            var frames: [String: Frame] = [:]
            for view in document.views { if let values = result.frames[view] { frames[view] = Frame(values) } }
            var extras = extras
            extras.merge(document.extras(in: environment)) { _, fromFile in fromFile }
            if !result.ambiguous.isEmpty { extras["ambiguous"] = .string(result.ambiguous.joined(separator: ", ")) }
            return .laidOut(frames: frames, extras: extras)
        } catch {
            return .failed("\(error)")
        }
    }
}

extension Double {
    /// 347 rather than 347.0; 104.1 as it is.
    var layoutText: String { self == rounded() && abs(self) < 1e15 ? String(Int64(self)) : String(self) }
}
