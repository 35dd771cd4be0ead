import ArgumentParser
import Foundation

/// `traitctl adapters`: who is registered as which adapter for which app.
struct Adapters: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List the adapter registrations: app, adapter, and the bus connection that holds each.")
    @OptionGroup var options: BusOptions
    @Flag(help: "Print the registrations as JSON.") var json = false

    func run() async throws {
        try await reportingFailures {
            let registrations = try await options.withClient { try await $0.listAdapters() }
            if json {
                print(try jsonText(registrations))
                return
            }
            guard !registrations.isEmpty else {
                print("no adapters are registered")
                return
            }
            let rows = [["APP", "ADAPTER", "OWNER"]] + registrations.map { [$0.app, $0.adapter, $0.owner] }
            let widths = (0..<3).map { column in rows.map { $0[column].count }.max()! }
            for row in rows {
                print(zip(row, widths).map { $0.0.padding(toLength: $0.1, withPad: " ", startingAt: 0) }
                    .joined(separator: "  ").trimmingCharacters(in: .whitespaces))
            }
        }
    }
}
