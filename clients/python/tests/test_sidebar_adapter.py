"""The example sidebar adapter (examples/sidebar_adapter.py) under test: a rotation, Split View, dark mode and a
live resize, its layout read back from the window after each."""

import asyncio
import json
import os
import sys

import pytest

from traitd import Adapter, GeometryRequestDenied, TraitdError
from traitd.client import Client
from traitd.pytest_plugin import TraitdFixture

from test_plugin import traitctl  # noqa: E402  (tests/ is on the path: pytest's rootdir-relative imports)

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "..", "examples"))
from sidebar_adapter import sidebar  # noqa: E402


@pytest.mark.traitd(fresh=True)
def test_the_sidebar_follows_the_window(traitd: TraitdFixture) -> None:
    with Adapter(traitd.address, "mail", "sidebar", sidebar):
        def frames() -> dict[str, list[float]]:
            layouts: dict[str, list[float]] = traitd.status_window("mail")["layouts"]["sidebar"]
            return layouts
        assert traitd.set(orientation="portrait").completions["mail"]["reported"] == ["sidebar"]
        assert frames() == {"content": [0, 0, 438, 1024]}                    # 438 pt: no room for a sidebar
        traitd.set(orientation="landscape-left", arrangement="full")
        assert frames()["sidebar"] == [0, 0, 307.2, 768]                      # 30% of 1024
        traitd.set(appearance="dark", windowing="stage-manager")
        traitd.resize("mail", 900, 600, live=4)
        assert frames() == {"sidebar": [0, 0, 270, 600], "content": [270, 0, 630, 600]}


@pytest.mark.traitd(fresh=True)
def test_an_adapter_lays_out_by_its_breakpoints(traitd: TraitdFixture) -> None:
    """An adapter declares a libadwaita breakpoint and lays out by it: the transition it gets says which hold
    (``narrow``: 500 sp, which grows with the text), beside Android's window size classes."""
    def by_breakpoint(t):  # type: ignore[no-untyped-def]
        top = t.safe_area[0]  # below the status bar
        one_column = "narrow" in t.breakpoints
        return ({"list": (0, top, t.width, t.height - top)} if one_column
                else {"list": (0, top, 300, t.height - top), "detail": (300, top, t.width - 300, t.height - top)})
    with Adapter(traitd.address, "mail", "columns", by_breakpoint) as app:
        app.declare(breakpoints={"narrow": "max-width: 500sp"})
        traitd.set(arrangement="split-half")                        # 507 pt: two columns
        assert sorted(traitd.status_window("mail")["layouts"]["columns"]) == ["detail", "list"]
        assert traitd.status_window("mail")["traits"]["windowWidthSizeClass"] == "compact"
        traitd.set(content_size="accessibility-medium")            # 500 sp is 824 pt now: one column
        assert sorted(traitd.status_window("mail")["layouts"]["columns"]) == ["list"]


@pytest.mark.traitd(fresh=True)
def test_an_adapter_overrides_its_traits(traitd: TraitdFixture, pytestconfig: pytest.Config) -> None:
    """An adapter forces its window dark while the display is light and names a custom trait: the transition
    it gets has both; a value of another type than the trait's default is refused, naming it."""
    seen: list[dict[str, object]] = []

    def record(t):  # type: ignore[no-untyped-def]
        seen.append(dict(t.traits))
        top = t.safe_area[0]
        return {"list": (0, top, t.width, t.height - top)}
    with Adapter(traitd.address, "mail", "columns", record) as app:
        started = app.override_traits({"userInterfaceStyle": "dark", "com.example.density": {"default": "regular", "value": "compact"},
                                       "com.example.badges": True, "com.example.level": 3})
        assert traitd.settled(started).completions["mail"]["reported"] == ["columns"]
        # The custom traits keep their types, in status as in traitctl status --json.
        status = traitd.status()
        mail = status["windows"][0]["traits"]
        assert (mail["com.example.badges"], mail["com.example.level"]) == (True, 3)
        assert status == json.loads(traitctl(traitd, pytestconfig, "status", "--json"))
        assert seen[-1]["userInterfaceStyle"] == "dark" and seen[-1]["com.example.density"] == "compact"
        assert traitd.status()["traits"]["appearance"] == "light"
        with pytest.raises(TraitdError, match="its default is a string \\('regular'\\), so its value must be one too"):
            app.override_traits({"com.example.density": True})
        traitd.settled(app.override_traits({}))
        assert seen[-1]["userInterfaceStyle"] == "light" and seen[-1]["com.example.density"] == "regular"


@pytest.mark.traitd(fresh=True, device="iphone-15", orientation="portrait")
def test_a_portrait_only_app_stays_portrait(traitd: TraitdFixture) -> None:
    with Adapter(traitd.address, "mail", "sidebar", sidebar) as app:
        app.declare(orientations=["portrait"])
        assert traitd.set(orientation="landscape-left") == [] and traitd.status()["orientation"] == "portrait"
        with pytest.raises(GeometryRequestDenied, match="Requested: landscape-left; supported: portrait"):
            app.request_geometry(orientations=["landscape-left"])


@pytest.mark.traitd(fresh=True)
def test_a_report_while_traitd_is_between_owners_is_dropped_quietly(traitd: TraitdFixture) -> None:
    # The moment a restart of traitd opens: the client has heard the name lose its owner while the adapter is
    # reporting. The report goes to the name (never to an empty owner, which dbus-fast refuses as malformed) and
    # ends quietly; the adapter lives on to register with the successor.
    async def report_without_owner() -> list[object]:
        client = await Client.connect(traitd.address)
        try:
            reported: list[object] = []
            adapter = Adapter(traitd.address, "mail", "sidebar", sidebar, on_report=lambda t, r: reported.append(r))
            client.owner = None
            await adapter._report(client, 0, {})
            return reported
        finally:
            client.close()
    assert asyncio.run(report_without_owner()) == []  # not registered: the daemon refuses the report (NoSuchAdapter)


@pytest.mark.traitd(fresh=True)
def test_open_returns_once_the_new_window_is_laid_out(traitd: TraitdFixture) -> None:
    # The window's first layout is a transition of its own: open() waits for it (it once returned [] with the
    # window's layouts still {}), and its completion names the adapter that laid the window out.
    with Adapter(traitd.address, "maps", "sidebar", sidebar):
        started = traitd.open("maps", role="pip")
        assert len(started) == 1 and started.completions["maps"]["reported"] == ["sidebar"]
        assert traitd.status_window("maps")["layouts"]["sidebar"] == {"content": [0, 0, 320, 180]}
