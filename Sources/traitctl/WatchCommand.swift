import ArgumentParser
import Foundation
import DBus
import TraitClient

/// `traitctl watch [--json] [--count N]`: the daemon's signals as they arrive.
struct Watch: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print each signal of the daemon as it arrives, one line each, until interrupted.",
        discussion: """
            With --json, each line is one JSON object: timestamp (seconds since the epoch), type, sender, path, \
            interface, member, app (null for the display), transition (for the transition signals), signature \
            and arguments (dictionaries as objects, structures and arrays as arrays). \
            Example: traitctl watch --json | jq -c 'select(.member == "TransitionCompleted")'. \
            --since N first prints what the daemon's journal holds after Serial N (GetEvents; their time column \
            says "journal", --json's timestamp is null), then follows live, with no gap and no repeat.
            """)
    @OptionGroup var options: BusOptions
    @Option(help: "Stop after this many signals.") var count: Int?
    @Flag(help: "One JSON object a line, for scripts.") var json = false
    @Option(help: "First the signals sent after the state reached this Serial (from the daemon's journal), then live.")
    var since: UInt64?

    func run() async throws {
        try await reportingFailures {
            try await options.withClient { client in
                // The signals as they came: --json shows the wire; the text line is the decoded event's.
                let past: [Connection.Signal], signals: AsyncStream<Connection.Signal>
                if let since {
                    (past, signals) = try await client.signals(since: since)
                } else {
                    (past, signals) = ([], try await client.signals())
                }
                FileHandle.standardError.write(Data("watching \(TraitClient.busName) on the \(client.bus) bus\n".utf8))
                var seen = 0
                for signal in past {
                    print(json ? try Self.jsonObject(signal, live: false) : "journal      \(TraitEvent(signal))")
                    seen += 1
                    if let count, seen >= count { return }
                }
                fflush(nil)
                for await signal in signals {
                    print(json ? try Self.jsonObject(signal) : "\(Self.timestamp()) \(TraitEvent(signal))")
                    fflush(nil)  // one line at a time, also into a pipe
                    seen += 1
                    if let count, seen >= count { break }
                }
            }
        }
    }

    /// One line of JSON for `event`, keys sorted; `live: false` for one from the journal, whose time is not known.
    static func jsonObject(_ signal: Connection.Signal, live: Bool = true) throws -> String {
        let event = TraitEvent(signal)
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        let object: [String: Any] = [
            "timestamp": live ? Double(now.tv_sec) + Double(now.tv_nsec / 1000) / 1e6 : NSNull(),
            "type": "signal",
            "sender": signal.sender ?? NSNull(),
            "path": signal.path,
            "interface": signal.interface,
            "member": signal.member,
            "app": Layout1.app(path: signal.path) ?? NSNull(),
            "transition": event.transition ?? NSNull(),
            "signature": signal.arguments.signature,
            "arguments": signal.arguments.map(Get.json),
        ]
        return try jsonLine(object)
    }

    static func timestamp() -> String {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        var tm = tm()
        var seconds = now.tv_sec
        localtime_r(&seconds, &tm)
        return String(format: "%02d:%02d:%02d.%03d", tm.tm_hour, tm.tm_min, tm.tm_sec, Int(now.tv_nsec / 1_000_000))
    }
}
