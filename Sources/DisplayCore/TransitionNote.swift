import TraitModel
import TransitionEngine
import Vocabulary

/// One window's latest transition: its steps and how it completed, kept as the values the engine gave (they
/// are put in words only when `Explain` asks, not on the hot path of every transition).
public struct TransitionNote: Sendable, Equatable {
    var id: UInt64
    var steps: [WindowStep] = []
    public var completion: TransitionCompletion?

    /// What the steps changed, in words.
    var changes: [String] {
        steps.compactMap { step in
            switch step {
            case .viewWillTransitionToSize(let size, let context, _, _):
                return "size \(size.width.compact) x \(size.height.compact) pt (reason \(context.reason), \(context.duration.compact) s)"
            case .traitDidChange(let field, let traits, let previous):
                return "\(field.name) \(field.text(in: previous)) -> \(field.text(in: traits))"
            case .safeAreaInsetsDidChange(let insets):
                return "safe area \(insets)"
            case .keyboard(let notice) where notice.kind == .willChangeFrame:
                return "keyboard \(notice.begin) -> \(notice.end)"
            case .keyboard:
                return nil
            case .breakpointUnapplied(let name):
                return "breakpoint \(name) unapplied"
            case .breakpointApplied(let name):
                return "breakpoint \(name) applied"
            case .willTransitionToTraits, .traitCollectionDidChange, .contentSizeCategoryDidChange, .viewWillLayoutSubviews:
                return nil
            }
        }
    }

    /// Who reported, missed and failed, in words.
    var outcome: String? {
        completion.map { c in
            [("reported", c.reported), ("missed", c.missed), ("failed", c.failed)]
                .map { "\($0.0) [\($0.1.joined(separator: ", "))]" }.joined(separator: ", ")
        }
    }
}
