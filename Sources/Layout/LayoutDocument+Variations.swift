import Vocabulary

/// The display-wide settings a layout depends on, and the values worth solving it in (`layout check`, `layout matrix`).
extension LayoutDocument {
    /// The display-wide settings this layout depends on, and the values worth solving it in: what `layout check`
    /// and `layout matrix` add to every (device, orientation, arrangement) case. A trait counts when a section
    /// tests it (`[dark]`, `[content-size >= ...]`), the direction when a constraint uses leading or trailing (they
    /// mirror), the text size when a constraint uses `body`. Each gets all its values, except the text size: the
    /// smallest, the default, the largest, and every category a section names.
    public var traitVariations: [(trait: DisplayTrait, values: [String])] {
        var tested: [DisplayTrait: Set<String>] = [:]
        func visit(_ condition: Condition) {
            switch condition {
            case .trait(let trait, _): tested[trait, default: []].formUnion(trait.values)
            case .contentSize(_, let category): tested[.contentSize, default: []].insert(category.rawValue)
            case .not(let c): visit(c)
            case .and(let cs), .or(let cs): cs.forEach(visit)
            default: break
            }
        }
        for condition in constraints.map(\.condition) + hides.map(\.condition) + extras.map(\.condition) { visit(condition) }
        let anchors = constraints.flatMap { [$0.first] + ($0.second.map { [$0] } ?? []) }
        if anchors.contains(where: { $0.attribute == .leading || $0.attribute == .trailing }) {
            tested[.direction, default: []].formUnion(DisplayTrait.direction.values)
        }
        if tested[.contentSize] != nil || constraints.contains(where: { $0.bodyMultiplier != 0 }) {
            let ends: [ContentSizeCategory] = [.extraSmall, .large, .accessibilityExtraExtraExtraLarge]
            tested[.contentSize, default: []].formUnion(ends.map(\.rawValue))
        }
        return DisplayTrait.all.compactMap { trait in
            tested[trait].map { values in (trait, trait.values.filter(values.contains)) }
        }
    }

    /// Every combination of `traitVariations`, the defaults first: one `DisplayTraits` each (just the defaults
    /// for a layout that depends on none).
    public var traitCombinations: [DisplayTraits] {
        var combinations = [DisplayTraits()]
        for (trait, values) in traitVariations {
            let ordered = [trait.defaultValue] + values.filter { $0 != trait.defaultValue }
            combinations = combinations.flatMap { base in
                ordered.filter(trait.accepts).map { value in
                    var next = base
                    next[trait] = value
                    return next
                }
            }
        }
        return combinations
    }
}
