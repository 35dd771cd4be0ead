import ArgumentParser
import DBus
import Foundation
import TraitClient

/// `traitctl explain APP`: why a window is what it is (the window's `Explain`), a paragraph per topic.
struct Explain: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Say why an app's window is what it is: its frame, size classes, safe area, traits, last transition, reports and layout problems.",
        discussion: """
            Each line names what it explains and why, from the tables and rules that made it: the device table's \
            width for a Split View side and the class the table gives it, the free-form threshold, the screen edges \
            that give the safe area its insets; then what the last transition changed and who reported, each \
            adapter's report and the layout problems. --json prints [{"topic":..., "text":...}].
            """)
    @OptionGroup var options: BusOptions
    @Argument(help: "The app whose window to explain.") var app: String
    @Flag(help: "One JSON array of {topic, text}.") var json = false

    func run() async throws {
        try await reportingFailures {
            let lines = try await options.withClient { client in
                do {
                    return try await client.explain(app)
                } catch let error as DBusError where error.name == DBusError.unknownObjectName {
                    throw DBusError(error.name, "\(app) has no window (traitctl status lists the apps on screen)")
                }
            }
            if json {
                print(try jsonLine(lines.map { ["topic": $0.topic, "text": $0.text] }))
            } else {
                for line in lines { print("\(line.topic): \(line.text)") }
            }
        }
    }
}
