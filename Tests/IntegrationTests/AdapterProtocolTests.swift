import DBus
import Foundation
import TestSupport
import TraitClient
import Testing

/// The adapter protocol against the real daemon: several adapter connections, each with its own behaviour.
@Suite struct AdapterProtocolTests {
    /// A short deadline keeps the tests that wait for it quick; the default (500 ms) is tested in the config tests.
    static let shortDeadline = "transitions:\n  deadline-ms: 300\n"
    /// For tests whose adapters do report: a deadline that a loaded machine (the whole suite at once on two
    /// cores) cannot reach before the report, so the completion is the report's and never the clock's.
    /// Far past any wait of the tests (30 s times `TestTiming.scale`): a completion means the adapters caused it.
    static let longDeadline = "transitions:\n  deadline-ms: 60000\n"

    @Test func aFastAdapterReportsAndTheTransitionCompletesWithIt() async throws {
        let fixture = try await DaemonFixture(config: Self.longDeadline)
        let recorder = try await Recorder(fixture)
        let adapter = try await ScriptedAdapter(fixture, app: "mail", name: "fast", behaviour: .fast)
        defer { adapter.close() }
        #expect(try await recorder.client.property(Layout1.Window.adapters, of: "mail") == ["fast"])
        try await recorder.client.rotate(to: .portrait)
        let id = try #require(await waitForID(recorder, "mail"))
        let completion = try await recorder.completion(of: id)
        #expect(completion == Completion(app: "mail", id: id, reported: ["fast"], missed: [], failed: []))
        // The report is readable in Layouts, in window coordinates, and was announced with PropertiesChanged.
        let state = try await recorder.client.state()
        #expect(state.window("mail")?.layouts == ["fast": ["root": [0, 0, 438, 1024]]])
        // Announced once, with PropertiesChanged, just before the completion.
        let events = recorder.all.filter { $0.app == "mail" }
        let announced = try #require(events.firstIndex { $0.member == "PropertiesChanged" && $0.description.contains("Layouts=") })
        #expect(events[announced + 1].member == "TransitionCompleted")
        // busctl (sd-bus) reads the same property.
        let busctl = try await fixture.busctl(["get-property", "org.traitd.Layout1", "/org/traitd/Layout1/window/mail",
                                         "org.traitd.Layout1.Window", "Layouts"])
        #expect(busctl.stdout.contains("a{sa{s(dddd)}} 1 \"fast\" 1 \"root\" 0 0 438 1024"), "\(busctl)")
        // notes has no adapter: its transition completed at once, with empty lists.
        let notesID = try #require(recorder.transitionIDs(of: "notes").first)
        #expect(try await recorder.completion(of: notesID) == Completion(app: "notes", id: notesID, reported: [], missed: [], failed: []))
    }

    @Test func aSlowAdapterIsMissedAtTheDeadlineAndItsLateReportIsStale() async throws {
        // The virtual clock: the 2 s deadline passes when the test moves the clock, not after two seconds of a
        // machine's time, and the slow adapter reports after it by hand.
        let fixture = try await DaemonFixture(arguments: ["--clock", "virtual"], config: "transitions:\n  deadline-ms: 2000\n")
        let recorder = try await Recorder(fixture)
        let fast = try await ScriptedAdapter(fixture, app: "mail", name: "fast", behaviour: .fast)
        let slow = try await ScriptedAdapter(fixture, app: "mail", name: "slow", behaviour: .silent)
        defer { fast.close(); slow.close() }
        try await recorder.client.setArrangement(.splitHalf)
        let id = try #require(await waitForID(recorder, "mail"))
        try await fast.waitForAnswers()
        // A millisecond before the deadline: still open (a completion sent before the state's reply would be logged).
        _ = try await recorder.client.advanceClock(by: 1999)
        _ = try await recorder.client.state()
        #expect(!recorder.completions.contains { $0.id == id }, "still waiting for slow")
        // At the deadline: completed, slow missed.
        _ = try await recorder.client.advanceClock(by: 1)
        let completion = try await recorder.completion(of: id)
        #expect(completion.reported == ["fast"] && completion.missed == ["slow"] && completion.failed.isEmpty)
        // The late report arrives after completion: StaleTransition, and Layouts has no frames from it.
        do {
            try await slow.client.reportLayout(app: "mail", transition: id, adapter: "slow",
                                               frames: ["root": Rect(x: 0, y: 0, width: 507, height: 768)], extras: [:])
        } catch let error as DBusError {
            slow.answers.update { $0.refused.append(error) }
        }
        #expect(slow.refused.map(\.name) == ["org.traitd.Layout1.Error.StaleTransition"])
        #expect(slow.refused.first?.message.contains("transition \(id) is not open for window 'mail'") == true)
        #expect(try await recorder.client.state().window("mail")?.layouts.keys.sorted() == ["fast"])
        // Exactly once: one completion for the id.
        #expect(recorder.completions.filter { $0.id == id }.count == 1)
    }

    @Test func anAdapterThatDiesMidTransitionIsMissedWithoutWaitingForTheDeadline() async throws {
        // A long deadline: the transition must complete because the adapter left, not because time passed.
        let fixture = try await DaemonFixture(config: Self.longDeadline)
        let recorder = try await Recorder(fixture)
        let fast = try await ScriptedAdapter(fixture, app: "mail", name: "fast", behaviour: .fast)
        let doomed = try await ScriptedAdapter(fixture, app: "mail", name: "doomed", behaviour: .silent)
        defer { fast.close() }
        try await recorder.client.rotate(to: .portrait)
        let id = try #require(await waitForID(recorder, "mail"))
        // Layouts are announced at completion, but readable as soon as a report is accepted.
        try await fast.waitForAnswers()
        #expect(try await recorder.client.state().window("mail")?.layouts["fast"] != nil)
        // A round trip on the recorder's own connection: a completion sent before its reply would be logged by
        // then (the daemon's messages keep their order), so none means none was sent.
        _ = try await recorder.client.state()
        #expect(!recorder.completions.contains { $0.id == id }, "still waiting for doomed")
        doomed.close()
        let completion = try await recorder.completion(of: id)
        #expect(completion.reported == ["fast"] && completion.missed == ["doomed"])
        // Its registration ended with its connection.
        #expect(try await recorder.client.listAdapters().map(\.adapter) == ["fast"])
        let adapters = try await recorder.client.property(Layout1.Window.adapters, of: "mail")
        #expect(adapters == ["fast"])
    }

    @Test func onlyTheOwningConnectionMayReportOrUnregister() async throws {
        let fixture = try await DaemonFixture(config: Self.shortDeadline)
        let recorder = try await Recorder(fixture)
        let owner = try await ScriptedAdapter(fixture, app: "mail", name: "owned", behaviour: .silent)
        defer { owner.close() }
        try await recorder.client.rotate(to: .portrait)
        let id = try #require(await waitForID(recorder, "mail"))
        // Another connection (the recorder's) reports for "owned": AccessDenied, nothing changes.
        await #expect(throws: DBusError.self) {
            try await recorder.client.reportLayout(app: "mail", transition: id, adapter: "owned", frames: ["x": [0, 0, 1, 1]])
        }
        do {
            try await recorder.client.reportLayout(app: "mail", transition: id, adapter: "owned", frames: ["x": [0, 0, 1, 1]])
        } catch let error as DBusError {
            #expect(error.name == "org.freedesktop.DBus.Error.AccessDenied")
            #expect(error.message.contains("belongs to \(owner.client.connection.uniqueName)"))
        }
        // busctl and dbus-send are connections of their own, too.
        let busctl = try await fixture.busctl(["call", "org.traitd.Layout1", "/org/traitd/Layout1/window/mail",
                                         "org.traitd.Layout1.Window", "ReportLayout", "tsa{s(dddd)}a{sv}",
                                         "\(id)", "owned", "1", "x", "0", "0", "1", "1", "0"])
        #expect(busctl.status != 0 && busctl.stderr.contains("Access denied"), "\(busctl)")
        let unregister = try await fixture.dbusSend("UnregisterAdapter", ["string:mail", "string:owned"])
        #expect(unregister.stderr.contains("org.freedesktop.DBus.Error.AccessDenied"), "\(unregister)")
        // The same name from another connection is taken.
        await #expect(throws: DBusError.self) { try await recorder.client.registerAdapter("owned", for: "mail") }
        #expect(try await recorder.client.listAdapters() == [
            .init(app: "mail", adapter: "owned", owner: owner.client.connection.uniqueName),
        ])
        #expect(try await recorder.client.state().window("mail")?.layouts.isEmpty == true)
        let completion = try await recorder.completion(of: id)
        #expect(completion.missed == ["owned"] && completion.reported.isEmpty)
    }

    @Test func reportsForCompletedOrUnknownTransitionsAreStale() async throws {
        let fixture = try await DaemonFixture(config: Self.shortDeadline)
        let recorder = try await Recorder(fixture)
        let client = try TraitClient(bus: .address(fixture.bus.address))
        defer { client.close() }
        try await client.registerAdapter("late", for: "mail")
        try await client.rotate(to: .portrait)
        let id = try #require(await waitForID(recorder, "mail"))
        _ = try await recorder.completion(of: id)
        for stale in [id, id + 1000] {
            do {
                try await client.reportLayout(app: "mail", transition: stale, adapter: "late", frames: ["x": [0, 0, 1, 1]])
                Issue.record("a report for transition \(stale) was accepted")
            } catch let error as DBusError {
                #expect(error.name == "org.traitd.Layout1.Error.StaleTransition", "\(error)")
            }
        }
        #expect(try await client.state().window("mail")?.layouts.isEmpty == true)
        // Transition 0 is the documented exception: a layout of the current geometry, outside any transition.
        try await client.reportLayout(app: "mail", transition: 0, adapter: "late", frames: ["x": [0, 0, 438, 1024]])
        #expect(try await client.state().window("mail")?.layouts == ["late": ["x": [0, 0, 438, 1024]]])
    }

    @Test func aFailedLayoutIsListedAsFailedAndPublishesNoFrames() async throws {
        let fixture = try await DaemonFixture(config: Self.longDeadline)
        let recorder = try await Recorder(fixture)
        let broken = try await ScriptedAdapter(fixture, app: "mail", name: "broken", behaviour: .failing("conflict: a == b"))
        defer { broken.close() }
        try await recorder.client.rotate(to: .portrait)
        let id = try #require(await waitForID(recorder, "mail"))
        let completion = try await recorder.completion(of: id)
        #expect(completion.failed == ["broken"] && completion.reported.isEmpty && completion.missed.isEmpty)
        #expect(try await recorder.client.state().window("mail")?.layouts.isEmpty == true)
        let extras = try await recorder.client.property(Layout1.Window.layoutExtras, of: "mail")
        #expect(extras["broken"]?["error"]?.string == "conflict: a == b")
    }

    @Test func aBurstOf100RotationsCompletesEveryTransitionExactlyOnce() async throws {
        // The virtual clock: the deadlines pass when the test says, so "past the deadline" is exact.
        let fixture = try await DaemonFixture(arguments: ["--clock", "virtual"], config: Self.shortDeadline)
        let recorder = try await Recorder(fixture)
        let fast = try await ScriptedAdapter(fixture, app: "mail", name: "fast", behaviour: .fast)
        let slow = try await ScriptedAdapter(fixture, app: "notes", name: "slow", behaviour: .delayed(seconds: 0.05))
        defer { fast.close(); slow.close() }
        let orientations: [Orientation] = [.portrait, .landscapeLeft, .portraitUpsideDown, .landscapeRight]
        var last = Orientation.portrait
        for i in 0..<100 {
            last = orientations[i % orientations.count]
            try await recorder.client.rotate(to: last)
        }
        // Every transition that began completes, exactly once.
        try await recorder.wait("every transition to complete", timeout: 15) { events in
            let begun = Set(events.filter { $0.member != "TransitionCompleted" }.compactMap(\.transition))
            let done = Set(events.compactMap { Completion($0)?.id })
            return !begun.isEmpty && begun == done
        }
        // Past every deadline (300 ms): nothing more may complete. AdvanceClock returns once their timers have
        // fired and their signals were sent; the round trip after it brings those signals to the recorder.
        _ = try await recorder.client.advanceClock(by: 400)
        _ = try await recorder.client.state()
        let completions = recorder.completions
        #expect(Set(completions.map(\.id)).count == completions.count, "no transition completed twice")
        let begun = Set(recorder.all.filter { $0.member != "TransitionCompleted" }.compactMap(\.transition))
        #expect(Set(completions.map(\.id)) == begun)
        #expect(begun.count >= 100, "each 90-degree turn resizes both windows (\(begun.count) transitions)")
        // The final state is the last command's.
        let state = try await recorder.client.state()
        #expect(state.orientation == last && state.serial == 101)
        #expect(state.window("mail")?.frame == [0, 0, 694, 768])
    }

    @Test func limitsAndMalformedReportsAreRefusedWithClearErrors() async throws {
        let fixture = try await DaemonFixture(config: """
            transitions:
              deadline-ms: 300
            limits:
              adapters-per-connection: 2
              elements-per-report: 2
            """)
        let client = try TraitClient(bus: .address(fixture.bus.address))
        defer { client.close() }
        try await client.registerAdapter("a", for: "mail")
        try await client.registerAdapter("a", for: "mail")  // again: a no-op, not a second registration
        try await client.registerAdapter("b", for: "notes")
        try await expectError("org.traitd.Layout1.Error.LimitExceeded", containing: "adapters-per-connection") {
            try await client.registerAdapter("c", for: "mail")
        }
        try await expectError("org.freedesktop.DBus.Error.InvalidArgs", containing: "not a valid adapter name") {
            try await client.registerAdapter("has space", for: "mail")
        }
        try await expectError("org.traitd.Layout1.Error.NoSuchAdapter", containing: "no adapter 'zzz'") {
            try await client.unregisterAdapter("zzz", for: "mail")
        }
        let bad: [(String, [String: Rect], String)] = [
            ("org.traitd.Layout1.Error.LimitExceeded", ["a": [0, 0, 1, 1], "b": [0, 0, 1, 1], "c": [0, 0, 1, 1]], "elements-per-report"),
            ("org.freedesktop.DBus.Error.InvalidArgs", ["a": [0, 0, .nan, 1]], "width is nan"),
            ("org.freedesktop.DBus.Error.InvalidArgs", ["a": [.infinity, 0, 1, 1]], "x is inf"),
            ("org.freedesktop.DBus.Error.InvalidArgs", ["a": [0, 0, -5, 1]], "must not be negative"),
            ("org.freedesktop.DBus.Error.InvalidArgs", ["a": [0, 0, 1e9, 1]], "within ±10000000"),
            ("org.freedesktop.DBus.Error.InvalidArgs", ["bad name": [0, 0, 1, 1]], "not a valid element name"),
        ]
        for (name, frames, text) in bad {
            try await expectError(name, containing: text) {
                try await client.reportLayout(app: "mail", transition: 0, adapter: "a", frames: frames)
            }
        }
        try await expectError("org.freedesktop.DBus.Error.InvalidArgs", containing: "extras 'error' must be a string") {
            try await client.reportLayout(app: "mail", transition: 0, adapter: "a", frames: [:], extras: ["error": .int32(3)])
        }
        #expect(try await client.state().window("mail")?.layouts.isEmpty == true)
        // Unregistering frees a slot.
        try await client.unregisterAdapter("a", for: "mail")
        try await client.registerAdapter("c", for: "mail")
        #expect(try await client.listAdapters().map(\.adapter) == ["c", "b"])
    }
}

/// Waits for the first transition id of `app`'s window.
func waitForID(_ recorder: Recorder, _ app: String) async throws -> UInt64? {
    try await recorder.wait("a transition of \(app)") { !Recorder.transitionIDs(of: app, in: $0).isEmpty }
    return recorder.transitionIDs(of: app).first
}

/// Expects `body` to fail with the D-Bus error `name` whose message contains `text`.
func expectError(_ name: String, containing text: String, sourceLocation: SourceLocation = #_sourceLocation,
                 _ body: () async throws -> Void) async throws {
    do {
        try await body()
        Issue.record("expected \(name), but the call succeeded", sourceLocation: sourceLocation)
    } catch let error as DBusError {
        #expect(error.name == name && error.message.contains(text), "\(error)", sourceLocation: sourceLocation)
    }
}
