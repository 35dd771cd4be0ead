import Vocabulary

/// What one command changes, in the order it must be announced. The D-Bus layer turns it into signals and
/// property changes; it decides nothing itself.
public struct Plan: Sendable {
    /// The display after this plan's stage: what its `PropertiesChanged` publishes (`Serial` included).
    public var display: DisplayValues
    public var reason: TransitionReason
    /// Display properties whose value changed.
    public var displayChanges: Set<DisplayProperty>
    /// Per-window changes, primary first; includes windows that open or close.
    public var windows: [WindowChange]
    /// The external displays this stage plugged in, and the ids of those it unplugged.
    public var displaysConnected: [ConnectedDisplay] = []
    public var displaysDisconnected: [String] = []
    /// Each display connected before and after this stage whose windows changed (front to back), by id.
    public var displayWindows: [String: [String]] = [:]

    public init(display: DisplayValues, reason: TransitionReason, displayChanges: Set<DisplayProperty> = [],
                windows: [WindowChange] = []) {
        self.display = display
        self.reason = reason
        self.displayChanges = displayChanges
        self.windows = windows
    }

    /// The serial after this stage; unchanged (and `isEmpty`) when the command changed nothing.
    public var serial: UInt64 { display.serial }

    public var isEmpty: Bool { displayChanges.isEmpty && windows.isEmpty }

    /// What the stage's display `PropertiesChanged` carries: what changed, and always the stage's new `serial`.
    public var publishedDisplayChanges: Set<DisplayProperty> { displayChanges.union([.serial]) }
    public var opened: [String] { windows.filter { $0.before == nil }.map(\.app) }
    public var closed: [String] { windows.filter { $0.after == nil }.map(\.app) }
    public var transitions: [WindowChange] { windows.filter(\.needsTransition) }
    /// The display-wide settings this stage changed, in table order.
    public var settingsChanged: [DisplayTrait] { DisplayTrait.all.filter { displayChanges.contains(.trait($0)) } }
}

/// The display's published values, one case per property (their names on the bus are `Encoding`'s business).
public enum DisplayProperty: Sendable, Hashable, CaseIterable {
    case device, orientation, screenSize, scale, arrangement, windows
    /// The divider's position.
    case divider
    /// Whether the divider is being dragged.
    case dragging
    /// The apps not on screen (`Simulation.backgroundApps`).
    case background
    /// The state's serial: new with every stage that changes something.
    case serial
    /// A display-wide setting (`DisplayTrait.all`: one property each).
    case trait(DisplayTrait)
    /// Split View, Stage Manager or windowed apps.
    case windowing
    /// The windows on screen, front to back.
    case stacking
    /// The external displays connected.
    case displays
    /// The software keyboard's mode, and its frame on the screen.
    case keyboard, keyboardFrame

    /// Every property, in the order of the XML.
    public static var allCases: [DisplayProperty] {
        [.device, .orientation, .screenSize, .scale, .arrangement, .windows, .serial, .divider, .dragging, .background]
            + DisplayTrait.all.map(DisplayProperty.trait) + [.windowing, .stacking, .displays, .keyboard, .keyboardFrame]
    }
}

/// One window's change: geometry before and after, and what follows from them.
public struct WindowChange: Sendable {
    public let app: String
    /// nil when the window opens.
    public let before: WindowGeometry?
    /// nil when the window closes.
    public let after: WindowGeometry?
    public let context: TransitionContext
    /// App lifecycle events, as `UIApplicationDelegate` would get them: from the state before to after, or as
    /// the simulation says for a window that opens or closes (`DidEnterBackground` when the divider dismisses
    /// an app, `WillEnterForeground` when a dismissed app opens again).
    public let lifecycle: [LifecycleEvent]
    /// The device turned while the window stayed on screen. A 180-degree turn changes neither size nor traits,
    /// yet UIKit still calls `viewWillTransition(to:with:)` with the unchanged size: apps use it for work that
    /// depends on the orientation.
    public let rotated: Bool
    /// The screen in the new orientation, which `ViewWillTransitionToSize` carries (nil: not known, as for a
    /// change made by hand in a test).
    public let screen: Size?

    public init(
        app: String, before: WindowGeometry?, after: WindowGeometry?, context: TransitionContext,
        lifecycle: [LifecycleEvent]? = nil, rotated: Bool = false, screen: Size? = nil
    ) {
        self.app = app
        self.before = before
        self.after = after
        self.context = context
        self.rotated = rotated
        self.screen = screen
        if let lifecycle {
            self.lifecycle = lifecycle
        } else if let from = before?.state, let to = after?.state {
            self.lifecycle = LifecycleEvent.events(from: from, to: to)
        } else {
            self.lifecycle = []
        }
    }

    public var sizeChanged: Bool {
        guard let before, let after else { return false }
        return before.frame.size != after.frame.size
    }

    public var traitsChanged: Bool {
        guard let previousTraits, let after else { return false }
        return previousTraits != after.traits
    }

    /// The window's traits before, as the app reads them: a custom trait named in this transition was at its
    /// default before it (a `UITraitDefinition` is read as its default wherever it is not overridden), so naming
    /// one at its default changes no trait (its `Traits` property still gains the key).
    var previousTraits: TraitCollection? {
        guard var previous = before?.traits, let after else { return before?.traits }
        for (name, trait) in after.declarations.traitOverrides.custom where previous.custom[name] == nil {
            previous.custom[name] = trait.defaultValue
        }
        return previous
    }

    /// The window moved to another screen: UIKit tells the scene (`windowScene(_:didUpdateEffectiveGeometry:)`)
    /// and its view controllers get `viewWillTransition(to:with:)` even when the size stays.
    public var movedScreen: Bool {
        guard let before, let after else { return false }
        return before.display != after.display
    }

    public var safeAreaChanged: Bool {
        guard let before, let after else { return false }
        return before.safeArea != after.safeArea
    }

    /// The window controls came, went or moved (the safe area adapted to them changed): the window lays out
    /// again, as for a change of its safe area, though `SafeAreaInsets` stays.
    public var cornerAdaptedInsetsChanged: Bool {
        guard let before, let after else { return false }
        return before.cornerAdaptedInsets != after.cornerAdaptedInsets
    }

    /// Which of the app's breakpoints apply changed (a size, a scale, a text size, or the app's own new ones).
    public var breakpointsChanged: Bool {
        guard let before, let after else { return false }
        return before.appliedBreakpoints != after.appliedBreakpoints
    }

    /// The keyboard moved, showed or hid as this window sees it: its mode, its frame on the screen, or where it
    /// is in the window (a window moved under a keyboard that stays); which window is key alone changes nothing.
    public var keyboardChanged: Bool {
        guard let before, let after else { return false }
        func relative(_ w: WindowGeometry) -> Rect? {
            w.keyboard.map { Rect(x: $0.frame.x - w.frame.x, y: $0.frame.y - w.frame.y, width: $0.frame.width, height: $0.frame.height) }
        }
        return before.keyboard?.mode != after.keyboard?.mode || before.keyboard?.frame != after.keyboard?.frame
            || relative(before) != relative(after)
    }

    /// The window opens on screen: its first layout is a transition of its own (`firstLayoutSteps`), so that
    /// whoever opened it can wait until its adapters have laid it out, as for any other change. A window that
    /// opens off screen gets none (its app is suspended).
    public var opensOnScreen: Bool { before == nil && after.map { $0.state != .background } == true }

    /// A window gets a transition when it opens on screen, when its size, its traits, its safe area (or the one
    /// adapted to the window controls) change, the device turns under it or the keyboard changes (a move alone
    /// is only a property change). A window off screen before and after gets none: a suspended app gets no
    /// callbacks (its properties still change; it sees the new size when it comes back).
    public var needsTransition: Bool {
        if opensOnScreen { return true }
        guard before?.state != .background || after?.state != .background else { return false }
        return sizeChanged || traitsChanged || safeAreaChanged || rotated || movedScreen || keyboardChanged
            || cornerAdaptedInsetsChanged || breakpointsChanged
    }

    /// A new window's first layout, as UIKit gives a scene's root view controller its first layout pass: no
    /// "will transition" (nothing changes from an earlier size: the window is published whole as it appears),
    /// only `viewWillLayoutSubviews`, where its adapters lay out, and the completion.
    static let firstLayoutSteps = TransitionSteps(beforeProperties: [], afterProperties: [.viewWillLayoutSubviews])

    /// Whether `WillTransitionToTraitCollection` comes first when only display-wide settings changed (dark mode,
    /// text size, direction, contrast, legibility), the size and size classes staying. No source found settles
    /// whether UIKit calls `willTransition(to:with:)` then; the reference's callback table lists it for every
    /// "traits only" change, and a client that prepares for new traits (swaps images before dark mode) can only
    /// use a signal that is sent, while one that does not care ignores it. So: yes. This is the one switch.
    public static let willTransitionWhenOnlySettingsChange = true

    /// Only display-wide settings changed: the size, the size classes and the rest of the traits stay.
    public var onlySettingsChanged: Bool {
        guard let before, let after, !sizeChanged, !rotated, !movedScreen else { return false }
        var same = after.traits
        same.display = before.traits.display
        return same == before.traits && before.traits.display != after.traits.display
    }

    /// UIKit's callback order for this window (`uikit-transitions.md` of the reference), each step with what its
    /// signal says; empty without a transition. The safe area's change comes last, as UIKit reports it from the
    /// layout pass that follows `traitCollectionDidChange`, when the window's properties already hold the new
    /// insets.
    public var steps: TransitionSteps {
        if opensOnScreen { return Self.firstLayoutSteps }
        guard needsTransition, let before, let after else { return TransitionSteps() }
        var will: [WindowStep] = [], did: [WindowStep] = []
        if traitsChanged, !onlySettingsChanged || Self.willTransitionWhenOnlySettingsChange {
            will.append(.willTransitionToTraits(after.traits))
        }
        if sizeChanged || rotated || movedScreen {
            will.append(.viewWillTransitionToSize(after.frame.size, context: context, window: after, screen: screen))
        }
        if traitsChanged {
            did.append(.traitCollectionDidChange(previous: previousTraits ?? before.traits))
            // One per trait, for clients that subscribe to some only (`registerForTraitChanges(_:handler:)`).
            let previous = previousTraits ?? before.traits
            for field in after.traits.changes(from: previous) {
                did.append(.traitDidChange(field, traits: after.traits, previous: previous))
            }
        }
        // UIKit posts the text size's notification when the setting changes, app-wide: not when an override of
        // the window's `preferredContentSizeCategory` changes (that is a trait change alone), so the system's.
        let systemSize = { (w: WindowGeometry) in (w.traitsBeforeOverrides ?? w.traits).display.contentSize }
        if systemSize(before) != systemSize(after) {
            did.append(.contentSizeCategoryDidChange(systemSize(after)))
        }
        if safeAreaChanged { did.append(.safeAreaInsetsDidChange(after.safeArea)) }
        // The keyboard: its change, or (while it is up) re-announced in any other transition of the window, with
        // the frame it has then: `Will` notices before the window's properties change, `Did` after its layout.
        let keyboard = keyboardChanged || after.keyboard != nil
            ? KeyboardNotice.notices(from: before.keyboard, to: after.keyboard, duration: context.duration) : (will: [], did: [])
        will += keyboard.will.map(WindowStep.keyboard)
        // The breakpoints, as libadwaita applies them: before the layout pass, those that stop holding first.
        let applied = before.appliedBreakpoints, applying = after.appliedBreakpoints
        did += applied.filter { !applying.contains($0) }.map(WindowStep.breakpointUnapplied)
        did += applying.filter { !applied.contains($0) }.map(WindowStep.breakpointApplied)
        did.append(.viewWillLayoutSubviews)
        did += keyboard.did.map(WindowStep.keyboard)
        return TransitionSteps(beforeProperties: will, afterProperties: did)
    }
}

/// A window's transition, in UIKit's order: the steps before its properties take their new values
/// (`PropertiesChanged`), then those after, up to the layout pass (`viewWillLayoutSubviews`, where adapters lay
/// out) and the keyboard's `Did` notices; the transition then waits for its adapters' reports.
public struct TransitionSteps: Sendable, Equatable {
    /// Before the window's properties change: `WillTransitionToTraitCollection`, `ViewWillTransitionToSize`, the
    /// keyboard's `Will` notices.
    public var beforeProperties: [WindowStep] = []
    /// After them: `TraitCollectionDidChange` and a `TraitDidChange` per trait, the text size, the safe area,
    /// `ViewWillLayoutSubviews`, the keyboard's `Did` notices.
    public var afterProperties: [WindowStep] = []

    /// The two halves, in order.
    public init(beforeProperties: [WindowStep] = [], afterProperties: [WindowStep] = []) {
        self.beforeProperties = beforeProperties
        self.afterProperties = afterProperties
    }

    /// Every step, in order.
    public var all: [WindowStep] { beforeProperties + afterProperties }
    public var isEmpty: Bool { beforeProperties.isEmpty && afterProperties.isEmpty }
}

/// What a transition's `ViewWillTransitionToSize` carries besides the size.
public struct TransitionContext: Sendable, Equatable {
    public var reason: TransitionReason
    /// Seconds; 0 with Reduce Motion on.
    public var duration: Double
    public var orientation: Orientation
    /// The display-wide settings after the change (Reduce Motion among them).
    public var traits: DisplayTraits
    public init(reason: TransitionReason, duration: Double, orientation: Orientation, traits: DisplayTraits = DisplayTraits()) {
        self.reason = reason
        self.duration = duration
        self.orientation = orientation
        self.traits = traits
    }
}

public enum LifecycleEvent: String, Sendable, Equatable {
    case willResignActive = "WillResignActive"
    case didEnterBackground = "DidEnterBackground"
    case willEnterForeground = "WillEnterForeground"
    case didBecomeActive = "DidBecomeActive"

    static func events(from: AppState, to: AppState) -> [LifecycleEvent] {
        switch (from, to) {
        case (.active, .inactive): return [.willResignActive]
        case (.active, .background): return [.willResignActive, .didEnterBackground]
        case (.inactive, .background): return [.didEnterBackground]
        case (.inactive, .active): return [.didBecomeActive]
        case (.background, .inactive): return [.willEnterForeground]
        case (.background, .active): return [.willEnterForeground, .didBecomeActive]
        default: return []
        }
    }
}
