import Foundation
import TestSupport
import TraitClient
import TraitConfig
import Testing

/// Every code block of the README and of `docs/` is checked, so that no document can drift from the code:
/// shell lines name programs, subcommands and make targets that exist (and the README's run against a daemon;
/// the D-Bus API's cookbook is `CookbookTests`), YAML parses as a config or a scenario, Python compiles, and
/// Swift is either quoted line by line from the file its comment names or compiled in a test. The README's
/// first steps print exactly what the README shows.
@Suite struct DocsTests {
    /// One fenced block: its document, the line it starts on, its info string (`sh`, `yaml`...) and its text.
    struct Block: CustomStringConvertible {
        let document: String
        let line: Int
        let kind: String
        let text: String
        var description: String { "\(document):\(line) (```\(kind))" }
        var lines: [String] { text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) }
    }

    /// The README and every document under docs/ (not the reference's copies of outside sources).
    static let documents: [String] = {
        let docs = (try? FileManager.default.contentsOfDirectory(atPath: Binaries.repository.appendingPathComponent("docs").path)) ?? []
        return ["README.md"] + docs.filter { $0.hasSuffix(".md") }.sorted().map { "docs/" + $0 }
    }()

    static func blocks(in document: String) throws -> [Block] {
        let text = try String(contentsOf: Binaries.repository.appendingPathComponent(document), encoding: .utf8)
        var blocks: [Block] = []
        var open: (line: Int, kind: String, body: [String])?
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if line.hasPrefix("```") {
                if let current = open {
                    blocks.append(Block(document: document, line: current.line, kind: current.kind,
                                        text: current.body.joined(separator: "\n")))
                    open = nil
                } else {
                    open = (index + 1, String(line.dropFirst(3)), [])
                }
            } else if open != nil {
                open!.body.append(String(line))
            }
        }
        return blocks
    }

    static func allBlocks(_ kind: String) throws -> [Block] {
        try documents.flatMap { try blocks(in: $0) }.filter { $0.kind == kind }
    }

    /// The programs a document may tell a person to run.
    static let programs: Set<String> = [
        "make", "traitctl", "traitd", "traitd-adapters", "traitd-view", "dbus-send", "busctl", "gdbus", "dbus-monitor",
        "python3", "pytest", "pip", "swift", "source", "export", "systemctl", "systemd-analyze", "journalctl", "sudo",
        "examples/sidebar_adapter.py", "cd", "apt-get", "man", "cat", "ls", "rsvg-convert", "xvfb-run", "valgrind",
        "scripts/stress-test.sh", "scripts/fresh-clone-check.sh", "dbus-run-session", "env", "echo", "for", "done", "do",
    ]

    /// A shell line's command words: environment assignments and `./`, `.build/debug/` prefixes set aside.
    static func command(_ line: String) -> [String] {
        var words = line.split(separator: " ").map(String.init)
        while let first = words.first, first.contains("="), !first.hasPrefix("-") { words.removeFirst() }
        if let first = words.first {
            words[0] = first.replacingOccurrences(of: ".build/debug/", with: "").replacingOccurrences(of: "./", with: "")
        }
        return words
    }

    /// The commands of a shell block: a line continued with `\` joined to the next; in a block that shows a
    /// session (`$ ` before each command, output between them), only the commands.
    static func commandLines(_ block: Block) -> [String] {
        var lines: [String] = []
        var pending = ""
        for raw in block.lines {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.hasSuffix("\\") {
                pending += line.dropLast() + " "
                continue
            }
            lines.append(pending + line)
            pending = ""
        }
        let session = lines.contains { $0.hasPrefix("$ ") }
        return lines.compactMap { line in
            if session { return line.hasPrefix("$ ") ? String(line.dropFirst(2)) : nil }
            return line.isEmpty || line.hasPrefix("#") ? nil : line
        }
    }

    /// The module map is written once, in docs/development.md ("Layout of the code"): every module under
    /// Sources/ has its row in the table and its line in the tree, every module they name exists, and every
    /// target of Package.swift under Sources/ is one of them.
    @Test func theModuleMapNamesEveryModuleAndNoOther() throws {
        let text = try String(contentsOf: Binaries.repository.appendingPathComponent("docs/development.md"), encoding: .utf8)
        let sources = Binaries.repository.appendingPathComponent("Sources").path
        let modules = Set(try FileManager.default.contentsOfDirectory(atPath: sources).filter { !$0.hasPrefix(".") })
        // The section "Layout of the code", up to the next.
        let section = text.split(separator: "\n## ").first { $0.hasPrefix("Layout of the code") } ?? ""
        let lines = section.split(separator: "\n").map(String.init)
        let inTree = Set(lines.compactMap { $0.firstMatch(of: /^Sources\/([A-Za-z-]+)\//).map { String($0.1) } })
        // A row names one module, or several in its first cell (`traitd`, `traitctl`, `traitd-adapters`).
        let inTable = Set(lines.filter { $0.hasPrefix("| `") }.flatMap { line in
            line.split(separator: "|").first.map { $0.matches(of: /`([A-Za-z-]+)`/).map { String($0.1) } } ?? []
        })
        #expect(modules.subtracting(inTree).isEmpty, "modules without their line in the tree: \(modules.subtracting(inTree).sorted())")
        #expect(inTree.subtracting(modules).isEmpty, "the tree names modules that do not exist: \(inTree.subtracting(modules).sorted())")
        #expect(modules.subtracting(inTable).isEmpty, "modules without their row in the table: \(modules.subtracting(inTable).sorted())")
        #expect(inTable.subtracting(modules).isEmpty, "the table names modules that do not exist: \(inTable.subtracting(modules).sorted())")
        // Package.swift's targets that live under Sources/ (no path of their own) are the directories there.
        let package = try String(contentsOf: Binaries.repository.appendingPathComponent("Package.swift"), encoding: .utf8)
        // Each declaration up to the next one: a target with a path of its own lives elsewhere.
        let declarations = package.split(separator: /\.(?=target\(|executableTarget\(|systemLibrary\(|testTarget\()/).dropFirst()
        let declared = declarations.compactMap { text -> String? in
            guard !text.hasPrefix("testTarget"), !text.contains("path:"), let name = text.firstMatch(of: /name: "([A-Za-z-]+)"/) else { return nil }
            return String(name.1)
        }
        #expect(Set(declared) == modules, "Package.swift: \(Set(declared).symmetricDifference(modules).sorted())")
    }

    /// What only keeps or measures values links no libdbus (the map's promise, held to Package.swift): the
    /// daemon's core, the state file, the config reader and the limits, whose dependencies, all the way down,
    /// include neither `DBus` nor `CDBus`.
    @Test func theCoreTheStateFileAndTheConfigLinkNoLibdbus() throws {
        let package = try String(contentsOf: Binaries.repository.appendingPathComponent("Package.swift"), encoding: .utf8)
        var dependencies: [String: [String]] = [:]
        for text in package.split(separator: /\.(?=target\(|executableTarget\(|systemLibrary\(|testTarget\()/).dropFirst() {
            guard let name = text.firstMatch(of: /name: "([A-Za-z-]+)"/) else { continue }
            let list = text.firstMatch(of: /dependencies: \[([^\]]*)\]/).map { String($0.1) } ?? ""
            dependencies[String(name.1)] = list.matches(of: /"([A-Za-z-]+)"/).map { String($0.1) }
        }
        func closure(_ module: String) -> Set<String> {
            var seen: Set<String> = [], next = [module]
            while let current = next.popLast() {
                for dependency in dependencies[current] ?? [] where seen.insert(dependency).inserted { next.append(dependency) }
            }
            return seen
        }
        #expect(closure("TraitService").contains("CDBus"))  // the walk finds libdbus where it is
        for module in ["DisplayCore", "StateStore", "TraitConfig", "Limits", "BusValues", "Locks"] {
            #expect(dependencies[module] != nil, "\(module) is not in Package.swift")
            #expect(closure(module).isDisjoint(with: ["DBus", "CDBus"]), "\(module) links libdbus: \(closure(module).sorted())")
        }
    }

    @Test func everyShellLineNamesAProgramASubcommandAndATargetThatExist() async throws {
        let makefile = try String(contentsOf: Binaries.repository.appendingPathComponent("Makefile"), encoding: .utf8)
        let targets = Set(makefile.split(separator: "\n").compactMap { line -> String? in
            guard let colon = line.firstIndex(of: ":"), !line.hasPrefix("\t"), !line.hasPrefix("#"), !line.contains("=") else { return nil }
            return String(line[..<colon])
        })
        var checkedSubcommands: Set<String> = []
        var count = 0
        for block in try Self.allBlocks("sh") {
            for line in Self.commandLines(block) {
                let words = Self.command(line)
                guard let program = words.first else { continue }
                #expect(Self.programs.contains(program), "\(block): '\(program)' is not a program the docs know: \(line)")
                count += 1
                if program == "make", words.count > 1, !words[1].contains("=") {
                    #expect(targets.contains(words[1]), "\(block): no make target \(words[1])")
                }
                if program == "traitctl", words.count > 1, !words[1].hasPrefix("-"), checkedSubcommands.insert(words[1]).inserted {
                    let help = try await ChildProcess.run(Binaries.path("traitctl"), [words[1], "--help"])
                    #expect(help.status == 0, "\(block): traitctl has no subcommand \(words[1]): \(help.stderr)")
                }
            }
        }
        #expect(count > 40, "the shell lines were found")
    }

    /// The README's own lines run against one daemon, top to bottom as a reader types them, each exiting 0: its
    /// `dbus-send` and `traitctl` lines, the first steps' rotation included (`traitctl watch`, which follows for
    /// good, is `theFirstStepsPrintWhatTheReadmeShows`'s). The next section once began with a split the first
    /// steps' portrait does not offer.
    @Test func theReadmesLinesRun() async throws {
        let fixture = try await DaemonFixture()
        let blocks = try Self.blocks(in: "README.md").filter { $0.kind == "sh" }
        var ran = 0
        for block in blocks {
            for line in Self.commandLines(block) where line.hasPrefix("dbus-send ") {
                let result = try await ChildProcess.run("/bin/bash", ["-c", line], environment: fixture.bus.environment)
                #expect(result.status == 0, "\(block): \(line)\n\(result.stdout)\(result.stderr)")
                ran += 1
            }
            for line in Self.commandLines(block) where line.hasPrefix("traitctl ") && !line.hasPrefix("traitctl watch") {
                let words = Self.command(line)
                // traitctl on PATH, as `make run` says to put it; from the repository, as the README is read.
                var environment = fixture.bus.environment
                environment["PATH"] = Binaries.path("traitctl").replacingOccurrences(of: "/traitctl", with: "") + ":"
                    + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
                // traitctl run makes a bus of its own, and layout files are read without a daemon: no --bus.
                let bus = ["run", "layout"].contains(words[1]) ? "" : " --bus '\(fixture.bus.address)'"
                let result = try await ChildProcess.run("/bin/bash", ["-c", "cd '\(Binaries.repository.path)' && " + line + bus],
                                                        environment: environment)
                #expect(result.status == 0, "\(block): \(line)\n\(result.stdout)\(result.stderr)")
                ran += 1
            }
        }
        #expect(ran >= 10)
    }

    @Test func everyYAMLBlockParsesAsAConfigOrAScenario() throws {
        for block in try Self.allBlocks("yaml") {
            do {
                if block.text.contains("steps:") {
                    _ = try Scenario.parse(block.text, file: block.description)
                } else {
                    _ = try DaemonConfig(text: block.text, file: block.description, base: .embedded())
                }
            } catch {
                Issue.record("\(block): \(error)")
            }
        }
    }

    @Test func everyPythonBlockCompiles() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("docs-python-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let blocks = try Self.allBlocks("python")
        #expect(!blocks.isEmpty)
        for (index, block) in blocks.enumerated() {
            let file = folder.appendingPathComponent("block\(index).py")
            try block.text.write(to: file, atomically: true, encoding: .utf8)
            let result = try await ChildProcess.run("/usr/bin/python3", ["-m", "py_compile", file.path])
            #expect(result.status == 0, "\(block): \(result.stderr)")
        }
    }

    /// A Swift block whose comments name files (`// Sources/TraitModel/Command.swift: ...`) quotes them: each
    /// line under such a comment is a line of that file. Any other Swift block is compiled in a test, where its
    /// text stands as it is (`DocExamples.swift`, the engine's `ArticleTests`).
    @Test func everySwiftBlockQuotesItsFilesOrIsCompiledInATest() throws {
        let compiled = try ["Tests/IntegrationTests/DocExamples.swift", "Tests/CassowaryTests/ArticleTests.swift"].map {
            try String(contentsOf: Binaries.repository.appendingPathComponent($0), encoding: .utf8)
        }.joined(separator: "\n")
        let compiledLines = Set(compiled.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) })
        var quoted = 0
        for block in try Self.allBlocks("swift") {
            var file: Set<String>?
            var path = ""
            for line in block.lines.map({ $0.trimmingCharacters(in: .whitespaces) }) where !line.isEmpty {
                if line.hasPrefix("// "), let named = line.dropFirst(3).split(separator: ":").first,
                   named.hasSuffix(".swift") || named.hasSuffix(".yaml") {
                    path = String(named.split(separator: " ").first ?? "")
                    let text = try String(contentsOf: Binaries.repository.appendingPathComponent(path), encoding: .utf8)
                    file = Set(text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) })
                    continue
                }
                if let file {
                    #expect(file.contains(line), "\(block): \(path) has no line '\(line)'")
                    quoted += 1
                } else if !line.hasPrefix("//") {
                    #expect(compiledLines.contains(line), "\(block): the line '\(line)' is neither quoted from a file nor compiled in a test")
                }
            }
        }
        #expect(quoted >= 15, "the recipes were found")
    }

    /// The README's first steps, as a person does them with `make run` (traitd and the adapter host): the
    /// watch prints exactly the transcript the README shows, times aside. The two completions and their
    /// layouts come as the adapters report, so those four lines may come in either window's order.
    @Test func theFirstStepsPrintWhatTheReadmeShows() async throws {
        let fixture = try await DaemonFixture()
        let host = try HostProcess(fixture)
        let recorder = try await Recorder(fixture)
        // Six registrations, and each adapter's first layout (of the windows as they are) published: the watch
        // below must see the rotation's signals only.
        try await recorder.until("the adapter host's six registrations and first layouts") {
            guard await recorder.adapters().count == 6 else { return false }
            let mail = try? await recorder.layouts(of: "mail"), notes = try? await recorder.layouts(of: "notes")
            return mail?.frames.count == 3 && notes?.frames.count == 3
        }
        let readme = try Self.blocks(in: "README.md")
        let watchLine = try #require(readme.first { $0.kind == "sh" && $0.text.contains("traitctl watch") })
        let rotateLine = try #require(readme.first { $0.kind == "sh" && $0.text.contains("Display.Rotate") })
        let transcript = try #require(readme.first { $0.kind == "" && $0.text.contains("TransitionCompleted #2") })
        let watchWords = Self.command(watchLine.text.trimmingCharacters(in: .whitespacesAndNewlines))
        let watch = try ChildProcess(Binaries.path("traitctl"), Array(watchWords.dropFirst()) + ["--bus", fixture.bus.address])
        defer { watch.kill() }
        try await watch.waitForOutput("watching", in: .errors)
        let rotate = try await fixture.run("bash", ["-c", rotateLine.text])
        #expect(rotate.status == 0, "\(rotate)")
        try await watch.waitForOutput("TransitionCompleted", occurrences: 2)
        func untimed(_ text: String) -> [String] {
            text.split(separator: "\n").map { line in String(line.split(separator: " ", maxSplits: 1).last ?? "") }
        }
        let expected = untimed(transcript.text), seen = untimed(watch.standardOutput)
        #expect(seen.count == expected.count, "\(watch.standardOutput)")
        #expect(Array(seen.prefix(expected.count - 4)) == Array(expected.prefix(expected.count - 4)), "\(watch.standardOutput)")
        #expect(Set(seen.suffix(4)) == Set(expected.suffix(4)), "\(watch.standardOutput)")
        _ = host
    }
}
