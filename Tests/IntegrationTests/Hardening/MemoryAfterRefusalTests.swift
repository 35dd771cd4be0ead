import DBus
import Foundation
import TestSupport
import Testing

/// A refused call costs nothing lasting: calls with huge bodies are refused by name before anything is read, and
/// the daemon's resident size comes back to within 2 MiB of its idle value (it rose from about 17 to 50 MiB and
/// stayed there, when such a body was decoded whole and refused afterwards).
@Suite struct MemoryAfterRefusalTests {
    static let window = "/org/traitd/Layout1/window/mail"

    @Test func hugeRefusedCallsLeaveTheResidentSizeWhereItWas() async throws {
        let fixture = try await DaemonFixture()
        let probe = fixture.probe
        func call(_ path: String, _ interface: String, _ member: String, _ arguments: [DBusValue]) async throws -> [DBusValue] {
            try await probe.call(destination: "org.traitd.Layout1", path: path, interface: interface, member: member, arguments)
        }
        /// A round trip: every call sent before it has been answered.
        func settle() async throws {
            _ = try await call("/org/traitd/Layout1", "org.traitd.Layout1.Display", "GetState", [])
        }
        try await settle()
        try await settle()
        let idle = fixture.daemon.residentKiB
        // 500,000 empty arrays in a restoration state (2 MB on the wire), and 100 levels of nesting.
        let wide = DBusValue.array(element: "av", Array(repeating: .array(element: "v", []), count: 500_000))
        var deep = DBusValue.int32(1)
        for _ in 0..<60 { deep = .variant(deep) }
        let huge: [(String, String, String, [DBusValue])] = [
            (Self.window, "org.traitd.Layout1.Window", "SetRestorationState", [.vardict(["k": wide])]),
            (Self.window, "org.freedesktop.DBus.Properties", "Set",
             [.string("org.traitd.Layout1.Window"), .string("RestorationState"), .variant(.vardict(["k": wide]))]),
            (Self.window, "org.traitd.Layout1.Window", "SetRestorationState", [.vardict(["k": deep])]),
            ("/org/traitd/Layout1", "org.traitd.Layout1.Display", "NoSuchMethod", [wide]),
        ]
        var peak = idle
        var refusals: [String] = []
        for round in 0..<5 {
            for (path, interface, member, arguments) in huge {
                do {
                    _ = try await call(path, interface, member, arguments)
                    Issue.record("\(member) with a huge body was accepted")
                } catch let error as DBusError {
                    if round == 0 { refusals.append("\(error.name): \(error.message)") }
                }
                peak = max(peak, fixture.daemon.residentKiB)
            }
        }
        try await settle()
        let after = fixture.daemon.residentKiB
        print("traitd RSS: idle \(idle) KiB, at most \(peak) KiB during 20 huge refused calls, \(after) KiB after")
        #expect(refusals.count == 4)
        #expect(refusals[0].hasPrefix("org.traitd.Layout1.Error.LimitExceeded: the call's body has more than"), "\(refusals)")
        #expect(refusals[1].hasPrefix("org.traitd.Layout1.Error.LimitExceeded: the call's body has more than"), "\(refusals)")
        #expect(refusals[2].hasPrefix("org.traitd.Layout1.Error.LimitExceeded: the call nests more than"), "\(refusals)")
        #expect(refusals[3].hasPrefix("org.traitd.Layout1.Error.LimitExceeded"), "\(refusals)")
        #expect(after - idle < 2048, "RSS went from \(idle) to \(after) KiB (peak \(peak))")
        // Nothing changed, and the daemon still answers.
        let kept = try await call("/org/traitd/Layout1", "org.traitd.Layout1.Display", "GetRestorationState", [.string("mail")])
        #expect(kept == [.vardict([:])], "a refusal changes nothing: \(kept)")
        #expect(fixture.daemon.isRunning)
    }
}
