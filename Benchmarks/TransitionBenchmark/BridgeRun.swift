import DBus
import Foundation
import TestSupport
import TraitClient

/// A command's time to `TransitionCompleted` through the adapter host, for one window laid out three ways: by a
/// layout file (the host's own Swift solver), by a web page in headless Chromium (`--web`) and by GNOME
/// Calculator, unmodified, on the host's own display (`--app`), each alone on the window; beside one frame at
/// 60 Hz, the physical anchor. SetArrangement alternates split-half and
/// split-one-third, so notes goes 507 <-> 694 pt, across the page's 678-px media query: every transition
/// relayouts the page. Memory: the host's, and its children's (the browser's processes; the X server,
/// accessibility bus and app) together.
struct BridgeRun {
    let name: String
    var samples: [Double] = []
    var missed = 0
    var hostMiB = 0.0
    var browserMiB = 0.0

    var p50: Double { percentile(samples, 0.5) }
    var p99: Double { percentile(samples, 0.99) }

    /// The page of the web bridge's tests.
    static let page = Binaries.repository.appendingPathComponent("Tests/IntegrationTests/Fixtures/web/adaptive.html")
    /// The same page as a layout file: a header, a sidebar from 678 pt, the content beside it.
    static let layout = """
        app notes
        view header sidebar content
        kind container header content
        kind content sidebar
        H:|[header]|
        V:|[header(64)]
        sidebar.left == super.left
        sidebar.top == 100
        sidebar.width == 300
        sidebar.height == 400
        content.top == header.bottom
        content.height == 56
        content.right == super.right
        [max-width: 677]
        hide sidebar
        content.left == super.left
        [min-width: 678]
        content.left == sidebar.right

        """

    static func measure(_ name: String, hostArguments: [String], options: Options) async throws -> BridgeRun {
        let server = try await Server(.traitd, options: options)
        defer { server.stop() }
        let host = try ChildProcess(options.host, ["--bus", server.bus.address, "--log-level", "warning", "--only-layouts"] + hostArguments,
                                    environment: server.bus.environment)
        defer { host.kill(SIGTERM) }
        let client = try TraitClient(bus: .address(server.bus.address))
        defer { client.close() }
        // The adapter's first report (the window as it is) is in: the bridge is up.
        Waiting.set("the \(name) adapter's first report")
        let deadline = Date().addingTimeInterval(60)
        while (try? await client.state().window("notes")?.layouts.isEmpty) != false {
            guard Date() < deadline, host.isRunning else { fail("the adapter host did not report: \(host.standardError)") }
            try await Task.sleep(for: .milliseconds(10))
        }
        let completions = Completions(app: "notes")
        let events = try await client.events()
        let listener = Task { for await event in events { completions.record(event) } }
        defer { listener.cancel() }
        var run = BridgeRun(name: name)
        for i in 0..<(options.bridgeTransitions + 10) {
            let before = completions.last
            Waiting.set("\(name): TransitionCompleted of notes after #\(before), SetArrangement \(i + 1)")
            let start = DispatchTime.now().uptimeNanoseconds
            try await client.setArrangement(i % 2 == 0 ? .splitOneThird : .splitHalf)
            let late = await completions.wait(after: before)
            let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1000
            guard i >= 10 else { continue }  // the first 10 warm up
            run.samples.append(elapsed)
            if !late.isEmpty { run.missed += 1 }
        }
        run.samples.sort()
        run.hostMiB = ProcessMemory.read(pid: host.pid).residentMiB
        run.browserMiB = descendants(of: host.pid).map(proportionalMiB).reduce(0, +)
        return run
    }

    /// A process's proportional set size (`Pss` in /proc/PID/smaps_rollup): its resident memory with each page
    /// shared by N processes counted 1/N, so that the browser's processes add up to what they use together
    /// (their RSS would count the shared libraries and shared memory once per process).
    static func proportionalMiB(_ pid: Int32) -> Double {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/smaps_rollup", encoding: .utf8) else { return 0 }
        for line in text.split(separator: "\n") where line.hasPrefix("Pss:") {
            return (Double(line.split(separator: " ").dropFirst().first ?? "0") ?? 0) / 1024
        }
        return 0
    }

    /// Every process under `pid` (its children, theirs...), from /proc/*/stat.
    static func descendants(of pid: Int32) -> [Int32] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        var parents: [Int32: Int32] = [:]
        for entry in entries {
            guard let child = Int32(entry), let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { continue }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            if fields.count > 1, let parent = Int32(fields[1]) { parents[child] = parent }  // ppid is field 4
        }
        var found: [Int32] = []
        var frontier = [pid]
        while let next = frontier.popLast() {
            let children = parents.filter { $0.value == next }.map(\.key)
            found += children
            frontier += children
        }
        return found
    }
}
