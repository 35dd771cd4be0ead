import Vocabulary
import Cassowary

/// A parsed layout file: items, metrics, constraints by section, the items each section hides and the extras
/// each section sets.
public struct LayoutDocument: Sendable {
    /// The file's name (or another label for a layout built in Swift), at the start of every error about it.
    public var file: String
    /// The app whose windows this layout serves (`app NAME`), used by the adapter host.
    public var app: String?
    /// The views (`view A B`), in the order declared; each gets a frame.
    public var views: [String] = []
    /// The layout guides (`guide G`), in the order declared; solved like views, they draw nothing.
    public var guides: [String] = []
    /// The named numbers (`metric NAME = NUMBER`).
    public var metrics: [String: Double] = [:]
    /// Every constraint, in file order, each with its section's condition.
    public var constraints: [LayoutConstraint] = []
    /// `hide A B` lines: in sections whose condition holds, these items are not installed.
    public var hides: [(condition: Condition, items: [String])] = []
    /// `extra NAME = VALUE` lines, in file order: where several hold, the last one wins.
    public var extras: [(condition: Condition, name: String, value: ExtraValue)] = []
    /// `kind KIND A B` lines: what each view is, for traitd's layout checks (a view without one is content).
    public var kinds: [String: ElementKind] = [:]
    /// `keyboard follows-undocked`: the `keyboard` guide also tracks an undocked, split or floating keyboard
    /// (`UIKeyboardLayoutGuide.followsUndockedKeyboard`); by default only a docked one.
    public var followsUndockedKeyboard = false
    /// `breakpoint NAME CONDITION` lines: libadwaita's conditions by name, usable as a section's condition
    /// (`[narrow]`); the adapter host declares them to traitd for the app's window (`SetBreakpoints`).
    public var breakpoints: [String: BreakpointCondition] = [:]

    /// An empty layout (no items, no constraints) labelled `file`.
    public init(file: String) { self.file = file }

    /// The container's name in constraints.
    public static let container = "super"
    /// The built-in guide of the window's safe area (UIKit's `safeAreaLayoutGuide`), inset from the container by
    /// the environment's `safeArea`.
    public static let safeArea = "safe"
    /// The built-in guide of the software keyboard (UIKit's `keyboardLayoutGuide`), where the environment's
    /// keyboard puts it (`LayoutEnvironment.keyboardGuide`).
    public static let keyboard = "keyboard"
    /// The built-in guide of the safe area with its leading edge past iPadOS 26's window controls (UIKit 26's
    /// `safeArea(cornerAdaptation: .horizontal)`): the environment's `cornerAdaptedInsets.horizontal`.
    public static let safeHorizontal = "safeHorizontal"
    /// The built-in guide of the safe area with its top below the window controls (`.vertical`).
    public static let safeVertical = "safeVertical"
    /// The items every layout has without declaring them.
    public static let builtInItems: Set<String> = [container, safeArea, keyboard, safeHorizontal, safeVertical]

    /// The items that `hide` lines in sections holding in `environment` leave out.
    public func hiddenItems(in environment: LayoutEnvironment) -> Set<String> {
        Set(hides.filter { $0.condition.holds(in: environment) }.flatMap(\.items))
    }

    /// The constraints that take part in `environment`: active, their section holds, and they mention no hidden
    /// item.
    public func activeConstraints(in environment: LayoutEnvironment) -> [LayoutConstraint] {
        let hidden = hiddenItems(in: environment)
        return constraints.filter {
            $0.isActive && $0.condition.holds(in: environment) && hidden.isDisjoint(with: $0.items)
        }
    }

    /// The extras the sections that hold set, by name (a later line replaces an earlier one).
    public func extras(in environment: LayoutEnvironment) -> [String: Extra] {
        var result: [String: Extra] = [:]
        for extra in extras where extra.condition.holds(in: environment) {
            result[extra.name] = extra.value.resolved(in: environment)
        }
        return result
    }

    /// Activates or deactivates every constraint whose source line contains `text` (as written in the file,
    /// such as `support.width <= 374`); returns how many changed.
    @discardableResult
    public mutating func setActive(_ active: Bool, where text: String) -> Int {
        var changed = 0
        for i in constraints.indices where constraints[i].source.contains(text) && constraints[i].isActive != active {
            constraints[i].isActive = active
            changed += 1
        }
        return changed
    }

    /// Solves the layout in a container of `width` x `height` with `traits` (a full-screen iPad window with no
    /// safe-area insets).
    public func solve(width: Double, height: Double, traits: TraitCollection? = nil) throws -> LayoutResult {
        try solve(in: LayoutEnvironment(width: width, height: height, traits: traits))
    }

    /// Solves the layout in `environment`'s window.
    public func solve(in environment: LayoutEnvironment) throws -> LayoutResult {
        let hidden = hiddenItems(in: environment)
        var items: [String: LayoutItem] = [
            Self.container: LayoutItem(Self.container), Self.safeArea: LayoutItem(Self.safeArea, isGuide: true),
            Self.keyboard: LayoutItem(Self.keyboard, isGuide: true),
            Self.safeHorizontal: LayoutItem(Self.safeHorizontal, isGuide: true),
            Self.safeVertical: LayoutItem(Self.safeVertical, isGuide: true),
        ]
        for name in views { items[name] = LayoutItem(name) }
        for name in guides { items[name] = LayoutItem(name, isGuide: true) }
        let solver = Solver()
        let (width, height, insets) = (environment.width, environment.height, environment.safeArea)
        let box = items[Self.container]!
        // The container is the window; the safe area's guide is the window inset by the safe area, and takes part
        // only where a constraint uses it (four rows fewer for every other layout).
        func place(_ item: LayoutItem, _ what: String, _ frame: [(Attribute, Double)]) throws {
            for (attribute, value) in frame {
                try solver.add(Constraint(item.expression(attribute), .equal, Expression(constant: value),
                                          label: "\(what)'s \(attribute.rawValue) is \(value.compact)"))
            }
        }
        try place(box, "the container", [(.left, 0), (.top, 0), (.width, width), (.height, height)])
        let active = activeConstraints(in: environment)
        // The safe area and its corner-adapted twins: the window inset by each.
        for (name, what, guideInsets) in [(Self.safeArea, "the safe area", insets),
                                           (Self.safeHorizontal, "the safe area past the window controls", environment.cornerAdaptedInsets.horizontal),
                                           (Self.safeVertical, "the safe area below the window controls", environment.cornerAdaptedInsets.vertical)]
        where active.contains(where: { $0.items.contains(name) }) {
            try place(items[name]!, what, [
                (.left, guideInsets.left), (.top, guideInsets.top), (.width, max(0, width - guideInsets.left - guideInsets.right)),
                (.height, max(0, height - guideInsets.top - guideInsets.bottom)),
            ])
        }
        if active.contains(where: { $0.items.contains(Self.keyboard) }) {
            let guide = environment.keyboardGuide(followsUndocked: followsUndockedKeyboard)
            try place(items[Self.keyboard]!, "the keyboard", [
                (.left, guide.x), (.top, guide.y), (.width, guide.width), (.height, guide.height),
            ])
        }
        let rightToLeft = environment.traits.display.isRightToLeft ? width : nil
        let constraints = active.map { c in
            let lhs = items[c.first.item]!.expression(c.first.attribute, rightToLeftWidth: rightToLeft)
            let rhs = (c.second.map { c.multiplier * items[$0.item]!.expression($0.attribute, rightToLeftWidth: rightToLeft) }
                ?? Expression()) + c.constant(in: environment)
            return Constraint(lhs, c.relation, rhs, priority: Priority(c.priority), label: c.source)
        }
        do {
            // One batch: the solver puts them in by their variables, whatever order the file lists them in.
            try solver.add(contentsOf: constraints)
        } catch SolverError.unsatisfiable(_, let conflict) {
            throw LayoutError.conflict(file: file, constraints: conflict.map(\.description))
        }
        solver.updateVariables()
        var frames: [String: Rect] = [:]
        let builtIn = Self.builtInItems
        for (name, item) in items where !builtIn.contains(name) && !hidden.contains(name) { frames[name] = item.frame }
        try Self.checkFinite(frames, active)
        // Free: what the solver finds ambiguous, and anchors that no constraint mentions at all.
        var free = Set(solver.ambiguousVariables().map(\.name))
        for (name, item) in items where !builtIn.contains(name) && !hidden.contains(name) {
            for v in item.variables where !solver.knows(v) { free.insert(v.name) }
        }
        let ambiguous = free.filter { name in !builtIn.contains { name.hasPrefix($0 + ".") } }.sorted()
        return LayoutResult(frames: frames, hidden: hidden.sorted(), ambiguous: ambiguous)
    }
}

extension LayoutDocument {
    /// Refuses a solution that is not a number a frame can hold (`inf`, `nan`): constants and multipliers whose
    /// product overflows a double. It names the constraint that most likely made it, at its file and line: among
    /// the active constraints on the first such item, one on the very attribute before the others, then the one
    /// with the largest constant or multiplier.
    static func checkFinite(_ frames: [String: Rect], _ active: [LayoutConstraint]) throws {
        guard let (item, rect) = frames.sorted(by: { $0.key < $1.key }).first(where: { !$0.value.values.allSatisfy(\.isFinite) })
        else { return }
        let frame = rect.values
        let names = ["x", "y", "width", "height"]
        let index = frame.firstIndex { !$0.isFinite }!
        let attribute: Attribute = [.left, .top, .width, .height][index]
        func weight(_ c: LayoutConstraint) -> (Int, Double) {
            let anchors = [c.first] + (c.second.map { [$0] } ?? [])
            let onIt = anchors.contains { $0.item == item && $0.attribute == attribute }
            return (onIt ? 1 : 0, max(abs(c.constant), abs(c.multiplier)))
        }
        let culprit = active.filter { $0.items.contains(item) }.max { weight($0) < weight($1) }
        throw LayoutError.notFinite(constraint: culprit?.source ?? item, item: "\(item).\(names[index])", value: frame[index])
    }
}

/// The frames of a solved layout, in container coordinates.
public struct LayoutResult: Sendable, Equatable {
    /// Item name -> frame, for every view and guide that is not hidden.
    public var frames: [String: Rect]
    /// The items hidden in this environment, sorted; they have no frame.
    public var hidden: [String]
    /// Anchors the constraints leave free (`item.left`, `item.width`, ...): the layout is ambiguous there.
    public var ambiguous: [String]
}

/// Why a layout file cannot be used.
public enum LayoutError: Error, Sendable, CustomStringConvertible {
    /// `file:line:column: expected ...`
    case syntax(file: String, line: Int, column: Int, message: String)
    /// Required constraints that cannot all hold, as written (`file:line: text`).
    case conflict(file: String, constraints: [String])
    /// The solution puts `item` (`box.width`) at `value`, which is not a finite number; `constraint` is the one
    /// that made it, as written (`file:line: text`).
    case notFinite(constraint: String, item: String, value: Double)

    /// `file:line:column: message`, or the file and the conflicting constraints, one a line.
    public var description: String {
        switch self {
        case .syntax(let file, let line, let column, let message): return "\(file):\(line):\(column): \(message)"
        case .conflict(let file, let constraints):
            return "\(file): these required constraints cannot all hold:\n"
                + constraints.map { "  \($0)" }.joined(separator: "\n")
        case .notFinite(let constraint, let item, let value):
            return "\(constraint): makes \(item) \(value), not a finite number of points; expected constants and "
                + "multipliers whose products stay within ±\(Double.greatestFiniteMagnitude)"
        }
    }
}
