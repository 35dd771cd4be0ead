import DBus
import Foundation
import TestSupport
import TraitClient
import Testing

/// `SetRestorationState`'s reply promises that the state is on disk: traitd killed with SIGKILL the moment
/// the reply arrives still has it after a restart.
@Suite struct DurabilityTests {
    @Test func everyAcknowledgedWriteSurvivesAKillRightAfterItsReply() async throws {
        let fixture = try await DaemonFixture()
        let client = try TraitClient(bus: .address(fixture.bus.address))
        defer { client.close() }
        let rounds = 30
        var lost: [Int] = []
        for round in 1...rounds {
            let state: [String: DBusValue] = [
                "round": .int32(Int32(round)), "note": .string(String(repeating: "n", count: round * 100)),
            ]
            try await client.setRestorationState(state, for: round.isMultiple(of: 2) ? "mail" : "notes")
            fixture.daemon.kill(SIGKILL)  // no time for a write still in flight
            try await fixture.restart(after: SIGKILL)
            let app = round.isMultiple(of: 2) ? "mail" : "notes"
            if try await client.restorationState(of: app) != state { lost.append(round) }
        }
        #expect(lost.isEmpty, "acknowledged writes lost after kill -9: rounds \(lost) of \(rounds)")
    }

    @Test func writesArrivingTogetherShareAWriteAndAllSurvive() async throws {
        let fixture = try await DaemonFixture()
        let clients = try (0..<16).map { _ in try TraitClient(bus: .address(fixture.bus.address)) }
        defer { clients.forEach { $0.close() } }
        // 16 clients at once, each writing mail's or notes' state; every reply means "on disk".
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (n, client) in clients.enumerated() {
                group.addTask {
                    try await client.setRestorationState(["writer": .int32(Int32(n))], for: n.isMultiple(of: 2) ? "mail" : "notes")
                }
            }
            try await group.waitForAll()
        }
        let mail = try await clients[0].restorationState(of: "mail")
        let notes = try await clients[0].restorationState(of: "notes")
        let log = fixture.daemon.standardError
        fixture.daemon.kill(SIGKILL)
        try await fixture.restart(after: SIGKILL)
        #expect(try await clients[0].restorationState(of: "mail") == mail)
        #expect(try await clients[0].restorationState(of: "notes") == notes)
        // Every acknowledgement waited for a write; writes waiting together share one (on a slow disk, few
        // writes carry many acknowledgements).
        let waited = log.split(separator: "\n").compactMap { line -> Int? in
            guard let range = line.range(of: " acknowledgement(s) waited") else { return nil }
            return Int(line[..<range.lowerBound].split(separator: " ").last ?? "")
        }
        #expect(waited.reduce(0, +) == 16, "\(waited)")
        #expect(waited.count <= 17, "\(waited)")
    }
}
