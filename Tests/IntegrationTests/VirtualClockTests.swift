import DBus
import Foundation
import TestSupport
import TraitClient
import Testing

/// `traitd --clock virtual`: adapter deadlines run on a clock that moves only with `AdvanceClock`, so a missed
/// deadline is seen at exactly its instant without waiting for it, and the real clock is refused by name.
@Suite struct VirtualClockTests {
    /// A silent adapter (registered, never reporting) and a deadline of 60 s: one millisecond before it nothing
    /// completes, at its instant the transition completes with the adapter missed; no wall-clock wait.
    @Test func aSilentAdaptersDeadlinePassesAtExactlyItsVirtualInstant() async throws {
        let start = ContinuousClock.now
        let fixture = try await DaemonFixture(arguments: ["--clock", "virtual"], config: "transitions: { deadline-ms: 60000 }\n")
        let client = try TraitClient(bus: .address(fixture.bus.address))
        defer { client.close() }
        try await client.registerAdapter("silent", for: "mail")
        // The log holds every signal the daemon sent before a reply on this connection once that call returns.
        let log = try await client.eventLog()
        defer { log.close() }
        let began = try await client.setArrangement(.splitHalf)
        let mail = try #require(began.first)
        func completions() -> [UInt64] {
            log.take().compactMap { if case .transitionCompleted("mail", let id, _) = $0 { id } else { nil } }
        }
        #expect(try await client.advanceClock(by: 59_999) == 59_999)
        #expect(!completions().contains(mail), "not before its instant")
        #expect(try await client.advanceClock(by: 1) == 60_000)
        let after = log.take()
        let outcome = after.compactMap { event -> (UInt64, [String])? in
            if case .transitionCompleted("mail", let id, let outcome) = event { (id, outcome.missed) } else { nil }
        }
        #expect(outcome.count == 1 && outcome.first?.0 == mail && outcome.first?.1 == ["silent"], "\(after)")
        // A later advance fires nothing more, and the clock keeps its time.
        #expect(try await client.advanceClock(by: 10_000) == 70_000)
        #expect(completions().isEmpty)
        // An advance past the clock's range is refused by name, the clock unmoved, and a transition with an
        // adapter still schedules its deadline (2^64-1 ms once overflowed the clock, and traitd died at the next).
        do {
            _ = try await client.advanceClock(by: UInt64.max)
            Issue.record("an advance of 2^64-1 ms was taken")
        } catch let error as DBusError {
            #expect(error.name == DBusError.invalidArgsName && error.message.contains("goes no further"), "\(error)")
        }
        #expect(try await client.advanceClock(by: 0) == 70_000)
        let rotated = try await client.rotate(to: .portrait)
        #expect(try await client.advanceClock(by: 60_000) == 130_000)
        #expect(log.take().contains { if case .transitionCompleted("mail", rotated.first, _) = $0 { true } else { false } })
        let wall = ContinuousClock.now - start
        print("VirtualClockTests: a 60 s deadline missed at its virtual instant; the test took \(wall) of wall time")
        #expect(fixture.daemon.standardError.contains("deadline passed"))
    }

    /// `--testing` with the real clock serves the interface but refuses to move time; without either flag the
    /// interface is not there.
    @Test func theRealClockIsNotMovedByHand() async throws {
        let testing = try await DaemonFixture(arguments: ["--testing"])
        let refused = try await testing.traitctl(["clock", "advance", "100"])
        #expect(refused.status == 1 && refused.stderr.contains("NotOffered") && refused.stderr.contains("--clock virtual"), "\(refused)")
        let plain = try await DaemonFixture()
        let absent = try await plain.busctl(["call", "org.traitd.Layout1", "/org/traitd/Layout1",
                                             "org.traitd.Layout1.Testing", "AdvanceClock", "t", "100"])
        #expect(absent.status != 0 && absent.stderr.contains("org.traitd.Layout1.Testing"), "\(absent)")
        let virtual = try await DaemonFixture(arguments: ["--clock", "virtual"])
        let moved = try await virtual.traitctl(["clock", "advance", "250"])
        #expect(moved.status == 0 && moved.stdout == "250\n", "\(moved)")
    }
}

/// `Reset` and snapshots on `org.traitd.Layout1.Testing`: back to the configuration's start without a restart
/// (registrations kept, `Serial` still growing, one transition per window that changes), and a snapshot of a
/// changed display brought back whole.
@Suite struct ResetAndSnapshotTests {
    @Test func resetGoesBackToTheStartAndASnapshotComesBackWhole() async throws {
        let fixture = try await DaemonFixture(arguments: ["--testing"])
        let client = try TraitClient(bus: .address(fixture.bus.address))
        defer { client.close() }
        let start = try await client.state()
        try await client.registerAdapter("probe", for: "ghost")  // an app never opened: no transition waits for it
        _ = try await client.setDevice("ipad-pro-11-m4")
        _ = try await client.rotate(to: .portrait)
        _ = try await client.setTraits([.appearance: "dark", .contentSize: "extra-large"])
        _ = try await client.openApp("video", role: .pip)
        try await client.setRestorationState(["tab": .string("drafts")], for: "mail")
        var changed = try await client.state()
        try await client.saveSnapshot("changed")

        let log = try await client.eventLog()
        defer { log.close() }
        let reset = try await client.reset()
        var now = try await client.state()
        #expect(now.serial > changed.serial, "Serial never goes back")
        var expected = start
        expected.serial = now.serial
        #expect(now == expected, "the configuration's start:\n\(now)\n\(start)")
        #expect(try await client.restorationState(of: "mail").isEmpty)
        #expect(try await client.listAdapters().contains { $0.adapter == "probe" }, "registrations stay")
        // One transition per window that changed (mail and notes), each completed; video's window went.
        let events = log.take()
        let completed = events.compactMap { if case .transitionCompleted(let app, let id, _) = $0 { (app, id) } else { nil } }
        #expect(Set(completed.map(\.0)) == ["mail", "notes"] && completed.count == 2 && Set(completed.map(\.1)) == Set(reset), "\(completed)")
        #expect(events.contains { if case .viewWillTransitionToSize(_, _, _, let context) = $0 { context.reason == .reset } else { false } })

        // mail's and notes's, and video's first layout: its window opens again.
        let restored = try await client.restoreSnapshot("changed")
        #expect(restored.count == 3)
        now = try await client.state()
        changed.serial = now.serial
        #expect(now == changed, "the snapshot whole:\n\(now)\n\(changed)")
        #expect(try await client.restorationState(of: "mail") == ["tab": .string("drafts")])
        #expect(try await client.listSnapshots() == ["changed"])
        await #expect(throws: DBusError.self) { try await client.restoreSnapshot("nothing") }
        let refused = try await fixture.traitctl(["status"])
        #expect(refused.status == 0 && fixture.daemon.isRunning)
    }
}
