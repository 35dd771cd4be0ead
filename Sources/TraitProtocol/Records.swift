import DBus
import Vocabulary

/// The contract's `a{sv}` records and nested dictionaries, typed: a window's traits, the context of
/// `ViewWillTransitionToSize`, and the adapters' layouts. The daemon encodes them and a client decodes them
/// through the same parameters, so a field is named and typed once. Decoding is strict: a missing field, or
/// one of another type, throws `InvalidArgs` naming the record and the field.
extension Parameter where Value == TraitCollection {
    /// `a{sv}`: `horizontalSizeClass` s, `verticalSizeClass` s, `idiom` s, `displayScale` d,
    /// `userInterfaceLevel` s, `displayGamut` s, `activeAppearance` s, `windowWidthSizeClass` s,
    /// `windowHeightSizeClass` s, and each window trait of `DisplayTrait.all` under its `key`
    /// (`userInterfaceStyle` s, `preferredContentSizeCategory` s, `layoutDirection` s, `accessibilityContrast` s,
    /// `legibilityWeight` s). The fields after `displayScale` may be missing (an older daemon): their defaults
    /// (`activeAppearance`: `active`; the window size classes: `compact`). Then the custom traits the app named
    /// (`SetTraitOverrides`), each under its name (one with a dot), b, x, d or s.
    public static func traits(_ name: String) -> Self {
        record(name, what: "the traits", decode: { read in
            var traits = TraitCollection(
                horizontalSizeClass: try read(TraitFields.horizontal), verticalSizeClass: try read(TraitFields.vertical),
                idiom: try read(TraitFields.idiom), displayScale: try read(TraitFields.displayScale),
                userInterfaceLevel: try read.optional(TraitFields.level) ?? .base,
                displayGamut: try read.optional(TraitFields.gamut) ?? .srgb,
                activeAppearance: try read.optional(TraitFields.activeAppearance) ?? .active,
                display: try DisplayTraits.read(read, of: DisplayTrait.windowTraits))
            traits.windowWidthSizeClass = try read.optional(TraitFields.windowWidth) ?? .compact
            traits.windowHeightSizeClass = try read.optional(TraitFields.windowHeight) ?? .compact
            for (name, value) in read.entries(where: { $0.contains(".") }) {
                guard let custom = CustomTraitValue(bus: value) else {
                    throw DBusError.invalidArgs("the custom trait \(name) must be b, x, d or s, but it is '\(value.unwrapped.signature)'")
                }
                traits.custom[name] = custom
            }
            return traits
        }, fields: TraitFields.record)
    }
}

extension TraitCollection.Field {
    /// The field's key in a window's `Traits` and its value there (what a `TraitDidChange` carries).
    public func entry(in traits: TraitCollection) -> (key: String, value: DBusValue) {
        switch self {
        case .horizontalSizeClass: return (name, TraitFields.horizontal.encode(traits.horizontalSizeClass))
        case .verticalSizeClass: return (name, TraitFields.vertical.encode(traits.verticalSizeClass))
        case .idiom: return (name, TraitFields.idiom.encode(traits.idiom))
        case .displayScale: return (name, TraitFields.displayScale.encode(traits.displayScale))
        case .userInterfaceLevel: return (name, TraitFields.level.encode(traits.userInterfaceLevel))
        case .displayGamut: return (name, TraitFields.gamut.encode(traits.displayGamut))
        case .activeAppearance: return (name, TraitFields.activeAppearance.encode(traits.activeAppearance))
        case .windowWidthSizeClass: return (name, TraitFields.windowWidth.encode(traits.windowWidthSizeClass))
        case .windowHeightSizeClass: return (name, TraitFields.windowHeight.encode(traits.windowHeightSizeClass))
        case .display(let trait): return (name, Parameter<String>.displayTrait(trait, name: name).encode(traits.display[trait]))
        case .custom(let name): return (name, traits.custom[name]?.bus ?? .string(""))
        }
    }
}

private enum TraitFields {
    typealias Field = TraitCollection.Field
    static let horizontal = Parameter<SizeClass>.choice(Field.horizontalSizeClass.name, what: "size class")
    static let vertical = Parameter<SizeClass>.choice(Field.verticalSizeClass.name, what: "size class")
    static let idiom = Parameter<Idiom>.choice(Field.idiom.name, what: "idiom")
    static let displayScale = Parameter<Double>.double(Field.displayScale.name)
    static let level = Parameter<InterfaceLevel>.choice(Field.userInterfaceLevel.name, what: "interface level")
    static let gamut = Parameter<DisplayGamut>.choice(Field.displayGamut.name, what: "display gamut")
    static let activeAppearance = Parameter<ActiveAppearance>.choice(Field.activeAppearance.name, what: "active appearance")
    static let windowWidth = Parameter<WindowWidthSizeClass>.choice(Field.windowWidthSizeClass.name, what: "window width size class")
    static let windowHeight = Parameter<WindowHeightSizeClass>.choice(Field.windowHeightSizeClass.name, what: "window height size class")

    static let record = RecordFields<TraitCollection>([
        .field(horizontal) { $0.horizontalSizeClass }, .field(vertical) { $0.verticalSizeClass }, .field(idiom) { $0.idiom },
        .field(displayScale) { $0.displayScale }, .field(level) { $0.userInterfaceLevel }, .field(gamut) { $0.displayGamut },
        .field(activeAppearance) { $0.activeAppearance }, .field(windowWidth) { $0.windowWidthSizeClass },
        .field(windowHeight) { $0.windowHeightSizeClass },
    ] + DisplayTraits.fields(of: DisplayTrait.windowTraits) { $0.display }, open: { traits in
        traits.custom.isEmpty ? [] : traits.custom.map { (key: $0.key, value: $0.value.bus) }
    })
}

/// What `ViewWillTransitionToSize` says beside the new size, as `UIViewControllerTransitionCoordinator` would.
public struct SizeTransitionContext: Sendable, Equatable {
    /// Seconds the change animates (0 for a snapshot).
    public var duration: Double
    public var reason: TransitionReason
    /// The device's orientation after the change.
    public var orientation: Orientation
    /// The window's new frame in screen points.
    public var frame: Rect
    /// The window's new safe-area insets.
    public var safeAreaInsets: EdgeInsets
    /// A snapshot for the app switcher rather than a change the user sees.
    public var snapshot: Bool
    /// The screen in the new orientation (it comes before the display's `PropertiesChanged`, so an adapter can
    /// tell a window narrower than the screen from this signal alone); nil when the daemon did not send it.
    public var screenSize: Size?
    /// The display-wide settings after the change, Reduce Motion among them (each under its `key`).
    public var traits: DisplayTraits
    /// A step of a live resize (`effectiveGeometry.isInteractivelyResizing`); false from a daemon without it.
    public var interactivelyResizing: Bool

    public init(
        duration: Double, reason: TransitionReason, orientation: Orientation, frame: Rect, safeAreaInsets: EdgeInsets,
        snapshot: Bool, screenSize: Size?, traits: DisplayTraits = DisplayTraits(), interactivelyResizing: Bool = false
    ) {
        self.traits = traits
        self.interactivelyResizing = interactivelyResizing
        self.duration = duration
        self.reason = reason
        self.orientation = orientation
        self.frame = frame
        self.safeAreaInsets = safeAreaInsets
        self.snapshot = snapshot
        self.screenSize = screenSize
    }
}

extension Parameter where Value == SizeTransitionContext {
    /// `a{sv}`: `duration` d, `reason` s, `orientation` s, `frame` (dddd), `safeAreaInsets` (dddd),
    /// `snapshot` b, `interactivelyResizing` b, when known `screenSize` (dd), and every display-wide setting under its `key`
    /// (`userInterfaceStyle` s ... `reduceMotion` b).
    public static func sizeContext(_ name: String) -> Self {
        record(name, what: "the context", decode: { read in
            SizeTransitionContext(
                duration: try read(ContextFields.duration), reason: try read(ContextFields.reason),
                orientation: try read(ContextFields.orientation), frame: try read(ContextFields.frame),
                safeAreaInsets: try read(ContextFields.safeAreaInsets), snapshot: try read(ContextFields.snapshot),
                screenSize: try read.optional(ContextFields.screenSize),
                traits: try DisplayTraits.read(read, of: DisplayTrait.all),
                interactivelyResizing: try read.optional(ContextFields.interactivelyResizing) ?? false)
        }, fields: ContextFields.record)
    }
}

private enum ContextFields {
    static let duration = Parameter<Double>.double("duration")
    static let reason = Parameter<TransitionReason>.choice("reason", what: "reason")
    static let orientation = Parameter<Orientation>.choice("orientation", what: "orientation")
    static let frame = Parameter<Rect>.rect("frame")
    static let safeAreaInsets = Parameter<EdgeInsets>.insets("safeAreaInsets")
    static let snapshot = Parameter<Bool>.boolean("snapshot")
    static let screenSize = Parameter<Size>.size("screenSize")
    static let interactivelyResizing = Parameter<Bool>.boolean("interactivelyResizing")

    static let record = RecordFields<SizeTransitionContext>([
        .field(duration) { $0.duration }, .field(reason) { $0.reason }, .field(orientation) { $0.orientation },
        .field(frame) { $0.frame }, .field(safeAreaInsets) { $0.safeAreaInsets }, .field(snapshot) { $0.snapshot },
        .optionalField(screenSize) { $0.screenSize }, .field(interactivelyResizing) { $0.interactivelyResizing },
    ] + DisplayTraits.fields(of: DisplayTrait.all) { $0.traits })
}

extension Parameter where Value == EffectiveGeometry {
    /// `a{sv}`: `frame` (dddd), `display` s, `orientation` s, `interactivelyResizing` b, `minimumSize` and
    /// `maximumSize` (dd) ((0, 0) without size restrictions), as `UIWindowScene.Geometry` has them; a table of
    /// fields like the size context (it goes out with every window's change of geometry).
    public static func effectiveGeometry(_ name: String) -> Self {
        record(name, what: "the geometry", decode: { read in
            let low = try read(GeometryFields.minimumSize), high = try read(GeometryFields.maximumSize)
            return EffectiveGeometry(
                frame: try read(GeometryFields.frame), display: try read(GeometryFields.display),
                orientation: try read(GeometryFields.orientation), interactivelyResizing: try read(GeometryFields.interactivelyResizing),
                sizeRestrictions: high == GeometryFields.none ? nil : SizeRestrictions(minimum: low, maximum: high))
        }, fields: GeometryFields.record)
    }
}

private enum GeometryFields {
    static let frame = Parameter<Rect>.rect("frame")
    static let display = Parameter<String>.string("display")
    static let orientation = Parameter<Orientation>.choice("orientation", what: "orientation")
    static let interactivelyResizing = Parameter<Bool>.boolean("interactivelyResizing")
    static let minimumSize = Parameter<Size>.size("minimumSize")
    static let maximumSize = Parameter<Size>.size("maximumSize")
    static let none = Size(width: 0, height: 0)

    static let record = RecordFields<EffectiveGeometry>([
        .field(frame) { $0.frame }, .field(display) { $0.display }, .field(orientation) { $0.orientation },
        .field(interactivelyResizing) { $0.interactivelyResizing },
        .field(minimumSize) { $0.sizeRestrictions?.minimum ?? none }, .field(maximumSize) { $0.sizeRestrictions?.maximum ?? none },
    ])
}

extension Parameter where Value == [String: Rect] {
    /// `a{s(dddd)}`: element name to frame, as an adapter reports them; a name given twice is refused. The
    /// shape only: the daemon checks the names and numbers further, with messages of their own.
    public static func frames(_ name: String) -> Self { .dictionary(name, of: .rect(name)) }
}

extension Parameter where Value == [String: [String: Rect]] {
    /// `a{sa{s(dddd)}}`: adapter to element to frame.
    public static func layouts(_ name: String) -> Self { .dictionary(name, of: .frames(name)) }
}

extension Parameter where Value == [String: [String: DBusValue]] {
    /// `a{sa{sv}}`: adapter to its report's extras.
    public static func layoutExtras(_ name: String) -> Self { .dictionary(name, of: .vardict(name)) }
}
