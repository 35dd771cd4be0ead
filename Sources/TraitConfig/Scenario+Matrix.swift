import TraitModel
import Vocabulary

/// A scenario's matrix: the values to run it with, one run per combination (`traitctl scenario run --matrix`).
///
/// ```yaml
/// matrix:
///   device: [ipad-9.7, iphone-15]       # the start's device (replaces device:)
///   orientation: [portrait, landscape-left]
///   appearance: [light, dark]           # any set: word (arrangement, windowing, a setting), first steps
///   width: { mail: [320, 507, 694] }    # a free-form window's width, its height kept
/// ```
///
/// The device and orientation replace the start's; every other key becomes a first step, in the file's order
/// of keys, before the scenario's own steps.
extension Scenario {
    public struct MatrixDimension: Sendable, Equatable {
        /// The key, as in the file.
        public let key: String
        public let values: [MatrixValue]
        /// The line the key is on.
        public var line = 0
    }

    public struct MatrixValue: Sendable, Equatable {
        /// How the value shows in a combination's name: the value (`dark`), or `APP=WIDTH` for a width.
        public let label: String
        public let change: Change
        public enum Change: Sendable, Equatable {
            case device(String)
            case orientation(Orientation)
            case step(Step)
        }
    }

    /// One run of a matrix: its name (each dimension's label joined by `+`: `ipad-9.7+portrait+dark`) and the
    /// scenario it runs (no matrix).
    public struct Combination: Sendable {
        public let name: String
        public let scenario: Scenario
        /// Each dimension's key and the value's label, in the matrix's order: what the combination varies.
        public var settings: [(key: String, label: String)] = []
    }

    /// How many combinations the matrix makes (the product of its dimensions' sizes), without making them; nil
    /// past `Int.max`.
    public var combinationCount: Int? {
        var count = 1
        for dimension in matrix {
            let (product, overflow) = count.multipliedReportingOverflow(by: dimension.values.count)
            if overflow { return nil }
            count = product
        }
        return count
    }

    /// Every combination, the first dimension slowest; a scenario without a matrix is its one combination, named
    /// by its device.
    public var combinations: [Combination] {
        var runs: [(labels: [String], keys: [String], scenario: Scenario)] = [([], [], self)]
        for dimension in matrix {
            runs = runs.flatMap { run in
                dimension.values.map { value in
                    var scenario = run.scenario
                    switch value.change {
                    case .device(let id): scenario.device = id
                    case .orientation(let orientation): scenario.orientation = orientation
                    case .step(let step):
                        scenario.steps.insert(step, at: run.scenario.steps.count - steps.count)
                        scenario.stepLines.insert(dimension.line, at: run.scenario.stepLines.count - stepLines.count)
                    }
                    return (run.labels + [value.label], run.keys + [dimension.key], scenario)
                }
            }
        }
        return runs.map { run in
            var scenario = run.scenario
            scenario.matrix = []
            return Combination(name: run.labels.isEmpty ? device : run.labels.joined(separator: "+"), scenario: scenario,
                               settings: Array(zip(run.keys, run.labels)).map { (key: $0, label: $1) })
        }
    }

    /// The words a matrix may vary: `set:`'s, and `width`.
    static let matrixWords = setWords + ["width"]

    static func parseMatrix(_ node: Node, _ reader: YAMLReader) throws -> [MatrixDimension] {
        let entries = try reader.entries(node, what: "the matrix (a key and its values each)", allowed: matrixWords)
        guard !entries.isEmpty else { throw reader.fail(node, "the matrix is empty; give a key and its values, e.g. appearance: [light, dark]") }
        return try entries.map { key, value, at in
            let values: [MatrixValue]
            switch key {
            case "width":
                values = try reader.entries(value, what: "the widths (app: [WIDTH, ...])", allowed: nil).flatMap { app, widths, at in
                    guard AppName.isValid(app) else { throw reader.fail(at, "'\(app)' is not a valid app name: \(AppName.rule)") }
                    return try reader.sequence(widths, what: "the widths in points").map { node in
                        let width = try reader.number(node, what: "a width in points", range: 1...10_000)
                        return MatrixValue(label: "\(app)=\(width.compact)", change: .step(.width(app: app, width)))
                    }
                }
            default:
                values = try reader.sequence(value, what: "the values of \(key)").map { node in
                    let label = try reader.string(node, what: "a value of \(key)")
                    switch key {
                    case "device": return MatrixValue(label: try reader.device(node), change: .device(label))
                    case "orientation":
                        return MatrixValue(label: label, change: .orientation(try reader.choice(node, what: "orientation", Orientation.self)))
                    default: return MatrixValue(label: label, change: .step(try setCommand(key, node, reader)))
                    }
                }
            }
            guard !values.isEmpty else { throw reader.fail(at, "the matrix's \(key) has no values") }
            return MatrixDimension(key: key, values: values, line: at.mark?.line ?? 0)
        }
    }
}
