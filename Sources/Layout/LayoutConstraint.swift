import Cassowary

/// `first.attribute relation multiplier * second.attribute + constant @priority`, or, without a second item,
/// `first.attribute relation constant @priority`, as `NSLayoutConstraint`.
public struct LayoutConstraint: Sendable {
    public struct Anchor: Sendable, Equatable {
        public var item: String
        public var attribute: Attribute
        public init(_ item: String, _ attribute: Attribute) {
            self.item = item
            self.attribute = attribute
        }
    }

    public var first: Anchor
    public var relation: Constraint.Relation
    public var multiplier: Double
    public var second: Anchor?
    public var constant: Double
    public var priority: Int
    /// Where it was written and how (`support-panel.layout:7: support.width <= 374 @1000`).
    public var source: String
    /// The section it belongs to; it is active only where the condition holds.
    public var condition: Condition
    /// Deactivated constraints stay in the document but take no part in solving (`NSLayoutConstraint.isActive`).
    public var isActive = true

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

    /// The items it mentions.
    public var items: [String] { [first.item] + (second.map { [$0.item] } ?? []) }
}

