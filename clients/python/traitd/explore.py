"""The explorer behind ``traitctl explore`` (``python3 -m traitd.explore``): walks at random through what a person
does with the simulated device, checks every step, and shrinks the first failing walk with Hypothesis.

traitctl starts the private bus, ``traitd --testing`` and the adapter host, then runs this module with the bus's
address and the moves to draw from (``--moves``: JSON of the vocabulary's cases, written by traitctl, so that
nothing here repeats the Swift vocabulary). A walk is a Hypothesis-drawn list of moves (``@given`` over
``st.lists``, ``@seed``): device, rotation, arrangement, windowing, divider drag, a free-form window's frame (by
fractions of the screen, or its width to the point, where breakpoints and window size classes flip) and tile,
opening and closing apps, and every display-wide setting. Every walk starts with ``Reset`` (the
configuration's start). After every move:

- each transition it began completes, and no adapter missed or failed it;
- no window has a layout problem (``LayoutProblems``), but those a baseline lists (``--baseline FILE``: the
  problems already known, ``traitd.baseline``).

A move traitd refuses (a rotation a device does not offer, a drag outside Split View) changes nothing and is
left out of the walk. On the first failure, Hypothesis shrinks the walk (fewer moves, simpler values), replaying
each candidate from ``Reset``, to a shortest one that still fails; that walk is written as a strict scenario
(``failure.yaml``, naming the layout folders it ran with) and ``traitctl scenario run --private --update`` writes
its golden trace (``failure.trace``), replaying it without Hypothesis to show that it fails on its own. The walk
as first found, before shrinking, is kept too (``found.yaml``). Exit 1 then; 0 when ``--steps`` steps found
nothing; 2 when the failure would not reproduce; 69 without Hypothesis.

The walks are the reproduction, not the seed: a seed draws the same walks only with the same Hypothesis version
(seed 1 took 349 steps with 6.67 and 1,722 with 6.170), so the version is printed and written beside the seed,
and the scenarios replay with any version or none.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys
import time
from dataclasses import dataclass
from typing import Any

from . import baseline
from .errors import TraitdError
from .sync import COMMANDS, SyncClient

# Fractions of the screen a drag or a frame is drawn from: computed against the screen the move meets.
FRACTIONS = [0.0, 0.25, 0.33, 0.4, 0.5, 0.6, 0.66, 0.75, 1.0]
# An app no configuration opens at start, for moves that open a new one.
NEW_APP = "photos"


@dataclass(frozen=True)
class Move:
    """One drawn move: a scenario step's word and its value before it meets the display (fractions unresolved)."""

    word: str
    value: Any


@dataclass
class Step:
    """A move as performed: the scenario step's word and value (as ``failure.yaml`` writes it)."""

    word: str
    value: Any

    def yaml(self) -> str:
        return f"  - {self.word}: {flow(self.value)}"

    def title(self) -> str:
        return f"{self.word} {flow(self.value)}"


def flow(value: Any) -> str:
    """A value in YAML's flow style: ``{ arrangement: split-half }``, ``[begin, 320, end]``."""
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{k}: {flow(v)}" for k, v in value.items()) + " }"
    if isinstance(value, list):
        return "[" + ", ".join(flow(v) for v in value) + "]"
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


class Failure(AssertionError):
    """A walk that broke a check: the step it broke at (1-based), and what went wrong."""

    def __init__(self, step: int, title: str, problem: str) -> None:
        super().__init__(f"step {step} ({title}): {problem}")
        self.problem = problem


@dataclass
class Progress:
    """How the search goes: the steps taken when the first failure was found, replays while shrinking."""

    found: int | None = None
    replays: int = 0
    shortest: int = 0
    reported: int = 0


class Explorer:
    """Runs walks against the daemon on ``client``'s bus and keeps what the last one did."""

    def __init__(self, client: SyncClient, moves: dict[str, Any], timeout: float,
                 known: set[baseline.Problem] | None = None) -> None:
        self.client = client
        # The baseline's problems (--baseline): a walk that meets only these has found nothing new.
        self.known = known or set()
        self.moves = moves
        self.timeout = timeout
        self.settings = {s["word"]: s for s in moves["settings"]}
        self.steps_taken = 0
        self.walks = 0
        self.last: list[Step] = []
        # The first failing walk, as it was found (before Hypothesis shrank it).
        self.found: list[Step] = []
        # Every step taken, in order, hashed: the same seed gives the same walks, and so the same fingerprint.
        self.fingerprint = hashlib.sha256()

    # The walk: Reset, then each move, checked.

    def run(self, walk: list[Move]) -> None:
        self.walks += 1
        self.last = []
        self.reset()
        for move in walk:
            mark = len(self.client.client.events)
            step, ids = self.perform(move)
            if step is None:
                continue  # refused: nothing changed
            self.steps_taken += 1
            self.last.append(step)
            self.fingerprint.update(step.title().encode() + b"\n")
            self.check(len(self.last), step, ids, mark)

    def reset(self) -> None:
        """``Reset``, and its transitions completed. Not a finding when it fails: the exploration stops."""
        ids = list(self.client.run(self.client.client._call(
            "org.traitd.Layout1", "/org/traitd/Layout1", "org.traitd.Layout1.Testing", "Reset", "", []))[0])
        try:
            self.client.run(self.client.client.wait_for_transitions(ids, self.timeout), self.timeout + 5)
        except TimeoutError as error:
            raise RuntimeError(f"Reset's transitions did not complete: {error}") from None

    def perform(self, move: Move) -> tuple[Step | None, list[int]]:
        """Sends the move; returns it as a scenario step and the transitions it began, or None when refused."""
        c = self.client.client
        run = self.client.run
        try:
            if move.word == "set":
                (key, value), = move.value.items()
                if key in self.settings:
                    setting = self.settings[key]
                    wire = value == "on" if setting["flag"] else value
                    return Step("set", {key: value}), run(c.set_traits({setting["property"]: wire}))
                return Step("set", {key: value}), list(run(c.display(COMMANDS[key], "s", [value]))[0])
            if move.word == "open":
                return Step("open", dict(move.value)), run(c.open_app(move.value["app"], move.value["role"]))
            if move.word == "close":
                return Step("close", move.value), run(c.close_app(move.value))
            if move.word == "tile":
                app, position = move.value["app"], move.value["position"]
                return Step("tile", {"app": app, "position": position}), list(run(c.window(app, "Tile", "s", [position]))[0])
            if move.word == "frame":
                width, height = self.screen()
                fx, fy, fw, fh = move.value["fractions"]
                frame = [round(fx * width), round(fy * height), round(fw * width), round(fh * height)]
                app = move.value["app"]
                ids = list(run(c.window(app, "SetFrame", "(dddd)", [[float(v) for v in frame]]))[0])
                return Step("frame", {"app": app, "frame": frame}), ids
            if move.word == "width":
                # A free-form window's width to the point (its height and top kept, moved left as far as the
                # width needs to stay on screen, as a scenario matrix's width: does): the widths a fraction of the
                # screen never lands on, where a breakpoint or a window size class flips.
                _, display, windows = run(c.get_state())
                # Drawn as any integer, taken modulo the screen's width: every point of it as likely, on any device.
                app, width = move.value["app"], float(move.value["width"] % (int(display["ScreenSize"][0]) + 1))
                frames = [list(w["Frame"]) for _, w in windows if w["App"] == app]
                if not frames:
                    return None, []
                frame = frames[0]
                x = max(0.0, min(float(frame[0]), float(display["ScreenSize"][0]) - width))
                rect = [round(x), round(float(frame[1])), round(width), round(float(frame[3]))]
                ids = list(run(c.window(app, "SetFrame", "(dddd)", [[float(v) for v in rect]]))[0])
                return Step("frame", {"app": app, "frame": rect}), ids
            if move.word == "drag":
                width, _ = self.screen()
                x = round(move.value * (width - 10))
                # Three commands, each after the last one's transitions completed, as a scenario's drag runs them:
                # a command sent while a transition is open completes it at once, its late adapters missed.
                ids = self.settled(list(run(c.display("BeginDividerDrag", "", []))[0]))
                try:
                    ids += self.settled(list(run(c.display("MoveDivider", "d", [float(x)]))[0]))
                finally:
                    ids += list(run(c.display("EndDividerDrag", "", []))[0])
                return Step("drag", ["begin", x, "end"]), ids
        except TraitdError:
            return None, []
        raise ValueError(f"unknown move {move.word}")

    def settled(self, ids: list[int]) -> list[int]:
        """``ids``, once their transitions completed (or the time-out passed: the check after the step says so)."""
        try:
            self.client.run(self.client.client.wait_for_transitions(ids, self.timeout), self.timeout + 5)
        except TimeoutError:
            pass
        return ids

    def screen(self) -> tuple[float, float]:
        _, display, _ = self.client.run(self.client.client.get_state())
        width, height = display["ScreenSize"]
        return float(width), float(height)

    def check(self, number: int, step: Step, ids: list[int], mark: int) -> None:
        """The checks after step ``number``, whose signals were logged from index ``mark`` on."""
        try:
            self.client.run(self.client.client.wait_for_transitions(ids, self.timeout), self.timeout + 5)
        except TimeoutError:
            raise Failure(number, step.title(), f"a transition did not complete within {self.timeout:g} s") from None
        if (problem := self.problem(ids, mark)) is not None:
            # One place raises every finding: Hypothesis tells failures apart by where they are raised, and a
            # walk that fails one way should shrink to any shorter walk that fails at all.
            raise Failure(number, step.title(), problem)

    def problem(self, ids: list[int], mark: int) -> str | None:
        """What is wrong after a step: an adapter missed or failed one of its transitions, or a layout problem.

        A transition another one of the same window overtook within the step (a divider drag's snapshots at
        each size it passes) completes at once with its adapters missed, by traitd's rule: no adapter could
        have made it, so only a window's last transition of the step counts its misses."""
        events = self.client.client.events[mark:]
        last: dict[str, int] = {}
        for event in events:
            if event.app is not None and event.transition is not None:
                last[event.app] = max(last.get(event.app, 0), event.transition)
        for event in events:
            if event.member == "TransitionCompleted" and event.args and event.args[0] in ids and event.app is not None:
                _, _, missed, failed = event.args
                counted = missed if event.args[0] == last.get(event.app) else []
                if counted or failed:
                    return f"{event.app} transition {event.args[0]}: missed [{','.join(counted)}] failed [{','.join(failed)}]"
        for window in self.client.status()["windows"]:
            for p in window["layoutProblems"]:
                if baseline.Problem(window["app"], p["rule"], p["element"]) in self.known:
                    continue
                return f"layout problem: {window['app']} {p['adapter']} {p['element']} {p['rule']}: {p['message']}"
        return None


def strategies(moves: dict[str, Any], devices: list[str], apps: list[str]) -> Any:
    """A walk's moves, drawn by Hypothesis: each kind of move equally likely, its values from the vocabulary."""
    from hypothesis import strategies as st

    def setting(word: str, values: list[str]) -> Any:
        def move(value: str) -> Move:
            return Move("set", {word: value})
        return st.sampled_from(values).map(move)

    every_app = apps + [NEW_APP]
    fractions = st.sampled_from(FRACTIONS)
    return st.one_of(
        setting("device", devices),
        setting("orientation", moves["orientations"]),
        setting("arrangement", moves["arrangements"]),
        setting("windowing", moves["windowing"]),
        st.one_of(*[setting(s["word"], s["values"]) for s in moves["settings"]]),
        st.builds(lambda a, r: Move("open", {"app": a, "role": r}), st.sampled_from(every_app), st.sampled_from(moves["roles"])),
        st.sampled_from(every_app).map(lambda a: Move("close", a)),
        st.builds(lambda a, p: Move("tile", {"app": a, "position": p}), st.sampled_from(every_app), st.sampled_from(moves["tiles"])),
        st.builds(lambda a, f: Move("frame", {"app": a, "fractions": f}), st.sampled_from(every_app),
                  st.tuples(fractions, fractions, fractions, fractions)),
        fractions.map(lambda f: Move("drag", f)),
        st.builds(lambda a, w: Move("width", {"app": a, "width": w}), st.sampled_from(every_app), st.integers(0, 1 << 20)),
    )


def write_scenario(path: str, start: dict[str, str], layouts: list[str], adapters: bool, steps: list[Step],
                   header: list[str]) -> None:
    lines = [f"# {line}" for line in header]
    lines += [f"device: {start['device']}", f"orientation: {start['orientation']}"]
    if adapters:
        lines.append("adapters: true")
    if layouts:
        lines.append("layouts: [" + ", ".join(layouts) + "]")
    lines += ["strict: true", "steps:"] + [step.yaml() for step in steps]
    with open(path, "w") as file:
        file.write("\n".join(lines) + "\n")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="traitctl explore", description=__doc__.split("\n\n")[0])
    parser.add_argument("--bus", required=True)
    parser.add_argument("--moves", required=True)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--steps", type=int, default=200)
    parser.add_argument("--walk", type=int, default=30)
    parser.add_argument("--out", required=True)
    parser.add_argument("--layouts", action="append", default=[])
    parser.add_argument("--adapters", action="store_true")
    parser.add_argument("--traitctl", default="traitctl")
    parser.add_argument("--timeout", type=float, default=30)
    parser.add_argument("--baseline", default=None)
    args = parser.parse_args(argv)
    try:
        known = baseline.read(args.baseline) if args.baseline else set()
    except (OSError, baseline.BaselineError) as error:
        print(f"traitctl explore: {error}", file=sys.stderr)
        return 65
    try:
        from hypothesis import HealthCheck, Phase, Verbosity, given, seed, settings
        from hypothesis import __version__ as hypothesis_version
        from hypothesis import strategies as st
        from hypothesis.errors import Flaky
    except ImportError:
        print("traitctl explore: Hypothesis is missing: apt install python3-hypothesis (Debian), "
              "or pip install hypothesis", file=sys.stderr)
        return 69

    with open(args.moves) as file:
        moves = json.load(file)
    client = SyncClient(args.bus, timeout=args.timeout)
    try:
        client.run(client.client.wait_for_owner(args.timeout))
        explorer = Explorer(client, moves, args.timeout, known)
        devices = list(client.run(client.client.display("ListDevices", "", []))[0])
        registrations = client.run(client.client.display("ListAdapters", "", []))[0]
        explorer.reset()
        status = client.status()
        start = {"device": status["device"], "orientation": status["orientation"]}
        apps = [w["app"] for w in status["windows"]]
        adapters = sorted({f"{adapter} ({app})" for app, adapter, _ in registrations})
        print(f"traitctl explore: seed {args.seed} with Hypothesis {hypothesis_version}, {args.steps} steps (walks of at most {args.walk}), "
              f"from {start['device']} {start['orientation']}; adapters: {', '.join(adapters) or 'none'}", flush=True)

        began = time.monotonic()
        state = Progress()

        @seed(args.seed)
        @settings(database=None, deadline=None, max_examples=args.steps, derandomize=False, print_blob=False,
                  report_multiple_bugs=False, verbosity=Verbosity.quiet, phases=[Phase.generate, Phase.shrink],
                  suppress_health_check=list(HealthCheck))
        @given(st.lists(strategies(moves, devices, apps), min_size=1, max_size=args.walk))
        def walk(moves: list[Move]) -> None:
            if state.found is None and explorer.steps_taken >= args.steps:
                return  # the budget is spent: the rest of Hypothesis's examples pass at once
            if state.found is not None:
                state.replays += 1
                if state.replays % 25 == 0:
                    print(f"  shrinking: {state.replays} replays, the shortest failing walk so far has "
                          f"{state.shortest} step(s)", flush=True)
            try:
                explorer.run(moves)
            except Failure:
                if state.found is None:
                    state.found = explorer.steps_taken
                    explorer.found = list(explorer.last)
                    state.shortest = len(explorer.last)
                    print(f"found a failure after {explorer.steps_taken} steps in {explorer.walks} walk(s): "
                          f"{sys.exc_info()[1]}", flush=True)
                    print(f"shrinking the walk ({len(explorer.last)} steps)", flush=True)
                state.shortest = min(state.shortest, len(explorer.last))
                raise
            finally:
                if state.found is None and explorer.walks % 10 == 0 and explorer.walks != state.reported:
                    state.reported = explorer.walks
                    print(f"  {explorer.steps_taken} steps in {explorer.walks} walks, no failure", flush=True)

        try:
            walk()
        except Failure as failure:
            seconds = time.monotonic() - began
            os.makedirs(args.out, exist_ok=True)
            scenario = os.path.join(args.out, "failure.yaml")
            trace = os.path.join(args.out, "failure.trace")
            found = os.path.join(args.out, "found.yaml")
            origin = f"traitctl explore --seed {args.seed} with Hypothesis {hypothesis_version}"
            replay = "This walk is the reproduction: traitctl scenario run FILE --private replays it with any Hypothesis version or none" \
                + (f" (add --baseline {args.baseline}: the problems it lists were not failures)." if args.baseline else ".")
            write_scenario(scenario, start, args.layouts, args.adapters, explorer.last, [
                f"Found by {origin} after {state.found} steps; Hypothesis shrank the walk to these {len(explorer.last)}.",
                f"It fails with: {failure}", replay,
            ])
            write_scenario(found, start, args.layouts, args.adapters, explorer.found, [
                f"The first failing walk {origin} found, after {state.found} steps, before shrinking "
                f"(failure.yaml is the shortest).", replay,
            ])
            timeout = max(60.0, args.timeout * (len(explorer.last) + 2))
            try:
                known_problems = ["--baseline", args.baseline] if args.baseline else []
                run = subprocess.run([args.traitctl, "scenario", "run", scenario, "--private", "--update", trace, *known_problems],
                                     capture_output=True, text=True, timeout=timeout)
                replayed, output = run.returncode, f"{run.stdout}{run.stderr}"
            except subprocess.TimeoutExpired:
                replayed, output = None, f"the replay did not end within {timeout:g} s"
            print(f"the shortest failing walk: {len(explorer.last)} step(s) ({state.replays} replays, {seconds:.1f} s in all)")
            for step in explorer.last:
                print(f"  {step.title()}")
            print(f"fails at {failure}")
            print(f"wrote {scenario} (the walk as found: {found})" + (f" and {trace}" if os.path.exists(trace) else ""))
            # Replayed as a strict scenario, without Hypothesis: it must fail on its own (exit 1), or it is no
            # reproduction.
            if replayed != 1:
                print(f"traitctl explore: the walk did not fail when replayed on its own (traitctl scenario run): "
                      f"{output.strip()}", file=sys.stderr)
                return 2
            print("replayed on its own (traitctl scenario run, no Hypothesis): it fails the same way")
            return 1
        except Flaky as error:
            print(f"traitctl explore: a failure did not reproduce when replayed: {error}", file=sys.stderr)
            return 2
        seconds = time.monotonic() - began
        rate = explorer.steps_taken / seconds if seconds > 0 else 0.0
        print(f"explored {explorer.steps_taken} steps in {explorer.walks} walks ({rate:.1f} steps/s): no failure "
              f"(walks {explorer.fingerprint.hexdigest()[:12]} with Hypothesis {hypothesis_version})")
        return 0
    finally:
        client.close()


if __name__ == "__main__":
    sys.exit(main())
