import TraitConfig
import Vocabulary

/// The layout problems a suite already knows of (`--baseline FILE`): a run judged against it fails only on the
/// problems that are not in it, and says which problems are new, which were known, and which known ones are
/// gone. A real app starts with dozens of problems; without a baseline its suite could only fail on all of
/// them or allow whole rules (Chromatic's accessibility baselines and Widgetbook work the same way).
///
/// A problem is known by its app, its rule and its element (an overlap's element names both, `a & b`), never by
/// where it is or its sentence: those change with every point the layout moves. The file is text, one problem a
/// line as `APP RULE ELEMENT`, sorted, after a comment that says what it is; `#` comments and blank lines are
/// skipped, so a person reads it in a review and deletes the line of a problem fixed. The Python package reads
/// and writes the same file (`traitd.baseline`, the pytest plugin's `--traitd-baseline`).
public struct ProblemBaseline: Sendable, Equatable {
    /// A problem as a baseline knows it.
    public struct Problem: Sendable, Hashable, Comparable, CustomStringConvertible {
        public var app: String
        public var rule: LayoutRule
        public var element: String

        public init(app: String, rule: LayoutRule, element: String) {
            (self.app, self.rule, self.element) = (app, rule, element)
        }

        /// `app`'s problem as a baseline knows it.
        public init(app: String, _ problem: LayoutProblem) {
            self.init(app: app, rule: problem.rule, element: problem.element)
        }

        /// The file's line: `APP RULE ELEMENT`.
        public var description: String { "\(app) \(rule) \(element)" }

        public static func < (a: Problem, b: Problem) -> Bool {
            (a.app, a.rule.rawValue, a.element) < (b.app, b.rule.rawValue, b.element)
        }
    }

    public var problems: Set<Problem>

    public init(_ problems: some Sequence<Problem>) { self.problems = Set(problems) }

    /// The baseline in `text`, the contents of `file`; a line that is not `APP RULE ELEMENT` with a rule traitd
    /// knows throws, at its line and column.
    public init(reading text: String, file: String) throws(ConfigError) {
        var problems: Set<Problem> = []
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let content = line.drop { $0 == " " || $0 == "\t" }
            if content.isEmpty || content.hasPrefix("#") { continue }
            let column = line.count - content.count + 1
            // APP, then RULE after the spaces that follow, then the rest (an element's name may hold spaces: `a & b`).
            let app = content.prefix { $0 != " " }
            let rest = content.dropFirst(app.count).drop { $0 == " " }
            let rule = rest.prefix { $0 != " " }
            let element = rest.dropFirst(rule.count).drop { $0 == " " || $0 == "\t" }.trimmingSuffix(while: { $0 == " " || $0 == "\t" || $0 == "\r" })
            guard !rule.isEmpty, !element.isEmpty else {
                let got = content.trimmingSuffix(while: { $0 == " " || $0 == "\t" || $0 == "\r" })
                throw ConfigError(file: file, line: index + 1, column: column,
                                  message: "expected a problem as APP RULE ELEMENT (`mail overlap a & b`), got '\(got)'")
            }
            guard let known = LayoutRule(rawValue: String(rule)) else {
                throw ConfigError(file: file, line: index + 1, column: column + content.count - rest.count,
                                  message: "'\(rule)' is not a rule: "
                                  + Suggestion.phrase(String(rule), among: LayoutRule.allCases.map(\.rawValue))
                                  + "expected one of " + LayoutRule.allCases.map(\.rawValue).joined(separator: ", "))
            }
            problems.insert(Problem(app: String(app), rule: known, element: String(element)))
        }
        self.problems = problems
    }

    /// The file's text: what it is, then a problem a line, sorted.
    public var text: String {
        """
        # traitd baseline: the layout problems known when it was written, one a line as APP RULE ELEMENT.
        # A run given --baseline fails only on problems not listed here; delete the line of a problem fixed,
        # or write the file again with --update-baseline.


        """ + problems.sorted().map { "\($0)\n" }.joined()
    }

    /// A run's problems beside the baseline's.
    public struct Comparison: Sendable, Equatable {
        /// Found and not in the baseline: what fails the run.
        public var new: [Problem]
        /// Found and in the baseline.
        public var known: [Problem]
        /// In the baseline and not found: fixed (or not reached by this run).
        public var resolved: [Problem]

        /// `baseline FILE: 1 new, 12 known, 2 resolved`, then a line for each new and each resolved problem.
        public func report(_ file: String) -> [String] {
            ["baseline \(file): \(new.count) new, \(known.count) known, \(resolved.count) resolved"]
                + new.map { "  new: \($0)" } + resolved.map { "  resolved: \($0)" }
        }
    }

    /// `found` beside the baseline, each list sorted.
    public func compare(_ found: Set<Problem>) -> Comparison {
        Comparison(new: found.subtracting(problems).sorted(), known: found.intersection(problems).sorted(),
                   resolved: problems.subtracting(found).sorted())
    }
}

extension Substring {
    fileprivate func trimmingSuffix(while drop: (Character) -> Bool) -> Substring {
        var end = endIndex
        while end > startIndex, drop(self[index(before: end)]) { end = index(before: end) }
        return self[startIndex..<end]
    }
}
