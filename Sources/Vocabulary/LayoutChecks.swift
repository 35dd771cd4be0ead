/// Which layout checks a run makes, and by which rule (the configuration's `layout-checks:`): a team holds its
/// controls to Apple's 44 pt or to WCAG's 24 CSS px, and may leave rules out while it adopts traitd.
public struct LayoutChecks: Sendable, Hashable {
    /// The rule `small-target` holds controls to.
    public enum TargetSize: String, Sendable, Hashable, CaseIterable {
        /// Apple's Human Interface Guidelines: at least 44 x 44 pt on an iPhone or an iPad.
        case apple44pt = "apple-44pt"
        /// WCAG 2.2's 2.5.8 Target Size (Minimum), AA: at least 24 x 24 CSS px (a point here), unless a 24-px circle
        /// centred on the target meets no other target nor another undersized target's circle.
        case wcag24px = "wcag-24px"

        /// The smallest side a control may have, in points.
        public var minimum: Double { self == .apple44pt ? 44 : 24 }
    }

    /// The rule `small-target` holds controls to.
    public var targetSize: TargetSize
    /// Rules this run does not check (nor report).
    public var off: Set<LayoutRule>
    /// Rules this run does not check for one element (`off: ["small-target button:Close"]`): an element a team
    /// has decided about, in an app it may not have written. An overlap is left out when either element is.
    public var offElements: Set<ElementRule>

    /// A rule left out for one element, by its name as problems name it (`button:Close`, `#main>ul>li.3`).
    public struct ElementRule: Sendable, Hashable {
        public var rule: LayoutRule
        public var element: String

        public init(_ rule: LayoutRule, _ element: String) {
            self.rule = rule
            self.element = element
        }

        /// `RULE ELEMENT` (`small-target button:Close`): nil when the text is not a rule, a space and an element.
        public init?(parsing text: String) {
            let words = text.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
            guard words.count == 2, let rule = LayoutRule(rawValue: String(words[0])) else { return nil }
            let element = words[1].trimmingCharacters(in: " ")
            guard !element.isEmpty, !element.contains(" ") else { return nil }
            self.init(rule, element)
        }
    }

    /// Apple's 44 pt and every rule, unless told otherwise.
    public init(targetSize: TargetSize = .apple44pt, off: Set<LayoutRule> = [], offElements: Set<ElementRule> = []) {
        self.targetSize = targetSize
        self.off = off
        self.offElements = offElements
    }

    /// Whether `problem` is left out: its rule, or its rule for its element (for an overlap, `a & b`, either one).
    public func leavesOut(_ problem: LayoutProblem) -> Bool {
        if off.contains(problem.rule) { return true }
        guard !offElements.isEmpty else { return false }
        let elements = problem.rule == .overlap ? problem.element.split(separator: " & ").map(String.init) : [problem.element]
        return elements.contains { offElements.contains(ElementRule(problem.rule, $0)) }
    }
}

extension Substring {
    fileprivate func trimmingCharacters(in set: Character) -> String {
        String(drop { $0 == set }.reversed().drop { $0 == set }.reversed())
    }
}
