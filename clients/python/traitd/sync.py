"""``SyncClient``: the asyncio ``Client`` for code that blocks (a pytest test): an event loop on a thread of its
own runs every call, and each method waits for its result."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Coroutine
from typing import Any, TypeVar

from .client import Client
from .model import Event

T = TypeVar("T")

# What SyncClient.set takes: the display's commands (also the explorer's), then the settings by traitctl's word.
COMMANDS = {"device": "SetDevice", "orientation": "Rotate", "arrangement": "SetArrangement", "windowing": "SetWindowing",
            "keyboard": "SetKeyboard"}
_SETTINGS = {"appearance": "Appearance", "content_size": "ContentSizeCategory", "direction": "LayoutDirection",
             "contrast": "Contrast", "legibility": "LegibilityWeight", "reduce_motion": "ReduceMotion"}


class SyncClient:
    """A blocking client of the traitd on ``address``; ``close()`` ends it."""

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
        self._loop.call_soon_threadsafe(self.client.close)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(5)

    @property
    def events(self) -> list[Event]:
        """Every signal logged since the client connected, in order."""
        return list(self.client.events)

    def set(self, **changes: Any) -> list[int]:
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
        self.run(self.client.wait_for_transitions(started, self.timeout))
        return started

    def status(self) -> dict[str, Any]:
        """The display, as ``traitctl status --json`` prints it."""
        return self.run(self.client.status())

    def wait_for(self, member: str, app: str | None = None, timeout: float | None = None) -> list[Any]:
        """The arguments of the next signal ``member`` (of ``app``'s window) not yet waited for: each call
        moves past the signal it returns. ``TimeoutError`` says what it waited for."""
        index, event = self.run(self.client.wait_for(member, app, timeout or self.timeout, after=self._next),
                                (timeout or self.timeout) + 5)
        self._next = index + 1
        return event.args

    _next = 0
