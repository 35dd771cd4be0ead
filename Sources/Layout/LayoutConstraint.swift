import Cassowary

/// `first.attribute relation multiplier * second.attribute + constant @priority`, or, without a second item,
/// `first.attribute relation constant @priority`, as `NSLayoutConstraint`.
public struct LayoutConstraint: Sendable {
    /// One side of the constraint: an attribute of a named item (`support.width`).
    public struct Anchor: Sendable, Equatable {
        /// The view's or guide's name.
        public var item: String
        /// Which of its edges, centres or sizes.
        public var attribute: Attribute
        /// `item.attribute`.
        public init(_ item: String, _ attribute: Attribute) {
            self.item = item
            self.attribute = attribute
        }
    }

    /// The left side's anchor.
    public var first: Anchor
    /// `==`, `<=` or `>=`.
    public var relation: Constraint.Relation
    /// What the second anchor is multiplied by (1 unless written).
    public var multiplier: Double
    /// The right side's anchor; none when the right side is a constant.
    public var second: Anchor?
    /// The number added on the right side.
    public var constant: Double
    /// Points of the body text size added on the right side (`1.5 * body`): 0 unless written. The size comes
    /// from the environment's text size (`ContentSizeCategory.bodySize`), so a row can grow with Dynamic Type.
    public var bodyMultiplier: Double = 0
    /// Auto Layout's priority, 1...1000 (1000, required, unless written).
    public var priority: Int
    /// Where it was written and how (`support-panel.layout:7: support.width <= 374 @1000`).
    public var source: String
    /// The section it belongs to; it is active only where the condition holds.
    public var condition: Condition
    /// Deactivated constraints stay in the document but take no part in solving (`NSLayoutConstraint.isActive`).
    public var isActive = true

    /// `first relation multiplier * second + constant @priority`, with where it came from and the section's
    /// condition.
    public init(_ first: Anchor, _ relation: Constraint.Relation, multiplier: Double = 1, _ second: Anchor? = nil,
                constant: Double = 0, priority: Int = 1000, source: String = "", condition: Condition = .any) {
        self.first = first
        self.relation = relation
        self.multiplier = multiplier
        self.second = second
        self.constant = constant
        self.priority = priority
        self.source = source
        self.condition = condition
    }

    /// The right side's constant in `environment`: `constant + bodyMultiplier * body`.
    public func constant(in environment: LayoutEnvironment) -> Double {
        bodyMultiplier == 0 ? constant : constant + bodyMultiplier * environment.traits.display.contentSize.bodySize
    }

    /// The items it mentions.
    public var items: [String] { [first.item] + (second.map { [$0.item] } ?? []) }
}

