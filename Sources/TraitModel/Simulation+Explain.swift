import Vocabulary

/// Why a window is what it is, read from the same tables and rules that made it (`Simulation.layout`,
/// `DisplayGeometry`, `FreeFormRules`), so that the answer cannot drift from the geometry it explains.
extension Simulation {
    /// The explanation of `app`'s window; nil when it has none.
    public func explain(_ app: String) -> [Explanation]? {
        guard let window = windows[app] else { return nil }
        let profile = self.profile
        let orientation = state.orientation
        let table = profile.table(orientation)
        let device = "\(profile.name) (profile \(profile.id), confidence \(profile.confidence)) in \(orientation)"
        let size = "\(window.frame.width.compact) x \(window.frame.height.compact) pt"
        let place = "\(size) at (\(window.frame.x.compact), \(window.frame.y.compact))"
        var lines: [Explanation] = []

        // The frame and the horizontal size class: where the window's width comes from, and the rule that
        // turns a width into a class.
        switch window.role {
        case .primary, .secondary, .slideOver:
            if window.state == .background {
                lines.append(.init("frame", "\(place): \(app) is in the background, with the geometry it last had on screen "
                                   + "(UIKit resizes no suspended app; it sees the new size when it comes back)"))
                lines.append(.init("horizontalSizeClass", "\(window.traits.horizontalSizeClass): kept from that geometry"))
                break
            }
            let arrangement = drag?.shown ?? state.arrangement
            let slots = DeviceProfile.slots(for: arrangement)
            let slot = window.role == .primary ? slots[0] : slots[slots.count > 1 ? 1 : 0]
            let side = window.role == .primary ? "the primary side" : window.role == .slideOver ? "the Slide Over window" : "the secondary side"
            let during = drag == nil ? "" : " (a divider drag is showing that arrangement's snapshot)"
            let width = table.widths[slot]?.width ?? window.frame.width
            lines.append(.init("frame", "\(place): \(side) of \(arrangement) on the \(device)\(during); its width is the device "
                               + "table's \(slot.rawValue) width (\(width.compact) pt), its height the screen's"
                               + (window.role == .slideOver ? " less the Slide Over inset (\(profile.slideOverHeightInset.compact) pt)" : "")))
            lines.append(.init("horizontalSizeClass", "\(window.traits.horizontalSizeClass): the device's \(orientation) table gives "
                               + "its \(slot.rawValue) window (\(width.compact) pt) a \(window.traits.horizontalSizeClass) width "
                               + "(Apple's size-class tables for \(profile.name))"))
        case .window:
            let rules = profile.freeForm
            let mode = state.windowing.rawValue
            let screen = window.display == ConnectedDisplay.device ? "the device's screen" : "the external display \(window.display)"
            lines.append(.init("frame", "\(place): a \(mode) window on \(screen), where the last SetFrame, Tile, resize or "
                               + "rotation left it, kept at least \(rules.minimumSize.width.compact) x "
                               + "\(rules.minimumSize.height.compact) pt and inside the screen"))
            lines.append(.init("horizontalSizeClass", "\(window.traits.horizontalSizeClass): a free-form window is regular from "
                               + "\(rules.regularWidth.compact) pt wide (the narrowest regular Split View width in the iPad "
                               + "tables), and this one is \(window.frame.width.compact) pt"))
        case .pip:
            lines.append(.init("frame", "\(place): Picture in Picture, as wide as the device's Slide Over window, "
                               + "\(PictureInPicture.margin.compact) pt from the bottom-right corner"))
            lines.append(.init("horizontalSizeClass", "compact: Picture in Picture is compact both ways"))
        }

        lines.append(.init("verticalSizeClass", window.role == .pip ? "compact: Picture in Picture is compact both ways"
                           : "\(window.traits.verticalSizeClass): the vertical class of the \(device) (its \(orientation) table)"))
        lines.append(.init("safeArea", safeAreaText(window, table.safeArea)))
        lines.append(.init("windowSizeClasses", "width \(window.traits.windowWidthSizeClass), height \(window.traits.windowHeightSizeClass): "
                           + "Android's window size classes of \(size), one point a dp (width compact below 600, medium to 840, "
                           + "expanded to 1200, large to 1600, extra-large from 1600; height compact below 480, medium to 900, "
                           + "expanded from 900)"))
        if !window.declarations.breakpoints.isEmpty {
            let applied = window.appliedBreakpoints
            lines.append(.init("breakpoints", window.declarations.breakpoints.sorted { $0.key < $1.key }.map { name, condition in
                "\(name) (\(condition)) \(applied.contains(name) ? "applies" : "does not apply")"
            }.joined(separator: "; ") + " at \(size), scale \(window.traits.displayScale.compact), text \(window.traits.display.contentSize)"))
        }
        let traits = window.traits
        lines.append(.init("traits", "display scale \(traits.displayScale.compact) (the \(window.display == ConnectedDisplay.device ? "device's" : "external display's")), "
                           + "idiom \(traits.idiom), gamut \(traits.displayGamut), interface level \(traits.userInterfaceLevel)"
                           + (traits.userInterfaceLevel == .elevated ? " (Slide Over and Picture in Picture float above)" : "")
                           + "; the display's settings: " + DisplayTrait.windowTraits.map { "\($0.word) \(traits.display[$0])" }.joined(separator: ", ")))
        let overrides = window.declarations.traitOverrides
        if !overrides.isEmpty {
            let inherited = window.traitsBeforeOverrides ?? traits
            let system = overrides.system.sorted { $0.key.name < $1.key.name }.map { field, text in
                "\(field.name) \(text) (the app's override; the system's is \(field.text(in: inherited)))"
            }
            let custom = overrides.custom.sorted { $0.key < $1.key }.map { name, trait in
                trait.override.map { "\(name) \($0.text) (the app's override of its custom trait; its default is \(trait.defaultValue.text))" }
                    ?? "\(name) \(trait.defaultValue.text) (a custom trait the app named, at its default: not overridden)"
            }
            lines.append(.init("traitOverrides", (system + custom).joined(separator: "; ") + ": SetTraitOverrides, applied over the traits the "
                               + "system gives the window, as UIKit's traitOverrides"))
        }
        let why: String
        switch window.state {
        case .active: why = "on screen"
        case .inactive: why = "a divider drag is under way (both Split View sides resign active until it ends)"
        case .background: why = "not on screen"
        }
        lines.append(.init("state", "\(window.state): \(why)" + (window.interactivelyResizing
            ? "; a live resize is under way (InteractivelyResizing), and the window stays active through it, as on iPadOS 26" : "")))
        let fronts = window.role == .window ? "the front window of its screen is active, the others inactive (Stage Manager and windowed apps)"
            : "every visible window of Split View, Slide Over, full screen and Picture in Picture is active"
        lines.append(.init("activeAppearance", "\(window.traits.activeAppearance): \(fronts)"))
        return lines
    }

    /// Each inset, and why: the screen's inset on an edge the window touches, none on one it does not.
    private func safeAreaText(_ window: WindowGeometry, _ screenInsets: EdgeInsets) -> String {
        switch window.role {
        case .slideOver, .pip:
            return "none: \(window.role == .pip ? "Picture in Picture" : "Slide Over") floats clear of the status bar and the home indicator"
        default:
            break
        }
        if window.display != ConnectedDisplay.device { return "none: an external display has no status bar or sensor housing" }
        let frame = window.frame, screen = geometry.screen
        let edges: [(String, Double, Double, Bool)] = [
            ("top", window.safeArea.top, screenInsets.top, frame.y <= 0),
            ("left", window.safeArea.left, screenInsets.left, frame.x <= 0),
            ("bottom", window.safeArea.bottom, screenInsets.bottom, frame.maxY >= screen.height),
            ("right", window.safeArea.right, screenInsets.right, frame.maxX >= screen.width),
        ]
        return edges.map { edge, inset, screenInset, touches in
            touches ? "\(edge) \(inset.compact) (the window touches the screen's \(edge) edge, whose inset is \(screenInset.compact))"
                : "\(edge) \(inset.compact) (the window does not touch the screen's \(edge) edge)"
        }.joined(separator: "; ")
    }
}
