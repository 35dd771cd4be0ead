import DBus
import TraitModel
import TraitProtocol
import TransitionEngine
import Vocabulary

/// `Explain` on a window: the model's reasons for its geometry (`Simulation.explain`), then what the service
/// saw of it: its last transition (what changed and who reported), its adapters' reports and its problems.
extension DisplayService {
    /// One window's latest transition: its steps and how it completed, kept as the values the engine gave (they
    /// are put in words only when `Explain` asks, not on the hot path of every transition).
    struct TransitionNote {
        var id: UInt64
        var steps: [WindowStep] = []
        var completion: TransitionCompletion?

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

    /// Notes a step of transition `id` of `app` (from `announce`): a new transition starts a new note.
    func note(_ step: WindowStep, of app: String, id: UInt64) {
        if lastTransitions[app]?.id != id { lastTransitions[app] = TransitionNote(id: id) }
        lastTransitions[app]?.steps.append(step)
    }

    /// Notes how transition `outcome.id` of `app` completed.
    func note(_ outcome: TransitionCompletion, of app: String) {
        guard lastTransitions[app]?.id == outcome.id else { return }
        lastTransitions[app]?.completion = outcome
    }

    /// `Explain`: everything, or `NoSuchApp` for a window that has gone.
    func explanation(of app: String) throws -> [Explanation] {
        guard var lines = simulation.explain(app) else {
            throw DBusError(Layout1.Error.noSuchApp, "app '\(app)' has no window")
        }
        if let last = lastTransitions[app] {
            let changed = last.changes.isEmpty ? "no size or trait change" : last.changes.joined(separator: "; ")
            lines.append(.init("lastTransition", "transition \(last.id): \(changed); "
                               + (last.outcome.map { "completed: \($0)" } ?? "still open, waiting for its adapters")))
        } else {
            lines.append(.init("lastTransition", "none since traitd started"))
        }
        let reports = layouts[app] ?? [:]
        if reports.isEmpty {
            let registered = registry.adapters(for: app)
            lines.append(.init("layouts", registered.isEmpty ? "no adapter is registered for it"
                               : "no report yet from \(registered.joined(separator: ", "))"))
        }
        for adapter in reports.keys.sorted() {
            let report = reports[adapter]!
            lines.append(.init("layouts", report.failure.map { "\(adapter) failed: \($0)" }
                               ?? "\(adapter) reported \(report.frames.count) element(s): " + report.frames.keys.sorted().joined(separator: ", ")))
        }
        let problems = reports.keys.sorted().flatMap { reports[$0]!.problems }
        lines += problems.isEmpty ? [.init("problems", "none in the latest reports")]
            : problems.map { .init("problems", "\($0.adapter) \($0.element) \($0.rule): \($0.message)") }
        return lines
    }
}
