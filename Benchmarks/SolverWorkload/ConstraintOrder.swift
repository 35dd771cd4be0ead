/// The order a workload's constraints are added in. The same system in another order must cost the engine about
/// the same to build (issue 29): the benchmark runs each workload as written, reversed and shuffled with a few
/// seeds, and every engine gets the same list.
public enum ConstraintOrder: Equatable, Sendable, CustomStringConvertible {
    case asWritten
    case reversed
    case shuffled(seed: UInt64)

    /// As written, reversed, and shuffled with seeds 1 to `seeds`.
    public static func variants(seeds: Int) -> [ConstraintOrder] {
        [.asWritten, .reversed] + (0..<UInt64(max(0, seeds))).map { .shuffled(seed: $0 + 1) }
    }

    /// An order by its command-line name: `as-written`, `reversed`, `shuffled-N`.
    public init?(_ name: String) {
        switch name {
        case "as-written": self = .asWritten
        case "reversed": self = .reversed
        default:
            guard name.hasPrefix("shuffled-"), let seed = UInt64(name.dropFirst("shuffled-".count)) else { return nil }
            self = .shuffled(seed: seed)
        }
    }

    public var description: String {
        switch self {
        case .asWritten: "as written"
        case .reversed: "reversed"
        case .shuffled(let seed): "shuffled \(seed)"
        }
    }
}

extension Workload {
    /// The same system with its constraints in `order` (edits and suggest steps unchanged).
    public func reordered(_ order: ConstraintOrder) -> Workload {
        var copy = self
        switch order {
        case .asWritten: break
        case .reversed: copy.constraints.reverse()
        case .shuffled(let seed):
            var random = SeededRandom(seed: seed)
            copy.constraints.shuffle(using: &random)
        }
        // Each item's terms copied into a new buffer, in the new order: the peers read the reordered workload
        // from a file, so their items lie in memory in the order they are added. Shuffled, ours still had them
        // where the file's order put them, and the harness read each constraint's terms from a random place (on
        // grid-50, 2 to 3 ms of a 25 ms build charged to the engine's order spread).
        guard order != .asWritten else { return copy }
        copy.constraints = copy.constraints.map { item in
            var fresh = item
            fresh.terms = item.terms.map { ($0.coefficient, $0.variable) }
            return fresh
        }
        return copy
    }

    /// The workload in its file format (Benchmarks/workloads/README.md), for the peers to read.
    public var text: String {
        var lines = ["# \(name)"]
        for start in stride(from: 0, to: variables.count, by: 16) {
            lines.append("var " + variables[start..<min(start + 16, variables.count)].joined(separator: " "))
        }
        lines += edits.map { "edit \($0.variable) \($0.priority)" }
        for item in constraints {
            let relation = switch item.relation {
            case .equal: "=="
            case .lessOrEqual: "<="
            case .greaterOrEqual: ">="
            }
            lines.append("c " + item.terms.map { "\($0.coefficient)*\($0.variable)" }.joined(separator: " ")
                         + " \(relation) \(item.rhs) @\(item.priority)")
        }
        lines += steps.map { "suggest " + $0.map { "\($0.variable) \($0.value)" }.joined(separator: " ") }
        return lines.joined(separator: "\n") + "\n"
    }
}
