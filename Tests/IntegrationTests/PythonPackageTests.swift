import Foundation
import TestSupport
import Testing
import Vocabulary

/// The Python package (clients/python): its pytest plugin's own tests against the real daemon, mypy --strict
/// on the package, and `pip install ./clients/python` into a fresh virtual environment whose pytest finds the
/// plugin by its entry point.
@Suite(.serialized) struct PythonPackageTests {
    static let python = "/usr/bin/python3"
    static let package = Binaries.repository.appendingPathComponent("clients/python").path
    /// Where the tests' binaries are (traitd, traitd-adapters, traitctl).
    static var binaries: String { (Binaries.path("traitd") as NSString).deletingLastPathComponent }

    /// One vocabulary: `SyncClient.set()` takes exactly the words `traitctl set` and a scenario's `set:` take
    /// (`SetWord`), a setting's `-` spelt `_` as a keyword argument must be.
    @Test func setTakesTheWordsTraitctlTakes() async throws {
        var environment = ProcessInfo.processInfo.environment
        environment["PYTHONPATH"] = Self.package
        environment["PYTHONDONTWRITEBYTECODE"] = "1"
        let run = try await ChildProcess.run(Self.python, ["-c", """
            from traitd.sync import COMMANDS, _SETTINGS
            print(" ".join([*COMMANDS, *(word.replace("_", "-") for word in _SETTINGS)]))
            """], environment: environment)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: " ").map(String.init)
                == SetWord.all.map(\.word))
    }

    /// The plugin's own tests, but the baseline's (below): each run of pytest has a deadline sized for what it
    /// runs (60 s), and the baseline's four nested sessions, one on pytest-xdist's workers, took this one past it
    /// on a busy machine.
    @Test func thePluginsOwnTestsPass() async throws {
        let run = try await pluginTests(["-k", "not baseline and not session_report"])
        #expect(run.status == 0 && run.stdout.contains("36 passed, 2 deselected"), "\(run.stdout)\(run.stderr)")
    }

    /// `--traitd-baseline`: written by a session, then judged against, on pytest-xdist's workers too.
    @Test func theBaselineFailsASessionOnlyOnNewProblems() async throws {
        let run = try await pluginTests(["-k", "baseline"])
        #expect(run.status == 0 && run.stdout.contains("1 passed, 37 deselected"), "\(run.stdout)\(run.stderr)")
    }

    /// `--traitd-report`: one report of a session whose tests ran on pytest-xdist's workers.
    @Test func theSessionReportJoinsEveryWorkersTests() async throws {
        let run = try await pluginTests(["-k", "session_report"])
        #expect(run.status == 0 && run.stdout.contains("1 passed, 37 deselected"), "\(run.stdout)\(run.stderr)")
    }

    private func pluginTests(_ selection: [String]) async throws -> (status: Int32, stdout: String, stderr: String) {
        var environment = ProcessInfo.processInfo.environment
        environment["PYTHONPATH"] = Self.package
        environment["PYTHONDONTWRITEBYTECODE"] = "1"
        return try await ChildProcess.run(
            Self.python, ["-m", "pytest", "-p", "traitd.pytest_plugin", "-p", "no:cacheprovider", "-q"] + selection
                + [Self.package + "/tests", "--traitd-bin", Self.binaries],
            environment: environment)
    }

    /// The matrix marker's eight combinations under pytest-xdist, two workers, each with its own bus and daemon,
    /// and `--traitd-coverage` adding up the modes every worker's daemons drove.
    @Test func aMatrixRunsOnXdistWorkersAndReportsCoverage() async throws {
        var environment = ProcessInfo.processInfo.environment
        environment["PYTHONPATH"] = Self.package
        environment["PYTHONDONTWRITEBYTECODE"] = "1"
        let run = try await ChildProcess.run(
            Self.python, ["-m", "pytest", "-p", "traitd.pytest_plugin", "-p", "no:cacheprovider", "-v", "-n", "2",
                          "--traitd-coverage", "-k", "matrix", Self.package + "/tests", "--traitd-bin", Self.binaries],
            environment: environment)
        let out = run.stdout
        #expect(run.status == 0 && out.contains("8 passed"), "\(out)\(run.stderr)")
        // Both workers ran combinations.
        #expect(out.contains("[gw0]") && out.contains("[gw1]"), "\(out)")
        #expect(out.contains("test_the_matrix_marker_runs_every_combination[iphone-x-landscape-left-dark]"), "\(out)")
        // Every worker's modes, once: the iPhone X in landscape, dark, compact both ways; the iPad's Split View.
        let lines = out.split(separator: "\n").map { $0.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ") }
        #expect(lines.contains("phone landscape full compact x compact appearance=dark"), "\(out)")
        #expect(lines.contains("pad portrait two-thirds compact x regular default"), "\(out)")
        #expect(lines.contains("device class: phone-max, pad-mini, pad-13"), "\(out)")
    }

    @Test func theTypeHintsPassMypyStrict() async throws {
        let run = try await ChildProcess.run("mypy", ["--strict", "--no-incremental", "--cache-dir", "/dev/null",
                                                      Self.package + "/traitd"])
        #expect(run.status == 0 && run.stdout.contains("Success: no issues found"), "\(run.stdout)\(run.stderr)")
    }

    @Test func pipInstallsItIntoAFreshVirtualEnvironment() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("traitd-venv-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        // Debian's dbus-fast and setuptools from the system: no download (--no-build-isolation).
        let venv = try await ChildProcess.run(Self.python, ["-m", "venv", "--system-site-packages", folder.path])
        #expect(venv.status == 0, "\(venv.stderr)")
        let build = FileManager.default.temporaryDirectory.appendingPathComponent("traitd-build-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: build) }
        try FileManager.default.copyItem(atPath: Self.package, toPath: build.path)  // setuptools writes beside the sources
        let pip = try await ChildProcess.run(folder.path + "/bin/pip", ["install", "--quiet", "--no-build-isolation",
                                                                         "--no-index", build.path])
        #expect(pip.status == 0, "\(pip.stdout)\(pip.stderr)")
        let plugins = try await ChildProcess.run(
            folder.path + "/bin/python", ["-c", "import importlib.metadata as m, traitd; print(traitd.Client.__name__, "
                + "[e.value for e in m.entry_points(group='pytest11') if e.name == 'traitd'])"])
        #expect(plugins.stdout == "Client ['traitd.pytest_plugin']\n", "\(plugins.stdout)\(plugins.stderr)")
    }
}
