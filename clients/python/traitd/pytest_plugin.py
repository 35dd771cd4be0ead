"""The pytest plugin (registered as ``pytest11`` ``traitd``): the ``traitd`` fixture gives each test a private
bus with a daemon (``traitd --no-state --testing``; the adapter host and the settings portal when asked) at the
configuration's start, and yields a ``TraitdFixture``: ``.address`` for the app under test, ``.set(...)``,
``.status()``, ``.wait_for(...)``, ``.expect(...)``. Tests that start alike (the same config, portal, adapters,
pages and apps) share one daemon, ``Reset`` before each and watched by a client of the test's own; ``fresh=True``
gives a test a daemon of its own.

    @pytest.mark.traitd(device="iphone-x", orientation="landscape-left", adapters=True)
    def test_something(traitd):
        traitd.set(orientation="portrait")
        assert traitd.status()["windows"][0]["frame"] == [0, 0, 375, 812]

A test fails when any layout an adapter reported during it has a layout problem (a window's ``LayoutProblems``:
minimum-size, reflow, outside-window, outside-safe-area, overlap, small-target, under-keyboard, under-window-controls, clipped-text, low-contrast), unless the marker allows it: ``allow_problems=True``
for any, or a list of rule names (``allow_problems=["outside-safe-area"]``). ``pytest --traitd-baseline FILE``
judges them against the problems already known (``traitd.baseline``: APP RULE ELEMENT a line, the file ``traitctl
scenario run --baseline`` reads): a test fails only on a problem not in it, and the session ends with how many were
new, known and resolved; ``--traitd-update-baseline`` writes the session's problems to FILE instead (workers
included), failing no test on them.

``@pytest.mark.traitd_matrix(device=[...], orientation=[...], appearance=[...])`` runs a test once per
combination (any ``set()`` word as a key; the device and orientation are the start, the rest is set in the
marker's order). Under pytest-xdist (``-n auto``) each worker has its own buses and daemons. ``pytest
--traitd-coverage`` prints, at the end, which modes the tests drove and which they never did (``traitctl
coverage``).

It finds the binaries with ``--traitd-bin DIR``, ``$TRAITD_BIN_DIR``, those the package carries (the wheel
``make wheel`` builds) or ``PATH``, and stops everything it started, also when the test fails or is interrupted."""

from __future__ import annotations

import dataclasses
import hashlib
import glob
import itertools
import json
import os
import re
import shlex
import shutil
import subprocess
import tempfile
import threading
import time
import warnings
from collections.abc import Generator, Iterator
from typing import Any

import pytest

from . import _binaries, baseline
from .client import problem
from .errors import TraitdError
from .model import BUS_NAME
from .sync import SyncClient


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--traitd-bin", metavar="DIR", default=None,
                     help="the folder with traitd and traitd-adapters (else $TRAITD_BIN_DIR, else those this "
                          "package carries, else PATH)")
    parser.addoption("--traitd-coverage", action="store_true", default=False,
                     help="print which modes the tests' windows were in, and which never (traitctl coverage)")
    parser.addoption("--traitd-baseline", metavar="FILE", default=None,
                     help="the layout problems already known (APP RULE ELEMENT a line): a test fails only on others")
    parser.addoption("--traitd-update-baseline", action="store_true", default=False,
                     help="write the session's layout problems to the --traitd-baseline file instead of checking them")
    parser.addoption("--traitd-report", metavar="DIR", default=None,
                     help="write a report of every test that used the traitd fixture to DIR/index.html (its signals, "
                          "its windows' real pixels with the reported frames, its problems; one report for the "
                          "session, pytest-xdist's workers included)")


# --traitd-baseline: the file's problems (read once, by every process), and the problems the session found (each
# worker's sent to the controlling process as it finishes, in ``workeroutput``).
_known = pytest.StashKey[set[baseline.Problem] | None]()
_found = pytest.StashKey[set[baseline.Problem]]()


# --traitd-coverage: each daemon's modes go to a file in this folder as it stops (one folder for the session,
# made by the controlling process and found by pytest-xdist's workers in their environment).
_COVERAGE_FOLDER = "TRAITD_COVERAGE_DIR"


# --traitd-report: each process adds its tests' runs to a piece of its own in this folder (made by the controlling
# process, found by the workers in their environment); the controlling process merges the pieces at the end.
_REPORT_PIECES = "TRAITD_REPORT_PIECES"
_report_written = pytest.StashKey[str]()
_call_report = pytest.StashKey[pytest.TestReport]()


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "traitd(device=None, orientation=None, adapters=False, web=None, apps=None, aria=False, portal=False, "
                   "config=None, allow_problems=False, fresh=False): the traitd fixture's start: the device and orientation, the "
                   "adapter host (its built-in adapters; web: {app: URL} pages in headless Chromium as the apps' "
                   "adapter web; apps: {app: [command, args...]} unmodified desktop apps as their adapter desktop; "
                   "aria=True: their accessibility snapshots, for traitd.expect_aria), the "
                   "settings portal, a config file's text; and the layout problems the test allows (True, or a list "
                   "of rule names); fresh=True for a daemon of the test's own (else one is shared, and Reset, by the "
                   "tests that start alike)")
    config.addinivalue_line(
        "markers", "traitd_matrix(**values): run the test once per combination of the values (device=[...], "
                   "orientation=[...], and any set() word: appearance=[...], arrangement=[...], content_size=[...])")
    if config.getoption("--traitd-coverage") and not hasattr(config, "workerinput"):
        os.environ[_COVERAGE_FOLDER] = tempfile.mkdtemp(prefix="traitd-coverage-")
    report = config.getoption("--traitd-report")
    if report and not hasattr(config, "workerinput"):
        if os.path.exists(report) and not os.path.isdir(report):
            raise pytest.UsageError(f"--traitd-report {report}: a file, not a folder; the report is written into a folder")
        # Checked now, not after the session: the merge writes only into a new folder or an earlier report's.
        others = [name for name in (os.listdir(report) if os.path.isdir(report) else [])
                  if not name.startswith(".pieces-") and not (name in ("files", "index.html") and os.path.exists(os.path.join(report, "report.json")))
                  and name != "report.json"]
        if others:
            raise pytest.UsageError(f"--traitd-report {report}: the folder holds files that are not a report's ({', '.join(sorted(others)[:3])}); "
                                    "give a new or empty folder, or one a report was written to")
        os.makedirs(report, exist_ok=True)
        os.environ[_REPORT_PIECES] = tempfile.mkdtemp(prefix=".pieces-", dir=report)
    found: set[baseline.Problem] = set()
    config.stash[_found] = found
    config.stash[_known] = None
    path = config.getoption("--traitd-baseline")
    if config.getoption("--traitd-update-baseline") and not path:
        raise pytest.UsageError("--traitd-update-baseline writes the --traitd-baseline file: give --traitd-baseline FILE")
    if path:
        try:
            config.stash[_known] = baseline.read(path)
        except FileNotFoundError:
            if not config.getoption("--traitd-update-baseline"):
                raise pytest.UsageError(f"cannot read the baseline {path}; write it with --traitd-update-baseline") from None
            config.stash[_known] = found.copy()  # empty
        except (OSError, baseline.BaselineError) as error:
            raise pytest.UsageError(f"traitd baseline: {error}") from None


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """``traitd_matrix``: one test per combination, named by its values (``ipad-9.7-portrait-dark``)."""
    marker = metafunc.definition.get_closest_marker("traitd_matrix")
    if marker is None:
        return
    if marker.args or not marker.kwargs or not all(isinstance(v, (list, tuple)) and v for v in marker.kwargs.values()):
        raise pytest.UsageError(f"{metafunc.definition.nodeid}: traitd_matrix takes KEY=[VALUE, ...] lists, e.g. "
                                "traitd_matrix(device=['ipad-9.7', 'iphone-x'], appearance=['light', 'dark'])")
    combinations = [dict(zip(marker.kwargs, values)) for values in itertools.product(*marker.kwargs.values())]
    metafunc.fixturenames.append("traitd_combination")
    metafunc.parametrize("traitd_combination", combinations,
                         ids=["-".join(str(v) for v in c.values()) for c in combinations])


@pytest.fixture
def traitd_combination(request: pytest.FixtureRequest) -> dict[str, Any]:
    """The ``traitd_matrix`` combination this test runs with (its values by key)."""
    return dict(request.param)


def pytest_terminal_summary(terminalreporter: Any, config: pytest.Config) -> None:
    _baseline_summary(terminalreporter, config)
    written = config.stash.get(_report_written, None)
    if written:
        terminalreporter.section("traitd report")
        terminalreporter.write_line(written)
    folder = os.environ.get(_COVERAGE_FOLDER)
    if not config.getoption("--traitd-coverage") or hasattr(config, "workerinput") or not folder:
        return
    files = sorted(glob.glob(os.path.join(folder, "*.json")))
    traitctl = os.path.join(os.path.dirname(find_binary("traitd", config)), "traitctl")
    report = subprocess.run([traitctl, "coverage", *[a for f in files for a in ("--from", f)]],
                            capture_output=True, text=True)
    terminalreporter.section("traitd coverage")
    terminalreporter.write(report.stdout + report.stderr)
    shutil.rmtree(folder, ignore_errors=True)


def find_binary(name: str, config: pytest.Config) -> str:
    """--traitd-bin, else $TRAITD_BIN_DIR, else the binaries this package carries (a wheel of make wheel), else PATH."""
    folder = config.getoption("--traitd-bin") or os.environ.get("TRAITD_BIN_DIR")
    path = os.path.join(folder, name) if folder else (_binaries.bundled(name) or shutil.which(name))
    if not path or not os.access(path, os.X_OK):
        pytest.fail(f"traitd fixture: cannot find {name} "
                    f"({'not in ' + folder if folder else 'not on PATH'}): pass --traitd-bin DIR or set TRAITD_BIN_DIR",
                    pytrace=False)
    return path


class TraitdFixture(SyncClient):
    """A private bus with traitd on it, and a client of it."""

    def __init__(self, address: str, processes: list[subprocess.Popen[bytes]], folder: str, traitctl: str) -> None:
        self.processes = processes
        self.folder = folder
        self.traitctl = traitctl
        super().__init__(address)

    def scenario(self, path: str, check: str | None = None, update: str | None = None) -> str:
        """Runs a scenario file (``traitctl scenario run``) against this fixture's daemon and returns its trace;
        with ``check``, fails the test with traitctl's diff when the run differs from that golden trace; with
        ``update``, rewrites it. A fresh daemon is where a trace is reproducible (``@pytest.mark.traitd(fresh=True)``;
        scenarios with adapters need ``adapters=True`` too)."""
        arguments = [self.traitctl, "scenario", "run", path, "--bus", self.address]
        arguments += ["--check", check] if check else ["--update", update] if update else []
        run = subprocess.run(arguments, capture_output=True, text=True)
        if run.returncode != 0:
            pytest.fail(f"scenario {path}: {run.stdout}{run.stderr}", pytrace=False)
        return run.stdout

    def expect_aria(self, app: str, golden: str, adapter: str | None = None) -> None:
        """Fails the test unless ``app``'s window's accessibility snapshot, as of its adapter's last report, matches
        ``golden`` (YAML, as Playwright writes aria snapshots: ``- button "Copy"``), strictly: the same nodes in the
        same order, each name as written or, written ``/pattern/``, a regular expression found in it. The match is
        ``traitctl aria APP --check``'s; the bridges send snapshots with ``@pytest.mark.traitd(aria=True)``."""
        path = os.path.join(self.folder, f"expect-aria-{app}.yaml")
        with open(path, "w") as file:
            file.write(golden)
        arguments = [self.traitctl, "aria", app, "--check", path, "--bus", self.address]
        arguments += ["--adapter", adapter] if adapter else []
        run = subprocess.run(arguments, capture_output=True, text=True)
        if run.returncode != 0:
            pytest.fail(f"traitd: {(run.stdout + run.stderr).strip()}", pytrace=False)

    def expect(self, condition: str, timeout: float | None = None) -> str:
        """Waits until ``condition`` holds (``traitctl wait --until``: ``"mail.horizontalSizeClass == compact and
        display.appearance == dark"``), re-checked at every signal; returns the values it held with, and fails the
        test with the last values when ``timeout`` (the fixture's, 30 s) passes first."""
        run = subprocess.run([self.traitctl, "wait", "--until", condition, "--timeout", str(timeout or self.timeout),
                              "--bus", self.address], capture_output=True, text=True)
        if run.returncode != 0:
            pytest.fail(f"traitd: {run.stderr.strip()}", pytrace=False)
        return run.stdout.strip()

    def layout_problems(self) -> list[dict[str, str]]:
        """Every layout problem published during the test so far (each window's ``LayoutProblems`` as it changed),
        once each, in the order they came: dicts with ``app``, ``adapter``, ``element``, ``rule`` and ``message``."""
        seen: list[dict[str, str]] = []
        for event in self.events:
            if event.member != "PropertiesChanged" or event.app is None or len(event.args) < 2:
                continue
            for value in event.args[1].get("LayoutProblems", []):
                found = {"app": event.app, **problem(value)}
                if found not in seen:
                    seen.append(found)
        return seen

    def check_layout_problems(self, allowed: bool | list[str], config: pytest.Config | None = None) -> None:
        """Fails the test on a layout problem that ``allowed`` (the marker's ``allow_problems``) does not cover and
        the session's baseline (``--traitd-baseline``) does not list; the session counts the problems it finds."""
        if allowed is True:
            return
        kept = [p for p in self.layout_problems() if not (isinstance(allowed, list) and p["rule"] in allowed)]
        known = config.stash.get(_known, None) if config is not None else None
        if config is not None:
            config.stash[_found].update(baseline.Problem.of(p) for p in kept)
            if known is not None and config.getoption("--traitd-update-baseline"):
                return
        if known is not None:
            kept = [p for p in kept if baseline.Problem.of(p) not in known]
        if kept:
            lines = "\n".join(f"  {p['app']} {p['adapter']} {p['element']} {p['rule']}: {p['message']}" for p in kept)
            where = " and not in the baseline" if known is not None else ""
            pytest.fail(f"traitd: {len(kept)} layout problem(s) during the test{where} (allow them with "
                        f"@pytest.mark.traitd(allow_problems=[...]) or --traitd-baseline):\n{lines}", pytrace=False)

    @property
    def environment(self) -> dict[str, str]:
        """The environment of an app under test: the private bus as its session bus."""
        env = dict(os.environ, DBUS_SESSION_BUS_ADDRESS=self.address)
        env.pop("DBUS_STARTER_ADDRESS", None)
        return env


def _start(what: list[str], folder: str, name: str) -> subprocess.Popen[bytes]:
    log = open(os.path.join(folder, name + ".log"), "wb")
    return subprocess.Popen(what, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)


def _stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(5)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


class _Daemon:
    """A private bus with traitd (and, when asked, the adapter host) on it, for one test or for every test of the
    session that starts the same way."""

    def __init__(self, options: dict[str, Any], config: pytest.Config, timeout: float = 30) -> None:
        self.daemon_path = find_binary("traitd", config)
        self.folder = tempfile.mkdtemp(prefix="traitd-pytest-")
        self.processes: list[subprocess.Popen[bytes]] = []
        try:
            bus = subprocess.Popen(["dbus-daemon", "--session", "--nofork", "--nopidfile", "--print-address=1"],
                                   stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, start_new_session=True)
            self.processes.append(bus)
            assert bus.stdout is not None
            self.address = bus.stdout.readline().decode().strip()
            if not self.address:
                pytest.fail("traitd fixture: dbus-daemon printed no address", pytrace=False)
            # --testing: Reset, which a shared daemon needs between tests.
            arguments = [self.daemon_path, "--bus", self.address, "--no-state", "--testing"]
            if options.get("config"):
                path = os.path.join(self.folder, "traitd.yaml")
                with open(path, "w") as file:
                    file.write(options["config"])
                arguments += ["--config", path]
            if options.get("portal"):
                arguments.append("--portal")
            self.processes.append(_start(arguments, self.folder, "traitd"))
            # The client follows the name's owner: it waits for NameOwnerChanged, not for a clock.
            probe = SyncClient(self.address, timeout)
            try:
                probe.run(probe.client.wait_for_owner(timeout))
            finally:
                probe.close()
            web: dict[str, str] = options.get("web") or {}
            apps: dict[str, list[str]] = options.get("apps") or {}
            if options.get("adapters") or web or apps:
                # Pages and apps alone run without the built-in adapters (--only-layouts), beside them with adapters=True.
                extra = ([] if options.get("adapters") else ["--only-layouts"])
                extra += ["--aria-snapshots"] if options.get("aria") else []
                extra += [argument for app, url in sorted(web.items()) for argument in ("--web", f"{app}={url}")]
                extra += [argument for app, command in sorted(apps.items())
                          for argument in ("--app", f"{app}={shlex.join(command)}")]
                self.processes.append(_start_host(find_binary("traitd-adapters", config), self.address, self.folder,
                                                  timeout, extra))
        except BaseException:
            self.stop()
            raise

    @property
    def alive(self) -> bool:
        return all(process.poll() is None for process in self.processes)

    def stop(self) -> None:
        try:
            self._keep_coverage()
        finally:
            # The processes stop whatever the coverage call did.
            for process in reversed(self.processes):
                _stop(process)
            shutil.rmtree(self.folder, ignore_errors=True)

    def _keep_coverage(self) -> None:
        """With --traitd-coverage, writes the modes this daemon drove (``Coverage``) and the window size classes
        and breakpoints (``AdaptationCoverage``) to the session's folder."""
        folder = os.environ.get(_COVERAGE_FOLDER)
        if not folder or not getattr(self, "address", None) or not self.alive:
            return
        client = SyncClient(self.address, 10)
        try:
            modes = client.run(client.client._call(BUS_NAME, "/org/traitd/Layout1", "org.traitd.Layout1.Testing",
                                                   "Coverage", "", []))[0]
            try:
                classes, breakpoints = client.run(client.client._call(BUS_NAME, "/org/traitd/Layout1", "org.traitd.Layout1.Testing",
                                                                      "AdaptationCoverage", "", []))
            except TraitdError:
                classes, breakpoints = [], []  # a traitd older than the method: its modes still count
        finally:
            client.close()
        # The shape traitctl coverage --json writes and --from reads.
        with open(os.path.join(folder, f"{os.getpid()}-{id(self)}.json"), "w") as file:
            json.dump({"modes": [list(mode) for mode in modes], "windowSizeClasses": [list(c) for c in classes],
                       "breakpoints": [list(b) for b in breakpoints]}, file)


# One daemon for every test of the session that starts the same way (the marker's config, portal, adapters, web
# and apps): a test gets it Reset (the configuration's start; traitd --testing) and a client of its own, at the
# cost of one command where a new bus and daemon cost tens of milliseconds. `fresh=True` gives a test its own.
_shared: dict[str, _Daemon] = {}


def _sharing_key(options: dict[str, Any]) -> str | None:
    if options.get("fresh"):
        return None
    return repr([options.get(k) for k in ("config", "portal", "adapters", "aria")]
                + [sorted((options.get("web") or {}).items()), sorted((options.get("apps") or {}).items())])


def pytest_sessionfinish(session: pytest.Session) -> None:
    for daemon in _shared.values():
        daemon.stop()
    _shared.clear()
    _merge_report(session.config)
    if hasattr(session.config, "workeroutput"):  # a pytest-xdist worker: its problems go to the controller
        session.config.workeroutput["traitd_problems"] = [list(dataclasses.astuple(p)) for p in session.config.stash[_found]]


@pytest.hookimpl(optionalhook=True)  # type: ignore[misc]  # pytest-xdist's hook, when it is installed
def pytest_testnodedown(node: Any, error: Any) -> None:
    """A pytest-xdist worker finished: its problems join the session's."""
    found = getattr(node, "workeroutput", {}).get("traitd_problems", [])
    node.config.stash[_found].update(baseline.Problem(*p) for p in found)


def _baseline_summary(terminalreporter: Any, config: pytest.Config) -> None:
    """With --traitd-baseline: the session's problems beside the file's (new, known, resolved), or the file
    written with them (--traitd-update-baseline)."""
    known, path = config.stash.get(_known, None), config.getoption("--traitd-baseline")
    if known is None or hasattr(config, "workerinput"):
        return
    found = config.stash[_found]
    terminalreporter.section("traitd baseline")
    terminalreporter.write_line("\n".join(baseline.compare(known, found).report(path)))
    if config.getoption("--traitd-update-baseline"):
        baseline.write(path, found)
        terminalreporter.write_line(f"wrote {path} ({len(found)} problems)")


def _merge_report(config: pytest.Config) -> None:
    """With --traitd-report, in the controlling process: every process's piece joined into the report (traitctl
    report merge), the pieces removed."""
    report, pieces = config.getoption("--traitd-report"), os.environ.get(_REPORT_PIECES)
    if not report or not pieces or hasattr(config, "workerinput"):
        return
    written = sorted(os.path.join(pieces, name) for name in os.listdir(pieces)) if os.path.isdir(pieces) else []
    if written:
        traitctl = os.path.join(os.path.dirname(find_binary("traitd", config)), "traitctl")
        merged = subprocess.run([traitctl, "report", "merge", report, *written], capture_output=True, text=True, timeout=300)
        config.stash[_report_written] = (merged.stdout + merged.stderr).strip()
        if merged.returncode != 0:
            # The pieces are the session's runs: kept, and named, where the merge was refused.
            config.stash[_report_written] += f"\nthe pieces are kept in {pieces}: traitctl report merge OUT {pieces}/*"
            return
    else:
        config.stash[_report_written] = f"{report}: no test used the traitd fixture; no report written"
    shutil.rmtree(pieces, ignore_errors=True)


@pytest.hookimpl(hookwrapper=True)  # type: ignore[misc]
def pytest_runtest_makereport(item: pytest.Item, call: Any) -> Generator[None, Any, None]:
    """Keeps the test's own outcome (its call phase's report) for --traitd-report, which the fixture's teardown
    writes."""
    outcome = yield
    report = outcome.get_result()
    if report.when == "call":
        item.stash[_call_report] = report


def _run_id(nodeid: str) -> str:
    """The test's id in the report (letters, digits and `._+-`): its node id with `::` made `--`, and where any
    other character had to change (a parameter's `[a b]`), or the id held `--` already, 8 hex digits of the
    node id's hash added, so that two tests never share one (`[a b]` and `[a-b]`)."""
    made = nodeid.replace("::", "--")
    cleaned = re.sub(r"[^A-Za-z0-9._+-]", "-", made)
    if cleaned == made and "--" not in nodeid:
        return cleaned
    return f"{cleaned}-{hashlib.sha1(nodeid.encode()).hexdigest()[:8]}"


def _add_to_report(request: pytest.FixtureRequest, fixture: "TraitdFixture", since: int, started: float,
                   combination: dict[str, Any]) -> None:
    """Adds the test's end to this process's piece of the report (traitctl report add): the daemon's state, its
    signals since the test began, its outcome."""
    pieces = os.environ.get(_REPORT_PIECES)
    if not pieces:
        return
    item = request.node
    outcome = item.stash.get(_call_report, None)
    arguments = [fixture.traitctl, "report", "add", os.path.join(pieces, str(os.getpid())), "--bus", fixture.address,
                 "--id", _run_id(item.nodeid), "--title", item.nodeid,
                 "--source", str(item.path) if hasattr(item, "path") else "", "--since", str(since),
                 "--order", str(item.session.items.index(item) if item in item.session.items else 0),
                 "--seconds", f"{time.monotonic() - started:.3f}", "--report-title", "pytest"]
    arguments += [a for word, value in combination.items() for a in ("--setting", f"{word}={value}")]
    if outcome is None or outcome.failed:
        crash = getattr(getattr(outcome, "longrepr", None), "reprcrash", None)
        if crash is not None:
            # pytest's crash line keeps the assertion's lines apart; the report shows it as written, with its place.
            why = f"{crash.message} ({os.path.basename(crash.path)}:{crash.lineno})"
        else:
            why = str(outcome.longrepr)[:2000] if outcome is not None else "the test did not run"
        arguments += ["--failure", why or "failed"]
    added = subprocess.run(arguments, capture_output=True, text=True, timeout=120)
    if added.returncode != 0:
        warnings.warn(f"traitd report: {item.nodeid}: {added.stderr.strip()}")


# The test's fixture and what its marker allows, for the check after the test's body.
_checked_after_the_call = pytest.StashKey[tuple["TraitdFixture", "bool | list[str]"]]()


@pytest.hookimpl(hookwrapper=True)  # type: ignore[misc]  # pytest declares hookimpl without types
def pytest_runtest_call(item: pytest.Item) -> Generator[None, Any, None]:
    """A layout problem fails the test itself, after its body passed: checked at the fixture's teardown, it was an
    error beside a passed test (``10 passed, 1 error``)."""
    outcome = yield
    checked = item.stash.get(_checked_after_the_call, None)
    if checked is not None and outcome.excinfo is None:
        fixture, allowed = checked
        fixture.check_layout_problems(allowed, item.config)


@pytest.fixture
def traitd(request: pytest.FixtureRequest) -> Iterator[TraitdFixture]:
    marker = request.node.get_closest_marker("traitd")
    options: dict[str, Any] = dict(marker.kwargs) if marker else {}
    key = _sharing_key(options)
    daemon = _shared.get(key) if key is not None else None
    if daemon is not None and not daemon.alive:
        daemon.stop()
        daemon = None
    reused = daemon is not None
    if daemon is None:
        daemon = _Daemon(options, request.config)
        if key is not None:
            _shared[key] = daemon
    fixture: TraitdFixture | None = None
    try:
        fixture = TraitdFixture(daemon.address, daemon.processes, daemon.folder,
                                os.path.join(os.path.dirname(daemon.daemon_path), "traitctl"))
        fixture.run(fixture.client.wait_for_owner(fixture.timeout))
        if reused:
            # Back to the configuration's start, its transitions completed, before the test's own client watches.
            ids = list(fixture.run(fixture.client._call(BUS_NAME, "/org/traitd/Layout1", "org.traitd.Layout1.Testing",
                                                        "Reset", "", []))[0])
            fixture.run(fixture.client.wait_for_transitions(ids, fixture.timeout))
            fixture.client.events.clear()
        combination = request.getfixturevalue("traitd_combination") \
            if request.node.get_closest_marker("traitd_matrix") else {}
        start = {k: combination.get(k, options.get(k)) for k in ("device", "orientation") if combination.get(k, options.get(k))}
        if start:
            fixture.set(**start)
        # `word`, not `key`: that name says below whether the daemon is shared, and reusing it for a matrix's
        # values left a fresh test's bus and daemon running for every combination.
        for word, value in combination.items():
            if word not in ("device", "orientation"):
                fixture.set(**{str(word): value})
        request.node.stash[_checked_after_the_call] = (fixture, options.get("allow_problems", False))
        reporting = bool(request.config.getoption("--traitd-report") and os.environ.get(_REPORT_PIECES))
        since, started = (fixture.run(fixture.client.get_state())[0], time.monotonic()) if reporting else (0, 0.0)
        yield fixture
        if reporting:
            _add_to_report(request, fixture, since, started, combination)
    finally:
        if fixture is not None:
            fixture.close()
        if key is None:
            daemon.stop()


def _start_host(path: str, address: str, folder: str, timeout: float, extra: list[str]) -> subprocess.Popen[bytes]:
    """Starts the adapter host and returns once it has registered every adapter it announced: it logs
    "registering N adapter(s)", then "registered NAME for APP" for each. Its output is read on a thread of its
    own (and kept in the folder's traitd-adapters.log), so the wait is for those lines, not for a clock."""
    host = subprocess.Popen([path, "--bus", address, *extra], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            start_new_session=True)
    ready = threading.Event()

    def read() -> None:
        assert host.stdout is not None
        expected, registered = None, 0
        with open(os.path.join(folder, "traitd-adapters.log"), "wb") as log:
            for line in host.stdout:
                log.write(line)
                log.flush()
                if (found := re.search(rb"registering (\d+) adapter", line)) is not None:
                    expected = int(found.group(1))
                elif b"] registered " in line:
                    registered += 1
                if expected is not None and registered >= expected:
                    ready.set()
        ready.set()  # the host ended: the caller finds out below

    threading.Thread(target=read, name="traitd-adapters output", daemon=True).start()
    if not ready.wait(timeout) or host.poll() is not None:
        _stop(host)
        pytest.fail(f"traitd fixture: the adapter host did not register its adapters (log in {folder})", pytrace=False)
    return host
