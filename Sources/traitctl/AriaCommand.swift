import ArgumentParser
import Foundation
import TraitClient
import Vocabulary

/// `traitctl aria APP`: the app's window's accessibility snapshot as of its adapters' last report.
struct Aria: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print an app's window's accessibility snapshot (roles, names, states, nesting) as of its last report.",
        discussion: """
            The snapshot is written as Playwright writes aria snapshots (- ROLE "NAME" [STATE], children indented \
            under a colon), one format for web pages (Chromium's accessibility tree) and desktop apps (AT-SPI). The \
            bridges send it with each report when traitd-adapters runs with --aria-snapshots. --check FILE compares \
            it with a golden snapshot, strictly (the same nodes in the same order), names as written or as \
            /PATTERN/, a regular expression found in the name: exit 1 naming the first line that differs.
            """)
    @OptionGroup var options: BusOptions
    @Argument(help: "The app whose window's snapshot to print.") var app: String
    @Option(help: ArgumentHelp("The adapter whose snapshot to print, where more than one sent one.", valueName: "adapter"))
    var adapter: String?
    @Option(help: ArgumentHelp("Compare with this golden snapshot instead of printing it.", valueName: "file")) var check: String?

    func run() async throws {
        try await reportingFailures {
            let window = try await options.withClient { client in try await client.state().window(app) }
            guard let window else { throw Failure(message: "\(app) has no window (traitctl status lists the apps on screen)") }
            let snapshots = window.ariaSnapshots.filter { adapter == nil || $0.key == adapter }
            guard let (name, snapshot) = snapshots.sorted(by: { $0.key < $1.key }).first else {
                throw Failure(message: "\(app)'s " + (adapter.map { "adapter \($0) sent" } ?? "adapters sent")
                    + " no accessibility snapshot with their last report (the bridges send one with traitd-adapters --aria-snapshots)")
            }
            if snapshots.count > 1 {
                throw Failure(message: "\(app) has snapshots from \(snapshots.keys.sorted().joined(separator: ", ")): name one with --adapter")
            }
            guard let check else { return print(snapshot, terminator: "") }
            guard let data = FileManager.default.contents(atPath: check) else { throw Failure(message: "cannot read the golden snapshot \(check)") }
            if let difference = AriaSnapshot.mismatch(template: String(decoding: data, as: UTF8.self), snapshot: snapshot) {
                print("\(app) \(name): the snapshot differs from \(check): \(difference)")
                throw ExitCode(1)
            }
            print("\(app) \(name): matches \(check)")
        }
    }
}
