import DBus
import Foundation
import TestSupport
import TraitClient
import Testing

@Suite struct TraitctlTests {
    /// `adapters --json`: the registrations as an array of {app, adapter, owner}, parsed back.
    @Test func adaptersAsJSON() async throws {
        let fixture = try await DaemonFixture()
        let adapter = try TraitClient(bus: .address(fixture.bus.address))
        defer { adapter.close() }
        try await adapter.registerAdapter("probe", for: "mail")
        let run = try await fixture.traitctl(["adapters", "--json"])
        let list = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: String]])
        let owner = adapter.connection.uniqueName
        #expect(list == [["app": "mail", "adapter": "probe", "owner": owner]], "\(run.stdout)")
    }

    /// `devices --json`: every profile the daemon lists, described (as `simctl list -j`), parsed back.
    @Test func devicesAsJSON() async throws {
        let fixture = try await DaemonFixture()
        let run = try await fixture.traitctl(["devices", "--json"])
        #expect(run.status == 0 && run.stderr.isEmpty, "\(run.stderr)")
        let devices = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]])
        let listed = try await fixture.traitctl(["devices"]).stdout.split(separator: "\n").map(String.init)
        #expect(devices.map { $0["id"] as? String } == listed && devices.count == 30)
        let phone = try #require(devices.first { $0["id"] as? String == "iphone-15" })
        #expect(phone["name"] as? String == "iPhone 14 Pro, 15, 15 Pro, 16" && phone["idiom"] as? String == "phone")
        #expect(phone["scale"] as? Double == 3 && phone["screen"] as? [Double] == [852, 393] && phone["pixels"] as? [Double] == [2556, 1179])
        #expect(phone["windowing"] as? [String] == ["split-view"] && phone["displayGamut"] as? String == "p3")
        #expect(phone["orientations"] as? [String] == ["portrait", "landscape-left", "landscape-right"])
        let portrait = try #require(phone["portrait"] as? [String: Any])
        #expect(portrait["safeArea"] as? [Double] == [59, 0, 34, 0] && portrait["arrangements"] as? [String] == ["full"])
        let pad = try #require(devices.first { $0["id"] as? String == "ipad-9.7" })
        let landscape = try #require(pad["landscape"] as? [String: Any])
        let half = try #require((landscape["widths"] as? [String: Any])?["half"] as? [String: Any])
        #expect(half["width"] as? Double == 507 && half["horizontal"] as? String == "compact")
        #expect((landscape["arrangements"] as? [String])?.contains("split-half") == true && pad["confidence"] as? String == "high")
        #expect((pad["freeForm"] as? [String: Any])?["regularWidth"] as? Double == 678)
    }

    @Test func statusAsTableAndJSON() async throws {
        let fixture = try await DaemonFixture()
        let table = try await fixture.traitctl(["status"])
        #expect(table.status == 0)
        #expect(table.stdout.hasPrefix("ipad-9.7  landscape-left  1024 x 768 pt @2x  split-two-thirds  (serial 1)\n"))
        #expect(table.stdout.contains("mail   primary    0, 0, 694 x 768      regular  regular  active"))
        #expect(table.stdout.contains("notes  secondary  704, 0, 320 x 768    compact  regular  active"))
        let json = try await fixture.traitctl(["status", "--json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(object["arrangement"] as? String == "split-two-thirds" && object["serial"] as? Int == 1)
        let windows = try #require(object["windows"] as? [[String: Any]])
        #expect(windows.map { $0["app"] as? String } == ["mail", "notes"])
        #expect(windows[1]["frame"] as? [Double] == [704, 0, 320, 768])
    }

    @Test func setOpenCloseDevices() async throws {
        let fixture = try await DaemonFixture()
        #expect(try await fixture.traitctl(["set", "device", "ipad-pro-12.9"]).status == 0)
        #expect(try await fixture.traitctl(["set", "arrangement", "split-half"]).status == 0)
        #expect(try await fixture.traitctl(["set", "orientation", "portrait"]).status == 0)
        let open = try await fixture.traitctl(["open", "tv", "--role", "pip"])
        #expect(open.status == 0 && open.stdout == "/org/traitd/Layout1/window/tv\n")
        #expect(try await fixture.traitctl(["close", "notes"]).status == 0)
        let status = try await fixture.traitctl(["status"]).stdout
        #expect(status.hasPrefix("ipad-pro-12.9  portrait  1024 x 1366 pt @2x  full  (serial 6)"))
        #expect(status.contains("\ntv    pip      629, 1135, 375 x 211  compact  compact  active"))
        let devices = try await fixture.traitctl(["devices", "--daemon"])
        #expect(devices.stdout.split(separator: "\n").count == 30, "12 iPads and 18 iPhones")
        #expect(devices.stderr.hasPrefix("traitctl: the profiles of the daemon on the "), "it says it asked one")
        // Without --daemon, no daemon is needed: the catalog, the same 30.
        let offline = try await ChildProcess.run(Binaries.path("traitctl"), ["devices", "--bus", "unix:path=/nonexistent/bus"])
        #expect(offline.status == 0 && offline.stdout == devices.stdout && offline.stderr.isEmpty, "\(offline)")
    }

    /// Errors that help: no session bus says how to get one, in one line; a slip is answered with the nearest
    /// word; `get` reads what `set` sets, by the same word.
    @Test func errorsSayWhatToDo() async throws {
        var environment = ProcessInfo.processInfo.environment
        environment.removeValue(forKey: "DBUS_SESSION_BUS_ADDRESS")
        let noBus = try await ChildProcess.run(Binaries.path("traitctl"), ["status"], environment: environment)
        #expect(noBus.status == 1 && noBus.stderr == "traitctl: no session bus (DBUS_SESSION_BUS_ADDRESS is not set): after make run, source .build/session-bus.env; or run on a bus of its own: traitctl run -- traitctl ...\n", "\(noBus)")
        let fixture = try await DaemonFixture()
        let device = try await fixture.traitctl(["set", "device", "ipad-97"])
        #expect(device.stderr.hasPrefix("traitctl: org.freedesktop.DBus.Error.InvalidArgs: unknown device 'ipad-97'; did you mean ipad-9.7? known devices: "), "\(device)")
        let orientation = try await fixture.traitctl(["set", "orientation", "portait"])
        #expect(orientation.stderr.contains("unknown orientation 'portait'; did you mean portrait? expected one of: "), "\(orientation)")
        #expect(try await fixture.traitctl(["set", "keyboard", "docked"]).status == 0)
        for (word, value) in [("orientation", "landscape-left"), ("device", "ipad-9.7"), ("arrangement", "split-two-thirds"),
                              ("windowing", "split-view"), ("keyboard", "docked"), ("appearance", "light")] {
            #expect(try await fixture.traitctl(["get", word]).stdout == value + "\n", "get \(word)")
        }
    }

    @Test func getPrintsOnePropertyPlainOrAsJSON() async throws {
        let fixture = try await DaemonFixture()
        #expect(try await fixture.traitctl(["get", "Orientation"]).stdout == "landscape-left\n")
        #expect(try await fixture.traitctl(["get", "Serial"]).stdout == "1\n")
        #expect(try await fixture.traitctl(["get", "Frame", "--app", "notes"]).stdout == "[704,0,320,768]\n")
        #expect(try await fixture.traitctl(["get", "Windows"]).stdout
            == "[\"/org/traitd/Layout1/window/mail\",\"/org/traitd/Layout1/window/notes\"]\n", "object paths, / unescaped")
        let traits = try await fixture.traitctl(["get", "Traits", "--app", "notes"]).stdout
        let object = try #require(try JSONSerialization.jsonObject(with: Data(traits.utf8)) as? [String: Any])
        #expect(object["horizontalSizeClass"] as? String == "compact" && object["displayScale"] as? Double == 2)
        // It follows changes: busctl (sd-bus) moves the display, traitctl reads the new value.
        #expect(try await fixture.busctl(["call", "org.traitd.Layout1", "/org/traitd/Layout1", "org.traitd.Layout1.Display",
                                    "Rotate", "s", "portrait"]).status == 0)
        #expect(try await fixture.traitctl(["get", "Frame", "--app", "mail"]).stdout == "[0,0,438,1024]\n")
        let unknown = try await fixture.traitctl(["get", "Nope"])
        #expect(unknown.status == 1 && unknown.stderr.contains("UnknownProperty") && unknown.stderr.contains("'Nope'"))
        let noWindow = try await fixture.traitctl(["get", "Frame", "--app", "tv"])
        #expect(noWindow.status == 1 && noWindow.stderr.contains("tv has no window"), "\(noWindow.stderr)")
    }

    @Test func errorsAreOneLineAndExitOne() async throws {
        let fixture = try await DaemonFixture()
        let refused = try await fixture.traitctl(["set", "orientation", "sideways"])
        #expect(refused.status == 1)
        #expect(refused.stderr.hasPrefix("traitctl: org.freedesktop.DBus.Error.InvalidArgs: unknown orientation 'sideways'"))
        #expect(refused.stderr.split(separator: "\n").count == 1)
        let noDaemon = try await ChildProcess.run(Binaries.path("traitctl"), ["status", "--bus", "unix:path=/nonexistent/bus"])
        #expect(noDaemon.status == 1 && noDaemon.stderr.hasPrefix("traitctl: "))
    }

    @Test func watchPrintsEachSignalOnOneLine() async throws {
        let fixture = try await DaemonFixture()
        let watch = try await startTraitctlWatch(fixture, ["--count", "19"])
        #expect(try await fixture.traitctl(["set", "orientation", "portrait"]).status == 0)
        #expect(await watch.wait(timeout: 30) == 0)
        let lines = watch.standardOutput.split(separator: "\n").map { String($0.dropFirst(13)) }
        #expect(lines == [
            "mail WillTransitionToTraitCollection #1 horizontal=compact vertical=regular",
            "mail ViewWillTransitionToSize #1 438x1024 reason=rotation orientation=portrait duration=0.3s",
            "notes WillTransitionToTraitCollection #2 horizontal=compact vertical=regular",
            "notes ViewWillTransitionToSize #2 320x1024 reason=rotation orientation=portrait duration=0.3s",
            "display PropertiesChanged DividerPosition=438 Orientation=portrait ScreenSize=(768,1024) Serial=2",
            "mail PropertiesChanged Frame=(0,0,438,1024) HorizontalSizeClass=compact Traits={accessibilityContrast=normal,activeAppearance=active,displayGamut=srgb,displayScale=2,horizontalSizeClass=compact,idiom=pad,layoutDirection=left-to-right,legibilityWeight=regular,preferredContentSizeCategory=large,userInterfaceLevel=base,userInterfaceStyle=light,verticalSizeClass=regular,windowHeightSizeClass=expanded,windowWidthSizeClass=compact}",
            "mail DidUpdateEffectiveGeometry #1 previous frame=(0,0,694,768) display=device orientation=landscape-left",
            "notes PropertiesChanged Frame=(448,0,320,1024) Traits={accessibilityContrast=normal,activeAppearance=active,displayGamut=srgb,displayScale=2,horizontalSizeClass=compact,idiom=pad,layoutDirection=left-to-right,legibilityWeight=regular,preferredContentSizeCategory=large,userInterfaceLevel=base,userInterfaceStyle=light,verticalSizeClass=regular,windowHeightSizeClass=expanded,windowWidthSizeClass=compact}",
            "notes DidUpdateEffectiveGeometry #2 previous frame=(704,0,320,768) display=device orientation=landscape-left",
            "mail TraitCollectionDidChange #1 previous horizontal=regular vertical=regular",
            "mail TraitDidChange #1 horizontalSizeClass=compact previous=regular",
            "mail TraitDidChange #1 windowHeightSizeClass=expanded previous=medium",
            "mail TraitDidChange #1 windowWidthSizeClass=compact previous=medium",
            "mail ViewWillLayoutSubviews #1",
            "notes TraitCollectionDidChange #2 previous horizontal=compact vertical=regular",
            "notes TraitDidChange #2 windowHeightSizeClass=expanded previous=medium",
            "notes ViewWillLayoutSubviews #2",
            "mail TransitionCompleted #1 reported=[] missed=[] failed=[]",
            "notes TransitionCompleted #2 reported=[] missed=[] failed=[]",
        ])
    }

    @Test func dragShowsEachStepAndWatchShowsAppStates() async throws {
        let fixture = try await DaemonFixture()
        let watcher = try await startTraitctlWatch(fixture, ["--count", "5"])
        let begin = try await fixture.traitctl(["drag", "begin"])
        #expect(begin.status == 0 && begin.stdout == "divider 694 dragging, arrangement split-two-thirds, mail 694pt inactive, notes 320pt inactive\n")
        #expect(await watcher.wait(timeout: 30) == 0)
        #expect(watcher.standardOutput.split(separator: "\n").map { String($0.dropFirst(13)) } == [
            "mail WillResignActive", "notes WillResignActive", "display PropertiesChanged Dragging=true Serial=2",
            "mail PropertiesChanged State=inactive", "notes PropertiesChanged State=inactive",
        ])
        let move = try await fixture.traitctl(["drag", "move", "500"])
        #expect(move.stdout == "divider 500 dragging, arrangement split-two-thirds, mail 507pt inactive, notes 507pt inactive\n")
        let end = try await fixture.traitctl(["drag", "end"])
        #expect(end.stdout == "divider 507 released, arrangement split-half, mail 507pt active, notes 507pt active\n")
        let wrong = try await fixture.traitctl(["drag", "end"])
        #expect(wrong.status == 1 && wrong.stderr.contains("org.traitd.Layout1.Error.NotDragging"))
        #expect(try await fixture.traitctl(["drag", "move"]).stderr.contains("needs the divider's position"))
    }

    @Test func restoreSetsTypedValuesAndAdaptersListsRegistrations() async throws {
        let fixture = try await DaemonFixture()
        let set = try await fixture.traitctl(["restore", "set", "mail", "selection=inbox", "scroll=120.5", "count=3", "open=true", "code=string:42"])
        #expect(set.status == 0 && set.stdout == "code=42\ncount=3\nopen=true\nscroll=120.5\nselection=inbox\n", "\(set)")
        let client = try TraitClient(bus: .address(fixture.bus.address))
        defer { client.close() }
        #expect(try await client.restorationState(of: "mail") == [
            "selection": .string("inbox"), "scroll": .double(120.5), "count": .int64(3), "open": .boolean(true), "code": .string("42"),
        ])
        // set merges; --replace replaces.
        #expect(try await fixture.traitctl(["restore", "set", "mail", "count=4"]).stdout.contains("selection=inbox"))
        #expect(try await fixture.traitctl(["restore", "set", "mail", "--replace", "only=1"]).stdout == "only=1\n")
        #expect(try await fixture.traitctl(["restore", "get", "nobody"]).status == 1)

        #expect(try await fixture.traitctl(["adapters"]).stdout == "no adapters are registered\n")
        let watcher = try await startTraitctlWatch(fixture, ["--count", "1"])
        try await client.registerAdapter("sidebar", for: "mail")
        try await client.reportLayout(app: "mail", transition: 0, adapter: "sidebar", frames: ["content": [0, 0, 694, 768]])
        let table = try await fixture.traitctl(["adapters"])
        #expect(table.stdout == "APP   ADAPTER  OWNER\nmail  sidebar  \(client.connection.uniqueName)\n", "\(table)")
        #expect(await watcher.wait(timeout: 30) == 0)
        #expect(watcher.standardOutput.contains("mail PropertiesChanged Adapters=[sidebar]"), "\(watcher.standardOutput)")
    }
}
