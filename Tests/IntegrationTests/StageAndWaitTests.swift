import DBus
import Foundation
import TestSupport
import TraitClient
import Testing

/// What a command that runs in stages publishes, and which transitions `traitctl … --wait` waits for: a divider
/// move across two snap points, and two clients' commands at the same moment.
@Suite struct StageAndWaitTests {
    /// One stage as the recorder saw it: the display's `PropertiesChanged` (its `Serial` and divider) and the
    /// transitions that began since the stage before it.
    struct Stage: Equatable {
        let serial: UInt64
        let divider: Double?
        let changed: [String]
        let transitions: [UInt64]
    }

    /// The stages after `serial`, in the order they were published.
    static func stages(after serial: UInt64, in events: [TraitEvent]) -> [Stage] {
        var stages: [Stage] = []
        var announced: [UInt64] = []
        // A transition's "did" half comes after its stage's PropertiesChanged: only its first signal places it.
        var begun: Swift.Set<UInt64> = []
        for event in events {
            if case .displayChanged(let changes) = event, let now = changes[Layout1.Display.serial] {
                if now > serial {
                    stages.append(Stage(serial: now, divider: changes[Layout1.Display.dividerPosition],
                                        changed: changes.names, transitions: announced))
                }
                announced = []
            } else if let id = event.transition, event.member != "TransitionCompleted", begun.insert(id).inserted {
                announced.append(id)
            }
        }
        return stages
    }

    /// The transition ids of the `TransitionCompleted` lines `--wait` printed (`mail TransitionCompleted #3 …`).
    static func waitedFor(_ output: String) -> [UInt64] {
        output.split(separator: "\n").compactMap { line in
            guard line.contains("TransitionCompleted #") else { return nil }
            return UInt64(line.split(separator: "#")[1].prefix { $0.isNumber })
        }
    }

    @Test func eachStageOfADividerMovePublishesItsOwnSerialAndPositionAndWaitCoversThemAll() async throws {
        let fixture = try await DaemonFixture()
        let recorder = try await Recorder(fixture)
        #expect(try await fixture.traitctl(["drag", "begin"]).status == 0)
        let before = try await recorder.client.state().serial
        // 694 -> 300 crosses the 1/2 snap point (507) and ends past the 1/3 one: two stages.
        let move = try await fixture.traitctl(["drag", "move", "300", "--wait"])
        #expect(move.status == 0, "\(move)")
        let seen = try await recorder.wait("both stages") { Self.stages(after: before, in: $0).count == 2 }
        let stages = Self.stages(after: before, in: seen)
        #expect(stages.map(\.serial) == [before + 1, before + 2], "one Serial per stage: \(stages)")
        #expect(stages.map(\.divider) == [507, 300], "each stage's own divider: \(stages)")
        #expect(stages.allSatisfy { $0.transitions.count == 2 }, "mail and notes in each stage: \(stages)")
        // The final state comes last, and is what the properties hold now.
        let state = try await recorder.client.state()
        #expect(state.serial == before + 2 && state.dividerPosition == 300)
        // --wait returned after every transition of both stages, and only those.
        #expect(Self.waitedFor(move.stdout) == stages.flatMap(\.transitions), "\(move.stdout)")
        // The reply says the same to any client (here busctl, another D-Bus implementation).
        let again = try await fixture.busctl(["call", "org.traitd.Layout1", "/org/traitd/Layout1", "org.traitd.Layout1.Display",
                                              "MoveDivider", "d", "600"])
        let after = try await recorder.wait("the move back") { Self.stages(after: before + 2, in: $0).count == 1 }
        let back = try #require(Self.stages(after: before + 2, in: after).first)
        #expect(again.stdout == "at \(back.transitions.count) \(back.transitions.map(String.init).joined(separator: " "))\n", "\(again)")
    }

    @Test func twoClientsWaitingAtOnceEachWaitForTheirOwnTransitionsOnly() async throws {
        // An adapter that takes its time keeps transitions open while the other client's command arrives.
        let fixture = try await DaemonFixture(config: AdapterProtocolTests.longDeadline)
        let recorder = try await Recorder(fixture)
        let slow = try await ScriptedAdapter(fixture, app: "mail", name: "slow", behaviour: .delayed(seconds: 0.5))
        defer { slow.close() }
        let before = try await recorder.client.state().serial
        // Either order is valid: the 12.9-inch offers split-half in landscape, and the 9.7-inch does.
        async let device = fixture.traitctl(["set", "device", "ipad-pro-12.9", "--wait"])
        async let split = fixture.traitctl(["set", "arrangement", "split-half", "--wait"])
        let (changed, splitted) = try await (device, split)
        #expect(changed.status == 0 && splitted.status == 0, "\(changed) \(splitted)")
        let seen = try await recorder.wait("both commands' stages") { Self.stages(after: before, in: $0).count == 2 }
        let stages = Self.stages(after: before, in: seen)
        let deviceStage = try #require(stages.first { $0.changed.contains("Device") }, "\(stages)")
        let splitStage = try #require(stages.first { !$0.changed.contains("Device") }, "\(stages)")
        #expect(!deviceStage.transitions.isEmpty && !splitStage.transitions.isEmpty, "\(stages)")
        #expect(Self.waitedFor(changed.stdout) == deviceStage.transitions, "set device waited for: \(changed.stdout)")
        #expect(Self.waitedFor(splitted.stdout) == splitStage.transitions, "set arrangement waited for: \(splitted.stdout)")
    }
}
