import ArgumentParser
import TraitModel
import Vocabulary

/// `traitctl drag begin|move X|end`: the Split View divider, one step a call (as a finger would).
struct Drag: AsyncParsableCommand {
    enum Step: String, ExpressibleByArgument, CaseIterable {
        case begin, move, end
    }

    static let configuration = CommandConfiguration(
        abstract: "Drag the Split View divider: begin, move X (its left edge, in points), end.",
        discussion: """
            Both apps resign active at begin; each move past a snap point resizes them as a snapshot; end snaps \
            to the nearest split, or dismisses the app on a side when the divider is near that edge. \
            Example: traitctl drag begin; traitctl drag move 507; traitctl drag end
            """)
    @OptionGroup var options: BusOptions
    @Argument(help: "begin, move or end.") var step: Step
    @Argument(help: "For move: the divider's new left edge, in points from the left of the screen.") var x: Double?
    @OptionGroup var wait: WaitOptions

    func validate() throws {
        if step == .move, x == nil { throw ValidationError("'drag move' needs the divider's position, such as 'drag move 507'") }
        if step != .move, x != nil { throw ValidationError("only 'drag move' takes a position") }
    }

    func run() async throws {
        try await reportingFailures {
            try await options.withClient { client in
                try await wait.around(client) {
                    switch step {
                    case .begin: try await client.beginDividerDrag()
                    case .move: try await client.moveDivider(to: x!)
                    case .end: try await client.endDividerDrag()
                    }
                }
                let state = try await client.state()
                print("divider \(state.dividerPosition.compact) \(state.dragging ? "dragging" : "released"), "
                      + "arrangement \(state.arrangement), "
                      + state.windows.map { "\($0.app) \($0.frame.width.compact)pt \($0.state.rawValue)" }
                      .joined(separator: ", "))
            }
        }
    }
}
