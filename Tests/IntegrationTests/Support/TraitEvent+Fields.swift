import TraitClient

/// The fields of an event's case as optionals, so that a test can pick one out of a list of events in one
/// expression (`seen.first { $0.member == "ViewWillTransitionToSize" }?.size`).
extension TraitEvent {
    /// `ViewWillTransitionToSize`'s new size.
    var size: Size? { if case .viewWillTransitionToSize(_, _, let size, _) = self { size } else { nil } }
    /// `ViewWillTransitionToSize`'s context.
    var context: SizeTransitionContext? {
        if case .viewWillTransitionToSize(_, _, _, let context) = self { context } else { nil }
    }
    /// The new traits of `WillTransitionToTraitCollection`, the previous ones of `TraitCollectionDidChange`.
    var traits: TraitCollection? {
        switch self {
        case .willTransitionToTraitCollection(_, _, let traits), .traitCollectionDidChange(_, _, let traits): traits
        default: nil
        }
    }
    /// `ViewSafeAreaInsetsDidChange`'s insets.
    var insets: EdgeInsets? { if case .viewSafeAreaInsetsDidChange(_, _, let insets) = self { insets } else { nil } }
    /// The properties of a `PropertiesChanged`, the display's or a window's.
    var changes: PropertyChanges? {
        switch self {
        case .displayChanged(let changes), .windowChanged(_, let changes): changes
        default: nil
        }
    }
}
