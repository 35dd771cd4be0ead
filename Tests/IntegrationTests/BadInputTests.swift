import Foundation
import TestSupport
import Testing

/// Bad input gets a named error and changes nothing; the daemon keeps answering.
@Suite struct BadInputTests {
    static let long = String(repeating: "x", count: 10 * 1024)

    /// (dbus-send method and arguments, expected error name, a fragment of the message)
    static let cases: [([String], String, String)] = [
        (["Rotate", "int32:3"], "InvalidArgs", "takes (s orientation)"),
        (["Rotate", "double:nan"], "InvalidArgs", "takes (s orientation)"),
        (["Rotate", "double:inf"], "InvalidArgs", "takes (s orientation)"),
        (["Rotate", "string:portrait", "string:extra"], "InvalidArgs", "but the call carried 'ss'"),
        (["Rotate"], "InvalidArgs", "but the call carried ''"),
        (["Rotate", "string:sideways"], "InvalidArgs", "unknown orientation 'sideways'; expected one of: portrait,"),
        (["Rotate", "string:"], "InvalidArgs", "orientation is empty"),
        (["Rotate", "string:\(long)"], "InvalidArgs", "is 10240 bytes long; at most 256"),
        (["SetDevice", "string:ipad-99"], "InvalidArgs", "unknown device 'ipad-99'; known devices: ipad-10.2,"),
        (["SetDevice", "string:"], "InvalidArgs", "the device is empty"),
        (["SetDevice", "string:\(long)"], "InvalidArgs", "10240 bytes"),
        (["SetArrangement", "string:split-quarter"], "InvalidArgs", "expected one of: full, split-two-thirds,"),
        (["SetArrangement", "uint32:1"], "InvalidArgs", "takes (s arrangement)"),
        (["OpenApp", "string:bad name", "string:pip"], "InvalidArgs", "is not a valid app name: use 1-64 characters"),
        (["OpenApp", "string:", "string:pip"], "InvalidArgs", "the app name is empty"),
        (["OpenApp", "string:\(String(repeating: "a", count: 65))", "string:pip"], "InvalidArgs", "not a valid app name"),
        (["OpenApp", "string:a/b", "string:pip"], "InvalidArgs", "not a valid app name"),
        (["OpenApp", "string:\(long)", "string:pip"], "InvalidArgs", "10240 bytes"),
        (["OpenApp", "string:video", "string:boss"], "InvalidArgs", "unknown role 'boss'; expected one of: primary, secondary, slide-over, pip"),
        (["OpenApp", "string:mail", "string:pip"], "org.traitd.Layout1.Error.AppExists", "app 'mail' is already open"),
        (["OpenApp", "string:other", "string:secondary"], "org.traitd.Layout1.Error.RoleTaken", "'notes' holds the secondary role"),
        (["OpenApp", "objpath:/x", "string:pip"], "InvalidArgs", "takes (s app, s role)"),
        (["CloseApp", "string:ghost"], "org.traitd.Layout1.Error.NoSuchApp", "no app 'ghost' is open; open apps: mail, notes"),
        (["CloseApp", "string:no way"], "InvalidArgs", "not a valid app name"),
        (["ListDevices", "string:x"], "InvalidArgs", "takes ()"),
        (["NoSuchMethod"], "UnknownMethod", "has no method NoSuchMethod"),
    ]

    @Test func everyBadCallIsRefusedWithANamedErrorAndChangesNothing() async throws {
        let fixture = try await DaemonFixture()
        let before = try await fixture.dbusSend("GetState")
        #expect(before.status == 0)
        for (call, name, fragment) in Self.cases {
            let result = try await fixture.dbusSend(call[0], Array(call.dropFirst()))
            let shown = call.map { $0.count > 60 ? String($0.prefix(30)) + "…" : $0 }.joined(separator: " ")
            #expect(result.status != 0, "\(shown) must fail")
            let errorName = name.contains(".") ? name : "org.freedesktop.DBus.Error.\(name)"
            #expect(result.stderr.hasPrefix("Error \(errorName): "), "\(shown): \(result.stderr)")
            #expect(result.stderr.contains(fragment), "\(shown): \(result.stderr)")
            #expect(result.stderr.utf8.count < 600, "\(shown): the message stays short")
        }
        // Unchanged state and serial; still answering.
        // (dbus-send's first line names the reply's serial, which differs.)
        let after = try await fixture.dbusSend("GetState")
        #expect(after.stdout.split(separator: "\n").dropFirst() == before.stdout.split(separator: "\n").dropFirst())
        #expect(after.stdout.contains("uint64 1\n"))
        #expect(fixture.daemon.isRunning)
    }

    @Test func notOfferedArrangementNamesTheOfferedOnes() async throws {
        let fixture = try await DaemonFixture()
        #expect(try await fixture.dbusSend("Rotate", ["string:portrait"]).status == 0)
        let refused = try await fixture.busctl(["call", "org.traitd.Layout1", "/org/traitd/Layout1", "org.traitd.Layout1.Display",
                                          "SetArrangement", "s", "split-half"])
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("ipad-9.7 does not offer split-half in portrait; offered: full, split-two-thirds, split-one-third, slide-over"))
        let serial = try await fixture.busctl(["get-property", "org.traitd.Layout1", "/org/traitd/Layout1",
                                         "org.traitd.Layout1.Display", "Serial"])
        #expect(serial.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "t 2")
    }

    @Test func propertiesAreReadOnlyAndNamed() async throws {
        let fixture = try await DaemonFixture()
        let set = try await fixture.gdbus("call", ["--dest", "org.traitd.Layout1", "--object-path", "/org/traitd/Layout1",
                                             "--method", "org.freedesktop.DBus.Properties.Set",
                                             "org.traitd.Layout1.Display", "Orientation", "<'portrait'>"])
        #expect(set.status != 0 && set.stderr.contains("org.freedesktop.DBus.Error.PropertyReadOnly"))
        let unknown = try await fixture.busctl(["get-property", "org.traitd.Layout1", "/org/traitd/Layout1",
                                          "org.traitd.Layout1.Display", "Colour"])
        #expect(unknown.status != 0 && unknown.stderr.contains("has no property 'Colour'"))
        let wrongInterface = try await fixture.dbusSend("GetAll", ["string:org.example.Nothing"],
                                                  interface: "org.freedesktop.DBus.Properties")
        #expect(wrongInterface.stderr.contains("org.freedesktop.DBus.Error.UnknownInterface"))
        let noWindow = try await fixture.busctl(["get-property", "org.traitd.Layout1", "/org/traitd/Layout1/window/ghost",
                                           "org.traitd.Layout1.Window", "App"])
        #expect(noWindow.status != 0 && noWindow.stderr.contains("no object at /org/traitd/Layout1/window/ghost"))
        #expect(try await fixture.dbusSend("Rotate", ["string:portrait"]).status == 0, "still answering")
    }
}
