import Vocabulary

/// One step of a window's transition, as the model decides it and the shell announces it (one signal each): the
/// one step type from the model to the wire.
public enum WindowStep: Sendable, Equatable, CustomStringConvertible {
    case willTransitionToTraits(TraitCollection)
    /// The new size; `context` and `window` (the window after the change) say the rest, `screen` is the screen
    /// in the new orientation (sent with the "will" half, before the display's new properties).
    case viewWillTransitionToSize(Size, context: TransitionContext, window: WindowGeometry, screen: Size?)
    case traitCollectionDidChange(previous: TraitCollection)
    /// One trait that changed: `traits` now, `previous` before (one step per changed trait).
    case traitDidChange(TraitCollection.Field, traits: TraitCollection, previous: TraitCollection)
    case contentSizeCategoryDidChange(ContentSizeCategory)
    case safeAreaInsetsDidChange(EdgeInsets)
    /// One of the app's breakpoints stopped holding, before the layout pass (libadwaita's `unapply`).
    case breakpointUnapplied(String)
    /// One of the app's breakpoints holds now, before the layout pass (libadwaita's `apply`), after every
    /// `breakpointUnapplied` of the transition.
    case breakpointApplied(String)
    /// Adapters lay out now (the transition's last signal but the keyboard's `Did` notices).
    case viewWillLayoutSubviews
    /// A keyboard notification.
    case keyboard(KeyboardNotice)

    public var description: String {
        switch self {
        case .willTransitionToTraits: return "willTransitionToTraits"
        case .viewWillTransitionToSize: return "viewWillTransitionToSize"
        case .traitCollectionDidChange: return "traitCollectionDidChange"
        case .traitDidChange(let field, _, _): return "traitDidChange(\(field))"
        case .contentSizeCategoryDidChange: return "contentSizeCategoryDidChange"
        case .safeAreaInsetsDidChange: return "safeAreaInsetsDidChange"
        case .breakpointUnapplied(let name): return "breakpointUnapplied(\(name))"
        case .breakpointApplied(let name): return "breakpointApplied(\(name))"
        case .viewWillLayoutSubviews: return "viewWillLayoutSubviews"
        case .keyboard(let notice): return notice.kind.rawValue
        }
    }
}
