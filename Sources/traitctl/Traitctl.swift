import ArgumentParser
import DBus
import Foundation
import TraitClient

/// `traitctl`: the command-line client of traitd.
@main
struct Traitctl: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "traitctl",
        abstract: "Read, change and watch the simulated display that traitd publishes.",
        version: "0.1.0",
        subcommands: [
            Status.self, Set.self, Open.self, Close.self, Devices.self, Watch.self, Drag.self, Restore.self, Adapters.self, Render.self,
            LayoutCommand.self, Get.self, Run.self,
        ])
}

/// Options every subcommand shares.
struct BusOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("session, system, or a D-Bus address.", valueName: "bus"))
    var bus: String = "session"

    /// Connects, runs `body`, and turns any failure into one line on stderr and exit status 1.
    func withClient<T>(_ body: (TraitClient) async throws -> T) async throws -> T {
        let client: TraitClient
        do {
            client = try TraitClient(bus: Connection.Bus(argument: bus))
        } catch {
            throw Failure(error)
        }
        defer { client.close() }
        do {
            return try await body(client)
        } catch {
            throw Failure(error)
        }
    }
}

/// An error from the daemon or the bus, printed as one line; the exit status is 1.
struct Failure: Error, CustomStringConvertible {
    let description: String
    init(_ error: any Error) {
        if let error = error as? DBusError {
            description = "\(error.name): \(error.message)"
        } else {
            description = "\(error)"
        }
    }
}

extension AsyncParsableCommand {
    /// Prints failures as `traitctl: ...` and exits 1, instead of ArgumentParser's usage text.
    func reportingFailures(_ body: () async throws -> Void) async throws {
        do {
            try await body()
        } catch let failure as Failure {
            FileHandle.standardError.write(Data("traitctl: \(failure.description)\n".utf8))
            throw ExitCode(1)
        }
    }
}

struct Status: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show the device, orientation, arrangement and every window's frame, size classes and state.")
    @OptionGroup var options: BusOptions
    @Flag(help: "Print the state as JSON.") var json = false

    func run() async throws {
        try await reportingFailures {
            let state = try await options.withClient { try await $0.state() }
            if json {
                print(try jsonText(state))
            } else {
                print(StatusTable(state).text, terminator: "")
            }
        }
    }
}

struct Set: AsyncParsableCommand {
    enum Property: String, ExpressibleByArgument, CaseIterable {
        case device, orientation, arrangement
    }

    static let configuration = CommandConfiguration(
        abstract: "Change the device, the orientation or the arrangement.",
        discussion: """
            Examples: traitctl set device ipad-pro-12.9; traitctl set orientation portrait; \
            traitctl set arrangement split-half
            """)
    @OptionGroup var options: BusOptions
    @Argument(help: "device, orientation or arrangement.") var property: Property
    @Argument(help: "The new value.") var value: String

    func run() async throws {
        try await reportingFailures {
            try await options.withClient { client in
                switch property {
                case .device: try await client.setDevice(value)
                case .orientation: try await client.rotate(to: value)
                case .arrangement: try await client.setArrangement(value)
                }
            }
        }
    }
}

struct Open: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Open an app in a role; prints its window's object path.")
    @OptionGroup var options: BusOptions
    @Argument(help: "The app name: 1-64 of A-Z a-z 0-9 _ -.") var app: String
    @Option(help: "primary, secondary, slide-over or pip.") var role: String = "secondary"

    func run() async throws {
        try await reportingFailures {
            print(try await options.withClient { try await $0.openApp(app, role: role) })
        }
    }
}

struct Close: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Close an app.")
    @OptionGroup var options: BusOptions
    @Argument(help: "The app name.") var app: String

    func run() async throws {
        try await reportingFailures { try await options.withClient { try await $0.closeApp(app) } }
    }
}

struct Devices: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "List the device profiles the daemon knows.")
    @OptionGroup var options: BusOptions

    func run() async throws {
        try await reportingFailures {
            for id in try await options.withClient({ try await $0.listDevices() }) { print(id) }
        }
    }
}

struct Watch: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print each signal of the daemon as it arrives, one line each, until interrupted.")
    @OptionGroup var options: BusOptions
    @Option(help: "Stop after this many signals.") var count: Int?

    func run() async throws {
        setvbuf(stdout, nil, _IOLBF, 0)  // one line at a time, also into a pipe
        try await reportingFailures {
            try await options.withClient { client in
                let events = try await client.events()
                FileHandle.standardError.write(Data("watching \(TraitClient.busName) on the \(client.bus) bus\n".utf8))
                var seen = 0
                for await event in events {
                    print("\(Self.timestamp()) \(event)")
                    seen += 1
                    if let count, seen >= count { break }
                }
            }
        }
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

/// traitctl's JSON: indented, keys sorted, and `/` left as it is (object paths and file names stay readable and
/// greppable; JSONEncoder would write `\/`).
func jsonText<T: Encodable>(_ value: T) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    return String(decoding: try encoder.encode(value), as: UTF8.self)
}

/// The same for Foundation's JSON objects (dictionaries, arrays, numbers, strings), on one line.
func jsonLine(_ object: Any) throws -> String {
    let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes, .fragmentsAllowed])
    return String(decoding: data, as: UTF8.self)
}
