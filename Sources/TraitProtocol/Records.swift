import DBus
import Vocabulary

/// The contract's `a{sv}` records and nested dictionaries, typed: a window's traits, the context of
/// `ViewWillTransitionToSize`, and the adapters' layouts. The daemon encodes them and a client decodes them
/// through the same parameters, so a field is named and typed once. Decoding is strict: a missing field, or
/// one of another type, throws `InvalidArgs` naming the record and the field.
extension Parameter where Value == TraitCollection {
    /// `a{sv}`: `horizontalSizeClass` s, `verticalSizeClass` s, `idiom` s, `displayScale` d,
    /// `userInterfaceLevel` s, `displayGamut` s, and each window trait of `DisplayTrait.all` under its `key`
    /// (`userInterfaceStyle` s, `preferredContentSizeCategory` s, `layoutDirection` s, `accessibilityContrast` s,
    /// `legibilityWeight` s). The fields after `displayScale` may be missing (an older daemon): their defaults.
    public static func traits(_ name: String) -> Self {
        record(name, what: "the traits", decode: { read in
            TraitCollection(
                horizontalSizeClass: try read(TraitFields.horizontal), verticalSizeClass: try read(TraitFields.vertical),
                idiom: try read(TraitFields.idiom), displayScale: try read(TraitFields.displayScale),
                userInterfaceLevel: try read.optional(TraitFields.level) ?? .base,
                displayGamut: try read.optional(TraitFields.gamut) ?? .srgb,
                display: try DisplayTraits.read(read, of: DisplayTrait.windowTraits))
        }, encode: { traits in
            [
                TraitFields.horizontal.entry(traits.horizontalSizeClass), TraitFields.vertical.entry(traits.verticalSizeClass),
                TraitFields.idiom.entry(traits.idiom), TraitFields.displayScale.entry(traits.displayScale),
                TraitFields.level.entry(traits.userInterfaceLevel), TraitFields.gamut.entry(traits.displayGamut),
            ] + DisplayTraits.entries(traits.display, of: DisplayTrait.windowTraits)
        })
    }
}

private enum TraitFields {
    static let horizontal = Parameter<SizeClass>.choice("horizontalSizeClass", what: "size class")
    static let vertical = Parameter<SizeClass>.choice("verticalSizeClass", what: "size class")
    static let idiom = Parameter<Idiom>.choice("idiom", what: "idiom")
    static let displayScale = Parameter<Double>.double("displayScale")
    static let level = Parameter<InterfaceLevel>.choice("userInterfaceLevel", what: "interface level")
    static let gamut = Parameter<DisplayGamut>.choice("displayGamut", what: "display gamut")
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

    public init(
        duration: Double, reason: TransitionReason, orientation: Orientation, frame: Rect, safeAreaInsets: EdgeInsets,
        snapshot: Bool, screenSize: Size?, traits: DisplayTraits = DisplayTraits()
    ) {
        self.traits = traits
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
    /// `snapshot` b, when known `screenSize` (dd), and every display-wide setting under its `key`
    /// (`userInterfaceStyle` s ... `reduceMotion` b).
    public static func sizeContext(_ name: String) -> Self {
        record(name, what: "the context", decode: { read in
            SizeTransitionContext(
                duration: try read(ContextFields.duration), reason: try read(ContextFields.reason),
                orientation: try read(ContextFields.orientation), frame: try read(ContextFields.frame),
                safeAreaInsets: try read(ContextFields.safeAreaInsets), snapshot: try read(ContextFields.snapshot),
                screenSize: try read.optional(ContextFields.screenSize),
                traits: try DisplayTraits.read(read, of: DisplayTrait.all))
        }, encode: { context in
            [
                ContextFields.duration.entry(context.duration), ContextFields.reason.entry(context.reason),
                ContextFields.orientation.entry(context.orientation), ContextFields.frame.entry(context.frame),
                ContextFields.safeAreaInsets.entry(context.safeAreaInsets), ContextFields.snapshot.entry(context.snapshot),
            ] + (context.screenSize.map { [ContextFields.screenSize.entry($0)] } ?? [])
                + DisplayTraits.entries(context.traits, of: DisplayTrait.all)
        })
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

extension Parameter {
    /// `a{s...}`: string keys (sorted on the wire), each value read strictly by `element`; a key that comes
    /// twice is refused (a dictionary has one value per key, and which one a reader keeps is not ours to guess).
    static func dictionary<Element>(_ name: String, of element: Parameter<Element>) -> Self where Value == [String: Element] {
        let signature = "a{s\(element.signature)}"
        return Self(name, signature, decode: { value in
            guard value.hasSignature(signature), case .array(_, let entries) = value.unwrapped else {
                throw DBusError.invalidArgs("\(name) must be '\(signature)', but it is '\(value.signature)'")
            }
            var result: [String: Element] = [:]
            for entry in entries {
                guard case .dictEntry(.string(let key), let item) = entry else {
                    throw DBusError.invalidArgs("\(name) must be '\(signature)'")
                }
                guard result[key] == nil else { throw DBusError.invalidArgs("\(name): '\(key.printable)' appears twice") }
                result[key] = try element.decode(item)
            }
            return result
        }, encode: { dictionary in
            .array(element: "{s\(element.signature)}", dictionary.keys.sorted().map { .dictEntry(.string($0), element.encode(dictionary[$0]!)) })
        })
    }
}

// MARK: - Records

extension Parameter {
    /// An `a{sv}` record whose fields `decode` reads one by one through their own parameters.
    static func record(
        _ name: String, what: String, decode: @escaping @Sendable (RecordReader) throws -> Value,
        encode: @escaping @Sendable (Value) -> [(String, DBusValue)]
    ) -> Self {
        let fields = Parameter<[String: DBusValue]>.vardict(name)
        return Parameter(name, fields.signature, decode: { value in
            let fields = try fields.decode(value)
            return try DBusError.inContext(what) { try decode(RecordReader(fields: fields, what: what)) }
        }, encode: { value in
            // Sorted by key as `DBusValue.vardict` sorts a dictionary, the first of a repeated key kept, without
            // the dictionary in between: records go out in every transition's signals.
            let entries = encode(value).enumerated().sorted { ($0.element.0, $0.offset) < ($1.element.0, $1.offset) }
            var items: [DBusValue] = []
            items.reserveCapacity(entries.count)
            var previous: String?
            for (_, (key, field)) in entries where key != previous {
                items.append(.dictEntry(.string(key), .variant(field)))
                previous = key
            }
            return .array(element: "{sv}", items)
        })
    }

    /// The field's name and its value on the wire, for a record's encoder.
    func entry(_ value: Value) -> (String, DBusValue) { (name, encode(value)) }
}

/// Reads the fields of one `a{sv}` record strictly; a missing required field is refused by name.
struct RecordReader {
    let fields: [String: DBusValue]
    let what: String

    func callAsFunction<Value>(_ field: Parameter<Value>) throws -> Value {
        guard let value = fields[field.name] else { throw DBusError.invalidArgs("no field \(field.name)") }
        return try field.decode(value)
    }

    func optional<Value>(_ field: Parameter<Value>) throws -> Value? {
        try fields[field.name].map(field.decode)
    }
}
