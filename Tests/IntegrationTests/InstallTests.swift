import Foundation
import TestSupport
import Testing

/// `make install-files` (what `make install` runs after the release build) into a DESTDIR, with the debug
/// binaries: every path, for a distribution's prefix and a local one.
@Suite struct InstallTests {
    /// Installs into a fresh DESTDIR; returns it.
    func install(prefix: String) async throws -> URL {
        let destdir = FileManager.default.temporaryDirectory.appendingPathComponent("traitd-install-\(UUID().uuidString)")
        let built = URL(fileURLWithPath: Binaries.path("traitd")).deletingLastPathComponent().path
        let make = try await ChildProcess.run("make", ["-s", "-C", Binaries.repository.path, "install-files", "BUILT=\(built)",
                                                 "DESTDIR=\(destdir.path)", "PREFIX=\(prefix)",
                                                 "GENERATED=\(destdir.path)-generated"])
        #expect(make.status == 0, "make install-files: \(make.stdout)\(make.stderr)")
        return destdir
    }

    func text(_ destdir: URL, _ path: String) throws -> String {
        try String(contentsOf: destdir.appendingPathComponent(String(path.dropFirst())), encoding: .utf8)
    }

    /// Every file `make install` puts under PREFIX, relative to it, and where the system-bus policy goes.
    static func expectedFiles(zsh: String) -> [String] {
        let tools = ["traitd", "traitctl", "traitd-adapters"]
        return tools.map { "bin/\($0)" } + ["bin/traitd-view"]
            + tools.map { "share/bash-completion/completions/\($0)" }
            + tools.map { "share/zsh/\(zsh)/_\($0)" }
            + tools.map { "share/fish/vendor_completions.d/\($0).fish" }
            + ["share/man/man8/traitd.8", "share/man/man1/traitctl.1", "share/man/man1/traitd-adapters.1", "share/man/man1/traitd-view.1",
               "share/man/man5/org.traitd.Layout1.5",
               "lib/systemd/user/traitd.service", "lib/systemd/user/traitd-adapters.service",
               "lib/systemd/system/traitd.service", "lib/sysusers.d/traitd.conf",
               "share/dbus-1/services/org.traitd.Layout1.service",
               "share/dbus-1/system-services/org.traitd.Layout1.service",
               "share/dbus-1/interfaces/org.traitd.Layout1.xml",
               "share/doc/traitd/README.md", "share/doc/traitd/docs/dbus-api.md", "share/doc/traitd/examples/traitd.yaml",
               "share/doc/traitd/examples/layouts/support-panel.layout"]
            + ["__init__", "_binaries", "_contract", "adapter", "baseline", "client", "errors", "explore", "model", "pytest_plugin", "sync"].map { "share/traitd/python/traitd/\($0).py" }
            + ["share/traitd/python/traitd/py.typed"]
    }

    /// All regular files under `folder`, relative to it.
    func files(under folder: URL) -> Swift.Set<String> {
        let base = folder.resolvingSymlinksInPath().path + "/"
        var result = Swift.Set<String>()
        let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey])
        while let url = walker?.nextObject() as? URL {
            if (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true {
                result.insert(String(url.resolvingSymlinksInPath().path.dropFirst(base.count)))
            }
        }
        return result
    }

    @Test(arguments: [("/usr", "usr/share/dbus-1/system.d", "vendor-completions"),
                      ("/usr/local", "etc/dbus-1/system.d", "site-functions")])
    func installsEveryFileWhereItsReaderLooks(_ prefix: String, _ policyDir: String, _ zsh: String) async throws {
        let destdir = try await install(prefix: prefix)
        defer { try? FileManager.default.removeItem(at: destdir); try? FileManager.default.removeItem(atPath: destdir.path + "-generated") }
        let under = String(prefix.dropFirst())
        let expected = Swift.Set(Self.expectedFiles(zsh: zsh).map { "\(under)/\($0)" } + ["\(policyDir)/org.traitd.Layout1.conf"])
        let installed = files(under: destdir)
        #expect(expected.subtracting(installed).isEmpty, "missing: \(expected.subtracting(installed).sorted())")
        let unexpected = installed.subtracting(expected).filter {
            !$0.hasPrefix("\(under)/share/doc/traitd/examples/layouts/") && !$0.hasPrefix("\(under)/share/doc/traitd/docs/")
        }
        #expect(unexpected.isEmpty, "installed but not checked: \(unexpected.sorted())")

        // The installed binaries run; the activation files and units name them, and name the installed man pages.
        let version = try await ChildProcess.run(destdir.path + prefix + "/bin/traitctl", ["--version"])
        #expect(version.status == 0 && version.stdout == "0.1.0\n")
        let session = try text(destdir, prefix + "/share/dbus-1/services/org.traitd.Layout1.service")
        #expect(session.contains("Exec=\(prefix)/bin/traitd --bus session") && session.contains("SystemdService=traitd.service"))
        let system = try text(destdir, prefix + "/share/dbus-1/system-services/org.traitd.Layout1.service")
        #expect(system.contains("Name=org.traitd.Layout1\n") && system.contains("Exec=\(prefix)/bin/traitd --bus system\n")
            && system.contains("User=traitd\n") && system.contains("SystemdService=traitd.service\n"), "\(system)")
        let systemUnit = try text(destdir, prefix + "/lib/systemd/system/traitd.service")
        #expect(systemUnit.contains("BusName=org.traitd.Layout1") && systemUnit.contains("User=traitd"),
                "the unit SystemdService= names is the system unit")
        for unit in ["lib/systemd/user/traitd.service", "lib/systemd/user/traitd-adapters.service", "lib/systemd/system/traitd.service"] {
            let body = try text(destdir, "\(prefix)/\(unit)")
            #expect(!body.contains("@bindir@") && !body.contains("@datadir@") && !body.contains("example.invalid"), "\(unit)")
            let documentation = try #require(body.split(separator: "\n").first { $0.hasPrefix("Documentation=") }, "\(unit)")
            let pages = documentation.split(separator: " ").compactMap { word -> String? in
                guard let open = word.firstIndex(of: "("), word.contains("man:") else { return nil }
                let name = word[word.index(word.startIndex, offsetBy: word.hasPrefix("Documentation=") ? 18 : 4)..<open]
                let section = word[word.index(after: open)..<word.index(before: word.endIndex)]
                return "\(under)/share/man/man\(section)/\(name).\(section)"
            }
            #expect(!pages.isEmpty && pages.allSatisfy(installed.contains), "\(unit): \(documentation) -> \(pages)")
            let readme = documentation.split(separator: " ").first { $0.hasPrefix("file://") }.map { String($0.dropFirst(7)) }
            #expect(readme.map { installed.contains(String($0.dropFirst())) } == true, "\(unit): \(documentation)")
        }
    }

    @Test func manPagesAndCompletionsAreGeneratedFromTheCommands() async throws {
        let destdir = try await install(prefix: "/usr")
        defer { try? FileManager.default.removeItem(at: destdir); try? FileManager.default.removeItem(atPath: destdir.path + "-generated") }
        let traitctl = try text(destdir, "/usr/share/man/man1/traitctl.1")
        #expect(traitctl.contains(".Dt TRAITCTL 1"))
        for subcommand in ["status", "get", "set", "open", "close", "devices", "watch", "drag", "restore", "adapters",
                           "render", "layout", "run"] {
            #expect(traitctl.contains(".It Em \(subcommand)\n"), "traitctl(1) documents \(subcommand)")
        }
        #expect(traitctl.contains("Fl -strict") && traitctl.contains("Fl -json"))
        let traitd = try text(destdir, "/usr/share/man/man8/traitd.8")
        #expect(traitd.contains(".Dt TRAITD 8") && traitd.contains("Fl -no-state") && traitd.contains("Fl -config"))
        #expect(try text(destdir, "/usr/share/man/man1/traitd-adapters.1").contains(".Dt TRAITD-ADAPTERS 1"))
        // traitd-view's page is written by hand: every option its --help names is on it.
        let view = try text(destdir, "/usr/share/man/man1/traitd-view.1")
        let help = try await ChildProcess.run("/usr/bin/python3", [destdir.path + "/usr/bin/traitd-view", "--help"])
        let options = Set(help.stdout.split(whereSeparator: { " ,[]\n".contains($0) }).filter { $0.hasPrefix("--") && $0 != "--help" })
        #expect(options.count >= 3, "\(help.stdout)\(help.stderr)")
        for option in options { #expect(view.contains("Fl -\(option.dropFirst(2))"), "traitd-view.1 lacks \(option)") }

        let bash = destdir.path + "/usr/share/bash-completion/completions/traitctl"
        #expect(try await ChildProcess.run("bash", ["-n", bash]).status == 0, "bash reads the completion script")
        #expect(try String(contentsOfFile: bash, encoding: .utf8).hasPrefix("#!") == false, "sourced, never run: no hashbang")
        #expect(try String(contentsOfFile: bash, encoding: .utf8).contains("'landscape-left'") == false,
                "orientations are completed per property, by traitctl itself")
        #expect(try text(destdir, "/usr/share/zsh/vendor-completions/_traitctl").hasPrefix("#compdef traitctl"))
        #expect(try text(destdir, "/usr/share/fish/vendor_completions.d/traitctl.fish").contains("complete -c 'traitctl' -n"))
    }

    /// The interface page names every method, signal and property of the XML and every error of the code.
    @Test func theInterfacePageCoversTheWholeContract() throws {
        let page = try String(contentsOf: Binaries.repository.appendingPathComponent("docs/man/org.traitd.Layout1.5"), encoding: .utf8)
        let xml = try String(contentsOf: Binaries.repository.appendingPathComponent("Config/dbus-1/org.traitd.Layout1.xml"), encoding: .utf8)
        let members = try Regex(#"<(method|signal|property) name="([A-Za-z]+)""#)
        let names = xml.matches(of: members).map { String($0.output[2].substring!) }
        #expect(names.count > 40, "the XML's members were found (\(names.count))")
        for name in names {
            // As a term of a list: `.It Sy Name`, `.It Fn Name "args"`, or after a comma in a shared entry.
            let term = try Regex("(Sy|Fn|,) \(name)( |\n|,)")
            #expect(page.contains(term), "the page documents \(name)")
        }
        let code = try String(contentsOf: Binaries.repository.appendingPathComponent("Sources/TraitProtocol/Layout1.swift"), encoding: .utf8)
        let errors = code.matches(of: try Regex(#""(org\.traitd\.Layout1\.Error\.[A-Za-z]+)""#)).map { String($0.output[1].substring!) }
        #expect(errors.count >= 13)
        for error in errors { #expect(page.contains("Sy \(error)\n"), "the page documents \(error)") }
    }
}
