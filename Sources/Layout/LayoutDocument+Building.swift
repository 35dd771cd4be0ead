import Vocabulary
import Cassowary

/// Building a layout in Swift instead of a file, as code that creates `NSLayoutConstraint`s does:
///
///     var layout = LayoutDocument(file: "support-panel")
///     layout.views("main", "support")
///     layout.add(.init("support", .width), .lessOrEqual, constant: 374)
///     layout.add(.init("support", .width), .equal, 0.5, .init("super", .width), priority: 999)
///
/// Each constraint's `source` is written out as the layout language would spell it, so a conflict names it the
/// same way a file's would.
extension LayoutDocument {
    /// Declares views, as a file's `view A B` line.
    public mutating func views(_ names: String...) { views += names }
    /// Declares layout guides, as a file's `guide G` line.
    public mutating func guides(_ names: String...) { guides += names }

    /// `first relation multiplier * second + constant @priority`, in the section `condition`.
    public mutating func add(
        _ first: LayoutConstraint.Anchor, _ relation: Constraint.Relation, _ multiplier: Double = 1,
        _ second: LayoutConstraint.Anchor? = nil, constant: Double = 0, priority: Int = 1000,
        when condition: Condition = .any
    ) {
        var constraint = LayoutConstraint(first, relation, multiplier: multiplier, second, constant: constant,
                                          priority: priority, condition: condition)
        constraint.source = "\(file): \(constraint.text)"
        constraints.append(constraint)
    }

    /// Pins `item`'s edges to `other`'s (the container by default), inset by `inset` on every side.
    public mutating func pin(_ item: String, to other: String = container, inset: Double = 0, when condition: Condition = .any) {
        add(.init(item, .left), .equal, 1, .init(other, .left), constant: inset, when: condition)
        add(.init(item, .top), .equal, 1, .init(other, .top), constant: inset, when: condition)
        add(.init(item, .right), .equal, 1, .init(other, .right), constant: -inset, when: condition)
        add(.init(item, .bottom), .equal, 1, .init(other, .bottom), constant: -inset, when: condition)
    }

    /// `hide A B` in the section `condition`.
    public mutating func hide(_ items: String..., when condition: Condition) {
        hides.append((condition, items))
    }

    /// `kind KIND A B`: what the views are, for traitd's layout checks.
    public mutating func kind(_ kind: ElementKind, _ views: String...) {
        for view in views { kinds[view] = kind }
    }
}

extension LayoutConstraint {
    /// The constraint in the layout language: `support.width == 0.5 * super.width @999`.
    public var text: String {
        let relation: String
        switch self.relation {
        case .equal: relation = "=="
        case .lessOrEqual: relation = "<="
        case .greaterOrEqual: relation = ">="
        }
        var rhs: String
        if let second {
            rhs = (multiplier == 1 ? "" : "\(multiplier.compact) * ") + "\(second.item).\(second.attribute.rawValue)"
            if constant > 0 { rhs += " + \(constant.compact)" } else if constant < 0 { rhs += " - \((-constant).compact)" }
        } else {
            rhs = bodyMultiplier != 0 && constant == 0 ? "" : constant.compact
        }
        if bodyMultiplier != 0 {
            let term = (abs(bodyMultiplier) == 1 ? "" : "\(abs(bodyMultiplier).compact) * ") + LayoutParser.bodyTextSize
            rhs += rhs.isEmpty ? (bodyMultiplier < 0 ? "-" : "") + term : (bodyMultiplier < 0 ? " - " : " + ") + term
        }
        let section = condition == .any ? "" : " in \(condition)"
        return "\(first.item).\(first.attribute.rawValue) \(relation) \(rhs)" + (priority == 1000 ? "" : " @\(priority)") + section
    }
}
