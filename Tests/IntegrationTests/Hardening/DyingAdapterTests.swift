import DBus
import Foundation
import TestSupport
import TraitClient
import Testing

/// 200 adapter connections, each in a process of its own (`test-adapter`), a random third of them killed
/// with SIGKILL while a transition waits for them: the transition completes exactly once, by its deadline,
/// the dead as `missed` and everyone else as `reported`, and no registration of the dead is left behind.
@Suite struct DyingAdapterTests {
    @Test func twoHundredAdaptersARandomThirdKilledMidTransition() async throws {
        let count = 200
        var rng = SeededRandom(seed: 2026)
        // The virtual clock, never moved: the deadline cannot pass, so the transition can only complete because
        // the dead adapters' connections left (and however loaded the machine, no survivor can miss it).
        let fixture = try await DaemonFixture(arguments: ["--clock", "virtual"], config: "transitions:\n  deadline-ms: 4000\n")
        let recorder = try await Recorder(fixture)
        let names = (0..<count).map { "a\($0)" }
        let doomed = Set((0..<count).filter { _ in rng.chance(1.0 / 3) })
        // Survivors wait 1-2.5 s before they report. The doomed never report (they wait ten minutes), so a kill
        // always finds them waiting, however late it comes: with a short wait, a CI run whose SetArrangement reply
        // came more than a second after the signals (the reply follows the state's fsync) saw 14 of them report.
        var adapters: [ChildProcess] = []
        defer { adapters.forEach { $0.kill(SIGKILL) } }
        for (index, name) in names.enumerated() {
            let delay = doomed.contains(index) ? 600_000 : rng.int(1000...2500)
            adapters.append(try ChildProcess(Binaries.path("test-adapter"),
                                             [fixture.bus.address, "mail", name, String(delay)]))
        }
        try await recorder.until("\(count) registrations", timeout: 60) {
            (try? await recorder.client.listAdapters().count) == count
        }
        try await recorder.client.setArrangement(.splitHalf)
        for index in doomed { adapters[index].kill(SIGKILL) }
        // The recorder's connection hears the transition begin in its own time: wait for it, do not look.
        try await recorder.wait("the split's transition of mail") { !Recorder.transitionIDs(of: "mail", in: $0).isEmpty }
        let id = try #require(recorder.transitionIDs(of: "mail").last)
        let completion = try await recorder.completion(of: id)
        let dead = Set(doomed.map { names[$0] })
        #expect(Set(completion.missed) == dead, "missed \(completion.missed.count), killed \(dead.count)")
        #expect(Set(completion.reported) == Set(names).subtracting(dead))
        #expect(completion.failed.isEmpty)
        // Exactly once, even as the dead connections' departures arrive after it: counted once they all have.
        try await recorder.until("the dead registrations to go") {
            (try? await recorder.client.listAdapters().map(\.adapter)).map(Set.init) == Set(names).subtracting(dead)
        }
        #expect(recorder.completions.filter { $0.id == id }.count == 1)
        // The survivors follow the next transition as before.
        let next = try await recorder.transition(of: "mail", "SetArrangement(split-two-thirds)") {
            try await recorder.client.setArrangement(.splitTwoThirds)
        }
        #expect(Set(next.reported) == Set(names).subtracting(dead) && next.missed.isEmpty)
        print("dying adapters: \(count) adapters, \(dead.count) killed mid-transition, the deadline never passing; "
              + "\(completion.reported.count) reported, \(completion.missed.count) missed")
    }
}
