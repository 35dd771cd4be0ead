"""``SyncClient``: the asyncio ``Client`` for code that blocks (a pytest test): an event loop on a thread of its
own runs every call, and each method waits for its result."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Coroutine
from typing import Any, TypeVar

from .client import Client
from .model import SETTINGS, Event

T = TypeVar("T")

# What SyncClient.set takes: the display's commands (also the explorer's), then the settings by traitctl's word:
# the words of traitd's SetWord (Sources/Vocabulary/SetWord.swift), in its order; PythonPackageTests keeps them so.
COMMANDS = {"device": "SetDevice", "orientation": "Rotate", "arrangement": "SetArrangement", "windowing": "SetWindowing",
            "keyboard": "SetKeyboard"}
_SETTINGS = {word.replace("-", "_"): prop for prop, word in SETTINGS.items()}  # from the contract: reduce_motion -> ReduceMotion


class Started(list[int]):
    """The transitions a command started (a list of ids, in order), and, once they completed, how each window's
    did: ``completions[app]`` is ``{"id", "reported", "missed", "failed"}`` of its last one."""

    completions: dict[str, dict[str, Any]]

    def __init__(self, ids: list[int], completions: dict[str, dict[str, Any]]) -> None:
        super().__init__(ids)
        self.completions = completions


class SyncClient:
    """A blocking client of the traitd on ``address``; ``close()`` ends it. Every command waits for the
    transitions it started and returns them (``Started``)."""

    def __init__(self, address: str, timeout: float = 30) -> None:
        self.address = address
        self.timeout = timeout
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, name="traitd-client", daemon=True)
        self._thread.start()
        self.client = self.run(Client.connect(address))

    def run(self, coroutine: Coroutine[Any, Any, T], timeout: float | None = None) -> T:
        """Runs ``coroutine`` on the client's loop and waits for it."""
        return asyncio.run_coroutine_threadsafe(coroutine, self._loop).result(timeout or self.timeout + 5)

    def close(self) -> None:
        async def shutdown() -> None:
            # The connection, then the tasks it left (wake-ups of waiters), so that none is destroyed pending.
            self.client.close()
            tasks = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
        try:
            self.run(shutdown(), 5)
        except Exception:  # noqa: BLE001 - closing: the loop stops whatever happened
            pass
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(5)

    @property
    def events(self) -> list[Event]:
        """Every signal logged since the client connected, in order."""
        return list(self.client.events)

    def set(self, **changes: Any) -> Started:
        """Changes the display and waits for the transitions the commands started: ``device``, ``orientation``,
        ``arrangement``, ``windowing``, ``keyboard`` (applied in that order), then the settings (``appearance="dark"``,
        ``content_size``, ``direction``, ``contrast``, ``legibility``, ``reduce_motion=True``) in one SetTraits."""
        unknown = set(changes) - set(COMMANDS) - set(_SETTINGS)
        if unknown:
            raise TypeError(f"set() takes {', '.join(list(COMMANDS) + list(_SETTINGS))}; not {', '.join(sorted(unknown))}")
        started: list[int] = []
        for word, member in COMMANDS.items():
            if word in changes:
                started += list(self.run(self.client.display(member, "s", [changes[word]]))[0])
        traits = {_SETTINGS[k]: v for k, v in changes.items() if k in _SETTINGS}
        if traits:
            started += self.run(self.client.set_traits(traits))
        return self.settled(started)

    # The window and display commands, each waiting for its own transitions.

    def open(self, app: str, role: str = "secondary") -> Started:
        """Opens ``app`` (``primary``, ``secondary``, ``slide-over``, ``pip``; ``window`` in a free-form mode)."""
        return self._display("OpenApp", "ss", [app, role], ids_at=1)

    def close_app(self, app: str) -> Started:
        return self._display("CloseApp", "s", [app])

    def frame(self, app: str, x: float, y: float, width: float, height: float) -> Started:
        """Moves and sizes a free-form window (``SetFrame``)."""
        return self._window(app, "SetFrame", "(dddd)", [[float(x), float(y), float(width), float(height)]])

    def tile(self, app: str, position: str) -> Started:
        return self._window(app, "Tile", "s", [position])

    def raise_window(self, app: str) -> Started:
        return self._window(app, "Raise", "", [])

    def resize(self, app: str, width: float, height: float, live: int | None = None) -> Started:
        """Resizes a free-form window, its top-left corner kept: at once (``SetFrame``), or live in ``live``
        steps (``BeginResize``, ``ResizeTo`` each after the one before completed, ``EndResize``)."""
        x, y, w, h = self.status_window(app)["frame"]
        if live is None:
            return self.frame(app, x, y, width, height)
        ids = list(self._window(app, "BeginResize", "", []))
        for step in range(1, live + 1):
            t = step / live
            ids += self._window(app, "ResizeTo", "(dd)", [[w + (width - w) * t, h + (height - h) * t]])
        ids += self._window(app, "EndResize", "", [])
        return self.settled(ids)

    def move_to_display(self, app: str, display: str) -> Started:
        return self._window(app, "MoveToDisplay", "s", [display])

    def connect_display(self, profile: str) -> str:
        """Plugs in a monitor (``external-1080p``, ``external-1440p``, ``external-4k``); returns its id."""
        return str(self.run(self.client.display("ConnectDisplay", "s", [profile]))[0])

    def disconnect_display(self, display: str) -> Started:
        return self._display("DisconnectDisplay", "s", [display])

    def status_window(self, app: str) -> dict[str, Any]:
        """One window of ``status()``; ``KeyError`` naming the apps there are."""
        windows: dict[str, dict[str, Any]] = {w["app"]: w for w in self.status()["windows"]}
        if app not in windows:
            raise KeyError(f"{app} has no window; windows: {', '.join(windows) or 'none'}")
        return windows[app]

    def _display(self, member: str, signature: str, body: list[Any], ids_at: int = 0) -> Started:
        return self.settled(list(self.run(self.client.display(member, signature, body))[ids_at]))

    def _window(self, app: str, member: str, signature: str, body: list[Any]) -> Started:
        return self.settled(list(self.run(self.client.window(app, member, signature, body))[0]))

    def settled(self, ids: list[int]) -> Started:
        """Waits for ``ids`` to complete (transitions another connection started: an adapter's
        ``declare`` or ``override_traits``); returns them with each window's completion."""
        self.run(self.client.wait_for_transitions(ids, self.timeout))
        completions: dict[str, dict[str, Any]] = {}
        wanted = set(ids)
        for event in self.client.events:
            if event.member == "TransitionCompleted" and event.app is not None and event.args and event.args[0] in wanted:
                completions[event.app] = {"id": event.args[0], "reported": list(event.args[1]),
                                          "missed": list(event.args[2]), "failed": list(event.args[3])}
        return Started(ids, completions)

    def status(self) -> dict[str, Any]:
        """The display, as ``traitctl status --json`` prints it."""
        return self.run(self.client.status())

    def wait_for(self, member: str, app: str | None = None, timeout: float | None = None,
                 after: int | None = None) -> list[Any]:
        """The arguments of the next signal ``member`` (of ``app``'s window) not yet waited for: each (member,
        app) has a cursor of its own, which a call moves past the signal it returns, so waiting for one member
        never skips another's signals. ``after`` (an index into ``events``) starts from there instead.
        ``TimeoutError`` says what it waited for."""
        key = (member, app)
        start = self._cursors.get(key, 0) if after is None else after
        index, event = self.run(self.client.wait_for(member, app, timeout or self.timeout, after=start),
                                (timeout or self.timeout) + 5)
        self._cursors[key] = index + 1
        return event.args

    @property
    def _cursors(self) -> dict[tuple[str, str | None], int]:
        cursors: dict[tuple[str, str | None], int] = self.__dict__.setdefault("_wait_cursors", {})
        return cursors
