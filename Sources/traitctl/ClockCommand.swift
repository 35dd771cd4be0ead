import ArgumentParser
import TraitClient

/// `traitctl clock advance MS`: moves the virtual clock of a `traitd --clock virtual`.
struct ClockCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "clock", abstract: "The virtual clock of traitd --clock virtual.",
        subcommands: [Advance.self])

    struct Advance: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Move the virtual clock forward; every adapter deadline due by then passes, in time order.",
            discussion: "Prints the clock's time in milliseconds since traitd started. Example: traitctl clock advance 500.")
        @OptionGroup var options: BusOptions
        @Argument(help: "Milliseconds to move the clock by.") var milliseconds: UInt64

        func run() async throws {
            try await reportingFailures {
                let now = try await options.withClient { client in try await client.advanceClock(by: milliseconds) }
                print(now)
            }
        }
    }
}
