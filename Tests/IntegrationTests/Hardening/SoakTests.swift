import DBus
import Foundation
import TestSupport
import TraitClient
import Testing

/// traitd's memory stays flat under a long stream of calls, accepted and refused, most of them carrying
/// arrays (every array received once leaked its element signature).
@Suite struct SoakTests {
    @Test func residentMemoryStaysFlatOver100000Calls() async throws {
        let total = Int(ProcessInfo.processInfo.environment["TRAITD_SOAK_CALLS"] ?? "") ?? 100_000
        let warmUp = total / 10
        let fixture = try await DaemonFixture(arguments: ["--log-level", "warning"])
        let bus = fixture.probe
        let display = "org.traitd.Layout1.Display", window = "org.traitd.Layout1.Window"
        let mail = TraitClient.windowPath("mail")
        let frames = DBusValue.array(element: "{s(dddd)}", (0..<8).map { .dictEntry(.string("e\($0)"), .doubles([0, 0, 10, 10])) })
        let extras = DBusValue.vardict(Dictionary(uniqueKeysWithValues: (0..<8).map { ("k\($0)", DBusValue.strings(["x", "y"])) }))
        // One call of the mix; `n` picks which.
        @Sendable func call(_ n: Int) async -> Bool {
            do {
                switch n % 10 {
                case 0:  // accepted, with arrays in the state
                    _ = try await bus.call(destination: "org.traitd.Layout1", path: mail, interface: window,
                                           member: "SetRestorationState",
                                           [.vardict(["tabs": .strings(["a", "b", "c"]), "n": .int32(Int32(n % 7))])])
                case 1, 2, 3:  // refused after its arrays are read: no such adapter
                    _ = try await bus.call(destination: "org.traitd.Layout1", path: mail, interface: window,
                                           member: "ReportLayout", [.uint64(0), .string("nobody"), frames, extras])
                case 4, 5:  // refused: wrong signature (an array where a string belongs)
                    _ = try await bus.call(destination: "org.traitd.Layout1", path: "/org/traitd/Layout1", interface: display,
                                           member: "SetArrangement", [.strings(["split-half"])])
                case 6:  // refused: invalid arguments of the right signature
                    _ = try await bus.call(destination: "org.traitd.Layout1", path: "/org/traitd/Layout1", interface: display,
                                           member: "Rotate", [.string("sideways")])
                case 7:
                    _ = try await bus.call(destination: "org.traitd.Layout1", path: "/org/traitd/Layout1", interface: display,
                                           member: "GetState")
                default:
                    _ = try await bus.call(destination: "org.traitd.Layout1", path: mail, interface: "org.freedesktop.DBus.Properties",
                                           member: "GetAll", [.string(window)])
                }
                return true
            } catch let error as DBusError {
                return error.name != DBusError.noReplyName && error.name != DBusError.disconnectedName
            } catch {
                return false
            }
        }
        /// `count` calls, 16 in flight at a time; returns how many got no answer.
        func run(_ range: Range<Int>) async -> Int {
            await withTaskGroup(of: Bool.self) { group in
                var unanswered = 0
                var next = range.lowerBound
                for _ in 0..<16 where next < range.upperBound {
                    let n = next
                    group.addTask { await call(n) }
                    next += 1
                }
                for await answered in group {
                    if !answered { unanswered += 1 }
                    if next < range.upperBound {
                        let n = next
                        group.addTask { await call(n) }
                        next += 1
                    }
                }
                return unanswered
            }
        }
        var unanswered = await run(0..<warmUp)
        // Warm means full: the signal journal (GetEvents) keeps the last 4,096 signals, and the mix sends one in
        // ten calls, so it would still be filling long after the warm-up. A signal each, until it is.
        for n in 0..<4200 {
            _ = try await bus.call(destination: "org.traitd.Layout1", path: mail, interface: window, member: "SetRestorationState",
                                   [.vardict(["tabs": .strings(["a", "b", "c"]), "fill": .int32(Int32(n))])])
        }
        let afterWarmUp = fixture.daemon.residentKiB
        let start = ContinuousClock.now
        unanswered += await run(warmUp..<total)
        let elapsed = ContinuousClock.now - start
        let atEnd = fixture.daemon.residentKiB
        print("soak: \(total) calls (\(warmUp) to warm up), \(unanswered) unanswered; traitd RSS after warm-up "
              + "\(afterWarmUp) KiB, at the end \(atEnd) KiB (\(atEnd - afterWarmUp >= 0 ? "+" : "")\(atEnd - afterWarmUp) KiB); "
              + "\(Int(Double(total - warmUp) / (Double(elapsed.components.seconds) + 1e-18 * Double(elapsed.components.attoseconds)))) calls/s")
        #expect(unanswered == 0)
        #expect(fixture.daemon.isRunning)
        #expect(atEnd - afterWarmUp < 4 * 1024, "RSS grew \(atEnd - afterWarmUp) KiB over \(total - warmUp) calls")
    }
}
