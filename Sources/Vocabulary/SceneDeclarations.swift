/// What an app declares of its window scene (`SetSizeRestrictions`, `SetSupportedOrientations`), as UIKit's
/// `UISceneSizeRestrictions` and `supportedInterfaceOrientations` say it: kept per app by the simulation, honoured
/// by the commands that size and turn its window.
public struct SceneDeclarations: Sendable, Hashable, Codable {
    /// The smallest and largest size the window may have (`UISceneSizeRestrictions`), or nil for the system's.
    public var sizeRestrictions: SizeRestrictions?
    /// The orientations the app supports; empty for all of them.
    public var supportedOrientations: [Orientation] = []
    /// The app's breakpoints (`SetBreakpoints`), by name: libadwaita's conditions, judged against the window at
    /// every change (`WindowGeometry.appliedBreakpoints`).
    public var breakpoints: [String: BreakpointCondition] = [:]
    /// The app's trait overrides and custom traits (`SetTraitOverrides`, UIKit's `traitOverrides`), applied to
    /// its window's traits wherever they are made.
    public var traitOverrides = TraitOverrides()

    public init(sizeRestrictions: SizeRestrictions? = nil, supportedOrientations: [Orientation] = [],
                breakpoints: [String: BreakpointCondition] = [:], traitOverrides: TraitOverrides = TraitOverrides()) {
        self.sizeRestrictions = sizeRestrictions
        self.supportedOrientations = supportedOrientations
        self.breakpoints = breakpoints
        self.traitOverrides = traitOverrides
    }

    public var isEmpty: Bool { sizeRestrictions == nil && supportedOrientations.isEmpty && breakpoints.isEmpty && traitOverrides.isEmpty }

    /// Whether the app supports `orientation` (every orientation when it declared none).
    public func supports(_ orientation: Orientation) -> Bool {
        supportedOrientations.isEmpty || supportedOrientations.contains(orientation)
    }

    /// The most breakpoints a window may have, and the longest name: what `SetBreakpoints` refuses past.
    public static let maximumBreakpoints = 64
    public static let maximumBreakpointName = 64

    /// Why `name` cannot name a breakpoint, or nil: 1 to 64 letters, digits, `-`, `_` or `.`.
    public static func breakpointNameProblem(_ name: String) -> String? {
        let allowed = name.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "-_.".unicodeScalars.contains($0)) }
        guard !name.isEmpty, name.count <= maximumBreakpointName, allowed else {
            return "a breakpoint's name is 1 to \(maximumBreakpointName) letters, digits, '-', '_' or '.'; got '\(name.prefix(80))'"
        }
        return nil
    }

    private enum CodingKeys: String, CodingKey { case sizeRestrictions, supportedOrientations, breakpoints, traitOverrides }

    /// State files written before trait overrides, breakpoints (and before either declaration) load: each key
    /// may be missing.
    /// Breakpoints are kept as their text and read back through the parser: a file edited by hand to hold a
    /// condition that is none is refused, naming it.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        sizeRestrictions = try c.decodeIfPresent(SizeRestrictions.self, forKey: .sizeRestrictions)
        supportedOrientations = try c.decodeIfPresent([Orientation].self, forKey: .supportedOrientations) ?? []
        let texts = try c.decodeIfPresent([String: String].self, forKey: .breakpoints) ?? [:]
        // Held to the rules SetBreakpoints keeps: a state file edited by hand is no way around them.
        if texts.count > Self.maximumBreakpoints {
            throw DecodingError.dataCorruptedError(forKey: .breakpoints, in: c, debugDescription: "more than \(Self.maximumBreakpoints) breakpoints")
        }
        if let problem = texts.keys.sorted().lazy.compactMap(Self.breakpointNameProblem).first {
            throw DecodingError.dataCorruptedError(forKey: .breakpoints, in: c, debugDescription: problem)
        }
        breakpoints = try texts.mapValues { text in
            do {
                return try BreakpointCondition(parsing: text)
            } catch {
                throw DecodingError.dataCorruptedError(forKey: .breakpoints, in: c, debugDescription: "'\(text)': \(error)")
            }
        }
        traitOverrides = try c.decodeIfPresent(TraitOverrides.self, forKey: .traitOverrides) ?? TraitOverrides()
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeIfPresent(sizeRestrictions, forKey: .sizeRestrictions)
        try c.encode(supportedOrientations, forKey: .supportedOrientations)
        if !breakpoints.isEmpty { try c.encode(breakpoints.mapValues(\.description), forKey: .breakpoints) }
        if !traitOverrides.isEmpty { try c.encode(traitOverrides, forKey: .traitOverrides) }
    }
}

/// A window's minimum and maximum size, in points.
public struct SizeRestrictions: Sendable, Hashable, Codable, CustomStringConvertible {
    public var minimum: Size
    public var maximum: Size

    public init(minimum: Size, maximum: Size) {
        self.minimum = minimum
        self.maximum = maximum
    }

    /// `size` held within the restrictions, each way.
    public func clamp(_ size: Size) -> Size {
        Size(width: min(max(size.width, minimum.width), maximum.width), height: min(max(size.height, minimum.height), maximum.height))
    }

    public func contains(_ size: Size) -> Bool { clamp(size) == size }

    /// Why these restrictions can hold no window on a device whose windows are at least `smallestWindow`
    /// (`device` names it), or nil: `problem`, and a maximum not below the smallest window (no frame the window
    /// could take). `SetSizeRestrictions` and a loaded state are held to this one rule.
    public func problem(smallestWindow: Size, on device: String) -> String? {
        if let problem { return problem }
        guard maximum.width >= smallestWindow.width, maximum.height >= smallestWindow.height else {
            return "a window is at least \(smallestWindow.width.compact) x \(smallestWindow.height.compact) pt on \(device), "
                + "so a maximum below that leaves it no size; got \(self)"
        }
        return nil
    }

    /// Why these restrictions can hold no window on any device, or nil: finite, not negative, a maximum above 0
    /// and a minimum not above it.
    public var problem: String? {
        let values = [minimum.width, minimum.height, maximum.width, maximum.height]
        guard values.allSatisfy({ $0.isFinite && $0 >= 0 }), maximum.width > 0, maximum.height > 0 else {
            return "size restrictions are finite, not negative, with a maximum above 0; got \(self)"
        }
        guard minimum.width <= maximum.width, minimum.height <= maximum.height else {
            return "a minimum size must not exceed the maximum; got \(self)"
        }
        return nil
    }

    public var description: String {
        "\(minimum.width.compact) x \(minimum.height.compact) to \(maximum.width.compact) x \(maximum.height.compact) pt"
    }
}

/// A window scene's geometry as `UIWindowScene.Geometry` has it (`DidUpdateEffectiveGeometry` carries the one
/// before a change): where it is, on which screen, which way up, whether a live resize is under way, and the
/// sizes it may take.
public struct EffectiveGeometry: Sendable, Hashable {
    public var frame: Rect
    public var display: String
    public var orientation: Orientation
    public var interactivelyResizing: Bool
    public var sizeRestrictions: SizeRestrictions?

    public init(frame: Rect, display: String, orientation: Orientation, interactivelyResizing: Bool, sizeRestrictions: SizeRestrictions?) {
        self.frame = frame
        self.display = display
        self.orientation = orientation
        self.interactivelyResizing = interactivelyResizing
        self.sizeRestrictions = sizeRestrictions
    }
}

/// A request for a new geometry (`RequestGeometryUpdate`, UIKit's `UIWindowScene.GeometryPreferences`):
/// orientations the app would have (iOS), and a size and origin (a free-form window).
public struct GeometryRequest: Sendable, Hashable {
    public var orientations: [Orientation]
    public var size: Size?
    public var origin: (x: Double, y: Double)? {
        get { originPoint.map { ($0.width, $0.height) } }
        set { originPoint = newValue.map { Size(width: $0.x, height: $0.y) } }
    }
    private var originPoint: Size?

    public init(orientations: [Orientation] = [], size: Size? = nil, origin: (x: Double, y: Double)? = nil) {
        self.orientations = orientations
        self.size = size
        self.originPoint = origin.map { Size(width: $0.x, height: $0.y) }
    }

    public var isEmpty: Bool { orientations.isEmpty && size == nil && originPoint == nil }
}
