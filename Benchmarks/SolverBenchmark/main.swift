import Cassowary
import Foundation
import SolverWorkload

// The constraint-engine benchmark: every workload of Benchmarks/workloads through our engine, kiwi's C++ core
// (Benchmarks/KiwiPeer, built by scripts/build-kiwi-peer.sh) and kiwisolver (Benchmarks/solver_peer.py, in a venv
// under .build/kiwi-venv), in the same run, each phase timed the same way (Benchmarks/workloads/README.md).
//
//   swift run -c release solver-benchmark [--kiwi BINARY] [--peer PYTHON] [--no-peer] [--large] [--only NAME]
//                                         [--builds R] [--loops L] [--churn K] [--churn-ops N]
//                                         [--seeds S] [--as-written | --order ORDER] [--peer-seconds T] [--rounds R]
//                                         [--stats] [--one-by-one]
//
// --large adds rows-300 (kiwisolver takes about 20 s to build it). Every workload also runs with its constraints
// reversed and shuffled (seeds 1 to S, default 3; --as-written: the files' order only; --order as-written,
// reversed or shuffled-N: that one, to profile it): build time must not depend on the order constraints come in.
// Ours builds each system as one batch (`Solver.add(contentsOf:)`, as a layout is loaded); the order table also
// shows each system added one by one in the workload's order (--one-by-one: every build so, to count or profile it).
// kiwisolver runs the files' order only (it is the slow third column); a peer that has not finished in T seconds
// (default 120) is stopped and its cells say so. --only NAME runs the workload of that whole name (rows-30, not
// also rows-300), else every workload whose name begins so. --rounds R (default 5): each system and order is run R
// times, ours and kiwi C++ taking turns, and each phase's number is the lowest of the rounds (see `measure`).
// Run it from the repository's root (or pass --workloads DIR).

struct Options {
    var workloads = "Benchmarks/workloads"
    var peerScript = "Benchmarks/solver_peer.py"
    var python: String? = nil
    var kiwi: String? = ".build/kiwi-peer"
    var large = false
    var only: String? = nil
    var peer = true
    /// Fresh builds per workload; nil: enough that a small workload's median is a warm one (see `builds(for:)`).
    var builds: Int? = nil
    var loops = 200
    var churn = 1000
    var churnOperations = 2000
    /// Print the engine's statistics after each build (pivots, rows, cells): what a slow build spent its time on.
    var statistics = false
    /// Shuffled variants per workload, besides the files' order and the reversed one; `asWrittenOnly` skips both.
    var seeds = 3
    var asWrittenOnly = false
    /// `--order`: this order only (to profile one).
    var order: ConstraintOrder?
    /// How long one peer run may take before it is stopped.
    var peerSeconds = 120
    /// Rounds of ours and kiwi C++ taking turns on each system and order (see `measure`).
    var rounds = 5
    /// `--one-by-one`: our builds add the constraints one by one in the workload's order rather than as a batch
    /// (the order table shows both whatever this says).
    var oneByOne = false

    init(_ arguments: [String]) throws {
        var rest = arguments[...]
        func number(_ option: String) throws -> Int {
            guard let text = rest.popFirst(), let value = Int(text), value >= 0 else {
                throw WorkloadError("\(option) needs a number")
            }
            return value
        }
        while let argument = rest.popFirst() {
            switch argument {
            case "--large": large = true
            case "--only": only = rest.popFirst()
            case "--no-peer": peer = false
            case "--stats": statistics = true
            case "--one-by-one": oneByOne = true
            case "--seeds": seeds = try number(argument)
            case "--as-written": asWrittenOnly = true
            case "--order":
                let name = rest.popFirst() ?? ""
                guard let chosen = ConstraintOrder(name) else {
                    throw WorkloadError("--order takes as-written, reversed or shuffled-N, not \(name)")
                }
                order = chosen
            case "--peer-seconds": peerSeconds = max(1, try number(argument))
            case "--peer": python = rest.popFirst()
            case "--kiwi": kiwi = rest.popFirst()
            case "--workloads": workloads = rest.popFirst() ?? workloads
            case "--builds": builds = max(1, try number(argument))
            case "--loops": loops = max(1, try number(argument))
            case "--churn": churn = try number(argument)
            case "--churn-ops": churnOperations = try number(argument)
            case "--rounds": rounds = max(1, try number(argument))
            case "--help", "-h":
                print("usage: solver-benchmark [--kiwi BINARY] [--peer PYTHON] [--no-peer] [--large] [--only NAME] [--workloads DIR]")
                print("                        [--builds R] [--loops L] [--churn K] [--churn-ops N]")
                print("                        [--seeds S] [--as-written | --order ORDER] [--peer-seconds T] [--rounds R] [--stats]")
                print("                        [--one-by-one]")
                exit(0)
            default: throw WorkloadError("unknown option \(argument) (try --help)")
            }
        }
    }
}

/// One engine's numbers on one workload; nil where the engine has no such phase.
struct Result {
    var build: Double?  // ms, median
    var suggest: Double?  // µs per step, median
    var churn: Double?  // µs per remove + add
    var setConstant: Double?  // µs per change
    var trace: Double?  // µs per operation of the interleaved churn
    var checksumBuild: Double?
    var checksumSuggest: Double?
}

func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }
func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
}
func checksum(_ system: LiveSystem) -> Double { (system.variables.reduce(0) { $0 + $1.value } * 1e6).rounded() / 1e6 }

/// The interleaved churn: `count` seeded random operations (remove, add, setConstant, suggest) as our churn
/// checker makes them, recorded on a separate build so that every engine replays the same list.
func makeTrace(_ workload: Workload, count: Int) throws -> [LiveSystem.Operation] {
    var churn = Churn(try workload.build(), seed: 2026, freshEvery: 0)
    churn.keepsTrace = true
    churn.verifyRefusals = false
    churn.run(count)
    return churn.trace
}

/// How many fresh builds a workload gets, the same for every engine: `--builds R`, else 11 for large workloads and
/// up to 201 for small ones (about 20,000 constraints in all), because the first few builds of a small system
/// run cold (page faults, allocator warm-up) and a median of 11 of them measured the warm-up, not the engine.
func builds(for workload: Workload, _ options: Options) -> Int {
    options.builds ?? max(11, min(201, 20_000 / max(1, workload.constraints.count)))
}

func runOurs(_ workload: Workload, trace: [LiveSystem.Operation], _ options: Options) throws -> Result {
    var result = Result()
    var times: [Double] = []
    var built: LiveSystem!
    for _ in 0..<builds(for: workload, options) {
        let start = now()
        let fresh = try workload.build(oneByOne: options.oneByOne)
        times.append(now() - start)
        built = fresh  // the previous build is freed here, outside the timing (as the kiwi peer frees its own)
    }
    let system = built!
    result.build = median(times) * 1e3
    if options.statistics { print("  ours after build of \(workload.name): \(system.solver.statistics)") }
    result.checksumBuild = checksum(system)
    var perStep: [Double] = []
    for _ in 0..<options.loops {
        let start = now()
        for step in workload.steps {
            for (name, value) in step { try system.solver.suggestValue(system.variablesByName[name]!, value) }
            system.solver.updateVariables()
        }
        perStep.append((now() - start) / Double(max(1, workload.steps.count)))
    }
    result.suggest = median(perStep) * 1e6
    result.checksumSuggest = checksum(system)
    let optional = system.constraints.filter { !$0.priority.isRequired }.prefix(options.churn)
    var start = now()
    for constraint in optional {
        try system.solver.remove(constraint)
        try system.solver.add(constraint)
    }
    system.solver.updateVariables()
    result.churn = (now() - start) / Double(max(1, optional.count)) * 1e6
    // setConstant: each of those constraints' right-hand side moved by 1, then back.
    start = now()
    for delta in [-1.0, 1.0] {
        for constraint in optional { try system.solver.setConstant(of: constraint, to: constraint.expression.constant + delta) }
        system.solver.updateVariables()
    }
    result.setConstant = (now() - start) / Double(max(1, 2 * optional.count)) * 1e6
    if !trace.isEmpty {
        let fresh = try workload.build()
        start = now()
        for operation in trace { try? fresh.apply(operation) }
        result.trace = (now() - start) / Double(trace.count) * 1e6
        if options.statistics { print("  ours after mixed of \(workload.name): \(fresh.solver.statistics)") }
    }
    return result
}

/// What a peer run gave: its numbers, or why there are none.
enum PeerRun {
    case finished([String: Any])
    case timedOut(seconds: Int)
    case failed
}

/// Ours and kiwi C++ (`peer`, nil without one) on one system and order, `options.rounds` times, taking turns, and
/// each phase's lowest number over the rounds, each engine's own. The machine has stretches of seconds where a
/// process runs at half speed, and not always every process alike; measured once each, one engine after the
/// other, a stretch could fall on one engine's phase alone and halve or double a ratio (enaml-form's mixed churn
/// read 1.7x and 2.3x kiwi's in two runs of the same engines; with the median of three rounds, its reversed
/// build still read 0.240 ms for ours, 0.135 to 0.150 in the other orders, beside kiwi's usual 0.377). A slow
/// stretch can only raise a number, so the lowest round is the one it missed; each round's number is itself a
/// median (of builds, of suggest loops) or a whole pass, as before. A further round runs only while the last
/// one took both engines under 10 s and kiwi finished: the large systems, where one round is minutes and the
/// ratios are tens to thousands, get one.
func measure(_ workload: Workload, trace: [LiveSystem.Operation], _ options: Options,
             peer: () -> PeerRun?) throws -> (ours: Result, kiwi: PeerRun?) {
    var ours: [Result] = []
    var theirs: [PeerRun] = []
    var roundOptions = options
    for _ in 0..<options.rounds {
        let start = now()
        ours.append(try runOurs(workload, trace: trace, roundOptions))
        let middle = now()
        let run = peer()
        if let run { theirs.append(run) }
        roundOptions.statistics = false  // once is enough: every round makes the same pivots
        guard now() - middle < 10, middle - start < 10 else { break }
        if let run, case .finished = run {} else if run != nil { break }
    }
    func lowest(_ key: KeyPath<Result, Double?>) -> Double? { ours.compactMap { $0[keyPath: key] }.min() }
    let merged = Result(build: lowest(\.build), suggest: lowest(\.suggest), churn: lowest(\.churn),
                        setConstant: lowest(\.setConstant), trace: lowest(\.trace),
                        checksumBuild: ours[0].checksumBuild, checksumSuggest: ours[0].checksumSuggest)
    return (merged, lowestRun(theirs))
}

/// A peer's rounds as one: each number the lowest of the rounds that finished (the checksums are the same in
/// every round); the first round's outcome when none finished.
func lowestRun(_ runs: [PeerRun]) -> PeerRun? {
    let finished = runs.compactMap { run -> [String: Any]? in if case .finished(let json) = run { json } else { nil } }
    guard let first = finished.first else { return runs.first }
    var merged = first
    for (key, value) in first where value is Double || value is Int {
        let values = finished.compactMap { ($0[key] as? Double) ?? ($0[key] as? Int).map(Double.init) }
        if values.count == finished.count, let lowest = values.min() { merged[key] = lowest }
    }
    return .finished(merged)
}

/// Runs a peer that prints one JSON object, stopping it after `seconds` (kiwi's build of a reversed grid-50 would
/// take hours); the reason is printed when it gives no numbers.
func runPeer(_ executable: String, _ arguments: [String], name: String, seconds: Int) -> PeerRun {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    let pipe = Pipe()
    process.standardOutput = pipe
    do { try process.run() } catch {
        print("  \(name): cannot run \(executable): \(error)")
        return .failed
    }
    DispatchQueue.global().asyncAfter(deadline: .now() + .seconds(seconds)) {
        if process.isRunning { process.terminate() }
    }
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    // Only the timer above sends a peer SIGTERM.
    if process.terminationReason == .uncaughtSignal, process.terminationStatus == SIGTERM {
        print("  \(name): stopped after \(seconds) s without a result (--peer-seconds)")
        return .timedOut(seconds: seconds)
    }
    guard process.terminationStatus == 0, let json = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
        print("  \(name): failed (status \(process.terminationStatus))")
        return .failed
    }
    return .finished(json)
}

func peerResult(_ json: [String: Any]) -> Result {
    func d(_ key: String) -> Double? { (json[key] as? Double) ?? (json[key] as? Int).map(Double.init) }
    return Result(build: d("build_ms_median"), suggest: d("suggest_us_median"), churn: d("churn_us_per_pair"),
                  setConstant: d("setc_us"), trace: (d("trace_ops") ?? 0) > 0 ? d("trace_us_per_op") : nil,
                  checksumBuild: d("checksum_after_build"), checksumSuggest: d("checksum_after_suggest"))
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

func format(_ value: Double?, _ digits: Int) -> String { value.map { String(format: "%.\(digits)f", $0) } ?? "-" }

/// A peer's cell: its number, "> T s" when it was stopped, "-" when it has none.
func format(_ run: PeerRun?, _ key: KeyPath<Result, Double?>, _ digits: Int) -> String {
    switch run {
    case .finished(let json)?: format(peerResult(json)[keyPath: key], digits)
    case .timedOut(let seconds)?: "> \(seconds) s"
    default: "-"
    }
}
func ratio(_ peer: Double?, _ ours: Double?) -> String {
    guard let peer, let ours, ours > 0 else { return "-" }
    return String(format: "%.1fx", peer / ours)
}

let options: Options
do {
    options = try Options(Array(CommandLine.arguments.dropFirst()))
} catch {
    FileHandle.standardError.write(Data("solver-benchmark: \(error)\n".utf8))
    exit(2)
}
var names = ["enaml-form", "rows-30", "rows-100", "grid-20", "grid-50"]
if options.large { names.append("rows-300") }
var isDirectory: ObjCBool = false
if !FileManager.default.fileExists(atPath: options.workloads, isDirectory: &isDirectory) || !isDirectory.boolValue {
    // Run from elsewhere than the repository's root, the default relative path finds nothing.
    FileHandle.standardError.write(Data(("solver-benchmark: no workload directory at \(options.workloads) (run it from "
        + "the repository's root, or pass --workloads DIR)\n").utf8))
    exit(2)
}
if let only = options.only {
    // A workload's whole name picks that one (`rows-30` is not also `rows-300`); otherwise every name it begins.
    let all = names + (options.large ? [] : ["rows-300"])
    names = all.contains(only) ? [only] : all.filter { $0.hasPrefix(only) }
    if names.isEmpty {
        let known = all.joined(separator: ", ")
        FileHandle.standardError.write(Data("solver-benchmark: no workload is called \(only) or begins with it (\(known))\n".utf8))
        exit(2)
    }
}
let kiwi = options.peer ? options.kiwi.flatMap { FileManager.default.isExecutableFile(atPath: $0) ? $0 : nil } : nil
if options.peer, kiwi == nil { print("kiwi C++: no binary at \(options.kiwi ?? "-") (make bench-solver builds it)") }
let python = options.peer ? peerPython(options) : nil
print("Solver benchmark: ours (Swift Cassowary, strict priorities) beside kiwi's C++ core and kiwisolver, one run.")
print("build = fresh solver + edits + all constraints (median of \(options.builds.map(String.init) ?? "11 to 201, more for small workloads"), ms; ours adds")
print("them as one batch, Solver.add(contentsOf:), which puts them in by their variables; kiwi has no batch: one by one);")
print("suggest = per step (median, µs);")
print("churn = remove + add of each of the first \(options.churn) optional constraints (µs per pair); setc = each of")
print("their constants moved and moved back (µs per change; kiwi has no setConstant: it removes and adds);")
print("mixed = \(options.churnOperations) seeded random removes, adds, setConstants and suggests, the same list for each")
print("engine (µs per operation). ratio = kiwi C++ / ours (> 1: ours is faster). Each number: the lowest of")
print("\(options.rounds) rounds of ours and kiwi C++ taking turns (one round where a round takes an engine over 10 s).")
print("")
var rows: [[String]] = []
var notes: [String] = []
/// Our build time for each order of each system, and the ratio to kiwi's on each: the order table.
var orderRows: [[String]] = []
let orders = options.order.map { [$0] }
    ?? (options.asWrittenOnly ? [ConstraintOrder.asWritten] : ConstraintOrder.variants(seeds: options.seeds))
for name in names {
    let path = options.workloads + "/" + name + ".txt"
    let base = try Workload(path: path)
    var orderBuilds: [(order: ConstraintOrder, ours: Double, kiwi: PeerRun?)] = []
    for order in orders {
        let workload = base.reordered(order)
        let scratch = FileManager.default.temporaryDirectory.path + "/solver-\(getpid())-\(name)"
        let workloadPath = order == .asWritten ? path : scratch + "-workload.txt"
        if order != .asWritten { try workload.text.write(toFile: workloadPath, atomically: true, encoding: .utf8) }
        let trace = try makeTrace(workload, count: options.churnOperations)
        let tracePath = scratch + "-trace.txt"
        try trace.map(\.description).joined(separator: "\n").appending("\n").write(toFile: tracePath, atomically: true, encoding: .utf8)
        defer {
            try? FileManager.default.removeItem(atPath: tracePath)
            if order != .asWritten { try? FileManager.default.removeItem(atPath: workloadPath) }
        }
        // Progress on stderr, a line a system and order: the tables come at the end, and a full run takes minutes
        // (kiwi's reversed and shuffled grids run until --peer-seconds).
        FileHandle.standardError.write(Data("solver-benchmark: \(name) \(order)\(kiwi == nil ? "" : ", kiwi C++ for up to \(options.peerSeconds) s")\n".utf8))
        let counts = ["--builds", String(builds(for: workload, options)), "--loops", String(options.loops), "--churn", String(options.churn)]
        // kiwi builds for at most a tenth of its time (one build at least): a reversed grid-20 takes it 50 s a build.
        let (ours, cpp) = try measure(workload, trace: trace, options) {
            kiwi.map {
                runPeer($0, [workloadPath] + counts + ["--trace", tracePath, "--build-seconds", String(options.peerSeconds / 10)],
                        name: "kiwi C++", seconds: options.peerSeconds)
            }
        }
        let py = order == .asWritten
            ? python.map { runPeer($0, [options.peerScript, "run", workloadPath, "--json"] + counts, name: "kiwisolver", seconds: options.peerSeconds) }
            : nil
        orderBuilds.append((order, ours.build ?? 0, cpp))
        let label = "\(name) \(order) (\(workload.variables.count) vars, \(workload.constraints.count) constraints)"
        var labelled = false  // the workload is named on its first row only
        func row(_ measure: String, _ key: KeyPath<Result, Double?>, _ digits: Int) -> [String] {
            defer { labelled = true }
            var ratioCell = "-"
            if case .finished(let json)? = cpp { ratioCell = ratio(peerResult(json)[keyPath: key], ours[keyPath: key]) }
            if case .timedOut(let seconds)? = cpp, let mine = ours[keyPath: key], key == \Result.build {
                ratioCell = String(format: "> %.0fx", Double(seconds) * 1e3 / mine)
            }
            return [labelled ? "" : label, measure, format(ours[keyPath: key], digits), format(cpp, key, digits),
                    format(py, key, digits), ratioCell]
        }
        rows.append(row("build ms", \.build, 3))
        rows.append(row("suggest µs", \.suggest, 2))
        rows.append(row("churn µs", \.churn, 1))
        rows.append(row("setc µs", \.setConstant, 1))
        rows.append(row("mixed µs", \.trace, 1))
        rows.append(row("checksum build", \.checksumBuild, 3).prefix(5) + [""])
        rows.append(row("checksum suggest", \.checksumSuggest, 3).prefix(5) + [""])
        if case .finished(let json)? = cpp {
            let peer = peerResult(json)
            if abs((peer.checksumBuild ?? 0) - (ours.checksumBuild ?? 0)) > 1e-3
                || abs((peer.checksumSuggest ?? 0) - (ours.checksumSuggest ?? 0)) > 1e-3 {
                notes.append("\(name) \(order)")
            }
        }
    }
    let times = orders.count > 1 ? try interleavedBuilds(base, orders, options) : orderBuilds.map(\.ours)
    var worstRatio = Double.infinity
    for entry in orderBuilds {
        if case .finished(let json)? = entry.kiwi, let theirs = peerResult(json).build { worstRatio = min(worstRatio, theirs / entry.ours) }
    }
    func spread(_ times: [Double]) -> String { String(format: "%.2fx", (times.max() ?? 0) / max(1e-9, times.min() ?? 1)) }
    orderRows.append([name] + times.map { format($0, 3) } + [spread(times), worstRatio.isFinite ? String(format: "%.1fx", worstRatio) : "-"])
    if orders.count > 1 {
        // The same orders added one by one (`Solver.add(_:)` in the workload's order): what the batch's own order
        // takes away.
        let oneByOne = try interleavedBuilds(base, orders, options, oneByOne: true)
        orderRows.append(["  one by one"] + oneByOne.map { format($0, 3) } + [spread(oneByOne), ""])
    }
}
/// Our build time of each order, measured again with the orders taking turns: five rounds, each of which builds
/// every order a few times in a row (a fifth of its builds, three at least), and each order's time is the median
/// of all its builds. The machine has slow stretches (twice as slow for seconds); measured one order after
/// another, a stretch could fall on one order's builds alone and make a spread out of nothing. Taking turns, it
/// falls on all of them alike; building a few times in a row keeps each build as warm as in the table above.
func interleavedBuilds(_ base: Workload, _ orders: [ConstraintOrder], _ options: Options, oneByOne: Bool = false) throws -> [Double] {
    let workloads = orders.map { base.reordered($0) }
    let rounds = 5
    let inARow = max(3, builds(for: base, options) / rounds)
    var times = Array(repeating: [Double](), count: orders.count)
    var built: LiveSystem?
    for _ in 0..<rounds {
        for (index, workload) in workloads.enumerated() {
            for _ in 0..<inARow {
                let start = now()
                let fresh = try workload.build(oneByOne: oneByOne)
                times[index].append(now() - start)
                built = fresh  // the previous build is freed here, outside the timing
            }
        }
    }
    _ = built
    return times.map { median($0) * 1e3 }
}

/// Prints a table: the first `labels` columns left-aligned, the numbers right-aligned, a rule under the header.
func printTable(_ header: [String], _ rows: [[String]], labels: Int) {
    let widths = header.indices.map { i in (rows + [header]).map { $0[i].count }.max()! }
    func line(_ cells: [String]) -> String {
        cells.enumerated().map { i, c in i < labels ? c.padding(toLength: widths[i], withPad: " ", startingAt: 0)
            : String(repeating: " ", count: widths[i] - c.count) + c }.joined(separator: "  ")
    }
    print(line(header))
    print(line(widths.map { String(repeating: "-", count: $0) }))
    for row in rows { print(line(row)) }
}
printTable(["workload", "measure", "ours", "kiwi C++", "kiwisolver", "ratio"], rows, labels: 2)
if orders.count > 1 {
    print("")
    print("Build time by the order constraints come in (ours, ms, measured again with the orders taking turns, five rounds")
    print("of a few builds each, median; spread = slowest / fastest; worst = the lowest kiwi C++ / ours build ratio in the")
    print("table above, over the orders kiwi finished). Each system as one batch, as in the table above, and below it one")
    print("by one in the workload's order:")
    printTable(["system"] + orders.map(\.description) + ["spread", "worst vs kiwi"], orderRows, labels: 1)
}
if !notes.isEmpty {
    print("")
    print("Checksums differ on \(notes.joined(separator: ", ")). Two reasons can apply: kiwi weighs strengths (many weak")
    print("constraints can outweigh a strong one) where ours keeps priorities strictly in order; and where the optimum")
    print("is not unique (several layouts with the same error at every level), two engines may pick different ones.")
    print("The engine's tests compare level errors, which are unique, with a fresh solve and with scipy.")
}
