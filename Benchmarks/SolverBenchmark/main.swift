import Cassowary
import Foundation

// The constraint-engine benchmark: every workload of shared/bench/workloads, timed as shared/bench/README.md
// defines (build, suggest, churn), with our engine and with kiwisolver (solver_peer.py) in the same run.
//
//   swift run -c release solver-benchmark [--peer PYTHON] [--large] [--workloads DIR] [--no-peer]
//
// --large adds rows-300 (kiwisolver takes about 20 s to build it).

struct Options {
    var workloads = "../shared/bench/workloads"
    var peerScript = "../shared/bench/solver_peer.py"
    var python: String? = nil
    var large = false
    var only: String? = nil
    var peer = true
    var builds = 11
    var loops = 200
    var churn = 1000

    init(_ arguments: [String]) throws {
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            switch argument {
            case "--large": large = true
            case "--only": only = rest.popFirst()
            case "--no-peer": peer = false
            case "--peer": python = rest.popFirst()
            case "--workloads": workloads = rest.popFirst() ?? workloads
            case "--builds": builds = Int(rest.popFirst() ?? "") ?? builds
            case "--loops": loops = Int(rest.popFirst() ?? "") ?? loops
            case "--help", "-h":
                print("usage: solver-benchmark [--peer PYTHON] [--no-peer] [--large] [--workloads DIR] [--builds R] [--loops L]")
                exit(0)
            default: throw BenchmarkError("unknown option \(argument)")
            }
        }
        peerScript = (workloads as NSString).deletingLastPathComponent + "/solver_peer.py"
    }
}

struct Result {
    var build = 0.0, buildMin = 0.0, buildMax = 0.0  // ms
    var suggest = 0.0  // µs per step
    var churn = 0.0  // µs per pair
    var churnPairs = 0
    var checksumBuild = 0.0, checksumSuggest = 0.0
    var variables = 0, constraints = 0, steps = 0
}

func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }
func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
}
func checksum(_ variables: [String: Variable]) -> Double {
    (variables.values.reduce(0) { $0 + $1.value } * 1e6).rounded() / 1e6
}

func runOurs(_ workload: Workload, _ options: Options) throws -> Result {
    var result = Result()
    var times: [Double] = []
    var built: (Solver, [String: Variable], [(Constraint, Int)])!
    for _ in 0..<options.builds {
        let start = now()
        built = try workload.build()
        times.append(now() - start)
    }
    let (solver, variables, made) = built!
    result.build = median(times) * 1e3
    result.buildMin = times.min()! * 1e3
    result.buildMax = times.max()! * 1e3
    result.checksumBuild = checksum(variables)
    var perStep: [Double] = []
    for _ in 0..<options.loops {
        let start = now()
        for step in workload.steps {
            for (name, value) in step { try solver.suggestValue(variables[name]!, value) }
            solver.updateVariables()
        }
        perStep.append((now() - start) / Double(max(1, workload.steps.count)))
    }
    result.suggest = median(perStep) * 1e6
    result.checksumSuggest = checksum(variables)
    let optional = made.filter { $0.1 < 1000 }.prefix(options.churn)
    let start = now()
    for (constraint, _) in optional {
        try solver.remove(constraint)
        try solver.add(constraint)
    }
    solver.updateVariables()
    result.churn = (now() - start) / Double(max(1, optional.count)) * 1e6
    result.churnPairs = optional.count
    result.variables = variables.count
    result.constraints = workload.constraints.count
    result.steps = workload.steps.count
    return result
}

/// Runs solver_peer.py (kiwisolver) on the same workload; nil (with the reason printed) when it cannot run.
func runPeer(_ path: String, _ options: Options, python: String) -> Result? {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: python)
    process.arguments = [options.peerScript, "run", path, "--json", "--builds", String(options.builds),
                         "--loops", String(options.loops), "--churn", String(options.churn)]
    let pipe = Pipe()
    process.standardOutput = pipe
    do { try process.run() } catch {
        print("  kiwisolver: cannot run \(python): \(error)")
        return nil
    }
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0,
          let json = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
        print("  kiwisolver: solver_peer.py failed (status \(process.terminationStatus))")
        return nil
    }
    func d(_ key: String) -> Double { (json[key] as? Double) ?? Double(json[key] as? Int ?? 0) }
    var r = Result()
    r.build = d("build_ms_median"); r.buildMin = d("build_ms_min"); r.buildMax = d("build_ms_max")
    r.suggest = d("suggest_us_median"); r.churn = d("churn_us_per_pair"); r.churnPairs = json["churn_pairs"] as? Int ?? 0
    r.checksumBuild = d("checksum_after_build"); r.checksumSuggest = d("checksum_after_suggest")
    return r
}

/// A venv with kiwisolver under .build/kiwi-venv, made on first use.
func peerPython(_ options: Options) -> String? {
    if let python = options.python { return python }
    let venv = FileManager.default.currentDirectoryPath + "/.build/kiwi-venv"
    let python = venv + "/bin/python"
    if FileManager.default.fileExists(atPath: python) { return python }
    print("making a venv with kiwisolver in \(venv) ...")
    for command in [["python3", "-m", "venv", venv], [venv + "/bin/pip", "install", "--quiet", "kiwisolver"]] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = command
        guard (try? process.run()) != nil else { return nil }
        process.waitUntilExit()
        if process.terminationStatus != 0 { return nil }
    }
    return python
}

func format(_ value: Double, _ digits: Int = 3) -> String { String(format: "%.\(digits)f", value) }
func ratio(_ peer: Double, _ ours: Double) -> String { ours > 0 ? String(format: "%.1fx", peer / ours) : "-" }

let options = try Options(Array(CommandLine.arguments.dropFirst()))
var names = ["enaml-form.txt", "rows-30.txt", "rows-100.txt"]
if options.large { names.append("rows-300.txt") }
if let only = options.only { names = names.filter { $0.hasPrefix(only) } + (only == "rows-300" ? ["rows-300.txt"] : []) }
let python = options.peer ? peerPython(options) : nil
print("Solver benchmark: ours (Swift Cassowary, strict priorities) beside kiwisolver, same workloads, same run.")
print("build = fresh solver + edits + all constraints (median of \(options.builds), ms); suggest = per step (median, µs);")
print("churn = remove + re-add of each of the first \(options.churn) optional constraints (µs per pair). ratio = kiwi / ours (>1: ours faster).")
print("")
var rows: [[String]] = []
var notes: [String] = []
for name in names {
    let path = options.workloads + "/" + name
    let workload = try Workload(path: path)
    let ours = try runOurs(workload, options)
    let kiwi = python.flatMap { runPeer(path, options, python: $0) }
    let label = "\(name.replacingOccurrences(of: ".txt", with: "")) (\(ours.variables) vars, \(ours.constraints) constraints)"
    rows.append([label, "build ms", format(ours.build), kiwi.map { format($0.build) } ?? "-", kiwi.map { ratio($0.build, ours.build) } ?? "-"])
    rows.append(["", "suggest µs", format(ours.suggest, 2), kiwi.map { format($0.suggest, 2) } ?? "-", kiwi.map { ratio($0.suggest, ours.suggest) } ?? "-"])
    rows.append(["", "churn µs", format(ours.churn, 1), kiwi.map { format($0.churn, 1) } ?? "-", kiwi.map { ratio($0.churn, ours.churn) } ?? "-"])
    rows.append(["", "checksum build", format(ours.checksumBuild, 6), kiwi.map { format($0.checksumBuild, 6) } ?? "-", ""])
    rows.append(["", "checksum suggest", format(ours.checksumSuggest, 6), kiwi.map { format($0.checksumSuggest, 6) } ?? "-", ""])
    if let kiwi, abs(kiwi.checksumBuild - ours.checksumBuild) > 1e-3 || abs(kiwi.checksumSuggest - ours.checksumSuggest) > 1e-3 {
        notes.append(name)
    }
}
let header = ["workload", "measure", "ours", "kiwisolver", "ratio"]
let widths = header.indices.map { i in (rows + [header]).map { $0[i].count }.max()! }
func line(_ cells: [String]) -> String {
    cells.enumerated().map { i, c in i < 2 ? c.padding(toLength: widths[i], withPad: " ", startingAt: 0)
        : String(repeating: " ", count: widths[i] - c.count) + c }.joined(separator: "  ")
}
print(line(header))
print(line(widths.map { String(repeating: "-", count: $0) }))
for row in rows { print(line(row)) }
if !notes.isEmpty {
    print("")
    print("Checksums differ on \(notes.joined(separator: ", ")): kiwi weighs strengths (many weak constraints can outweigh")
    print("a strong one), ours satisfies priorities strictly in order, so the two optima differ where that matters.")
}
