"""The pytest plugin's own tests, against the real daemon (run by make test: PythonPackageTests)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import uuid
from pathlib import Path

import pytest
from dbus_fast import Message, MessageType, Variant
from dbus_fast.aio.message_bus import MessageBus

import traitd as traitd_package
from traitd import InvalidArgs, NotOffered, OutOfRange, window_path
from traitd.pytest_plugin import TraitdFixture, find_binary


def traitctl(fixture: TraitdFixture, config: pytest.Config, *arguments: str) -> str:
    return subprocess.run([find_binary("traitctl", config), *arguments, "--bus", fixture.address],
                          check=True, capture_output=True, text=True).stdout


def test_set_waits_and_status_is_traitctls(traitd: TraitdFixture, pytestconfig: pytest.Config) -> None:
    started = traitd.set(orientation="portrait")
    assert len(started) == 2, "mail and notes"
    status = traitd.status()
    assert status["orientation"] == "portrait" and status["windows"][0]["frame"] == [0, 0, 438, 1024]
    # The same structure, key for key, as traitctl status --json.
    assert status == json.loads(traitctl(traitd, pytestconfig, "status", "--json"))


@pytest.mark.traitd(device="iphone-x", orientation="landscape-left")
def test_the_marker_sets_the_start(traitd: TraitdFixture) -> None:
    status = traitd.status()
    assert (status["device"], status["orientation"]) == ("iphone-x", "landscape-left")
    assert status["windows"][0]["frame"] == [0, 0, 812, 375]
    with pytest.raises(NotOffered, match="does not offer portrait-upside-down"):
        traitd.set(orientation="portrait-upside-down")
    with pytest.raises(InvalidArgs, match="unknown orientation 'sideways'"):
        traitd.set(orientation="sideways")


def test_wait_for_returns_the_arguments_in_order(traitd: TraitdFixture) -> None:
    ids = traitd.set(arrangement="split-half", appearance="dark")
    will = traitd.wait_for("WillTransitionToTraitCollection", app="mail")
    assert will[0] == ids[0] and will[1]["horizontalSizeClass"] == "compact"
    done = traitd.wait_for("TransitionCompleted", app="mail")
    assert done == [ids[0], [], [], []]
    with pytest.raises(TimeoutError, match="no DidEnterBackground of mail from traitd within 0.2 s"):
        traitd.wait_for("DidEnterBackground", app="mail", timeout=0.2)


def test_errors_are_classes_and_free_form_windows_work(traitd: TraitdFixture) -> None:
    traitd.set(windowing="stage-manager")
    with pytest.raises(OutOfRange, match="a window's size must be from 320 x 320"):
        traitd.run(traitd.client.window("mail", "SetFrame", "(dddd)", [[0.0, 0.0, 100.0, 100.0]]))
    ids = list(traitd.run(traitd.client.window("mail", "Tile", "s", ["left-half"]))[0])
    traitd.run(traitd.client.wait_for_transitions(ids))
    assert traitd.status()["windows"][0]["frame"] == [0, 0, 507, 768]


# A golden trace names transition ids and serials: a daemon of the test's own, fresh.
@pytest.mark.traitd(fresh=True)
def test_a_seed_scenario_checks_against_its_trace(traitd: TraitdFixture) -> None:
    scenarios = os.path.join(os.path.dirname(__file__), "..", "..", "..", "Tests", "Scenarios")
    out = traitd.scenario(os.path.join(scenarios, "multitasking.yaml"), check=os.path.join(scenarios, "multitasking.trace"))
    assert "matches" in out


def test_a_forged_signal_is_ignored(traitd: TraitdFixture) -> None:
    async def forge() -> None:
        bus = await MessageBus(bus_address=traitd.address).connect()
        await bus.send(Message.new_signal(window_path("mail"), "org.traitd.Layout1.Window", "DidEnterBackground"))
        forged = Message(destination=traitd.client.bus.unique_name, path=window_path("mail"),
                         interface="org.traitd.Layout1.Window", member="DidEnterBackground", message_type=MessageType.SIGNAL)
        await bus.send(forged)
        bus.disconnect()

    traitd.run(forge())
    traitd.set(orientation="portrait")  # after the forged ones: once it is logged, they were received
    assert not any(e.member == "DidEnterBackground" for e in traitd.events)


# The seed book-pages lays its pages from the window's top, under the iPad's 20-pt status bar: the layout checks
# find it, and this test is not about it.
@pytest.mark.traitd(adapters=True, allow_problems=["outside-safe-area"])
def test_the_adapter_host_reports(traitd: TraitdFixture) -> None:
    traitd.set(arrangement="split-half")
    mail = traitd.status()["windows"][0]
    assert mail["layouts"]["support-panel"] == {"main": [0, 0, 507, 768]}
    assert sorted(mail["adapters"]) == ["split-columns", "support-panel", "support-panel.layout"]


# GTK's first layout on a busy machine must not be counted as missed: a generous deadline.
@pytest.mark.traitd(config="transitions: { deadline-ms: 10000 }\n")
def test_an_app_under_test_gtk(traitd: TraitdFixture) -> None:
    """The GTK example (examples/gtk) as the app under test: on the fixture's bus, under Xvfb, it follows a
    split and reports what GTK allocated."""
    xvfb = subprocess.Popen(["Xvfb", "-displayfd", "1", "-screen", "0", "1400x1400x24", "-nolisten", "tcp"],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    try:
        assert xvfb.stdout is not None
        display = ":" + xvfb.stdout.readline().decode().strip()
        env = dict(traitd.environment, DISPLAY=display, GDK_BACKEND="x11", GSK_RENDERER="cairo", NO_AT_BRIDGE="1")
        example = os.path.join(os.path.dirname(__file__), "..", "..", "..", "examples", "gtk", "traitd_gtk.py")
        app = subprocess.Popen(["/usr/bin/python3", example, "--app", "mail"], env=env, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT)
        try:
            assert app.stdout is not None
            for line in app.stdout:  # its first report, transition 0: the window as it is
                if line.startswith(b"reported transition 0"):
                    break
            traitd.set(arrangement="split-half")
            layouts = traitd.status()["windows"][0]["layouts"]["gtk"]
            assert layouts["content"][0] + layouts["content"][2] == 507, layouts
        finally:
            app.terminate()
            app.wait(10)
    finally:
        xvfb.terminate()
        xvfb.wait(10)


# The problem planted below is the point of the test: allowed here, checked by hand.
@pytest.mark.traitd(allow_problems=True)
def test_a_layout_problem_is_found_and_fails_a_test_unless_allowed(traitd: TraitdFixture) -> None:
    """A 24-pt button reported for mail: the window publishes the problem, status shows it as traitctl does,
    and the fixture's check fails a test that does not allow it."""
    traitd.run(traitd.client.display("RegisterAdapter", "ss", ["mail", "probe"]))
    traitd.run(traitd.client.window("mail", "ReportLayout", "tsa{s(dddd)}a{sv}", [
        0, "probe", {"undo": [100.0, 100.0, 24.0, 24.0]}, {"kinds": Variant("a{ss}", {"undo": "control"})}]))
    traitd.set(appearance="dark")  # a transition after the report: its PropertiesChanged has been logged
    problems = traitd.layout_problems()
    assert [(p["app"], p["adapter"], p["element"], p["rule"]) for p in problems] == [("mail", "probe", "undo", "small-target")]
    assert "is 24 x 24 pt; on an iPad a control needs at least 44 x 44 pt" in problems[0]["message"]
    assert traitd.status()["windows"][0]["layoutProblems"][0]["rule"] == "small-target"
    with pytest.raises(pytest.fail.Exception, match="1 layout problem"):
        traitd.check_layout_problems(False)
    with pytest.raises(pytest.fail.Exception, match="small-target"):
        traitd.check_layout_problems(["overlap"])
    traitd.check_layout_problems(["small-target"])


PAGE = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", "..", "Tests", "IntegrationTests", "Fixtures",
                                    "web", "adaptive.html"))


# The page's Back button is 60 x 30: a small target, allowed here. The browser's layouts on a busy machine get the
# time they need: the test is about the page, not the deadline.
@pytest.mark.traitd(web={"notes": "file://" + PAGE}, allow_problems=["small-target"],
                    config="transitions: { deadline-ms: 60000 }\n")
def test_a_web_page_is_an_adapter(traitd: TraitdFixture) -> None:
    traitd.set(arrangement="split-one-third")
    notes = traitd.status()["windows"][1]
    assert notes["adapters"] == ["web"] and notes["layouts"]["web"]["sidebar"] == [0, 100, 300, 400]
    assert [p["rule"] for p in traitd.layout_problems()] == ["small-target"]


ARIA_PAGE = os.path.join(os.path.dirname(PAGE), "aria.html")
ARIA_GOLDEN = os.path.join(os.path.dirname(PAGE), "aria.yaml")  # at 400 px and wider; WebBridgeTests matches it too


# The page names its button "Copy link" below 400 px: a golden that says "Copy" fails there, naming the line; one
# that says /^Copy/ matches both.
@pytest.mark.traitd(web={"notes": "file://" + ARIA_PAGE}, aria=True, allow_problems=["small-target"],
                    config="transitions: { deadline-ms: 60000 }\n")
def test_expect_aria_matches_a_golden_snapshot_strictly(traitd: TraitdFixture) -> None:
    golden = Path(ARIA_GOLDEN).read_text()
    traitd.set(arrangement="split-one-third")
    traitd.expect_aria("notes", golden)
    traitd.set(arrangement="split-two-thirds")
    with pytest.raises(pytest.fail.Exception, match='line 10: the golden has `  - button "Copy"`'):
        traitd.expect_aria("notes", golden)
    traitd.expect_aria("notes", golden.replace('button "Copy"', "button /^Copy/"))
    # Strict: a golden that leaves the disabled button out does not match.
    with pytest.raises(pytest.fail.Exception, match="the golden has 10 lines, the snapshot 11"):
        traitd.expect_aria("notes", golden.replace('button "Copy"', "button /^Copy/").replace('  - button "Send" [disabled]\n', ""))


def test_expect_waits_for_a_condition(traitd: TraitdFixture) -> None:
    traitd.run(traitd.client.rotate("portrait"))
    assert traitd.expect("mail.horizontalSizeClass == compact") == "mail.horizontalSizeClass is compact"
    with pytest.raises(pytest.fail.Exception, match="mail.State is active"):
        traitd.expect("mail.State == background", timeout=0.2)


def test_a_shared_daemon_is_reset_between_tests_1(traitd: TraitdFixture) -> None:
    traitd.set(appearance="dark", arrangement="split-half")
    traitd.run(traitd.client.window("mail", "SetRestorationState", "a{sv}", [{"draft": Variant("s", "hello")}]))


def test_a_shared_daemon_is_reset_between_tests_2(traitd: TraitdFixture) -> None:
    """Runs after the test above on the same daemon: it finds the configuration's start, not that test's state,
    and none of that test's signals."""
    status = traitd.status()
    assert (status["arrangement"], status["traits"]["appearance"]) == ("split-two-thirds", "light")
    assert traitd.run(traitd.client.display("GetRestorationState", "s", ["mail"]))[0] == {}
    assert not any(e.member == "PropertiesChanged" and e.app == "mail" for e in traitd.events)


@pytest.mark.traitd_matrix(device=["ipad-9.7", "iphone-x"], orientation=["portrait", "landscape-left"],
                           appearance=["light", "dark"])
def test_the_matrix_marker_runs_every_combination(traitd: TraitdFixture, traitd_combination: dict[str, str],
                                                  request: pytest.FixtureRequest) -> None:
    # Eight tests, each named by its values and started at its combination.
    values = traitd_combination
    assert request.node.name.endswith(f"[{values['device']}-{values['orientation']}-{values['appearance']}]")
    status = traitd.status()
    assert (status["device"], status["orientation"], status["traits"]["appearance"]) == \
        (values["device"], values["orientation"], values["appearance"])


def test_every_command_waits_for_its_own_transitions(traitd: TraitdFixture) -> None:
    # Window and display commands as methods, each returning the transitions it started once they completed.
    started = traitd.set(windowing="stage-manager")
    assert started.completions["notes"]["id"] in started
    traitd.frame("mail", 40, 60, 500, 600)
    assert traitd.status_window("mail")["frame"] == [40, 60, 500, 600]
    traitd.resize("mail", 600, 700, live=3)
    assert traitd.status_window("mail")["frame"] == [40, 60, 600, 700]
    traitd.tile("notes", "right-half")
    traitd.raise_window("mail")
    assert traitd.status()["stacking"][0] == "mail"
    display = traitd.connect_display("external-1080p")
    assert display == "external-1"
    moved = traitd.move_to_display("notes", display)
    assert traitd.status_window("notes")["display"] == display and moved.completions["notes"]["reported"] == []
    traitd.disconnect_display(display)
    assert traitd.status_window("notes")["display"] == "device"
    # status() carries each window's traits; open and close wait too.
    traitd.open("maps", role="window")
    assert traitd.status_window("maps")["traits"]["horizontalSizeClass"] in ("compact", "regular")
    traitd.close_app("maps")
    with pytest.raises(KeyError, match="maps has no window"):
        traitd.status_window("maps")


def test_each_wait_has_a_cursor_of_its_own(traitd: TraitdFixture) -> None:
    ids = traitd.set(orientation="portrait")
    # TransitionCompleted first, then the ViewWillTransitionToSize that came before it: each member its own cursor.
    assert traitd.wait_for("TransitionCompleted", app="mail")[0] == ids[0]
    assert traitd.wait_for("ViewWillTransitionToSize", app="mail")[0] == ids[0]
    assert traitd.wait_for("ViewWillTransitionToSize", app="notes")[0] == ids[1]


def _nested_pytest(pytestconfig: pytest.Config, test: Path, *arguments: str, **extra: str) -> subprocess.CompletedProcess[str]:
    """Runs pytest on `test` as this session runs: this session's package and binaries, the plugin named with -p
    where this session named it so, and not again where its entry point loads it (an installed wheel: naming it
    twice is an error); `arguments` added to pytest's, `extra` to the environment."""
    package = os.path.dirname(os.path.dirname(os.path.abspath(traitd_package.__file__)))
    environment = dict(os.environ, TRAITD_BIN_DIR=os.path.dirname(find_binary("traitd", pytestconfig)),
                       PYTHONPATH=os.pathsep.join([package, os.environ.get("PYTHONPATH", "")]), **extra)
    plugin = [] if pytestconfig.pluginmanager.has_plugin("traitd") else ["-p", "traitd.pytest_plugin"]
    return subprocess.run([sys.executable, "-m", "pytest", *plugin, "-p", "no:cacheprovider", "-q", "-rf", *arguments, str(test)],
                          cwd=test.parent, env=environment, capture_output=True, text=True, timeout=300)


def _processes_with(marker: str) -> list[int]:
    """The processes whose environment holds `marker` (the plugin's buses and daemons inherit it)."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/environ", "rb") as environ:
                if marker.encode() in environ.read():
                    found.append(int(entry))
        except OSError:
            continue
    return found


def test_no_marker_combination_leaves_a_bus_or_a_daemon(tmp_path: Path, pytestconfig: pytest.Config) -> None:
    """Every marker combination a session can use (a matrix, fresh or shared; fresh alone; shared alone) ends
    with no bus and no daemon left: a fresh matrix once left one of each per combination."""
    (tmp_path / "test_markers.py").write_text(
        "import pytest\n\n"
        "@pytest.mark.traitd(fresh=True)\n"
        "@pytest.mark.traitd_matrix(device=['ipad-9.7', 'iphone-15'], appearance=['light', 'dark'])\n"
        "def test_fresh_matrix(traitd): pass\n\n"
        "@pytest.mark.traitd_matrix(device=['ipad-9.7', 'iphone-15'])\n"
        "def test_shared_matrix(traitd): pass\n\n"
        "@pytest.mark.traitd(fresh=True)\n"
        "def test_fresh(traitd): pass\n\n"
        "def test_shared(traitd): pass\n")
    marker = f"TRAITD_LEAK_PROBE={uuid.uuid4()}"
    run = _nested_pytest(pytestconfig, tmp_path / "test_markers.py", TRAITD_LEAK_PROBE=marker.split("=", 1)[1])
    assert run.returncode == 0, run.stdout + run.stderr
    assert "8 passed" in run.stdout, run.stdout
    assert _processes_with(marker) == [], "left running after the session"


def test_a_layout_problem_fails_the_test_itself(tmp_path: Path, pytestconfig: pytest.Config) -> None:
    """A test that meets a layout problem it does not allow fails, in its own call (not as an error at the
    fixture's teardown beside a pass); one that allows it passes."""
    (tmp_path / "test_problem.py").write_text(
        "import pytest\nfrom dbus_fast import Variant\n\n"
        "def plant(traitd):\n"
        "    traitd.run(traitd.client.display('RegisterAdapter', 'ss', ['mail', 'probe']))\n"
        "    traitd.run(traitd.client.window('mail', 'ReportLayout', 'tsa{s(dddd)}a{sv}', [0, 'probe',\n"
        "        {'undo': [100.0, 100.0, 24.0, 24.0]}, {'kinds': Variant('a{ss}', {'undo': 'control'})}]))\n"
        "    traitd.set(appearance='dark')\n\n"
        "@pytest.mark.traitd(fresh=True)\n"
        "def test_unallowed(traitd): plant(traitd)\n\n"
        "@pytest.mark.traitd(fresh=True, allow_problems=['small-target'])\n"
        "def test_allowed(traitd): plant(traitd)\n")
    run = _nested_pytest(pytestconfig, tmp_path / "test_problem.py")
    assert run.returncode == 1, run.stdout + run.stderr
    assert "1 failed, 1 passed" in run.stdout and "error" not in run.stdout.splitlines()[-1], run.stdout
    assert "FAILED test_problem.py::test_unallowed" in run.stdout and "traitd: 1 layout problem(s)" in run.stdout, run.stdout


def test_a_baseline_fails_a_session_only_on_new_problems(tmp_path: Path, pytestconfig: pytest.Config) -> None:
    """``--traitd-update-baseline`` writes the session's problems (the file traitctl's ``--baseline`` reads);
    judged against it, the same tests pass (on pytest-xdist's workers) and the session says the problem is known; a test meeting another
    problem fails, and the one it no longer meets is resolved."""
    (tmp_path / "test_known.py").write_text(
        "import os, pytest\nfrom dbus_fast import Variant\n\n"
        "@pytest.mark.traitd(fresh=True)\n"
        "def test_planted(traitd):\n"
        "    element = os.environ.get('PLANTED', 'undo')\n"
        "    traitd.run(traitd.client.display('RegisterAdapter', 'ss', ['mail', 'probe']))\n"
        "    traitd.run(traitd.client.window('mail', 'ReportLayout', 'tsa{s(dddd)}a{sv}', [0, 'probe',\n"
        "        {element: [100.0, 100.0, 24.0, 24.0]}, {'kinds': Variant('a{ss}', {element: 'control'})}]))\n"
        "    traitd.set(appearance='dark')\n")
    file = tmp_path / "baseline.txt"
    written = _nested_pytest(pytestconfig, tmp_path / "test_known.py", "--traitd-baseline", str(file), "--traitd-update-baseline")
    assert written.returncode == 0 and f"wrote {file} (1 problems)" in written.stdout, written.stdout + written.stderr
    assert file.read_text().endswith("\nmail small-target undo\n"), file.read_text()
    # Under pytest-xdist: the problem a worker meets reaches the controlling process, which counts it known.
    known = _nested_pytest(pytestconfig, tmp_path / "test_known.py", "--traitd-baseline", str(file), "-n", "2")
    assert known.returncode == 0 and f"baseline {file}: 0 new, 1 known, 0 resolved" in known.stdout, known.stdout
    changed = _nested_pytest(pytestconfig, tmp_path / "test_known.py", "--traitd-baseline", str(file), PLANTED="redo")
    assert changed.returncode == 1, changed.stdout
    assert "1 layout problem(s) during the test and not in the baseline" in changed.stdout, changed.stdout
    assert (f"baseline {file}: 1 new, 0 known, 1 resolved\n  new: mail small-target redo\n"
            "  resolved: mail small-target undo") in changed.stdout, changed.stdout
    file.write_text("mail small-targets undo\n")
    bad = _nested_pytest(pytestconfig, tmp_path / "test_known.py", "--traitd-baseline", str(file))
    assert bad.returncode == 4 and f"{file}:1:6: 'small-targets' is not a rule: did you mean small-target?" in bad.stderr, bad.stderr


def test_a_session_report_joins_every_workers_tests(tmp_path: Path, pytestconfig: pytest.Config) -> None:
    """``--traitd-report DIR``: one report for the session, its tests run on two pytest-xdist workers: a run per
    test, in the session's order, the failed one failed with its reason and its problem on its element, a page's
    window with its real pixels, and the signals each test caused."""
    (tmp_path / "page.html").write_text("<!doctype html><div id='header' style='height: 44px; background: #36c'>Hi</div>")
    # Two tests whose node ids differ only where the report's ids take no character: two runs, not one.
    (tmp_path / "test_reported.py").write_text(
        "import pytest\nfrom dbus_fast import Variant\n\n"
        f"@pytest.mark.traitd(fresh=True, web={{'mail': 'file://{tmp_path}/page.html'}}, allow_problems=True,\n"
        "                     config='transitions: { deadline-ms: 60000 }\\n')\n"
        "def test_page(traitd):\n"
        "    traitd.set(arrangement='full')\n\n"
        "@pytest.mark.traitd(fresh=True)\n"
        "def test_planted(traitd):\n"
        "    traitd.run(traitd.client.display('RegisterAdapter', 'ss', ['mail', 'probe']))\n"
        "    traitd.run(traitd.client.window('mail', 'ReportLayout', 'tsa{s(dddd)}a{sv}', [0, 'probe',\n"
        "        {'undo': [100.0, 100.0, 24.0, 24.0]}, {'kinds': Variant('a{ss}', {'undo': 'control'})}]))\n"
        "    traitd.set(appearance='dark')\n\n"
        "@pytest.mark.parametrize('x', ['a b', 'a-b'])\n"
        "def test_named(traitd, x): pass\n")
    report = tmp_path / "report"
    run = _nested_pytest(pytestconfig, tmp_path / "test_reported.py", "-n", "2", "--traitd-report", str(report))
    assert run.returncode == 1 and "1 failed, 3 passed" in run.stdout, run.stdout + run.stderr
    assert f"wrote {report}/index.html (4 runs from 2 reports, 1 failed)" in run.stdout, run.stdout
    data = json.loads((report / "report.json").read_text())
    page, planted, *named = data["runs"]
    assert len(named) == 2 and named[0]["id"] != named[1]["id"], [r["id"] for r in named]
    assert page["id"] == "test_reported.py--test_page" and page["passed"], page["id"]
    assert planted["id"] == "test_reported.py--test_planted" and not planted["passed"]
    assert "traitd: 1 layout problem(s)" in planted["failures"][0], planted["failures"]
    window = next(w for w in planted["steps"][0]["windows"] if w["adapter"] == "probe")
    undo = next(e for e in window["elements"] if e["name"] == "undo")
    assert undo["kind"] == "control" and planted["problems"][undo["problems"][0]]["rule"] == "small-target", planted
    assert any("userInterfaceStyle=dark" in line for line in planted["steps"][0]["signals"]), planted["steps"][0]["signals"]
    # The page's frames; its pixels are not taken in a pytest session (the screenshots would change the tests'
    # timing: a page's first layout past the fixture's deadline).
    shown = next(w for w in page["steps"][0]["windows"] if w["adapter"] == "web")
    assert [e["name"] for e in shown["elements"]] == ["header"] and "picture" not in shown, shown
    assert (report / "index.html").exists() and not [p for p in report.iterdir() if p.name.startswith(".pieces")]
