import Foundation
@testable import TraitConfig
import TraitModel
import Vocabulary
import Testing

@Suite struct ConfigTests {
    @Test func embeddedDefaultStartsASimulation() throws {
        let config = DaemonConfig.embedded()
        #expect(config.bus == "session" && config.deadlineMilliseconds == 500)
        #expect(config.display.apps.map(\.name) == ["mail", "notes"])
        let sim = try config.makeSimulation(catalog: try ProfileLoader.catalog())
        #expect(sim.state.device == "ipad-9.7" && sim.state.arrangement == .splitTwoThirds)
    }

    @Test func embeddedFilesEqualTheFilesInConfig() throws {
        // The binary carries Config/ as built; this keeps the two from drifting in a stale build.
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Config")
        let onDisk = try String(contentsOf: root.appendingPathComponent("traitd.yaml"), encoding: .utf8)
        #expect(onDisk == DaemonConfigText.embedded)
    }

    @Test func aUserFileOverridesOnlyItsKeys() throws {
        let config = try DaemonConfig(text: "display:\n  device: ipad-pro-11\ntransitions:\n  deadline-ms: 50\n",
                                      file: "user.yaml", base: .embedded())
        #expect(config.display.device == "ipad-pro-11" && config.display.orientation == .landscapeLeft)
        #expect(config.deadlineMilliseconds == 50 && config.transitions.duration == 0.3)
    }

    @Test(arguments: [
        ("display:\n  device: ipad-9.7\n  colour: red\n",
         "user.yaml:3:3: unknown key 'colour' in the display; expected one of: device, orientation, arrangement, windowing"),
        ("display:\n  orientation: sideways\n",
         "user.yaml:2:16: unknown orientation 'sideways'; expected one of: portrait, portrait-upside-down, landscape-left, landscape-right"),
        ("transitions:\n  duration: fast\n", "user.yaml:2:13: expected the transition duration in seconds (a number)"),
        ("transitions:\n  deadline-ms: -4\n", "user.yaml:2:16: the adapter deadline in milliseconds must be between 1 and 60000, not -4"),
        ("apps:\n  - { name: 'bad name', role: primary }\n",
         "user.yaml:2:13: 'bad name' is not a valid app name: use 1-64 characters from A-Z, a-z, 0-9, '_' and '-'"),
        ("display: [1, 2\n", "user.yaml:2:1: invalid YAML: did not find expected ',' or ']' (while parsing a flow sequence)"),
        // libyaml's reader (no Foundation): its own checks, located like the rest.
        ("bus: session\nbus: system\n", "user.yaml:2:1: duplicate key bus"),
        ("bus: session\n---\nbus: system\n", "user.yaml:2:1: invalid YAML: expected a single document, found another"),
        ("display: { device: *nowhere }\n", "user.yaml:1:20: invalid YAML: unknown alias '*nowhere'"),
        ("display:\n\tdevice: ipad-9.7\n",
         "user.yaml:2:1: invalid YAML: found character that cannot start any token (while scanning for the next token)"),
    ])
    func badFilesAreLocated(text: String, expected: String) {
        #expect(throws: ConfigError.self) { _ = try DaemonConfig(text: text, file: "user.yaml", base: .embedded()) }
        do {
            _ = try DaemonConfig(text: text, file: "user.yaml", base: .embedded())
        } catch {
            #expect(String(describing: error) == expected)
        }
    }

    /// `layout-checks:` names the target-size rule and the rules left out, each a word traitd knows; a word it
    /// does not know is located and the known ones listed. Left out, Apple's 44 pt and every rule.
    @Test func theLayoutChecksAreChosenPerRun() throws {
        #expect(DaemonConfig.embedded().layoutChecks == LayoutChecks())
        let config = try DaemonConfig(text: "layout-checks:\n  target-size: wcag-24px\n  off: [overlap, clipped-text]\n",
                                      file: "u.yaml", base: .embedded())
        #expect(config.layoutChecks == LayoutChecks(targetSize: .wcag24px, off: [.overlap, .clippedText]))
        // A rule for one element: the rest of the rule is still checked.
        let element = try DaemonConfig(text: "layout-checks:\n  off: [clipped-text, \"small-target button:Close\"]\n", file: "u.yaml", base: .embedded())
        #expect(element.layoutChecks == LayoutChecks(off: [.clippedText], offElements: [.init(.smallTarget, "button:Close")]))
        for (text, location) in [("layout-checks:\n  target-size: 48dp\n", "u.yaml:2:16"), ("layout-checks:\n  off: [overlaps]\n", "u.yaml:2:9"),
                                 ("layout-checks:\n  off: [overlap, \"small-targets button:Close\"]\n", "u.yaml:2:18"),
                                 ("layout-checks:\n  strict: true\n", "u.yaml:2:3")] {
            do {
                _ = try DaemonConfig(text: text, file: "u.yaml", base: .embedded())
                Issue.record("\(text) was accepted")
            } catch {
                #expect(String(describing: error).hasPrefix(location), "\(error)")
            }
        }
    }

    /// The daemon reads `adapters:` without the adapters (it does not link them): shape only. The adapter host
    /// passes its adapters' schemas and gets names, keys and ranges checked, each refusal located.
    @Test func theAdaptersSectionIsShapeCheckedByTheDaemonAndFullyByTheHost() throws {
        let text = "adapters:\n  sidebar: { app: mail, width: 300 }\n"
        let daemon = try DaemonConfig(text: text, file: "u.yaml", base: .embedded())
        #expect(daemon.adapters.contains(AdapterSetup(name: "sidebar", app: "mail", values: ["width": 300])))
        let schemas = [AdapterSchema(name: "support-panel", settings: [("max-width", 0...100_000)])]
        let host = #expect(throws: ConfigError.self) {
            _ = try DaemonConfig(text: text, file: "u.yaml", base: .embedded(), adapterSchemas: schemas)
        }
        #expect(host.map(String.init(describing:)) == "u.yaml:2:3: unknown key 'sidebar' in the built-in adapters; expected one of: support-panel")
        for (bad, expected) in [
            ("adapters: [a, b]\n", "u.yaml:1:11: expected the built-in adapters (a mapping of keys to values)"),
            ("adapters:\n  sidebar: { app: 'no way' }\n", "u.yaml:2:19: 'no way' is not a valid app name: use \(AppName.rule)"),
            ("adapters:\n  sidebar: { app: mail, width: wide }\n", "u.yaml:2:32: expected sidebar's width (a number)"),
            ("adapters:\n  sidebar: { enabled: false }\n", "u.yaml:2:12: sidebar needs an app: { app: NAME }"),
        ] {
            let error = #expect(throws: ConfigError.self) { _ = try DaemonConfig(text: bad, file: "u.yaml", base: .embedded()) }
            #expect(error.map(String.init(describing:)) == expected)
        }
    }

    /// `bridges:` gives the adapter host's web pages and desktop apps, as --web and --app do: a command is split
    /// as a shell would (or given as words), a user file's entries replace the default's for the same app, and
    /// every mistake is located.
    @Test func theBridgesSectionGivesPagesAndProgramsAsTheOptionsDo() throws {
        let text = """
            bridges:
              web: { mail: "file:///srv/inbox.html", notes: "http://localhost:8000/" }
              apps:
                music: gnome-calculator --mode 'basic mode'
                maps: [gnome-maps, --local]

            """
        let config = try DaemonConfig(text: text, file: "u.yaml", base: .embedded())
        #expect(DaemonConfig.embedded().bridges.isEmpty)
        #expect(config.bridges.web == [.init(app: "mail", url: "file:///srv/inbox.html"), .init(app: "notes", url: "http://localhost:8000/")])
        #expect(config.bridges.apps == [.init(app: "maps", command: ["gnome-maps", "--local"]),
                                        .init(app: "music", command: ["gnome-calculator", "--mode", "basic mode"])])
        // The command line's replace the file's for the same app, and keep the others.
        let laid = config.bridges.laidOver(by: BridgeSetup(web: [.init(app: "mail", url: "file:///tmp/other.html")]))
        #expect(laid.web.map(\.url) == ["file:///tmp/other.html", "http://localhost:8000/"] && laid.apps == config.bridges.apps)
        for (bad, expected) in [
            ("bridges:\n  pages: {}\n", "u.yaml:2:3: unknown key 'pages' in the bridges; expected one of: web, apps"),
            ("bridges:\n  web: { 'no way': file:///a.html }\n", "u.yaml:2:10: 'no way' is not a valid app name: use \(AppName.rule)"),
            ("bridges:\n  web: { mail: https://example.com }\n",
             "u.yaml:2:16: mail's page https://example.com: the URL must be \(BridgeSetup.localPageRule)"),
            ("bridges:\n  apps: { mail: \"calc 'open\" }\n", "u.yaml:2:17: mail's command: a single quote is not closed in: calc 'open"),
            ("bridges:\n  apps: { mail: [] }\n", "u.yaml:2:17: mail's command has no words"),
        ] {
            let error = #expect(throws: ConfigError.self) { _ = try DaemonConfig(text: bad, file: "u.yaml", base: .embedded()) }
            #expect(error.map(String.init(describing:)) == expected)
        }
    }

    /// A local page is told by its parsed host, not by how its URL starts: a user part, another loopback
    /// address, a look-alike host, a backslash or a tab a browser would read otherwise are not local.
    @Test func aLocalPageIsToldByItsParsedHost() {
        for local in ["file:///srv/a.html", "http://localhost", "http://localhost/", "http://localhost:8000/p.html",
                      "HTTP://LocalHost:8000", "http://127.0.0.1:9/x?y#z", "http://[::1]:8080/", "http://localhost?q", "http://localhost:"] {
            #expect(BridgeSetup.isLocalPage(local), "\(local)")
        }
        for remote in ["http://localhost:@127.0.0.2:8000/p.html", "http://localhost@example.com/", "http://user@localhost/",
                       "http://127.0.0.2/", "http://localhost.example.com/", "http://localhost:80@evil/", "http://[::1].evil/",
                       "http://localhost:99999/", "http://localhost:8o/", "http://local\thost/", "http://localhost\\@evil/",
                       "https://localhost/", "file://server/share", "ftp://localhost/", "http://[::2]/", ""] {
            #expect(!BridgeSetup.isLocalPage(remote), "\(remote)")
        }
    }

    /// Nesting is limited with a located error (a 100,000-deep file once overflowed the stack), and long lists
    /// read in linear time (a 40,000-item list took 12.7 s): here 100,000 items, over a minute before.
    @Test func deepNestingIsRefusedAtItsPlaceAndLongListsReadFast() throws {
        let deep = "display: " + String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000) + "\n"
        let error = #expect(throws: ConfigError.self) { _ = try DaemonConfig(text: deep, file: "d.yaml", base: .embedded()) }
        #expect(error.map(String.init(describing:))?.hasPrefix("d.yaml:1:") == true)
        #expect(error.map(String.init(describing:))?.contains("nested more than") == true, "\(String(describing: error))")
        let list = "apps:\n" + String(repeating: "  - {name: mail, role: primary}\n", count: 100_000)
        // Read whole, whatever the config then makes of 100,000 apps.
        _ = try? DaemonConfig(text: list, file: "l.yaml", base: .embedded())
    }

    /// Anchors and aliases, flow and block style, quoted scalars and comments read as Yams read them.
    @Test func yamlFeaturesTheConfigMayUse() throws {
        let text = """
        # a comment
        display: &shown
          device: "ipad-pro-11"      # quoted
          orientation: 'portrait'
        apps:
          - {name: mail, role: primary}
          - name: notes
            role: secondary
        transitions: { duration: 0.25, deadline-ms: 120 }
        """
        let config = try DaemonConfig(text: text, file: "u.yaml", base: .embedded())
        #expect(config.display.device == "ipad-pro-11" && config.display.orientation == .portrait)
        #expect(config.display.apps.map(\.name) == ["mail", "notes"])
        #expect(config.transitions.duration == 0.25 && config.deadlineMilliseconds == 120)
        let node = try YAMLDocument.parse("a: &x { b: 1 }\nc: *x\n")
        guard case .mapping(let mapping) = node else { Issue.record("expected a mapping"); return }
        #expect(mapping.entries.map { $0.key.string } == ["a", "c"])
        guard case .mapping(let aliased) = mapping.entries[1].value else { Issue.record("the alias is the mapping"); return }
        #expect(aliased.entries.first?.value.string == "1" && aliased.mark == Mark(line: 1, column: 4))
        #expect(try YAMLDocument.parse("") == nil && YAMLDocument.parse("# only a comment\n") == nil)
    }

    @Test func unknownDeviceInConfigIsLocated() throws {
        let config = try DaemonConfig(text: "\n\ndisplay:\n  device: ipad-99\n", file: "u.yaml", base: .embedded())
        #expect(throws: ConfigError.self) { _ = try config.makeSimulation(catalog: try ProfileLoader.catalog()) }
    }

    @Test func inconsistentProfileIsRefused() throws {
        let text = DefaultProfiles.ipad97.replacingOccurrences(of: "two-thirds: { width: 694", with: "two-thirds: { width: 690")
        #expect(throws: ConfigError.self) { _ = try ProfileLoader.parse(text, file: "bad.yaml") }
        do {
            _ = try ProfileLoader.parse(text, file: "bad.yaml")
        } catch {
            #expect(String(describing: error).hasPrefix("bad.yaml:18:3: inconsistent profile 'ipad-9.7': landscape: two-thirds (690) + one-third (320) + divider (10) = 1020"))
        }
    }

    @Test func userProfilesAddAndReplace() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("traitd-devices-\(UUID())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let custom = DefaultProfiles.ipad97.replacingOccurrences(of: "id: ipad-9.7", with: "id: my-tablet")
        try custom.write(to: dir.appendingPathComponent("my-tablet.yaml"), atomically: true, encoding: .utf8)
        let catalog = try ProfileLoader.catalog(directories: [dir.path, "/nonexistent"])
        #expect(catalog.ids.contains("my-tablet") && catalog.ids.count == DefaultConfig.deviceProfiles.count + 1)
        try "id: broken\n".write(to: dir.appendingPathComponent("broken.yaml"), atomically: true, encoding: .utf8)
        #expect(throws: ConfigError.self) { _ = try ProfileLoader.catalog(directories: [dir.path]) }
    }
}

import DefaultConfig

enum DaemonConfigText {
    static var embedded: String { DefaultConfig.configuration.text }
}

enum DefaultProfiles {
    static var ipad97: String { DefaultConfig.deviceProfiles.first { $0.name.hasSuffix("ipad-9.7.yaml") }!.text }
}
