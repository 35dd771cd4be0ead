import DBus
import Foundation
import TestSupport
import TraitClient
import Testing

/// `traitd-adapters --app`: Debian's GNOME Calculator (GTK 4, libadwaita), unmodified, as notes' adapter
/// `desktop`: its real window resized to each simulated window and its widgets read back through the
/// accessibility bus, across Split View widths and a Stage Manager live resize; and what happens when it dies.
@Suite(.serialized) struct DesktopBridgeTests {
    /// A daemon whose transitions wait for the app (a real app on a busy machine: the completions must be its
    /// reports', never the clock's), and a host running only `app` (the calculator) as notes, once its first
    /// layout is in.
    func start(_ options: [String] = [], app: String = "gnome-calculator") async throws -> (DaemonFixture, Recorder, HostProcess) {
        let fixture = try await DaemonFixture(config: "transitions:\n  deadline-ms: 60000\n")
        let recorder = try await Recorder(fixture)
        let host = try HostProcess(fixture, ["--only-layouts", "--app", "notes=\(app)"] + options)
        try await recorder.until("\(app)'s first layout", timeout: 90) {
            (try? await recorder.layouts(of: "notes").frames["desktop"]) != nil
        }
        return (fixture, recorder, host)
    }

    func desktop(_ recorder: Recorder) async throws -> [String: [Double]] {
        try await recorder.layouts(of: "notes").frames["desktop"] ?? [:]
    }

    @Test func theCalculatorFollowsSplitViewWidthsAndALiveResize() async throws {
        let (fixture, recorder, host) = try await start()
        // 320 (the start: notes is 2/3's narrow side), 694, 507: the window is the simulated one each time, and
        // the keypad's buttons are laid out anew (mod's width follows the window's).
        var widths: [Double: Double] = [:]
        for (arrangement, width) in [(Arrangement.splitOneThird, 694.0), (.splitHalf, 507), (.splitTwoThirds, 320)] {
            let done = try await recorder.transition(of: "notes", "\(arrangement)") { try await recorder.client.setArrangement(arrangement) }
            #expect(done.reported == ["desktop"], "\(done)")
            let frames = try await desktop(recorder)
            #expect(frames["window"] == [0, 0, width, 768], "\(arrangement): \(String(describing: frames["window"]))")
            #expect(frames["button:Undo"] != nil && frames.count > 40, "\(frames.keys.sorted())")
            widths[width] = try #require(frames["button:mod_mod"])[2]
        }
        #expect(widths[694]! > widths[507]! && widths[507]! > widths[320]!, "\(widths)")
        // GTK 4 gives content boxes: the header bar's Close button is reported 24 x 24, drawn as a 24-pt circle in
        // a padding no one can read from the accessibility bus. Listed in contentBoxes, it is a small target whose
        // sentence says its size is inside its padding.
        let problems = try await recorder.client.state().window("notes")?.layoutProblems ?? []
        let close = try #require(problems.first { $0.element == "button:Close" && $0.rule == .smallTarget }, "\(problems.map { "\($0.element) \($0.rule)" })")
        #expect(close.message.contains("24 x 24 pt inside its padding"), "\(close.message)")
        let extras = try await recorder.client.property(Layout1.Window.layoutExtras, of: "notes")
        let desktopExtras: [String: DBusValue]? = extras["desktop"]
        let boxes = desktopExtras?[Layout1.Window.Extras.contentBoxes]?.unwrapped.strings ?? []
        #expect(boxes.contains("button:Close") && boxes.contains("button:Undo"), "\(boxes)")

        // Stage Manager: a live resize, each step laid out by the app at its size.
        for id in try await recorder.client.setWindowing(.stageManager) { _ = try await recorder.completion(of: id) }
        _ = try await recorder.transition(of: "notes", "a frame") {
            try await recorder.client.setFrame(Rect(x: 0, y: 0, width: 600, height: 700), of: "notes")
        }
        _ = try await recorder.client.beginResize("notes")
        var last: [UInt64] = []
        for width in [650.0, 700, 750] { last = try await recorder.client.resize("notes", to: Size(width: width, height: 700)) }
        let ended = try await recorder.client.endResize("notes")
        for id in Set(last + ended) { _ = try await recorder.completion(of: id) }
        #expect(try await desktop(recorder)["window"] == [0, 0, 750, 700])
        withExtendedLifetime((fixture, host)) {}
    }

    /// The text size reaches a running GTK app as it changes (XSETTINGS' `Xft/DPI`, served by the host's
    /// xsettingsd), in the transition that changes it: the keypad's labels grow, and at the largest size the
    /// calculator no longer fits its 507-pt window: one `minimum-size` problem.
    @Test func theTextSizeReachesARunningGtkApp() async throws {
        let (fixture, recorder, host) = try await start()
        _ = try await recorder.transition(of: "notes", "half the screen") { try await recorder.client.setArrangement(.splitHalf) }
        let before = try #require(try await desktop(recorder)["label:mod"])
        _ = try await recorder.transition(of: "notes", "large text") {
            try await recorder.client.setTraits([.contentSize: "accessibility-extra-extra-extra-large"])
        }
        let after = try #require(try await desktop(recorder)["label:mod"])
        #expect(after[3] > before[3] * 1.5, "mod's label \(before) at large, \(after) at the largest size")
        let problems = try await recorder.client.state().window("notes")?.layoutProblems ?? []
        // One minimum-size, naming both sizes; the header's buttons, taller now, reach under the status bar, and
        // its window buttons stay small.
        #expect(problems.first?.rule == .minimumSize && problems.dropFirst().allSatisfy { [.outsideSafeArea, .smallTarget].contains($0.rule) },
                "\(problems.map { "\($0.element) \($0.rule) \($0.message)" })")
        #expect(problems.first?.message.hasPrefix("the app is at least ") == true && problems.first?.message.contains("its window is 507 x 768 pt") == true)
        // And back, in the same app.
        _ = try await recorder.transition(of: "notes", "default text") { try await recorder.client.setTraits([.contentSize: "large"]) }
        #expect(try await desktop(recorder)["label:mod"] == before)
        withExtendedLifetime((fixture, host)) {}
    }

    /// The bridge reads a tree from the app's cache (`GetItems`) and a call a widget once the cache holds it all;
    /// `--walk-trees` walks it node by node. Through the same steps, the two report the same widgets, element for
    /// element (the first layout is a walk either way: a fresh app's cache holds only what was asked for).
    @Test func theCacheAndTheWalkReadTheSameWidgets() async throws {
        var reads: [[String: [String: [Double]]]] = []
        for options in [["--walk-trees"], []] {
            let (fixture, recorder, host) = try await start(options)
            var read: [String: [String: [Double]]] = [:]
            for arrangement in [Arrangement.splitOneThird, .splitHalf, .splitTwoThirds, .splitOneThird] {
                _ = try await recorder.transition(of: "notes", "\(arrangement)") { try await recorder.client.setArrangement(arrangement) }
                read["\(arrangement)"] = try await desktop(recorder)
            }
            reads.append(read)
            withExtendedLifetime((fixture, host)) {}
        }
        for (step, walked) in reads[0] {
            let cached = reads[1][step] ?? [:]
            #expect(cached == walked && walked.count > 40, """
                \(step): walked only \(walked.filter { cached[$0.key] != $0.value }), cached only \(cached.filter { walked[$0.key] != $0.value })
                """)
        }
    }

    /// The app killed: its next report is `failed`, naming how it ended, at once; the host carries on.
    @Test func aKilledAppIsReportedFailed() async throws {
        let (fixture, recorder, host) = try await start()
        let pid = try #require(host.log.firstMatch(of: /gnome-calculator \(pid (\d+)\)/).flatMap { Int32($0.1) }, "\(host.log)")
        // The window is resized on the host's own X connection, not by a process a transition.
        #expect(host.log.contains("gnome-calculator (pid \(pid)), resized with ConfigureWindow on :"), "\(host.log)")
        kill(pid, SIGKILL)
        let done = try await recorder.transition(of: "notes", "portrait") { try await recorder.client.rotate(to: .portrait) }
        #expect(done.failed == ["desktop"] && done.missed.isEmpty, "\(done)")
        let error = try await recorder.layouts(of: "notes").extras["desktop"]?["error"]?.unwrapped.string
        #expect(error?.contains("gnome-calculator exited with status 137") == true, "error: \(error ?? "none")")
        withExtendedLifetime((fixture, host)) {}
    }

    /// KDE's KCalc (Qt 5), unmodified: it finds the host's accessibility bus on the display (the root window's
    /// AT_SPI_BUS, the one place Qt 5 looks; it never appeared before), and its widgets are read in screen
    /// coordinates made the window's (Qt 5's window coordinates give every widget's x as its y). Three widths.
    @Test func aQtAppFollowsSplitViewWidths() async throws {
        let (fixture, recorder, host) = try await start(app: "kcalc")
        var sevens: [Double: [Double]] = [:]
        for (arrangement, width) in [(Arrangement.splitOneThird, 694.0), (.splitHalf, 507), (.splitTwoThirds, 320)] {
            let done = try await recorder.transition(of: "notes", "\(arrangement)") { try await recorder.client.setArrangement(arrangement) }
            #expect(done.reported == ["desktop"], "\(done)")
            let frames = try await desktop(recorder)
            #expect(frames["window"] == [0, 0, width, 768], "\(arrangement): \(String(describing: frames["window"]))")
            let seven = try #require(frames["push-button:7"], "\(frames.keys.sorted())")
            // Inside the window, below the display, and the same y whatever the width (a y that was the x moved).
            #expect(seven[0] >= 0 && seven[0] + seven[2] <= width && seven[1] > 100 && seven[1] + seven[3] <= 768, "\(seven)")
            sevens[width] = seven
        }
        #expect(Set(sevens.values.map { $0[1] }).count == 1, "\(sevens)")
        #expect(sevens[694]![2] > sevens[507]![2] && sevens[507]![2] > sevens[320]![2], "the keypad widens: \(sevens)")
        let problems = try await recorder.client.state().window("notes")?.layoutProblems ?? []
        #expect(!problems.contains { $0.rule == .outsideWindow }, "\(problems)")
        withExtendedLifetime((fixture, host)) {}
    }

    /// A Qt app follows dark mode and the text size as they change, in the transition that changes them, through
    /// the platform theme the host gives it (qt5ct for KCalc's Qt 5; Qt's DPI stays pinned): at the largest text
    /// its menu's items are more than twice as tall, and in dark mode its window is drawn dark (the screenshot's
    /// mean brightness falls by more than half). Before, a Qt app followed neither. Its keys' labels, which KCalc
    /// colours itself, stay dark: `low-contrast`, measured on the pixels.
    @Test func aQtAppFollowsDarkModeAndTheTextSize() async throws {
        let (fixture, recorder, host) = try await start(["--screenshots"], app: "kcalc")
        #expect(host.log.contains("resized with ConfigureWindow on :") && host.log.contains(", settings through qt5ct"), "\(host.log)")
        _ = try await recorder.transition(of: "notes", "half the screen") { try await recorder.client.setArrangement(.splitHalf) }
        let before = try #require(try await desktop(recorder)["menu-item:File"])
        let light = try await brightness(recorder)
        #expect(try await recorder.client.state().window("notes")?.layoutProblems.filter { $0.rule == .lowContrast }.isEmpty == true)
        _ = try await recorder.transition(of: "notes", "dark") { try await recorder.client.setTraits([.appearance: "dark"]) }
        let dark = try await brightness(recorder)
        #expect(dark < light / 2, "mean brightness \(light) light, \(dark) dark")
        // KCalc colours its keys' labels itself, dark: on the dark keys they stand out by about 2:1, measured on
        // the screenshot's pixels (light, they were not reported).
        let problems = try await recorder.client.state().window("notes")?.layoutProblems.filter { $0.rule == .lowContrast } ?? []
        #expect(problems.count == 8 && problems.allSatisfy { $0.element.hasPrefix("push-button:") && $0.message.contains("WCAG 1.4.3 asks 4.5:1") },
                "\(problems)")
        _ = try await recorder.transition(of: "notes", "the largest text") {
            try await recorder.client.setTraits([.contentSize: "accessibility-extra-extra-extra-large"])
        }
        let after = try #require(try await desktop(recorder)["menu-item:File"])
        #expect(after[3] > before[3] * 2, "File's menu item \(before) at large, \(after) at the largest size")
        withExtendedLifetime((fixture, host)) {}
    }

    /// A GTK 3 app (GTK's own widget factory) is drawn dark in dark mode, in the transition that sets it: GTK 3 takes
    /// XSETTINGS' theme name, and its Adwaita-dark comes from Debian's gnome-themes-extra (GTK 3 has no built-in
    /// one: without it, GTK 3 apps stayed light).
    @Test func aGtk3AppFollowsDarkMode() async throws {
        let (fixture, recorder, host) = try await start(["--screenshots"], app: "gtk3-widget-factory")
        _ = try await recorder.transition(of: "notes", "half the screen") { try await recorder.client.setArrangement(.splitHalf) }
        let light = try await brightness(recorder)
        _ = try await recorder.transition(of: "notes", "dark") { try await recorder.client.setTraits([.appearance: "dark"]) }
        let dark = try await brightness(recorder)
        #expect(dark < light / 2, "mean brightness \(light) light, \(dark) dark")
        withExtendedLifetime((fixture, host)) {}
    }

    /// A GTK 4 app's accessibility snapshot (`--aria-snapshots`), in the format pages have: GTK's `button` as
    /// ARIA's, the boxes that only arrange left out, the names GTK makes of class names (`GtkMenuButton`) no
    /// names; what a hidden page of a stack holds is not in it. At two widths it holds the same widgets.
    @Test func aGtkAppsAccessibilitySnapshot() async throws {
        let (fixture, recorder, host) = try await start(["--aria-snapshots"])
        var snapshots: [String] = []
        for arrangement in [Arrangement.splitOneThird, .splitTwoThirds] {
            _ = try await recorder.transition(of: "notes", "\(arrangement)") { try await recorder.client.setArrangement(arrangement) }
            let aria = try await ChildProcess.run(Binaries.path("traitctl"), ["aria", "notes", "--bus", fixture.bus.address])
            #expect(aria.status == 0 && aria.stdout.hasPrefix("- button \"Undo\"\n- button:\n  - button \"Basic\"\n"), "\(aria)")
            #expect(aria.stdout.contains("- button \"Close\"\n") && !aria.stdout.contains("Gtk") && !aria.stdout.contains("- group"), "\(aria)")
            snapshots.append(aria.stdout)
        }
        #expect(snapshots[0] == snapshots[1], "\(snapshots)")
        withExtendedLifetime((fixture, host)) {}
    }

    /// The mean brightness (0-255) of the desktop bridge's latest screenshot (an 8-bit RGB PNG without filters,
    /// as the bridge writes it), read by Python's zlib.
    func brightness(_ recorder: Recorder) async throws -> Double {
        let path = try #require(try await recorder.layouts(of: "notes").extras["desktop"]?["screenshot"]?.unwrapped.string)
        let script = """
            import struct, sys, zlib
            data = open(sys.argv[1], 'rb').read()
            width, height = struct.unpack('>II', data[16:24])
            idat, at = b'', 8
            while at < len(data):
                length, kind = struct.unpack('>I4s', data[at:at + 8])
                if kind == b'IDAT': idat += data[at + 8:at + 8 + length]
                at += 12 + length
            raw = zlib.decompress(idat)
            print(sum(raw) / len(raw))
            """
        let result = try await ChildProcess.run("/usr/bin/python3", ["-c", script, path])
        return try #require(Double(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)), "\(result)")
    }

    /// A Qt 6 app (qt6ct 0.7, Qt 6.4): it finds the accessibility bus only through `org.a11y.Bus` on its session
    /// bus, which the host serves (given `AT_SPI_BUS_ADDRESS`, Qt 6.4 connects before its bridge listens and never
    /// appears: "qt6ct did not appear on the accessibility bus"); its window follows the Split View widths.
    @Test func aQt6AppAppearsAndFollowsSplitViewWidths() async throws {
        let (fixture, recorder, host) = try await start(app: "qt6ct")
        for (arrangement, width) in [(Arrangement.splitHalf, 507.0), (.splitOneThird, 694)] {
            let done = try await recorder.transition(of: "notes", "\(arrangement)") { try await recorder.client.setArrangement(arrangement) }
            #expect(done.reported == ["desktop"], "\(done)\n\(host.log)")
            let frames = try await desktop(recorder)
            #expect(frames["window"] == [0, 0, width, 768], "\(arrangement): \(String(describing: frames["window"]))")
            let ok = try #require(frames["push-button:OK"], "\(frames.keys.sorted())")
            // The dialog's buttons along its bottom edge, inside the window.
            #expect(ok[0] >= 0 && ok[0] + ok[2] <= width && ok[1] > 700 && ok[1] + ok[3] <= 768, "\(ok)")
        }
        withExtendedLifetime((fixture, host)) {}
    }

    /// A command that exits without showing a window (`sh -c "exit 3"`): the bridge's transition fails at once
    /// naming the status, and the host's other adapters (the embedded ones, for mail) are registered and report
    /// without waiting for it (it once held every adapter back for 30 s).
    @Test func aCommandThatShowsNoWindowFailsAtOnceAndHoldsNoOtherAdapterBack() async throws {
        let fixture = try await DaemonFixture(config: "transitions:\n  deadline-ms: 60000\n")
        let recorder = try await Recorder(fixture)
        let host = try HostProcess(fixture, ["--app", "notes=sh -c 'exit 3'"])
        try await recorder.until("the desktop adapter's registration") { await recorder.isRegistered("desktop") }
        try await recorder.until("mail's adapters") { await recorder.isRegistered("split-columns") }
        let done = try await recorder.transition(of: "notes", "portrait") { try await recorder.client.rotate(to: .portrait) }
        #expect(done.failed == ["desktop"] && done.missed.isEmpty, "\(done)")
        let error = try await recorder.layouts(of: "notes").extras["desktop"]?["error"]?.unwrapped.string
        #expect(error?.contains("exited with status 3") == true, "error: \(error ?? "none")")
        let mail = try #require(recorder.completions.last { $0.app == "mail" })
        #expect(mail.reported.contains("split-columns") && mail.missed.isEmpty, "\(mail)")
        withExtendedLifetime((fixture, host)) {}
    }

    /// Stopped with SIGTERM, the host ends what it started and reaps it: the app, Xvfb, the accessibility bus, its
    /// registry and xsettingsd are gone, by their ids.
    @Test func stoppingTheHostEndsEveryProcessItStarted() async throws {
        let (fixture, _, host) = try await start()
        let log = host.log
        let app = try #require(log.firstMatch(of: /gnome-calculator \(pid (\d+)\)/).flatMap { Int32($0.1) }, "\(log)")
        let session = try #require(log.firstMatch(of: /\(pids ([0-9 ]+)\)/).map { $0.1.split(separator: " ").compactMap { Int32($0) } })
        #expect(session.count == 4, "Xvfb, the accessibility bus and its registry, xsettingsd: \(log)")
        host.process.kill(SIGTERM)
        #expect(await host.process.wait() == 0, "\(host.log)")
        for pid in [app] + session {
            #expect(kill(pid, 0) == -1 && errno == ESRCH, "process \(pid) is still there")
        }
        withExtendedLifetime(fixture) {}
    }
}
