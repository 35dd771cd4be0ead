import Foundation
import TestSupport
import Testing

/// Introspection and the standard interfaces, read with three independent D-Bus implementations.
@Suite struct IntrospectionTests {
    @Test func theInterfaceFileIsWhatTheDaemonServes() async throws {
        let fixture = try await DaemonFixture()
        let file = try String(contentsOf: Binaries.repository.appendingPathComponent("Config/dbus-1/org.traitd.Layout1.xml"),
                              encoding: .utf8)
        let printed = try await ChildProcess.run(Binaries.path("traitd"), ["--print-introspection"])
        #expect(printed.stdout == file, "regenerate with: make introspection")
        // Every <interface> block of the file appears, unchanged, in the root object's introspection.
        let served = try await fixture.dbusSend("Introspect", path: "/org/traitd/Layout1",
                                          interface: "org.freedesktop.DBus.Introspectable")
        #expect(served.status == 0)
        let display = try #require(file.range(of: "  <interface name=\"org.traitd.Layout1.Display\">"))
        let displayEnd = try #require(file.range(of: "  </interface>", range: display.upperBound..<file.endIndex))
        #expect(served.stdout.contains(String(file[display.lowerBound..<displayEnd.upperBound])))
        for standard in ["org.freedesktop.DBus.Properties", "org.freedesktop.DBus.Introspectable",
                         "org.freedesktop.DBus.Peer", "org.freedesktop.DBus.ObjectManager"] {
            #expect(served.stdout.contains("<interface name=\\\"\(standard)\\\">") || served.stdout.contains("<interface name=\"\(standard)\">"))
        }
        #expect(served.stdout.contains("<node name=\"window\"/>"))
    }

    /// The Python client's contract is generated from the same declarations (`make introspection`), and the
    /// error list it is made from names every error declared (the client builds its classes from it).
    @Test func thePythonContractIsWhatTraitdPrints() async throws {
        let file = try String(contentsOf: Binaries.repository.appendingPathComponent("clients/python/traitd/_contract.py"), encoding: .utf8)
        let printed = try await ChildProcess.run(Binaries.path("traitd"), ["--print-python-contract"])
        #expect(printed.status == 0 && printed.stdout == file, "regenerate with: make introspection")
        let declarations = try String(contentsOf: Binaries.repository.appendingPathComponent("Sources/TraitProtocol/Layout1.swift"), encoding: .utf8)
        let declared = declarations.matches(of: /public static let [a-zA-Z]+ = "(org\.traitd\.Layout1\.Error\.[A-Za-z]+)"/).map { String($0.1) }
        let listed = file.matches(of: /\ {4}"(org\.traitd\.Layout1\.Error\.[A-Za-z]+)",/).map { String($0.1) }
        #expect(declared.count >= 17 && listed == declared, "Layout1.Error.all leaves out: \(Set(declared).subtracting(listed))")
    }

    @Test func busctlAndGdbusSeeTheTree() async throws {
        let fixture = try await DaemonFixture()
        let tree = try await fixture.busctl(["tree", "org.traitd.Layout1"])
        #expect(tree.status == 0, "\(tree.stderr)")
        for path in ["/org/traitd/Layout1", "/org/traitd/Layout1/window/mail", "/org/traitd/Layout1/window/notes"] {
            #expect(tree.stdout.contains(path), "busctl tree lists \(path)")
        }
        let window = try await fixture.busctl(["introspect", "org.traitd.Layout1", "/org/traitd/Layout1/window/mail",
                                         "org.traitd.Layout1.Window"])
        #expect(window.status == 0)
        for member in ["WillTransitionToTraitCollection", "ViewWillTransitionToSize", "TraitCollectionDidChange",
                       "TransitionCompleted", "HorizontalSizeClass", "Frame", "Traits"] {
            #expect(window.stdout.contains(member), "busctl introspect shows \(member)")
        }
        let gdbus = try await fixture.gdbus("introspect", ["--dest", "org.traitd.Layout1", "--object-path", "/org/traitd/Layout1"])
        #expect(gdbus.status == 0 && gdbus.stdout.contains("GetState(out t serial,"))
    }

    @Test func peerAnswersEverywhere() async throws {
        let fixture = try await DaemonFixture()
        let ping = try await fixture.dbusSend("Ping", path: "/org/traitd/Layout1/window/mail", interface: "org.freedesktop.DBus.Peer")
        #expect(ping.status == 0)
        let id = try await fixture.busctl(["call", "org.traitd.Layout1", "/org/traitd/Layout1", "org.freedesktop.DBus.Peer",
                                     "GetMachineId"])
        #expect(id.status == 0 && id.stdout.hasPrefix("s \""))
    }

    @Test func objectManagerListsTheWindows() async throws {
        let fixture = try await DaemonFixture()
        let objects = try await fixture.gdbus("call", ["--dest", "org.traitd.Layout1", "--object-path", "/org/traitd/Layout1",
                                                 "--method", "org.freedesktop.DBus.ObjectManager.GetManagedObjects"])
        #expect(objects.status == 0)
        #expect(objects.stdout.contains("objectpath '/org/traitd/Layout1/window/mail'"))
        #expect(objects.stdout.contains("'/org/traitd/Layout1/window/notes': {'org.traitd.Layout1.Window'"))
        #expect(objects.stdout.contains("'App': <'notes'>"))
    }
}
