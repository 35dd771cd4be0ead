import DBus
import Foundation
import TestSupport
import TraitClient
import Testing

/// `GetEvents(since)`: the daemon's journal of every signal it sent, read with busctl and the Swift client;
/// `EventsLost` past its bound; `traitctl watch --since` joining the journal to the live signals with no gap and
/// no repeat while commands are under way.
@Suite struct JournalTests {
    @Test func theJournalHoldsWhatCameAfterASerial() async throws {
        let fixture = try await DaemonFixture()
        let recorder = try await Recorder(fixture)
        let client = recorder.client
        for id in try await client.rotate(to: .portrait) { _ = try await recorder.completion(of: id) }  // serial 2
        for id in try await client.setTraits([.appearance: "dark"]) { _ = try await recorder.completion(of: id) }  // 3
        let members = { (since: UInt64) async throws -> [String] in
            let reply = try await client.connection.call(
                destination: TraitClient.busName, path: TraitClient.rootPath, interface: TraitClient.displayInterface,
                member: "GetEvents", [.uint64(since)])
            return try Layout1.Display.getEvents.reply(reply).map { "\($0.serial) \($0.member)" }
        }
        let afterStart = try await members(1)
        #expect(afterStart.contains("2 WillTransitionToTraitCollection") && afterStart.contains("3 TraitDidChange"), "\(afterStart)")
        #expect(afterStart.allSatisfy { !$0.hasPrefix("1 ") || !$0.hasSuffix("WillTransitionToTraitCollection") }, "\(afterStart)")
        // After serial 2: the rotation's own signals are not there (a client that read the state at 2 has them),
        // the settings change's are.
        let afterRotation = try await members(2)
        #expect(afterRotation.allSatisfy { $0.hasPrefix("3 ") } && afterRotation.contains("3 PropertiesChanged"), "\(afterRotation)")
        #expect(try await members(3).isEmpty)
        // busctl, another implementation, reads the same records.
        let busctl = try await fixture.busctl(["call", "org.traitd.Layout1", "/org/traitd/Layout1", "org.traitd.Layout1.Display",
                                               "GetEvents", "t", "2"])
        #expect(busctl.status == 0 && busctl.stdout.hasPrefix("a(tossav) \(afterRotation.count) 3 \"/org/traitd/Layout1"), "\(busctl)")
    }

    /// Past the journal's bound, asking for what it no longer holds is `EventsLost`, saying how far back it reaches.
    @Test func signalsNoLongerKeptAreEventsLost() async throws {
        let fixture = try await DaemonFixture()
        let client = try TraitClient(bus: .address(fixture.bus.address))
        defer { client.close() }
        // Each rotation sends about a dozen signals: 600 of them overflow the 4,096 kept.
        let orientations: [Orientation] = [.portrait, .landscapeLeft]
        for i in 0..<600 { _ = try await client.rotate(to: orientations[i % 2]) }
        let lost = await #expect(throws: DBusError.self) { _ = try await client.signals(since: 1) }
        #expect(lost?.name == "org.traitd.Layout1.Error.EventsLost", "\(String(describing: lost))")
        #expect(lost?.message.contains("the journal holds the last 4096 signals") == true, "\(String(describing: lost))")
        // A recent serial is still there.
        let (past, _) = try await client.signals(since: 595)
        #expect(!past.isEmpty)
    }

    /// Commands stream while `traitctl watch --since` starts: it prints exactly what the journal holds after that
    /// serial once they are done, in order, nothing missed where the journal meets the live signals, nothing twice.
    @Test func watchSinceJoinsTheJournalToTheLiveSignalsExactly() async throws {
        let fixture = try await DaemonFixture()
        let client = try TraitClient(bus: .address(fixture.bus.address))
        defer { client.close() }
        let orientations: [Orientation] = [.portrait, .landscapeLeft]
        for i in 0..<10 { _ = try await client.rotate(to: orientations[i % 2]) }
        // Commands go on until the watch has joined (it says "watching" once its journal has been read), then 20
        // more: the join happens while signals stream, and both the journal and the live signals have lines.
        let joined = Locked(false)
        let commands = Task {
            var i = 0
            while !joined.withLock({ $0 }) {
                _ = try await client.rotate(to: orientations[i % 2])
                i += 1
            }
            for _ in 0..<20 {
                _ = try await client.rotate(to: orientations[i % 2])
                i += 1
            }
        }
        let watch = try ChildProcess(Binaries.path("traitctl"), ["watch", "--since", "5", "--bus", fixture.bus.address])
        try await watch.waitForOutput("watching", in: .errors)
        joined.withLock { $0 = true }
        try await commands.value
        let count = try await client.signals(since: 5).past.count
        // Every signal after serial 5, as the journal has them, then nothing more comes: the watch has printed
        // exactly `count` lines once it has caught up with the end of the journal.
        let (past, _) = try await client.signals(since: 5)
        let expected = past.map { TraitEvent($0).description }
        try await watch.waitForOutput(expected.last!, occurrences: expected.filter { $0 == expected.last! }.count)
        watch.kill(SIGTERM)
        _ = await watch.wait()
        // Each line without its first column (the time, or "journal").
        let printed = watch.standardOutput.split(separator: "\n").map { line in String(line.drop { $0 != " " }.drop { $0 == " " }) }
        #expect(printed.count == count, "printed \(printed.count), the journal holds \(count)")
        #expect(printed == expected)
        let lines = watch.standardOutput.split(separator: "\n")
        #expect(lines.first?.hasPrefix("journal ") == true && lines.last?.hasPrefix("journal ") == false, "both the journal and live signals")
    }
}
