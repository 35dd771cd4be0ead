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
            Status.self, SetCommand.self, Open.self, Close.self, Devices.self, Watch.self, Drag.self, Restore.self, Adapters.self, Render.self,
            Frame.self, Resize.self, Tile.self, Raise.self, DisplayCommand.self, ScenarioCommand.self, LayoutCommand.self, Get.self, Run.self,
            ClockCommand.self, Explore.self, Explain.self, Wait.self, Coverage.self, Doctor.self, Aria.self,
            Accept.self, ReportCommand.self,
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
            // libdbus's own words ("Unable to autolaunch a dbus-daemon without a $DISPLAY for X11") say nothing of
            // what to do here.
            if bus == "session", ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"] == nil {
                throw Failure(message: "no session bus (DBUS_SESSION_BUS_ADDRESS is not set): after make run, "
                    + "source .build/session-bus.env; or run on a bus of its own: traitctl run -- traitctl ...")
            }
            throw Failure(error)
        }
        defer { client.close() }
        do {
            return try await body(client)
        } catch let exit as ExitCode {
            throw exit
        } catch {
            throw Failure(error)
        }
    }
}

/// An error from the daemon or the bus, printed as one line; the exit status is 1.
struct Failure: Error, CustomStringConvertible {
    let description: String
    init(_ error: any Error) {
        if let failure = error as? Failure {
            description = failure.description
        } else if let error = error as? DBusError {
            description = "\(error.name): \(Self.namingTraitctlCommands(error.message))"
        } else {
            description = "\(error)"
        }
    }

    init(message: String) { description = message }

    /// The daemon's messages tell a D-Bus client which method to call; a traitctl user is told the command.
    static func namingTraitctlCommands(_ message: String) -> String {
        var text = message
        for (method, command) in methodCommands { text = text.replacingOccurrences(of: method, with: command) }
        return text
    }

    /// Every method a daemon message tells the caller to call (Simulation's refusals).
    private static let methodCommands = [
        ("OpenApp(name, 'secondary')", "'traitctl open NAME --role secondary'"),
        ("BeginDividerDrag", "'traitctl drag begin'"),
        ("EndDividerDrag", "'traitctl drag end'"),
    ]
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
                print(try jsonText(StatusJSON(state)))
            } else {
                print(StatusTable(state).text, terminator: "")
            }
        }
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
