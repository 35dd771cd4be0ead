import DBus
@testable import TraitService
import Testing

/// The journal's order, without a bus: what was sent while the engine ran is recorded at the serial it left;
/// a command's own signals are not "after" the serial it made, its transitions' later signals are.
@Suite struct SignalJournalTests {
    func signal(_ member: String) -> [UInt8] {
        Marshalling.directBytes(path: "/org/traitd/Layout1", interface: "org.example.Test", member: member, [])!
    }

    @Test func whatIsSentWhileTheEngineRunsTakesTheSerialItLeaves() {
        var journal = SignalJournal()
        journal.sent(signal("Before"), serial: 4)  // say, a completion of serial 4's transitions: after 4
        // A command runs: its signals go out as the engine makes them, and are recorded once it returns.
        journal.engineRuns()
        journal.sent(signal("Will"), serial: 4)  // the serial of the moment is not asked: the engine holds it
        journal.sent(signal("Changed"), serial: 4)
        journal.commandSerial = 5
        journal.engineReturned(serial: 5)
        journal.commandSerial = nil
        // Later, its transition completes (no new serial).
        journal.sent(signal("Completed"), serial: 5)

        #expect(journal.events(after: 3)?.map(\.member) == ["Before", "Will", "Changed", "Completed"])
        #expect(journal.events(after: 4)?.map(\.member) == ["Before", "Will", "Changed", "Completed"])
        // A client that read the state at 5 has the command's own signals already, not its transition's end.
        #expect(journal.events(after: 5)?.map(\.member) == ["Completed"])
        #expect(journal.events(after: 4)?.map(\.serial) == [4, 5, 5, 5])
    }

    /// A refusal: what was sent meanwhile (nothing, if the core keeps its promise) is recorded as not a
    /// command's, at the serial that stands.
    @Test func aRefusalsSignalsAreNoCommandsOwn() {
        var journal = SignalJournal()
        journal.engineRuns()
        journal.sent(signal("Odd"), serial: 0)
        journal.engineReturned(serial: 7)
        #expect(journal.events(after: 7)?.map(\.member) == ["Odd"])
    }
}
