import DBus
import Foundation
import TestSupport
import TraitClient
import Testing

/// Seeded random calls to every method and property of traitd, of random signatures, depths and sizes, from
/// one connection. After each call: traitd is alive; a refusal has a name a client can act on; a refusal
/// changed nothing (`GetState` and `ListAdapters` byte for byte, `Serial` included).
///
/// `TRAITD_FUZZ_CALLS` (default 20000) and `TRAITD_FUZZ_SEED` (default: a fixed one) reproduce or extend a run.
@Suite struct BusFuzzTests {
    struct Target {
        let path: String
        let interface: String
        let member: String
        let signature: String
    }

    static let windowPaths = ["/org/traitd/Layout1/window/mail", "/org/traitd/Layout1/window/notes"]
    static let paths = ["/org/traitd/Layout1"] + windowPaths + ["/org/traitd/Layout1/window/nope", "/org/traitd", "/"]

    static let targets: [Target] = {
        let display = "org.traitd.Layout1.Display"
        let window = "org.traitd.Layout1.Window"
        let properties = "org.freedesktop.DBus.Properties"
        var all: [Target] = [
            ("SetDevice", "s"), ("Rotate", "s"), ("SetArrangement", "s"), ("OpenApp", "ss"), ("CloseApp", "s"),
            ("ListDevices", ""), ("GetState", ""), ("BeginDividerDrag", ""), ("MoveDivider", "d"),
            ("EndDividerDrag", ""), ("RegisterAdapter", "ss"), ("UnregisterAdapter", "ss"), ("ListAdapters", ""),
            ("GetRestorationState", "s"),
        ].map { Target(path: "/org/traitd/Layout1", interface: display, member: $0.0, signature: $0.1) }
        for path in windowPaths {
            all.append(Target(path: path, interface: window, member: "ReportLayout", signature: "tsa{s(dddd)}a{sv}"))
            all.append(Target(path: path, interface: window, member: "SetRestorationState", signature: "a{sv}"))
        }
        for path in paths {
            all.append(Target(path: path, interface: properties, member: "Get", signature: "ss"))
            all.append(Target(path: path, interface: properties, member: "GetAll", signature: "s"))
            all.append(Target(path: path, interface: properties, member: "Set", signature: "ssv"))
            all.append(Target(path: path, interface: "org.freedesktop.DBus.Introspectable", member: "Introspect", signature: ""))
        }
        all.append(Target(path: "/org/traitd/Layout1", interface: "org.freedesktop.DBus.ObjectManager",
                          member: "GetManagedObjects", signature: ""))
        return all
    }()

    /// Refusals a client can act on. `Failed`, `NoReply` or `Disconnected` would mean traitd did not know
    /// what went wrong, or went away.
    static let namedRefusals: Set<String> = [
        "org.freedesktop.DBus.Error.InvalidArgs", "org.freedesktop.DBus.Error.UnknownMethod",
        "org.freedesktop.DBus.Error.UnknownInterface", "org.freedesktop.DBus.Error.UnknownObject",
        "org.freedesktop.DBus.Error.UnknownProperty", "org.freedesktop.DBus.Error.PropertyReadOnly",
        "org.freedesktop.DBus.Error.AccessDenied",
    ]

    static func isNamed(_ name: String) -> Bool {
        namedRefusals.contains(name) || name.hasPrefix("org.traitd.Layout1.Error.")
    }

    @Test func randomCallsNeverCrashNeverGoUnnamedAndARefusalChangesNothing() async throws {
        let environment = ProcessInfo.processInfo.environment
        let calls = Int(environment["TRAITD_FUZZ_CALLS"] ?? "") ?? 20_000
        let seed = UInt64(environment["TRAITD_FUZZ_SEED"] ?? "") ?? 0x7EA1_7D
        let fixture = try await DaemonFixture(arguments: ["--log-level", "warning"])
        let bus = fixture.probe
        var rng = SeededRandom(seed: seed)

        func snapshot() async throws -> [UInt8] {
            let state = try await bus.call(destination: "org.traitd.Layout1", path: "/org/traitd/Layout1",
                                           interface: "org.traitd.Layout1.Display", member: "GetState")
            let adapters = try await bus.call(destination: "org.traitd.Layout1", path: "/org/traitd/Layout1",
                                              interface: "org.traitd.Layout1.Display", member: "ListAdapters")
            return try Marshalling.encode(state + adapters)  // bytes: NaN compares equal to itself here
        }

        func serial() async throws -> [DBusValue] {
            try await bus.call(destination: "org.traitd.Layout1", path: "/org/traitd/Layout1",
                               interface: "org.freedesktop.DBus.Properties", member: "Get",
                               [.string("org.traitd.Layout1.Display"), .string("Serial")])
        }
        // Calls that change state when accepted. After a refusal of one of them the whole state is compared;
        // after any other refusal, Serial (the whole state is compared every 100 calls as well).
        let mutating: Set<String> = [
            "SetDevice", "Rotate", "SetArrangement", "OpenApp", "CloseApp", "BeginDividerDrag", "MoveDivider",
            "EndDividerDrag", "RegisterAdapter", "UnregisterAdapter", "ReportLayout", "SetRestorationState", "Set",
        ]
        /// Brings mail and notes back (random calls close apps, and then every window call is UnknownObject)
        /// and registers the fuzzer's own adapter for both, so that its reports get past "no such adapter"
        /// to the checks on their values. What it cannot do is refused, which is fine.
        func repair() async {
            for (member, arguments) in [
                ("EndDividerDrag", []), ("OpenApp", [DBusValue.string("mail"), .string("primary")]),
                ("OpenApp", [.string("notes"), .string("secondary")]), ("SetArrangement", [.string("split-two-thirds")]),
                ("RegisterAdapter", [.string("mail"), .string("fuzz")]), ("RegisterAdapter", [.string("notes"), .string("fuzz")]),
            ] {
                _ = try? await bus.call(destination: "org.traitd.Layout1", path: "/org/traitd/Layout1",
                                        interface: "org.traitd.Layout1.Display", member: member, arguments)
            }
        }
        await repair()
        var baseline = try await snapshot()
        var baselineSerial = try await serial()
        let startRSS = fixture.daemon.residentKiB
        var accepted = 0, refused = 0, unsendable = 0
        var refusals: [String: Int] = [:]
        var problems: [String] = []
        let storing = Self.targets.filter { $0.member == "ReportLayout" || $0.member == "SetRestorationState" }
        for n in 0..<calls {
            if n % 200 == 199 {
                await repair()
                baseline = try await snapshot()
                baselineSerial = try await serial()
            }
            var target = rng.pick(Self.targets)
            var arguments: [DBusValue]
            switch rng.unit() {
            case ..<0.6:  // the right signature, random values
                arguments = RandomValues.values(target.signature, depth: 8, &rng)
            case ..<0.85:  // a random signature
                let count = rng.int(0...4)
                arguments = (0..<count).map { _ in
                    RandomValues.value(Substring(RandomValues.signature(depth: 6, &rng)), depth: 8, &rng).0
                }
            default:  // deep or large values where traitd stores them
                target = rng.pick(storing)
                let deep = DBusValue.nested(rng.int(8...20))
                let large = DBusValue.string(String(repeating: "z", count: rng.pick([1000, 70_000, 300_000])))
                let extras = DBusValue.vardict(["x": rng.chance(0.5) ? deep : large])
                arguments = target.member == "ReportLayout"
                    ? [.uint64(0), .string(rng.pick(["sidebar", "fuzz"])), .array(element: "{s(dddd)}", []), extras]
                    : [extras]
            }
            let path = rng.chance(0.05) ? rng.pick(Self.paths) : target.path
            let message = try Message.methodCall(destination: "org.traitd.Layout1", path: path,
                                                 interface: target.interface, member: target.member)
            do {
                // A bus's max_message_size is 32 MiB unless configured; a larger call would only cost the
                // fuzzer its own connection. traitd's limits are far below this.
                guard WireLimits.measure(arguments).bytes < 4 * 1024 * 1024 else { throw DBusError.failed("too large") }
                try message.append(arguments)
            } catch {
                unsendable += 1  // past D-Bus's own limits: the bus would not carry it
                continue
            }
            if environment["TRAITD_FUZZ_TRACE"] != nil {
                print("call \(n) \(path) \(target.member)(\(arguments.map(\.signature).joined())) \(String(describing: arguments).prefix(300))")
            }
            do {
                _ = try await bus.call(message, timeout: 10)
                accepted += 1
                if mutating.contains(target.member) {
                    baseline = try await snapshot()
                    baselineSerial = try await serial()
                }
            } catch let error as DBusError {
                refused += 1
                refusals[error.name, default: 0] += 1
                if !Self.isNamed(error.name) {
                    problems.append("call \(n) \(target.member)(\(arguments.map(\.signature).joined())): unnamed \(error)")
                }
                let changed = mutating.contains(target.member) || n % 100 == 0
                    ? try await snapshot() != baseline : try await serial() != baselineSerial
                if changed {
                    problems.append("call \(n) \(target.member)(\(arguments.map(\.signature).joined())) was refused (\(error.name)) but changed the state")
                    baseline = try await snapshot()
                    baselineSerial = try await serial()
                }
            }
            guard fixture.daemon.isRunning else {
                problems.append("traitd died at call \(n): \(fixture.daemon.standardError.suffix(2000))")
                break
            }
            if problems.count > 20 { break }
        }
        let endRSS = fixture.daemon.residentKiB
        let daemonCPU = (try? String(contentsOfFile: "/proc/\(fixture.daemon.pid)/stat", encoding: .utf8))
            .map { $0.split(separator: ")").last!.split(separator: " ") }.map { Double(Int($0[11])! + Int($0[12])!) / 100 } ?? 0
        print("""
            bus fuzz: seed \(seed), \(calls) calls: \(accepted) accepted, \(refused) refused by name, \
            \(unsendable) past D-Bus limits or 4 MiB (not sent); traitd RSS \(startRSS / 1024) -> \(endRSS / 1024) MiB, traitd CPU \(daemonCPU) s
            refusals: \(refusals.sorted { $0.key < $1.key }.map { "\($0.key.split(separator: ".").last!) \($0.value)" }.joined(separator: ", "))
            """)
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
        #expect(fixture.daemon.isRunning)
        #expect(refused > calls / 2, "most random calls are refusals")
        #expect(endRSS - startRSS < 64 * 1024, "RSS grew from \(startRSS) KiB to \(endRSS) KiB")
    }
}
