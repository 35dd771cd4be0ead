// transition-benchmark: traitd's transition latency, a divider-drag stream and a live-resize stream, each beside the bare cost of the
// same messages on the same kind of bus (bare-peer: a minimal libdbus service with no simulation behind it).
// The clients are the same for both; only the service differs.
//
//   transition-benchmark [--adapters 1,10,100] [--transitions 1000] [--stream-seconds 10] [--stream-rate 120]
//                        [--stream-adapters 50] [--memory-transitions 100000] [--only latency|drag|resize|memory]
//                        [--time-limit 900] [--traitd PATH] [--host PATH] [--peer PATH]
//
// 1. Latency: from a client's SetArrangement call to TransitionCompleted on the client, with N adapters on
//    connections of their own, each reporting as soon as it hears the new size. p50 and p99 in microseconds.
// 2. Drag stream: MoveDivider at 120 calls/s for 10 s with 50 adapters; per second, the calls' p50 and p99 and
//    the server's CPU and resident memory.
// 3. Resize stream: a live resize of mail's free-form window (Stage Manager), ResizeTo at 120 calls/s for 10 s
//    with 50 adapters, the width sweeping across the size-class threshold; the same columns.
// 4. Load: N clients calling as fast as they can (closed loop) for some seconds, a fixed mix of commands and reads:
//    calls/s, p50/p99 per call and the server's CPU per call (make bench-load).
// 6. Bridges: one window laid out by a layout file through the host, and by a web page in headless Chromium;
//    SetArrangement -> TransitionCompleted p50/p99 beside one frame at 60 Hz, and the host's and browser's memory.
// 5. Memory: traitd idle, then traitd and the adapter host (traitd-adapters, its built-in adapters reporting)
//    across N transitions, RSS every N/10; the end must be within 2 MiB of the start.
import Foundation
import TestSupport

struct Options {
    var adapterCounts = [1, 10, 100]
    var transitions = 1000
    var streamSeconds = 10
    var streamRate = 120
    var streamAdapters = 50
    var only: String?
    var verbose = ProcessInfo.processInfo.environment["BENCH_VERBOSE"] != nil
    var traitd = Binaries.path("traitd")
    var peer = Binaries.path("bare-peer")
    var host = Binaries.path("traitd-adapters")
    var memoryTransitions = 100_000
    var bridgeTransitions = 200
    var loadClients = 20
    var loadSeconds = 10
    /// Seconds the whole benchmark may take; then it gives up and says what it was waiting for.
    var timeLimit = 900.0

    static let usage = """
        usage: transition-benchmark [--only latency|drag|resize|load|memory|bridges] [--adapters 1,10,100] [--transitions N]
                                    [--stream-seconds N] [--stream-rate N] [--stream-adapters N] [--load-clients N]
                                    [--load-seconds N] [--memory-transitions N] [--bridge-transitions N] [--time-limit S]
                                    [--traitd PATH] [--host PATH] [--peer PATH]
        Without --only, every run (make bench-transitions); make bench-load runs --only load for 60 s; make
        bench-bridges runs --only bridges.
        """

    init(_ arguments: [String]) {
        var rest = arguments.dropFirst()
        while let flag = rest.popFirst() {
            if flag == "--help" || flag == "-h" {
                print(Self.usage)
                exit(0)
            }
            guard let value = rest.popFirst() else { fail("\(flag) needs a value\n\(Self.usage)") }
            switch flag {
            case "--adapters": adapterCounts = value.split(separator: ",").compactMap { Int($0) }
            case "--transitions": transitions = Int(value) ?? -1
            // The drag's own names, from before the resize stream shared them, still work.
            case "--stream-seconds", "--drag-seconds": streamSeconds = Int(value) ?? -1
            case "--stream-rate", "--drag-rate": streamRate = Int(value) ?? -1
            case "--stream-adapters", "--drag-adapters": streamAdapters = Int(value) ?? -1
            case "--only": only = value
            case "--traitd": traitd = value
            case "--peer": peer = value
            case "--host": host = value
            case "--memory-transitions": memoryTransitions = Int(value) ?? -1
            case "--bridge-transitions": bridgeTransitions = Int(value) ?? -1
            case "--load-clients": loadClients = Int(value) ?? -1
            case "--load-seconds": loadSeconds = Int(value) ?? -1
            case "--time-limit": timeLimit = Double(value) ?? -1
            default:
                fail("unknown option \(flag)\n\(Self.usage)")
            }
        }
        if adapterCounts.isEmpty || adapterCounts.contains(where: { $0 < 0 || $0 > 1000 }) { fail("--adapters: counts from 0 to 1000") }
        if transitions < 10 { fail("--transitions: at least 10") }
        if streamSeconds < 1 || streamRate < 1 || streamRate > 2000 || streamAdapters < 0 {
            fail("--stream-seconds at least 1, --stream-rate 1 to 2000 calls/s, --stream-adapters 0 or more")
        }
        if memoryTransitions < 1 { fail("--memory-transitions: at least 1") }
        if timeLimit <= 0 { fail("--time-limit: seconds, more than 0") }
        if let only, !["latency", "drag", "resize", "load", "memory", "bridges"].contains(only) {
            fail("--only latency, drag, resize, load, memory or bridges")
        }
        if loadClients < 1 || loadClients > 200 || loadSeconds < 1 { fail("--load-clients 1 to 200, --load-seconds at least 1") }
    }
}

func us(_ value: Double) -> String { String(format: "%7.0f", value) }

let options = Options(CommandLine.arguments)
// Never wait forever: past the time limit the benchmark exits 2, saying what it was waiting for.
Task.detached {
    try await Task.sleep(for: .seconds(options.timeLimit))
    fail("gave up after \(options.timeLimit) s (--time-limit) waiting for \(Waiting.now)")
}
if options.only == nil || options.only == "latency" {
    print("Transition latency: SetArrangement call -> TransitionCompleted on the client, \(options.transitions) transitions each, alternating between traitd and the bare peer")
    print("           --------------- traitd ---------------   -------- bare libdbus --------   -- traitd / bare --")
    print("adapters    p50 µs   p99 µs   max µs miss  RSS MiB    p50 µs   p99 µs  RSS MiB          p50     p99")
    for count in options.adapterCounts {
        let (ours, bare) = try await LatencyRun.measurePair(adapters: count, options: options)
        print(String(format: "%8d  %@  %@  %@ %4d %8.1f   %@  %@ %8.1f      %6.2fx %6.2fx", count, us(ours.p50), us(ours.p99),
                     us(ours.samples.last ?? .nan), ours.missed, ours.residentMiB, us(bare.p50), us(bare.p99), bare.residentMiB,
                     ours.p50 / bare.p50, ours.p99 / bare.p99))
    }
}
for stream in [StreamRun.Kind.drag, .resize] where options.only == nil || options.only == stream.rawValue {
    if options.only == nil { print("") }
    switch stream {
    case .drag:
        print("Drag stream: MoveDivider at \(options.streamRate) calls/s for \(options.streamSeconds) s, open loop, \(options.streamAdapters) adapters on the primary window")
    case .resize:
        print("Resize stream: ResizeTo at \(options.streamRate) calls/s for \(options.streamSeconds) s, open loop, \(options.streamAdapters) adapters on the window, 500 <-> 900 pt across 678")
    }
    let ours = try await StreamRun.measure(stream, .traitd, options: options)
    let bare = try await StreamRun.measure(stream, .bare, options: options)
    print("           ------------- traitd -------------   ---------- bare libdbus ----------")
    print("second  calls  p50 µs  p99 µs  CPU %  RSS MiB   calls  p50 µs  p99 µs  CPU %  RSS MiB")
    for i in 0..<options.streamSeconds {
        let a = ours.seconds[i], b = bare.seconds[i]
        print(String(format: "%6d  %5d %@ %@ %6.1f %8.1f   %5d %@ %@ %6.1f %8.1f", i + 1, a.latencies.count,
                     us(percentile(a.latencies, 0.5)), us(percentile(a.latencies, 0.99)), a.cpuPercent, a.residentMiB,
                     b.latencies.count, us(percentile(b.latencies, 0.5)), us(percentile(b.latencies, 0.99)), b.cpuPercent,
                     b.residentMiB))
    }
}
if options.only == nil || options.only == "load" {
    if options.only == nil { print("") }
    print("Load: \(options.loadClients) clients for \(options.loadSeconds) s, closed loop, 1 call in 5 SetArrangement, the others Properties.Get(Serial); traitd saves its state file")
    print("server         calls/s   p50 µs   p99 µs  CPU s  CPU µs/call")
    for kind in [ServerKind.traitd, .bare] {
        let run = try await LoadRun.measure(kind, options: options)
        print(kind.rawValue.padding(toLength: 12, withPad: " ", startingAt: 0) + String(format: " %9.0f  %@  %@ %6.1f %12.1f", run.callsPerSecond,
                     us(percentile(run.latencies, 0.5)), us(percentile(run.latencies, 0.99)), run.cpuSeconds, run.cpuMicrosPerCall))
    }
}
if options.only == nil || options.only == "bridges" {
    if options.only == nil { print("") }
    print("Bridges: SetArrangement -> TransitionCompleted of notes (507 <-> 694 pt, across the page's 678-px query), \(options.bridgeTransitions) transitions each")
    print("adapter on notes              p50 ms   p99 ms  p50 frames  p99 frames  missed  host MiB  children PSS MiB")
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bridge-benchmark-\(getpid())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    try BridgeRun.layout.write(to: folder.appendingPathComponent("page.layout"), atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(at: folder) }
    let frame = 1000.0 / 60
    for (name, arguments) in [("layout file (Swift, in host)", ["--layouts", folder.path]),
                              ("web page (Chromium)", ["--web", "notes=file://\(BridgeRun.page.path)"]),
                              ("desktop app (GNOME Calculator)", ["--app", "notes=gnome-calculator"])] {
        let run = try await BridgeRun.measure(name, hostArguments: arguments, options: options)
        print(name.padding(toLength: 30, withPad: " ", startingAt: 0) + String(format: "%7.2f  %7.2f  %10.2f  %10.2f  %6d  %8.1f  %16.1f",
              run.p50 / 1000, run.p99 / 1000, run.p50 / 1000 / frame, run.p99 / 1000 / frame, run.missed, run.hostMiB, run.browserMiB))
    }
    print("one frame at 60 Hz           " + String(format: "%7.2f", frame))
}
if options.only == nil || options.only == "memory" {
    if options.only == nil { print("") }
    print("Memory: traitd idle, then traitd and traitd-adapters (its built-in adapters reporting) across \(options.memoryTransitions) transitions")
    print("transitions  transitions/s  traitd RSS MiB  peak MiB  host RSS MiB  peak MiB")
    var last: (Int, Double) = (0, 0)
    let run = try await MemoryRun.measure(transitions: options.memoryTransitions, options: options) { sample in
        let rate = sample.transitions == 0 ? 0 : Double(sample.transitions - last.0) / max(1e-9, sample.seconds - last.1)
        last = (sample.transitions, sample.seconds)
        print(String(format: "%11d  %13.0f  %14.1f  %8.1f  %12.1f  %8.1f", sample.transitions, rate, sample.traitd.residentMiB,
                     sample.traitd.peakMiB, sample.host.residentMiB, sample.host.peakMiB))
        fflush(nil)  // every output stream; Glibc's `stdout` is a global var Swift 6 will not read
    }
    let first = run.samples.first!, end = run.samples.last!
    let grew = (traitd: end.traitd.residentMiB - first.traitd.residentMiB, host: end.host.residentMiB - first.host.residentMiB)
    print(String(format: "traitd: %.1f MiB idle, %.1f MiB with the host's adapters, %+.1f MiB over %d transitions", run.idleTraitd.residentMiB,
                 first.traitd.residentMiB, grew.traitd, end.transitions))
    print(String(format: "traitd-adapters: %.1f MiB at the start, %+.1f MiB over the same transitions", first.host.residentMiB, grew.host))
    print(max(grew.traitd, grew.host) <= 2 ? "flat: both within 2 MiB" : "NOT FLAT: more than 2 MiB of growth")
}
