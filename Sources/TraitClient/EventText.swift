import Vocabulary
import DBus
import TraitProtocol

/// The one-line text of an event, as `traitctl watch` prints it: the window's app (or `display`), the member,
/// the transition id after `#`, then the arguments that matter, numbers written as `Double.compact` does.
enum EventText {
    static func line(_ event: TraitEvent) -> String {
        // Named by the object that sent it: a window's own signals by its app, the display's (and the object
        // manager's InterfacesAdded and InterfacesRemoved, sent from the root) as `display`.
        let source: String
        switch event {
        case .windowOpened, .windowClosed: source = "display"
        case .externalDisplayChanged(let id, _), .externalDisplayRemoved(let id): source = id
        default: source = event.app ?? "display"
        }
        let id = event.transition.map { " #\($0)" } ?? ""
        let details = self.details(event)
        return "\(source) \(event.member)\(id)\(details.isEmpty ? "" : " " + details)"
    }

    private static func details(_ event: TraitEvent) -> String {
        switch event {
        case .willTransitionToTraitCollection(_, _, let traits):
            return classes(traits)
        case .traitCollectionDidChange(_, _, let previous):
            return "previous " + classes(previous)
        case .viewWillTransitionToSize(_, _, let size, let context):
            return "\(size.width.compact)x\(size.height.compact) reason=\(context.reason.rawValue) "
                + "orientation=\(context.orientation.rawValue) duration=\(context.duration.compact)s"
        case .traitDidChange(_, _, let trait, let value, let previous):
            return "\(trait)=\(render(value)) previous=\(render(previous))"
        case .contentSizeCategoryDidChange(_, _, let category):
            return category.rawValue
        case .breakpointUnapplied(_, _, let name), .breakpointApplied(_, _, let name):
            return name
        case .viewSafeAreaInsetsDidChange(_, _, let insets):
            return "top=\(insets.top.compact) left=\(insets.left.compact) bottom=\(insets.bottom.compact) right=\(insets.right.compact)"
        case .keyboard(_, _, let n):
            func rect(_ r: Rect) -> String { "(\(r.x.compact),\(r.y.compact),\(r.width.compact),\(r.height.compact))" }
            return "begin=\(rect(n.begin)) end=\(rect(n.end)) duration=\(n.duration.compact)s curve=\(n.curve)"
                + (n.local ? " local" : "")
        case .didUpdateEffectiveGeometry(_, _, let g):
            let f = g.frame
            return "previous frame=(\(f.x.compact),\(f.y.compact),\(f.width.compact),\(f.height.compact)) display=\(g.display) "
                + "orientation=\(g.orientation.rawValue)" + (g.interactivelyResizing ? " resizing" : "")
                + (g.sizeRestrictions.map { " restrictions=\($0)" } ?? "")
        case .transitionCompleted(_, _, let outcome):
            return [("reported", outcome.reported), ("missed", outcome.missed), ("failed", outcome.failed)]
                .map { "\($0.0)=[\($0.1.joined(separator: ","))]" }.joined(separator: " ")
        case .displayChanged(let changes), .windowChanged(_, let changes):
            return changes.names.map { "\($0)=\(render(changes.values[$0]!))" }.joined(separator: " ")
        case .windowOpened(let window):
            return "window " + window.app
        case .windowClosed(let app):
            return "window " + app
        case .displayConnected(let id), .displayDisconnected(let id):
            return id
        case .externalDisplayChanged(_, let changes):
            return changes.names.map { "\($0)=\(render(changes.values[$0]!))" }.joined(separator: " ")
        case .externalDisplayRemoved:
            return ""
        case .unrecognized(let signal):
            let source = Layout1.app(path: signal.path) == nil && signal.path != Layout1.rootPath ? signal.path + " " : ""
            return "(\(source)not understood: \(signal.problem))"
        case .willResignActive, .didBecomeActive, .didEnterBackground, .willEnterForeground, .viewWillLayoutSubviews:
            return ""
        }
    }

    /// The size classes, and the display-wide traits that are not at their default (`appearance=dark`).
    private static func classes(_ traits: TraitCollection) -> String {
        "horizontal=\(traits.horizontalSizeClass.rawValue) vertical=\(traits.verticalSizeClass.rawValue)"
            + DisplayTrait.windowTraits.filter { traits.display[$0] != $0.defaultValue }
                .map { " \($0.word)=\(traits.display[$0])" }.joined()
    }

    /// A property's value as it came: strings bare, numbers compact, structures in parentheses, arrays in
    /// brackets, dictionaries in braces with their keys sorted.
    static func render(_ value: DBusValue) -> String {
        switch value.unwrapped {
        case .string(let s), .objectPath(let s): return s
        case .double(let d): return d.compact
        case .uint64(let n): return String(n)
        case .boolean(let b): return String(b)
        case .structure(let fields): return "(" + fields.map(render).joined(separator: ",") + ")"
        case .array(let element, let items):
            if element.hasPrefix("{"), let dict = value.unwrapped.dictionary {
                return "{" + dict.keys.sorted().map { "\($0)=\(render(dict[$0]!))" }.joined(separator: ",") + "}"
            }
            return "[" + items.map(render).joined(separator: ",") + "]"
        case let other: return "\(other)"
        }
    }
}
