import Vocabulary

/// One device model: its screen, the orientations it offers, and per orientation the width and horizontal size
/// class of every window it offers and the screen's safe-area insets. Profiles ship under `Config/devices/`; the
/// facts come from the project's shared reference (`ipad-geometry.md`, copied into
/// `Tests/TraitModelTests/Fixtures/`).
public struct DeviceProfile: Sendable, Hashable {
    /// A window width the device offers, and the horizontal size class a window of that width gets.
    public struct WindowWidth: Sendable, Hashable {
        public var width: Double
        public var horizontal: SizeClass
        public init(_ width: Double, _ horizontal: SizeClass) {
            self.width = width
            self.horizontal = horizontal
        }
    }

    /// The slots of the geometry tables.
    public enum Slot: String, Sendable, CaseIterable {
        case full
        case twoThirds = "two-thirds"
        case half
        case oneThird = "one-third"
        case slideOver = "slide-over"
    }

    /// What one orientation offers: the vertical size class, a width per slot (a missing slot is not offered),
    /// and the full-screen window's safe-area insets (each window gets those of the screen edges it touches).
    public struct OrientationTable: Sendable, Hashable {
        public var vertical: SizeClass
        public var widths: [Slot: WindowWidth]
        public var safeArea: EdgeInsets
        public init(vertical: SizeClass, widths: [Slot: WindowWidth], safeArea: EdgeInsets = .zero) {
            self.vertical = vertical
            self.widths = widths
            self.safeArea = safeArea
        }
    }

    public var id: String
    public var name: String
    public var idiom: Idiom
    public var scale: Double
    /// How sure the facts are: `high`, `medium`, `low` (from the reference table).
    public var confidence: String
    /// The screen in landscape; portrait swaps width and height.
    public var landscapeScreen: Size
    public var dividerWidth: Double
    /// Slide Over windows are the screen height minus this, centred vertically.
    public var slideOverHeightInset: Double
    public var landscape: OrientationTable
    public var portrait: OrientationTable
    /// The screen's colour gamut (`display-gamut`; Apple's tech specs say "Wide color (P3)" for P3 screens).
    public var gamut: DisplayGamut
    /// The orientations the device can be rotated to, in `Orientation.allCases` order (the Face ID iPhones
    /// have no portrait-upside-down).
    public var orientations: [Orientation]
    /// How free-form windows are laid out (`free-form:`; the defaults where the file says nothing).
    public var freeForm: FreeFormRules
    /// The software keyboard: heights, whether it splits (`keyboard:`; derived from the screen where the file
    /// says nothing, `KeyboardTable.derived`).
    public var keyboard: KeyboardTable

    public init(
        id: String, name: String, idiom: Idiom = .pad, scale: Double = 2, confidence: String = "high",
        landscapeScreen: Size, dividerWidth: Double = 10, slideOverHeightInset: Double,
        landscape: OrientationTable, portrait: OrientationTable, orientations: [Orientation] = Orientation.allCases,
        gamut: DisplayGamut = .srgb, freeForm: FreeFormRules? = nil, keyboard: KeyboardTable? = nil
    ) {
        self.gamut = gamut
        self.keyboard = keyboard ?? .derived(idiom: idiom, landscapeScreen: landscapeScreen)
        self.freeForm = freeForm ?? FreeFormRules(tileGap: dividerWidth)
        self.id = id
        self.name = name
        self.idiom = idiom
        self.scale = scale
        self.confidence = confidence
        self.landscapeScreen = landscapeScreen
        self.dividerWidth = dividerWidth
        self.slideOverHeightInset = slideOverHeightInset
        self.landscape = landscape
        self.portrait = portrait
        self.orientations = Orientation.allCases.filter(orientations.contains)
    }

    public func offers(_ orientation: Orientation) -> Bool { orientations.contains(orientation) }

    /// The windowing modes the device offers: free-form windows on an iPad, Split View only on a phone.
    public var offeredWindowing: [Windowing] { idiom == .pad ? Windowing.allCases : [.splitView] }

    /// `orientation` when offered, else the offered one nearest to it: the other of the same kind (landscape or
    /// portrait) first, then the first offered. A device change picks this; a rotation refuses instead.
    public func nearestOrientation(to orientation: Orientation) -> Orientation {
        if offers(orientation) { return orientation }
        return orientations.first { $0.isLandscape == orientation.isLandscape } ?? orientations.first ?? .portrait
    }

    /// Whether any arrangement but `full` is offered in `orientation`: can a second app be on screen?
    public func offersSecondApp(_ orientation: Orientation) -> Bool {
        offeredArrangements(orientation).contains { $0.needsSecondary }
    }

    public func table(_ orientation: Orientation) -> OrientationTable {
        orientation.isLandscape ? landscape : portrait
    }

    public func screenSize(_ orientation: Orientation) -> Size {
        orientation.isLandscape
            ? landscapeScreen : Size(width: landscapeScreen.height, height: landscapeScreen.width)
    }

    /// The arrangements this device offers in `orientation`, in the order of `Arrangement.allCases`.
    public func offeredArrangements(_ orientation: Orientation) -> [Arrangement] {
        let widths = table(orientation).widths
        return Arrangement.allCases.filter { arrangement in
            Self.slots(for: arrangement).allSatisfy { widths[$0] != nil }
        }
    }

    /// The table slots an arrangement needs: (primary, secondary).
    static func slots(for arrangement: Arrangement) -> [Slot] {
        switch arrangement {
        case .full: return [.full]
        case .splitTwoThirds: return [.twoThirds, .oneThird]
        case .splitHalf: return [.half]
        case .splitOneThird: return [.oneThird, .twoThirds]
        case .slideOver: return [.full, .slideOver]
        }
    }

    /// Problems with the profile's arithmetic: every split must add up to the screen width with the divider.
    /// Each names the section it is in (`landscape`, `portrait`, `slide-over-height-inset`); empty when consistent.
    public func inconsistencies() -> [(section: String, problem: String)] {
        var problems: [(section: String, problem: String)] = []
        for orientation in [Orientation.landscapeLeft, .portrait] {
            let name = orientation.isLandscape ? "landscape" : "portrait"
            let t = table(orientation).widths
            let screen = screenSize(orientation).width
            guard let full = t[.full] else {
                problems.append((name, "\(name) has no 'full' width"))
                continue
            }
            if abs(full.width - screen) > 0.01 {
                problems.append((name, "\(name) full width \(full.width.compact) is not the screen width \(screen.compact)"))
            }
            if let a = t[.twoThirds], let b = t[.oneThird], abs(a.width + b.width + dividerWidth - screen) > 0.01 {
                problems.append((name, "\(name): two-thirds (\(a.width.compact)) + one-third (\(b.width.compact)) + divider (\(dividerWidth.compact)) = \((a.width + b.width + dividerWidth).compact), not the screen width \(screen.compact)"))
            }
            if (t[.twoThirds] == nil) != (t[.oneThird] == nil) {
                problems.append((name, "\(name): two-thirds and one-third come together (one is the other side of the split)"))
            }
            if let h = t[.half], abs(2 * h.width + dividerWidth - screen) > 0.01 {
                problems.append((name, "\(name): 2 x half (\(h.width.compact)) + divider (\(dividerWidth.compact)) = \((2 * h.width + dividerWidth).compact), not the screen width \(screen.compact)"))
            }
            for (slot, w) in t where w.width <= 0 || w.width > screen {
                problems.append((name, "\(name) \(slot.rawValue) width \(w.width.compact) is outside 0...\(screen.compact)"))
            }
        }
        if orientations.isEmpty {
            problems.append(("orientations", "the profile offers no orientation"))
        }
        for orientation in [Orientation.landscapeLeft, .portrait] {
            let name = orientation.isLandscape ? "landscape" : "portrait"
            let insets = table(orientation).safeArea
            let screen = screenSize(orientation)
            if insets.values.contains(where: { $0 < 0 }) || insets.left + insets.right >= screen.width
                || insets.top + insets.bottom >= screen.height {
                problems.append((name, "\(name) safe area \(insets) leaves no room on a \(screen) screen"))
            }
        }
        if slideOverHeightInset < 0 || slideOverHeightInset >= min(landscapeScreen.width, landscapeScreen.height) {
            problems.append(("slide-over-height-inset", "slide-over-height-inset \(slideOverHeightInset.compact) leaves no window"))
        }
        return problems
    }
}

/// The device profiles the simulation knows, by id.
public struct DeviceCatalog: Sendable {
    public private(set) var profiles: [String: DeviceProfile] = [:]

    public init(_ profiles: [DeviceProfile] = []) {
        for profile in profiles { add(profile) }
    }

    /// Adds a profile, replacing one with the same id.
    public mutating func add(_ profile: DeviceProfile) { profiles[profile.id] = profile }

    public var ids: [String] { profiles.keys.sorted() }

    public func profile(_ id: String) throws(ModelError) -> DeviceProfile {
        guard let profile = profiles[id] else {
            throw .invalidArgument("unknown device '\(id.shortened)'; \(Suggestion.phrase(id, among: ids))known devices: \(ids.joined(separator: ", "))")
        }
        return profile
    }
}
