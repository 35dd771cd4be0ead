import DBus
import Foundation
import TestSupport
import TraitClient
import Testing

/// `traitctl wait --until`: at once when the condition holds, after the change that makes it hold while it
/// waits, exit 1 with the last values at its time-out, and a mistake named before anything is asked.
@Suite struct WaitTests {
    @Test func itReturnsWhenTheConditionHoldsAndSaysWhyNotAtItsTimeOut() async throws {
        let fixture = try await DaemonFixture()
        let client = try TraitClient(bus: .address(fixture.bus.address))
        defer { client.close() }
        let now = try await fixture.traitctl(["wait", "--until", "mail.horizontalSizeClass == regular and display.Serial > 0"])
        #expect(now.status == 0 && now.stdout == "mail.horizontalSizeClass is regular, display.Serial is 1\n", "\(now)")
        // Waiting for compact, which a rotation to portrait makes: the wait returns once it comes.
        let waiting = try ChildProcess(Binaries.path("traitctl"), [
            "wait", "--until", "mail.HorizontalSizeClass == compact and display.appearance == dark and notes.activeAppearance == active",
            "--timeout", "60", "--bus", fixture.bus.address])
        // It says what it waits on once it has read the state (subscribed before): then the changes come.
        try await waiting.waitForOutput("waiting: mail.HorizontalSizeClass is regular", in: .errors)
        _ = try await client.rotate(to: .portrait)
        _ = try await client.setTraits([.appearance: "dark"])
        #expect(await waiting.wait(timeout: 60) == 0, "\(waiting.standardOutput)\(waiting.standardError)")
        #expect(waiting.standardOutput == "mail.HorizontalSizeClass is compact, display.appearance is dark, notes.activeAppearance is active\n")
        // A window that is not there has no value; a condition that never holds times out, naming the values.
        let never = try await fixture.traitctl(["wait", "--until", "maps.State == active", "--timeout", "0.3"])
        #expect(never.status == 1 && never.stderr.contains("after 0.3 s, 'maps.State == active' does not hold: maps.State is absent"), "\(never)")
        let bad = try await fixture.traitctl(["wait", "--until", "mail.State ~ active"])
        #expect(bad.status == 64 && bad.stderr.contains("unknown comparison '~'"), "\(bad)")
    }
}
