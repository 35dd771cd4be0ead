import ArgumentParser
import Cassowary
import Foundation
import SolverWorkload

/// `make churn OPS=1000000`: seeded random churn on the workloads, checked as it goes (see `Churn`), with the
/// speed, memory and solver size printed every REPORT operations so that growth shows.
@main
struct SolverChurn: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "solver-churn",
        abstract: "Random remove / add / setConstant / suggest on solver workloads, checked against fresh solves.")

    @Option(name: .customLong("ops"), help: "Operations per workload.")
    var operations = 100_000

    @Option(name: .customLong("workload"), help: "A workload name in --workloads (without .txt) or a path; repeatable.")
    var workloads: [String] = ["rows-30", "enaml-form"]

    @Option(help: "The folder of workloads.")
    var directory = "Benchmarks/workloads"

    @Option(help: "The seed of the random operations.")
    var seed: UInt64 = 1

    @Option(help: "Compare with a fresh solve every K operations (0: never).")
    var freshEvery = 100

    @Option(help: "Print a progress line every N operations.")
    var report = 100_000

    @Option(help: "On a failure, write the operations applied so far to this file (a trace).")
    var traceOut: String?

    mutating func run() throws {
        var failed = false
        print("churn: \(operations) operations per workload, seed \(seed), fresh solve every \(freshEvery)")
        for name in workloads {
            let path = name.contains("/") ? name : "\(directory)/\(name).txt"
            let workload = try Workload(path: path)
            let system = try workload.build()
            var churn = Churn(system, seed: seed, freshEvery: freshEvery)
            churn.keepsTrace = traceOut != nil
            print("\(name): \(workload.variables.count) variables, \(workload.constraints.count) constraints")
            print("  operations     ops/s  refused  fresh checks  symbols  rows  rebuilds     drift   RSS MiB  peak MiB")
            var windowStart = Date()
            var done = 0
            while done < operations, churn.failures.isEmpty {
                let chunk = min(report - done % report, operations - done)
                churn.run(chunk)
                done += chunk
                if done % report == 0 || done == operations || !churn.failures.isEmpty {
                    let seconds = Date().timeIntervalSince(windowStart)
                    let stats = system.solver.statistics
                    let memory = ProcessMemory.read()
                    print(String(format: "  %10d  %8.0f  %7d  %12d  %7d  %5d  %8d  %8.1e  %8.1f  %8.1f", done,
                                 Double(chunk) / max(seconds, 1e-9), churn.refused, churn.freshChecks,
                                 stats.symbols, stats.rows, stats.rebuilds, stats.drift, memory.residentMiB, memory.peakMiB))
                    fflush(nil)  // every output stream; Glibc's `stdout` is a global var Swift 6 will not read
                    windowStart = Date()
                }
            }
            if churn.failures.isEmpty {
                print("  \(name): \(done) operations, 0 mismatches")
            } else {
                failed = true
                for failure in churn.failures { print("  MISMATCH \(failure)") }
                if let traceOut {
                    try churn.trace.map(\.description).joined(separator: "\n").appending("\n")
                        .write(toFile: traceOut, atomically: true, encoding: .utf8)
                    print("  the operations are in \(traceOut)")
                }
            }
        }
        if failed { throw ExitCode(1) }
    }
}
