import Limits
import DBus
import DisplayCore
import LayoutJudge
import StateStore
import Foundation
import Logging
import TraitConfig
import TraitModel
import Vocabulary
import TraitProtocol
@testable import TraitService
import TestSupport
import Testing

/// The service's parts that need no bus: the adapter registry, report checks and the state file.
@Suite struct AdapterRegistryTests {
    @Test func registrationsBelongToTheirOwner() throws {
        var limits = Limits()
        limits.adaptersPerConnection = 2
        limits.adaptersPerWindow = 2
        var registry = AdapterRegistry(limits: limits)
        #expect(try registry.register(app: "mail", adapter: "a", owner: ":1.1"))
        #expect(try !registry.register(app: "mail", adapter: "a", owner: ":1.1"), "again: a no-op")
        #expect(throws: Refusal.self) { try registry.register(app: "mail", adapter: "a", owner: ":1.2") }
        #expect(try registry.register(app: "mail", adapter: "b", owner: ":1.2"))
        // adapters-per-window: mail has two.
        #expect(throws: Refusal.self) { try registry.register(app: "mail", adapter: "c", owner: ":1.3") }
        #expect(try registry.register(app: "notes", adapter: "a", owner: ":1.1"))
        // adapters-per-connection: :1.1 has two.
        #expect(throws: Refusal.self) { try registry.register(app: "video", adapter: "x", owner: ":1.1") }
        #expect(throws: Refusal.self) { try registry.unregister(app: "mail", adapter: "b", caller: ":1.1") }
        #expect(registry.adapters(for: "mail") == ["a", "b"])
        let gone = registry.removeOwner(":1.1")
        #expect(gone.map { "\($0.app)/\($0.adapter)" } == ["mail/a", "notes/a"])
        #expect(registry.adapters(for: "mail") == ["b"] && !registry.holds(":1.1") && registry.removeOwner(":1.1").isEmpty)
    }
}

@Suite struct LayoutReportTests {
    func frames(_ entries: [(String, [Double])]) -> DBusValue {
        .array(element: "{s(dddd)}", entries.map { .dictEntry(.string($0.0), .doubles($0.1)) })
    }

    /// The report as the daemon gets it: the wire value decoded by `ReportLayout`'s declaration, then checked.
    func report(_ value: DBusValue, extras: [String: DBusValue] = [:]) throws -> LayoutReport {
        let decoded = try Parameter<[String: Rect]>.frames("frames").decode(value)
        return try LayoutReport(reading: decoded, extras: extras, budget: PublishBudget(limits: Limits()), judgedAs: "test",
                                in: PublishedWindow(size: Size(width: 100, height: 100), safeAreaInsets: .zero, idiom: .pad))
    }

    func strings(_ entries: [String: String]) -> DBusValue {
        .variant(.array(element: "{ss}", entries.sorted { $0.key < $1.key }.map { .dictEntry(.string($0.key), .string($0.value)) }))
    }

    /// `kinds` and `scrolledIn` read once, at the edge, and the report judged with them; a failed report is not.
    @Test func aReportIsReadAndJudgedWhereItIsAccepted() throws {
        let value = frames([("knob", [10, 10, 20, 20]), ("list", [0, 0, 100, 100]), ("row", [0, 150, 100, 40])])
        let judged = try report(value, extras: ["kinds": strings(["knob": "control", "list": "container"]),
                                                "scrolledIn": strings(["row": "list"])])
        #expect(judged.problems.map(\.rule) == [.smallTarget])
        #expect(try report(value).problems.map(\.rule) == [.outsideWindow])  // the row, not scrolled: the list holds the knob
        #expect(try report(value, extras: ["error": .string("no"), "scrolledIn": strings(["row": "list"])]).problems.isEmpty)
    }

    @Test func unreadableKindsAndScrollsAreRefusedNamingTheKey() {
        let value = frames([("a", [0, 0, 10, 10])])
        #expect(throws: Refusal(.invalidArgs, "extras 'kinds': unknown element kind 'buton'; expected one of: background, container, content, control, text")) {
            try report(value, extras: ["kinds": strings(["a": "buton"])])
        }
        #expect(throws: Refusal(.invalidArgs, "extras 'kinds': kinds must be 'a{ss}', but it is 's'")) {
            try report(value, extras: ["kinds": .variant(.string("control"))])
        }
        #expect(throws: Refusal(.invalidArgs, "extras 'scrolledIn': element 'a' scrolls in 'list', which the report has no frame for")) {
            try report(value, extras: ["scrolledIn": strings(["a": "list"])])
        }
    }

    /// Two hundred labels piled up publish eight overlaps, the last saying how many more there were; a flood of
    /// one rule does not hide another's.
    @Test func aReportPublishesAtMostEightProblemsOfEachRule() throws {
        let piled = frames((0..<200).map { ("label-\($0)", [Double($0) * 0.1, 0, 50, 20]) } + [("tiny", [0, 50, 10, 10])])
        let judged = try report(piled, extras: ["kinds": strings(["tiny": "control"])])
        #expect(judged.problems.map(\.rule) == Array(repeating: .overlap, count: 8) + [.smallTarget])
        #expect(judged.problems[7].message.hasSuffix("(and 19892 more overlap problems in this report, not listed)"))
    }

    /// A report's frames are measured without building them, as the encoder would write them.
    @Test func aReportsFramesAreMeasuredAsTheyAreWritten() {
        let names = ["", "a", "root", "seven77", "eight888", "a-name-of-seventeen", "käse ✓"]
        for count in 0...names.count {
            let frames = Dictionary(uniqueKeysWithValues: names.prefix(count).enumerated().map {
                ($0.element, Rect(x: Double($0.offset), y: 0, width: 10, height: 20))
            })
            #expect(Encoding.layoutsBytes(ofOneAdapter: frames) == Encoding.layouts(["": frames]).wireSize, "\(frames.keys.sorted())")
        }
    }

    @Test func aGoodReportAndItsFailure() throws {
        let good = try report(frames([("main", [0, 0, 10, 20])]), extras: ["cellStyle": .string("compact")])
        #expect(good.frames == ["main": Rect(x: 0, y: 0, width: 10, height: 20)] && good.failure == nil)
        let failed = try report(frames([]), extras: ["error": .string("conflict")])
        #expect(failed.failure == "conflict")
    }

    @Test func badReportsAreRefused() {
        let bad: [DBusValue] = [
            frames([("main", [0, 0, .nan, 1])]), frames([("main", [0, 0, 1, -1])]), frames([("", [0, 0, 1, 1])]),
            frames([("a b", [0, 0, 1, 1])]), frames([("m", [0, 0, 1, 1]), ("m", [0, 0, 2, 2])]),
            frames([("m", [-20_000_000, 0, 1, 1])]),
        ]
        for value in bad {
            #expect(throws: (any Error).self) { try report(value) }
        }
        #expect(throws: DBusError.invalidArgs("frames: the key 'm' appears twice; a dictionary has one value per key")) {
            try report(frames([("m", [0, 0, 1, 1]), ("m", [0, 0, 2, 2])]))
        }
    }
}

@Suite struct StateStoreTests {
    func directory() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("traitd-store-\(UUID().uuidString)").path
    }

    let logger = Logger(label: "test")
    let display = DisplayState(device: "ipad-9.7", orientation: .portrait, arrangement: .full,
                               apps: [.init(name: "mail", role: .primary)], background: ["notes"])

    @Test func aSavedStateLoadsBackExactly() throws {
        let dir = directory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let store = try StateStore(directory: dir)
        guard case .nothing = store.restore(StateFileTests.context) else { Issue.record("a new directory has no state"); return }
        let restoration: [String: [String: DBusValue]] = [
            "mail": ["nan": .double(.nan), "big": .uint64(.max), "list": .strings(["a", "b"]), "v": .variant(.int16(-2))],
        ]
        store.save(try SavedState(display: display, restoration: restoration))
        store.flush()
        guard case .restored(let saved, _) = try StateStore(directory: dir).restore(StateFileTests.context) else {
            Issue.record("the saved state did not load")
            return
        }
        #expect(saved.simulation.state == display)
        let back = saved.restoration["mail"]!
        #expect(back["nan"]?.double?.isNaN == true && back["big"] == .uint64(.max) && back["list"] == .strings(["a", "b"]))
        #expect(back["v"] == .int16(-2), "a variant inside the dictionary is unwrapped, as the property returns it")
        // Only the state file is left: no temporary file.
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["state.json"])
    }

    @Test func aCorruptFileIsMovedAsideNotOverwritten() throws {
        let dir = directory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let store = try StateStore(directory: dir)
        try "{\"version\": 1".write(toFile: store.path, atomically: true, encoding: .utf8)
        try "half a write".write(toFile: store.path + ".tmp", atomically: true, encoding: .utf8)
        guard case .refused(let target?, let problems) = store.restore(StateFileTests.context) else {
            Issue.record("the corrupt file was not moved aside")
            return
        }
        #expect(problems.map(\.description).joined(separator: "; ").contains("the file: a traitd state file (JSON); this is not one"))
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "{\"version\": 1")
        #expect(!FileManager.default.fileExists(atPath: store.path) && !FileManager.default.fileExists(atPath: store.path + ".tmp"))
    }

    @Test func theDefaultDirectoryFollowsSystemdThenXDG() {
        #expect(StateStore.defaultDirectory(environment: ["STATE_DIRECTORY": "/var/lib/traitd:/other", "HOME": "/h"]) == "/var/lib/traitd")
        #expect(StateStore.defaultDirectory(environment: ["XDG_STATE_HOME": "/x", "HOME": "/h"]) == "/x/traitd")
        #expect(StateStore.defaultDirectory(environment: ["XDG_STATE_HOME": "relative", "HOME": "/h"]) == "/h/.local/state/traitd")
    }
}

/// What the store promises a caller that waits: its completion comes once a write holding its state is on
/// disk, and a state written last is the state on disk, whatever was saved before it.
@Suite struct DurableSaveTests {
    let logger = Logger(label: "test")

    func state(_ n: Int) throws -> SavedState {
        try SavedState(display: DisplayState(device: "ipad-9.7", orientation: .portrait, arrangement: .full,
                                             apps: [.init(name: "mail", role: .primary)], background: []),
                       restoration: ["mail": ["n": .int32(Int32(n))]])
    }

    @Test func aCompletionMeansTheStateIsOnDisk() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("traitd-durable-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let store = try StateStore(directory: dir)
        let done = DispatchSemaphore(value: 0)
        for n in 1...50 {
            let expected = try state(n)
            store.save(expected) { result in
                // Read by a new store, as a restarted daemon would: the state that was promised is there
                // (or a later one, since writes coalesce; here each waits for the last).
                if case .success = result, n == 50,
                   case .restored(let saved, _)? = try? StateStore(directory: dir).restore(StateFileTests.context) {
                    #expect(saved.restoration == (try! expected.restorationStates()))
                }
                if n == 50 { done.signal() }
            }
        }
        #expect(done.wait(timeout: .now() + 10) == .success)
        #expect(store.writes >= 1 && store.writes <= 50, "\(store.writes) writes for 50 saves")
    }

    /// A burst of saves nobody waits for is written a few times, not once each (the fsync per command was a
    /// quarter of the daemon's CPU under load), and the last state is the one on disk. The bound follows the
    /// burst's own length, so a slow machine only allows more writes, never a failure.
    @Test func savesNobodyWaitsForAreWrittenAtMostOncePerQuietInterval() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("traitd-durable-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let store = try StateStore(directory: dir)
        let start = DispatchTime.now()
        for n in 1...2000 { store.save(try state(n)) }
        store.flush()
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
        let allowed = 2 + Int(seconds / StateStore.quietInterval)
        #expect(store.writes <= allowed, "\(store.writes) writes in \(seconds) s for 2000 saves; at most \(allowed)")
        guard case .restored(let saved, _) = try StateStore(directory: dir).restore(StateFileTests.context) else {
            Issue.record("nothing on disk")
            return
        }
        #expect(saved.restoration == (try state(2000).restorationStates()))
    }

    /// Saves that each find the writer idle (the one before is on disk already) are still written at most once
    /// per quiet interval: the interval runs from the last write, not from the start of each round of writing.
    /// Before, every such save was written at once, and a burst slower than the disk was one write a save.
    @Test func theQuietIntervalHoldsAcrossIdleWriters() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("traitd-durable-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let store = try StateStore(directory: dir)
        let start = DispatchTime.now()
        for n in 1...10 {
            store.save(try state(n))
            store.flush()  // the writer has nothing left: this round of writing ends
        }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
        #expect(store.writes == 10)
        // Ten writes at least a quiet interval apart take nine intervals, however fast the disk.
        #expect(seconds >= 9 * StateStore.quietInterval, "10 writes in \(seconds) s")
    }

    @Test func savingAnOlderStateAfterANewerOneLeavesTheOlderOnDisk() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("traitd-durable-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let store = try StateStore(directory: dir)
        let done = DispatchSemaphore(value: 0)
        store.save(try state(1)) { _ in }
        store.save(try state(2))
        store.save(try state(1)) { _ in done.signal() }  // back to 1 while 2 may still be queued
        #expect(done.wait(timeout: .now() + 10) == .success)
        store.flush()
        guard case .restored(let saved, _) = try StateStore(directory: dir).restore(StateFileTests.context) else {
            Issue.record("nothing on disk")
            return
        }
        #expect(saved.restoration == (try state(1).restorationStates()))
    }
}

/// The budget's checks, on values alone.
@Suite struct PublishBudgetTests {
    @Test func depthAndBytesAreRefusedNamingTheLimit() {
        let budget = PublishBudget(limits: Limits())
        #expect(throws: Never.self) { try budget.checkDepth(DBusValue.nested(10), "x") }
        do {
            try budget.checkDepth(DBusValue.nested(11), "the state")
            Issue.record("33 containers passed a 32 limit")
        } catch let error as PublishBudget.Exceeded {
            #expect(error.message.contains("limits.value-depth"))
            // On the bus, the contract's LimitExceeded.
            #expect(Refusal(.limitExceeded, error.message).dbusError.name == "org.traitd.Layout1.Error.LimitExceeded")
        } catch {
            Issue.record("\(error)")
        }
        #expect(throws: PublishBudget.Exceeded.self) { try budget.checkTotals(app: "mail", window: 2_000_000, total: 2_000_000) }
        #expect(throws: PublishBudget.Exceeded.self) { try budget.checkTotals(app: "mail", window: 10, total: 9_000_000) }
    }

    @Test func aLoadedStateKeepsWhatFitsAndNamesWhatItDrops() {
        var limits = Limits()
        limits.totalBytes = 4096
        let budget = PublishBudget(limits: limits)
        let admitted = budget.admit(restoration: [
            "a": ["deep": DBusValue.nested(12)],
            "b": ["ok": .string("fine")],
            "c": ["big": .string(String(repeating: "x", count: 5000))],
        ])
        #expect(Set(admitted.kept.keys) == ["b"])
        #expect(admitted.dropped.map(\.app) == ["a", "c"])
        #expect(admitted.dropped[0].reason.contains("value-depth") && admitted.dropped[1].reason.contains("bytes"))
    }
}

extension DurableSaveTests {
    /// A write that failed, then the same state saved again: the second caller waits for a real write, and
    /// hears when it is on disk (it was never answered before).
    @Test func theSameStateAfterAFailedWriteIsWrittenAndAnswered() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("traitd-durable-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let store = try StateStore(directory: dir)
        // A folder with a file in it where state.json belongs: the rename over it fails.
        try FileManager.default.createDirectory(atPath: store.path, withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: store.path + "/blocker", contents: Data())
        let results = ResultBox()
        let first = DispatchSemaphore(value: 0)
        store.save(try state(7)) { results.append($0); first.signal() }
        #expect(first.wait(timeout: .now() + 10) == .success)
        try FileManager.default.removeItem(atPath: store.path)
        let second = DispatchSemaphore(value: 0)
        store.save(try state(7)) { results.append($0); second.signal() }
        #expect(second.wait(timeout: .now() + 10) == .success, "the second save was never answered")
        #expect(results.outcomes == [false, true])
        guard case .restored(let saved, _) = try StateStore(directory: dir).restore(StateFileTests.context) else {
            Issue.record("nothing on disk")
            return
        }
        #expect(saved.restoration == (try state(7).restorationStates()))
    }

    // @unchecked: `values` is read and written under `lock` only.
    final class ResultBox: @unchecked Sendable {
        private let lock = NSLock()
        private var values: [Bool] = []
        func append(_ result: Result<Void, StateStore.Problem>) {
            lock.withLock { values.append((try? result.get()) != nil) }
        }
        var outcomes: [Bool] { lock.withLock { values } }
    }
}
