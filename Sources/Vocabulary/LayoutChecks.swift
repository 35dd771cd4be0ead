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

    /// Apple's 44 pt and every rule, unless told otherwise.
    public init(targetSize: TargetSize = .apple44pt, off: Set<LayoutRule> = []) {
        self.targetSize = targetSize
        self.off = off
    }
}
