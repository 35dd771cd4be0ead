import Foundation
import TestSupport
import Testing

/// Every benchmark, run with tiny counts (the load too): one that hangs, crashes or loses its peer fails the suite, so that no
/// README table rests on a benchmark that no longer runs. The numbers are not checked (that is what the
/// benchmarks are for); that each run finishes, prints its rows and exits 0 is. (A CPU-heavy suite: it runs apart
/// from the tests that wait for processes and signals, scripts/test-groups.sh.)
@Suite(.serialized) struct BenchmarkSmokeTests {
    func transitionBenchmark(_ arguments: [String]) async throws -> (status: Int32, stdout: String, stderr: String) {
        try await ChildProcess.run(Binaries.path("transition-benchmark"), arguments + ["--time-limit", "300"])
    }

    /// The rows of a stream table: a line per second, with its calls to both servers.
    func streamRows(_ output: String) -> [[Substring]] {
        output.split(separator: "\n").map { $0.split(separator: " ") }.filter { $0.first == "1" && $0.count == 11 }
    }

    @Test func latencyWithTraitdAndTheBarePeer() async throws {
        let run = try await transitionBenchmark(["--only", "latency", "--adapters", "0,2", "--transitions", "10"])
        #expect(run.status == 0, "\(run.stderr)")
        let rows = run.stdout.split(separator: "\n").map { $0.split(separator: " ") }.filter { ["0", "2"].contains($0.first) }
        #expect(rows.count == 2 && rows.allSatisfy { $0.count == 11 }, "a row per adapter count, both servers: \(run.stdout)")
    }

    @Test(arguments: ["drag", "resize"]) func aStreamWithTraitdAndTheBarePeer(stream: String) async throws {
        let run = try await transitionBenchmark(["--only", stream, "--stream-seconds", "1", "--stream-rate", "20",
                                                 "--stream-adapters", "2"])
        #expect(run.status == 0, "\(run.stderr)")
        let rows = streamRows(run.stdout)
        #expect(rows.count == 1 && rows[0][1] == "20" && rows[0][6] == "20", "20 calls answered by each server: \(run.stdout)")
    }

    @Test func loadWithTraitdAndTheBarePeer() async throws {
        let run = try await transitionBenchmark(["--only", "load", "--load-clients", "3", "--load-seconds", "1"])
        #expect(run.status == 0, "\(run.stderr)")
        let rows = run.stdout.split(separator: "\n").filter { $0.hasPrefix("traitd ") || $0.hasPrefix("bare libdbus ") }
        #expect(rows.count == 2, "a row per server: \(run.stdout)")
    }

    @Test func memoryWithTheAdapterHost() async throws {
        let run = try await transitionBenchmark(["--only", "memory", "--memory-transitions", "100"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("traitd: ") && run.stdout.contains("over 100 transitions"), "\(run.stdout)")
    }

    /// A server that never answers: the benchmark gives up at its time limit, says what it waited for, and stops
    /// what it started (the silent peer, and with it traitd and both buses, ran on after every `make test`).
    @Test func aBenchmarkNeverWaitsForever() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("traitd-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let silent = folder.appendingPathComponent("silent-peer")
        let pidFile = folder.appendingPathComponent("silent-peer.pid")
        try "#!/bin/sh\necho $$ > '\(pidFile.path)'\nexec sleep 600\n".write(to: silent, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: silent.path)
        let run = try await ChildProcess.run(Binaries.path("transition-benchmark"),
                                             ["--only", "latency", "--adapters", "0", "--transitions", "10",
                                              "--peer", silent.path, "--time-limit", "3"])
        #expect(run.status == 2, "\(run)")
        #expect(run.stderr.contains("gave up after 3.0 s (--time-limit) waiting for bare libdbus to take org.traitd.Layout1"),
                "\(run.stderr)")
        let text = try String(contentsOf: pidFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        let peer = try #require(pid_t(text), "the silent peer's pid: \(text)")
        #expect(await ChildProcess.waitForExit(ofProcess: peer), "the silent peer (pid \(peer)) outlived the benchmark")
    }

    /// A bad option is named, exit 2, not a crash with a stack trace.
    @Test func theSolverBenchmarkNamesABadOption() async throws {
        let run = try await ChildProcess.run(Binaries.path("solver-benchmark"), ["--order", "sideways"])
        #expect(run.status == 2, "\(run)")
        #expect(run.stderr == "solver-benchmark: --order takes as-written, reversed or shuffled-N, not sideways\n", "\(run.stderr)")
    }

    /// scripts/solver-build-counts.sh (callgrind, counting inside `Workload.build`) with the debug build: a row of
    /// counts above zero for each order. Fails if `Workload.build` is renamed and the script's mangled name no
    /// longer matches it (nothing is counted then, and the script says so). Not under ThreadSanitizer, whose
    /// binaries valgrind cannot run.
    @Test(.disabled(if: isThreadSanitized, "valgrind cannot run a ThreadSanitizer build"))
    func theSolverBuildCountsOnOneWorkload() async throws {
        var environment = ProcessInfo.processInfo.environment
        environment["SOLVER_BENCHMARK"] = Binaries.path("solver-benchmark")
        let run = try await ChildProcess.run(Binaries.repository.appendingPathComponent("scripts/solver-build-counts.sh").path,
                                             ["enaml-form", "as-written", "reversed"], environment: environment)
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        let rows = run.stdout.split(separator: "\n").map { $0.split(separator: " ") }
            .filter { ["as-written", "reversed"].contains($0.first) }
        #expect(rows.count == 2 && rows.allSatisfy { $0.count == 4 && $0.dropFirst().allSatisfy { (Int($0) ?? 0) > 0 } },
                "a row of counts per order: \(run.stdout)")
    }

    @Test func theSolverBenchmarkOnOneWorkload() async throws {
        let workloads = Binaries.repository.appendingPathComponent("Benchmarks/workloads").path
        let run = try await ChildProcess.run(Binaries.path("solver-benchmark"),
                                             ["--no-peer", "--only", "grid-20", "--builds", "1", "--loops", "1", "--churn", "1",
                                              "--churn-ops", "50", "--seeds", "1", "--rounds", "2", "--workloads", workloads])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("the lowest of\n2 rounds"), "\(run.stdout)")
        for order in ["as written", "reversed", "shuffled 1"] {
            #expect(run.stdout.contains("grid-20 \(order) (1604 vars, 3242 constraints)"), "\(run.stdout)")
        }
        // The order table: our build for each order and the spread between the slowest and the fastest.
        #expect(run.stdout.contains("Build time by the order constraints come in"), "\(run.stdout)")
        #expect(run.stdout.split(separator: "\n").contains { $0.hasPrefix("grid-20 ") && $0.contains("x") }, "\(run.stdout)")
    }
}

/// Whether this test process runs under ThreadSanitizer (`make tsan` builds everything with it).
private let isThreadSanitized = dlsym(nil, "__tsan_init") != nil
