/// What an app's adaptive layout was driven through beside UIKit's modes (`DrivenMode`), for coverage: each of
/// Android's window size classes a visible window had, and each breakpoint an app declared (`SetBreakpoints`),
/// seen holding and seen not. A test suite of a libadwaita-style app asks "did any test cross my breakpoint
/// both ways?", which a mode's UIKit size classes cannot answer.
public enum DrivenAdaptation: Sendable, Hashable, Comparable, CustomStringConvertible {
    case windowWidthSizeClass(WindowWidthSizeClass)
    case windowHeightSizeClass(WindowHeightSizeClass)
    /// `app`'s breakpoint `name`, holding (`applied`) or not, in a visible window.
    case breakpoint(app: String, name: String, applied: Bool)

    /// A window size class as the coverage lists it: the trait's name and the class (`windowWidthSizeClass`,
    /// `medium`), as `AdaptationCoverage` sends it.
    public var windowSizeClass: (trait: String, value: String)? {
        switch self {
        case .windowWidthSizeClass(let c): return (TraitCollection.Field.windowWidthSizeClass.name, c.rawValue)
        case .windowHeightSizeClass(let c): return (TraitCollection.Field.windowHeightSizeClass.name, c.rawValue)
        case .breakpoint: return nil
        }
    }

    /// The window size class named as `windowSizeClass` gives it; nil for a trait or a class there is not.
    public init?(trait: String, value: String) {
        switch trait {
        case TraitCollection.Field.windowWidthSizeClass.name:
            guard let c = WindowWidthSizeClass(rawValue: value) else { return nil }
            self = .windowWidthSizeClass(c)
        case TraitCollection.Field.windowHeightSizeClass.name:
            guard let c = WindowHeightSizeClass(rawValue: value) else { return nil }
            self = .windowHeightSizeClass(c)
        default:
            return nil
        }
    }

    public var description: String {
        if let (trait, value) = windowSizeClass { return "\(trait) \(value)" }
        guard case .breakpoint(let app, let name, let applied) = self else { return "" }
        return "\(app) \(name) \(applied ? "applied" : "not applied")"
    }

    public static func < (a: Self, b: Self) -> Bool { a.sortKey < b.sortKey }

    private var sortKey: (Int, String, String, Int) {
        switch self {
        case .windowWidthSizeClass(let c): return (0, "", "", WindowWidthSizeClass.allCases.firstIndex(of: c)!)
        case .windowHeightSizeClass(let c): return (1, "", "", WindowHeightSizeClass.allCases.firstIndex(of: c)!)
        case .breakpoint(let app, let name, let applied): return (2, app, name, applied ? 0 : 1)
        }
    }

    /// Coverage's lines for `driven`: the window size classes seen and never seen, then each breakpoint and
    /// which way it was seen (`mail narrow: applied, not applied`; one never seen one way is named so).
    public static func lines(_ driven: Set<DrivenAdaptation>) -> [String] {
        let widths = WindowWidthSizeClass.allCases.filter { driven.contains(.windowWidthSizeClass($0)) }
        let heights = WindowHeightSizeClass.allCases.filter { driven.contains(.windowHeightSizeClass($0)) }
        func list<T: RawRepresentable<String>>(_ values: [T]) -> String { values.isEmpty ? "-" : values.map(\.rawValue).joined(separator: ", ") }
        var out = ["window size classes (Android's) driven: width \(list(widths)); height \(list(heights))",
                   "  never: width \(list(WindowWidthSizeClass.allCases.filter { !widths.contains($0) })); "
                    + "height \(list(WindowHeightSizeClass.allCases.filter { !heights.contains($0) }))"]
        var seen: [String: (app: String, name: String, applied: Bool, unapplied: Bool)] = [:]
        for case .breakpoint(let app, let name, let applied) in driven {
            var entry = seen["\(app) \(name)"] ?? (app, name, false, false)
            if applied { entry.applied = true } else { entry.unapplied = true }
            seen["\(app) \(name)"] = entry
        }
        if !seen.isEmpty {
            out.append("breakpoints:")
            out += seen.values.sorted { ($0.app, $0.name) < ($1.app, $1.name) }.map { entry in
                let ways = entry.applied && entry.unapplied ? "applied and not applied"
                    : entry.applied ? "applied only (never not applied)" : "not applied only (never applied)"
                return "  \(entry.app) \(entry.name): \(ways)"
            }
        }
        return out
    }
}
