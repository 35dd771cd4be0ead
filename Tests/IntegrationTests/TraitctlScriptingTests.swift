import DBus
import Foundation
import TestSupport
import TraitClient
import Testing

/// traitctl's flags for scripts: `set|open|close|drag --wait [--strict]`, `watch --json`, the divider and the
/// background in `status`, `restore get` for an app in the background, messages that name traitctl's commands.
@Suite struct TraitctlScriptingTests {
    @Test func waitPrintsEachCompletionAndStrictFailsOnAFailedAdapter() async throws {
        // A long deadline: every adapter here answers (a missed one is waitGivesUpAfterItsTimeout's case).
        let fixture = try await DaemonFixture(config: "transitions:\n  deadline-ms: 20000\n")
        let fast = try await ScriptedAdapter(fixture, app: "mail", name: "quick", behaviour: .fast)
        let failing = try await ScriptedAdapter(fixture, app: "notes", name: "broken", behaviour: .failing("no room"))
        defer { fast.close(); failing.close() }

        let rotate = try await fixture.traitctl(["set", "orientation", "portrait", "--wait"])
        #expect(rotate.status == 0, "without --strict a failed adapter is reported, not an error: \(rotate)")
        #expect(rotate.stdout == """
            mail TransitionCompleted #1 reported=[quick] missed=[] failed=[]
            notes TransitionCompleted #2 reported=[] missed=[] failed=[broken]

            """, "\(rotate)")

        let strict = try await fixture.traitctl(["set", "orientation", "landscape-left", "--wait", "--strict"])
        #expect(strict.status == 2 && strict.stdout.contains("notes TransitionCompleted #4 reported=[] missed=[] failed=[broken]"), "\(strict)")
        #expect(strict.stderr == "traitctl: an adapter missed or failed (--strict)\n")

        // Closing notes leaves mail's transition, which its adapter reports: --strict passes.
        let close = try await fixture.traitctl(["close", "notes", "--wait", "--strict"])
        #expect(close.status == 0 && close.stdout == "mail TransitionCompleted #5 reported=[quick] missed=[] failed=[]\n", "\(close)")

        let same = try await fixture.traitctl(["set", "orientation", "landscape-left", "--wait"])
        #expect(same.status == 0 && same.stdout == "no transitions: nothing changed\n")
        // A window that opens: --wait returns once its first layout is in, and names that transition (it once
        // printed "no transitions: the change moved no window" before any adapter had laid the window out).
        let player = try await ScriptedAdapter(fixture, app: "tv", name: "player", behaviour: .fast)
        defer { player.close() }
        let open = try await fixture.traitctl(["open", "tv", "--role", "pip", "--wait", "--strict"])
        #expect(open.status == 0 && open.stdout == """
            /org/traitd/Layout1/window/tv
            tv TransitionCompleted #6 reported=[player] missed=[] failed=[]

            """, "\(open)")
        let layouts = try await fixture.traitctl(["get", "Layouts", "--app", "tv"])
        #expect(layouts.stdout.contains("player") && layouts.stdout.contains("root"), "laid out when the wait returned: \(layouts)")
        #expect(try await fixture.traitctl(["set", "device", "ipad-pro-12.9", "--strict"]).stderr.contains("--strict goes with --wait"))
    }

    @Test func waitGivesUpAfterItsTimeoutAndStrictFailsOnAMissedAdapter() async throws {
        // The virtual clock: the deadline passes only when the test moves it, so traitctl's own time-out is what
        // ends the first wait, whatever the machine's speed.
        let fixture = try await DaemonFixture(arguments: ["--clock", "virtual"], config: "transitions:\n  deadline-ms: 1000\n")
        let silent = try await ScriptedAdapter(fixture, app: "mail", name: "mute", behaviour: .silent)
        defer { silent.close() }
        let result = try await fixture.traitctl(["set", "orientation", "portrait", "--wait", "--timeout", "0.5"])
        #expect(result.status == 1 && result.stderr == "traitctl: gave up after 0.5 s waiting for transition(s) #1 to complete\n", "\(result)")
        // The daemon's deadline passes (the clock moved once the command's transition began, while traitctl
        // waits): the transition completes with mute missed.
        let recorder = try await Recorder(fixture)
        let waiting = try ChildProcess(Binaries.path("traitctl"), ["set", "orientation", "landscape-left", "--wait", "--strict",
                                                                   "--bus", fixture.bus.address])
        try await recorder.wait("the rotation's transition of mail") { Recorder.transitionIDs(of: "mail", in: $0).contains { $0 >= 3 } }
        _ = try await recorder.client.advanceClock(by: 1000)
        let strict = (status: await waiting.wait(timeout: 30) ?? -1, stdout: waiting.standardOutput)
        #expect(strict.status == 2 && strict.stdout.contains("mail TransitionCompleted #3 reported=[] missed=[mute] failed=[]"), "\(strict)")
    }

    /// On a terminal, a wait that lasts says what it waits for (two seconds in, then every five): an adapter that
    /// does not report holds its transition until the deadline, and a silent prompt looks like a hang. The
    /// virtual clock holds the deadline until the line has shown; script(1) gives traitctl its terminal.
    @Test func aLongWaitOnATerminalSaysWhatItWaitsFor() async throws {
        let fixture = try await DaemonFixture(arguments: ["--clock", "virtual"], config: "transitions:\n  deadline-ms: 1000\n")
        let silent = try await ScriptedAdapter(fixture, app: "mail", name: "mute", behaviour: .silent)
        defer { silent.close() }
        let recorder = try await Recorder(fixture)
        let line = "'\(Binaries.path("traitctl"))' set orientation portrait --wait --bus '\(fixture.bus.address)'"
        let terminal = try ChildProcess("script", ["-qefc", line, "/dev/null"], environment: fixture.bus.environment)
        try await terminal.waitForOutput("traitctl: waiting 2 s for transition #1 to complete (an adapter that has not reported "
                                         + "holds a transition until its deadline; --timeout 30 s)")
        _ = try await recorder.client.advanceClock(by: 1000)
        #expect(await terminal.wait(timeout: 30) == 0)
        #expect(terminal.standardOutput.contains("mail TransitionCompleted #1 reported=[] missed=[mute] failed=[]"),
                "\(terminal.standardOutput)")
    }

    @Test func watchJSONIsOneObjectALine() async throws {
        let fixture = try await DaemonFixture()
        let watch = try await startTraitctlWatch(fixture, ["--json", "--count", "5"])
        #expect(try await fixture.busctl(["call", "org.traitd.Layout1", "/org/traitd/Layout1", "org.traitd.Layout1.Display",
                                    "Rotate", "s", "portrait"]).status == 0)
        #expect(await watch.wait(timeout: 30) == 0)
        let objects = try watch.standardOutput.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        // notes' traits change too: 768 -> 1024 pt tall, Android's medium -> expanded height.
        #expect(objects.map { $0["member"] as? String } == [
            "WillTransitionToTraitCollection", "ViewWillTransitionToSize", "WillTransitionToTraitCollection", "ViewWillTransitionToSize",
            "PropertiesChanged",
        ])
        #expect(objects.map { $0["app"] as? String } == ["mail", "mail", "notes", "notes", nil])
        #expect(objects.map { $0["transition"] as? Int } == [1, 1, 2, 2, nil])
        #expect(objects[1]["path"] as? String == "/org/traitd/Layout1/window/mail", "slashes unescaped")
        #expect(objects[1]["signature"] as? String == "tdda{sv}" && objects[1]["type"] as? String == "signal")
        let size = try #require(objects[1]["arguments"] as? [Any])
        #expect(size[1] as? Double == 438 && size[2] as? Double == 1024)
        #expect((size[3] as? [String: Any])?["reason"] as? String == "rotation")
        let changed = try #require((objects[4]["arguments"] as? [Any])?[1] as? [String: Any])
        #expect(changed["Orientation"] as? String == "portrait" && changed["Serial"] as? Int == 2)
        #expect(objects[4]["interface"] as? String == "org.freedesktop.DBus.Properties")
        #expect((objects[0]["timestamp"] as? Double).map { abs($0 - Date().timeIntervalSince1970) < 60 } == true)
        #expect((objects[0]["sender"] as? String)?.hasPrefix(":") == true)
    }

    @Test func statusShowsTheDividerAndTheBackgroundAndRestoreReadsABackgroundApp() async throws {
        let fixture = try await DaemonFixture()
        #expect(try await fixture.traitctl(["status"]).stdout.contains("\ndivider at 694 pt, released; in the background: none\n"))
        #expect(try await fixture.traitctl(["restore", "set", "notes", "draft=hello"]).status == 0)
        #expect(try await fixture.traitctl(["drag", "begin"]).status == 0)
        #expect(try await fixture.traitctl(["status"]).stdout.contains("\ndivider at 694 pt, being dragged; in the background: none\n"))
        #expect(try await fixture.traitctl(["drag", "move", "1000"]).status == 0)
        #expect(try await fixture.traitctl(["drag", "end"]).status == 0)
        let status = try await fixture.traitctl(["status"]).stdout
        #expect(status.contains("  full  (serial 4)\nno divider; in the background: notes\n"), "\(status)")

        // notes has no window now; its state is read from the display, by traitctl and by busctl.
        let get = try await fixture.traitctl(["restore", "get", "notes"])
        #expect(get.status == 0 && get.stdout == "draft=hello\n", "\(get)")
        let busctl = try await fixture.busctl(["call", "org.traitd.Layout1", "/org/traitd/Layout1", "org.traitd.Layout1.Display",
                                         "GetRestorationState", "s", "notes"])
        #expect(busctl.stdout == "a{sv} 1 \"draft\" s \"hello\"\n", "\(busctl)")
        let set = try await fixture.traitctl(["restore", "set", "notes", "draft=bye"])
        #expect(set.status == 1 && set.stderr.contains("notes is in the background") && set.stderr.contains("traitctl open notes"), "\(set)")
        let nobody = try await fixture.traitctl(["restore", "get", "nobody"])
        #expect(nobody.status == 1 && nobody.stderr.contains("org.traitd.Layout1.Error.NoSuchApp")
            && nobody.stderr.contains("open: mail; background: notes"), "\(nobody)")
        #expect(try await fixture.traitctl(["restore", "get", "notes"]).stdout == "draft=hello\n", "a refusal changes nothing")
    }

    @Test func messagesNameTraitctlCommands() async throws {
        let fixture = try await DaemonFixture()
        let move = try await fixture.traitctl(["drag", "move", "500"])
        #expect(move.status == 1 && move.stderr.hasSuffix("no divider drag is in progress; start one with 'traitctl drag begin'\n"), "\(move)")
        #expect(try await fixture.traitctl(["drag", "begin"]).status == 0)
        let again = try await fixture.traitctl(["drag", "begin"])
        #expect(again.stderr.hasSuffix("end the drag with 'traitctl drag end'\n"), "\(again)")
        #expect(try await fixture.traitctl(["drag", "end"]).status == 0)
        #expect(try await fixture.traitctl(["close", "notes"]).status == 0)
        let split = try await fixture.traitctl(["set", "arrangement", "split-half"])
        #expect(split.stderr.contains("open one with 'traitctl open NAME --role secondary'"), "\(split)")
    }

    @Test func completionScriptsOfferDevicesOrientationsArrangementsAndRoles() async throws {
        let bash = try ChildProcess(Binaries.path("traitctl"), ["--generate-completion-script", "bash"])
        #expect(await bash.wait(timeout: 30) == 0)
        #expect(bash.standardOutput.contains("slide-over"), "roles are listed in the script")
        // set's value and run's --device are completed by traitctl itself (---completion), per property.
        func complete(_ words: [String]) async throws -> [String] {
            // As the bash script calls it: the argument, the word's index, the cursor in it, then the words.
            let line = ["traitctl"] + words
            let child = try await ChildProcess.run(
                Binaries.path("traitctl"), ["---completion", "set", "--", "positional@1", "\(line.count - 1)", "\(line.last!.count)"] + line)
            #expect(child.status == 0)
            return child.stdout.split(separator: "\n").map(String.init)
        }
        #expect(try await complete(["set", "orientation", "land"]) == ["landscape-left", "landscape-right"])
        #expect(try await complete(["set", "arrangement", "split-"]) == ["split-two-thirds", "split-half", "split-one-third"])
        #expect(try await complete(["set", "device", "ipad-pro"]).sorted()
            == ["ipad-pro-10.5", "ipad-pro-11", "ipad-pro-11-m4", "ipad-pro-12.9", "ipad-pro-13-m4"])
        // The settings: their values, and increment/decrement for the text size.
        #expect(try await complete(["set", "appearance", ""]) == ["light", "dark"])
        #expect(try await complete(["set", "content-size", "accessibility-extra-"])
            == ["accessibility-extra-large", "accessibility-extra-extra-large", "accessibility-extra-extra-extra-large"])
        #expect(try await complete(["set", "content-size", "inc"]) == ["increment"])
    }
}
