import Foundation
import TestSupport
import Testing

/// The Python package (clients/python): its pytest plugin's own tests against the real daemon, mypy --strict
/// on the package, and `pip install ./clients/python` into a fresh virtual environment whose pytest finds the
/// plugin by its entry point.
@Suite(.serialized) struct PythonPackageTests {
    static let python = "/usr/bin/python3"
    static let package = Binaries.repository.appendingPathComponent("clients/python").path
    /// Where the tests' binaries are (traitd, traitd-adapters, traitctl).
    static var binaries: String { (Binaries.path("traitd") as NSString).deletingLastPathComponent }

    @Test func thePluginsOwnTestsPass() async throws {
        var environment = ProcessInfo.processInfo.environment
        environment["PYTHONPATH"] = Self.package
        environment["PYTHONDONTWRITEBYTECODE"] = "1"
        let run = try await ChildProcess.run(
            Self.python, ["-m", "pytest", "-p", "traitd.pytest_plugin", "-p", "no:cacheprovider", "-q",
                          Self.package + "/tests", "--traitd-bin", Self.binaries],
            environment: environment)
        #expect(run.status == 0 && run.stdout.contains("13 passed"), "\(run.stdout)\(run.stderr)")
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
