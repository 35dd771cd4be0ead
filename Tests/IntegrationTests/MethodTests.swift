import Foundation
import TestSupport
import Testing

/// Every method and property through dbus-send, busctl and gdbus.
@Suite struct MethodTests {
    @Test func everyDisplayPropertyThroughBusctl() async throws {
        let fixture = try await DaemonFixture()
        let expected = [
            "Device": "s \"ipad-9.7\"", "Orientation": "s \"landscape-left\"", "ScreenSize": "(dd) 1024 768",
            "Scale": "d 2", "Arrangement": "s \"split-two-thirds\"",
            "Windows": "ao 2 \"/org/traitd/Layout1/window/mail\" \"/org/traitd/Layout1/window/notes\"", "Serial": "t 1",
            "Appearance": "s \"light\"", "ContentSizeCategory": "s \"large\"", "LayoutDirection": "s \"left-to-right\"",
            "Contrast": "s \"normal\"", "LegibilityWeight": "s \"regular\"", "ReduceMotion": "b false",
        ]
        for (name, value) in expected {
            let got = try await fixture.busctl(["get-property", "org.traitd.Layout1", "/org/traitd/Layout1",
                                          "org.traitd.Layout1.Display", name])
            #expect(got.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == value, "\(name)")
        }
    }

    @Test func everyWindowPropertyThroughGdbus() async throws {
        let fixture = try await DaemonFixture()
        let all = try await fixture.gdbus("call", ["--dest", "org.traitd.Layout1", "--object-path", "/org/traitd/Layout1/window/notes",
                                             "--method", "org.freedesktop.DBus.Properties.GetAll", "org.traitd.Layout1.Window"])
        #expect(all.status == 0)
        for fragment in ["'App': <'notes'>", "'Role': <'secondary'>", "'Frame': <(704.0, 0.0, 320.0, 768.0)>",
                         "'HorizontalSizeClass': <'compact'>", "'VerticalSizeClass': <'regular'>", "'State': <'active'>",
                         "'Adapters': <@as []>", "'Layouts': <@a{sa{s(dddd)}} {}>",
                         "'Traits': <{'accessibilityContrast': <'normal'>, 'activeAppearance': <'active'>, 'displayGamut': <'srgb'>, 'displayScale': <2.0>, 'horizontalSizeClass': <'compact'>, 'idiom': <'pad'>, 'layoutDirection': <'left-to-right'>, 'legibilityWeight': <'regular'>, 'preferredContentSizeCategory': <'large'>, 'userInterfaceLevel': <'base'>, 'userInterfaceStyle': <'light'>, 'verticalSizeClass': <'regular'>, 'windowHeightSizeClass': <'medium'>, 'windowWidthSizeClass': <'compact'>}>", "'Breakpoints': <@as []>"] {
            #expect(all.stdout.contains(fragment), "GetAll has \(fragment)")
        }
    }

    @Test func everyDisplayMethodThroughDbusSend() async throws {
        let fixture = try await DaemonFixture()
        #expect(try await fixture.dbusSend("Rotate", ["string:portrait"]).status == 0)
        #expect(try await fixture.dbusSend("SetDevice", ["string:ipad-pro-12.9"]).status == 0)
        #expect(try await fixture.dbusSend("SetArrangement", ["string:split-one-third"]).status == 0)
        let opened = try await fixture.dbusSend("OpenApp", ["string:my-video", "string:pip"])
        #expect(opened.stdout.contains("object path \"/org/traitd/Layout1/window/my_2dvideo\""))
        #expect(try await fixture.dbusSend("CloseApp", ["string:notes"]).status == 0)
        let devices = try await fixture.dbusSend("ListDevices")
        for id in ["ipad-9.7", "ipad-10.2", "ipad-pro-10.5", "ipad-pro-11", "ipad-air-10.9", "ipad-pro-12.9", "ipad-mini-6",
                   "iphone-se-1", "iphone-8", "iphone-8-plus", "iphone-x", "iphone-xr", "iphone-xs-max", "iphone-12",
                   "iphone-13-mini", "iphone-12-pro-max"] {
            #expect(devices.stdout.contains("string \"\(id)\""))
        }
        // GetState through busctl: serial 6 after five changes; mail is now alone with the PiP window.
        let state = try await fixture.busctl(["call", "org.traitd.Layout1", "/org/traitd/Layout1", "org.traitd.Layout1.Display",
                                        "GetState", "--json=short"])
        #expect(state.status == 0)
        let json = try JSONSerialization.jsonObject(with: Data(state.stdout.utf8)) as? [String: Any]
        let data = try #require(json?["data"] as? [Any])
        #expect(data.first as? Int == 6)
        let display = try #require(data[1] as? [String: [String: Any]])
        #expect(display["Device"]?["data"] as? String == "ipad-pro-12.9")
        #expect(display["Arrangement"]?["data"] as? String == "full")
        #expect(display["ScreenSize"]?["data"] as? [Double] == [1024, 1366])
        let windows = try #require(data[2] as? [[Any]])
        #expect(windows.map { $0[0] as? String } == ["/org/traitd/Layout1/window/mail", "/org/traitd/Layout1/window/my_2dvideo"])
        let mail = try #require(windows[0][1] as? [String: [String: Any]])
        #expect(mail["Frame"]?["data"] as? [Double] == [0, 0, 1024, 1366])
        // The window object of a closed app is gone.
        let gone = try await fixture.dbusSend("Get", ["string:org.traitd.Layout1.Window", "string:App"],
                                        path: "/org/traitd/Layout1/window/notes", interface: "org.freedesktop.DBus.Properties")
        #expect(gone.status != 0 && gone.stderr.contains("org.freedesktop.DBus.Error.UnknownObject"))
    }

    @Test func getAllWithAnEmptyInterfaceNameReturnsEveryProperty() async throws {
        let fixture = try await DaemonFixture()
        let all = try await fixture.dbusSend("GetAll", ["string:"], interface: "org.freedesktop.DBus.Properties")
        #expect(all.status == 0)
        for name in ["Device", "Orientation", "ScreenSize", "Scale", "Arrangement", "Windows", "Serial"] {
            #expect(all.stdout.contains("string \"\(name)\""), "\(name)")
        }
    }

    @Test func everyArrangementCanBeTriedWithTheDefaultApps() async throws {
        let fixture = try await DaemonFixture()
        for arrangement in ["full", "split-half", "split-one-third", "slide-over", "split-two-thirds"] {
            let result = try await fixture.busctl(["call", "org.traitd.Layout1", "/org/traitd/Layout1", "org.traitd.Layout1.Display",
                                             "SetArrangement", "s", arrangement])
            #expect(result.status == 0, "\(arrangement): \(result.stderr)")
            let got = try await fixture.busctl(["get-property", "org.traitd.Layout1", "/org/traitd/Layout1",
                                          "org.traitd.Layout1.Display", "Arrangement"])
            #expect(got.stdout.contains("\"\(arrangement)\""))
        }
    }
}
