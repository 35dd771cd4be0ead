"""Adapters in Python without D-Bus: ``Adapter(address, app, name, layout)`` registers as adapter ``name`` for
``app``'s window and answers every transition with ``layout(transition)``.

    def sidebar(t: Transition) -> Layout:
        if t.width < 500:
            return Layout({"content": (0, 0, t.width, t.height)})
        side = min(320, round(0.3 * t.width, 1))
        return Layout({"sidebar": (0, 0, side, t.height), "content": (side, 0, t.width - side, t.height)},
                      kinds={"sidebar": "container"})

    Adapter(address, "mail", "sidebar", sidebar).run()      # a script; .start() and .stop() in a test

A ``Transition`` is the window as the transition left it, typed: its size, traits, safe area, orientation, why it
changed and how long it animates, the keyboard and iPadOS 26's window controls. ``layout`` returns a ``Layout``
(frames in window coordinates, what each element is, extras), a plain dict of frames, or raises to report the
layout failed (its message goes to traitd). What D-Bus needs is done inside: the window's properties read at
``ViewWillLayoutSubviews`` (the transition's last signal: they hold the new values), the report for that
transition, a report that came too late for it (``StaleTransition``) dropped, and registration again whenever
traitd comes back on the bus. Signals from anyone but the daemon that owns ``org.traitd.Layout1`` are ignored.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Union

from dbus_fast import Variant

from .client import Client, plain
from .errors import AlreadyReported, NoSuchAdapter, StaleTransition, TraitdError
from .model import BUS_NAME, DISPLAY, ROOT, WINDOW, window_path

Frame = tuple[float, float, float, float]


@dataclass(frozen=True)
class Transition:
    """One transition of the adapter's window (``id`` 0: the window as it is, outside any transition)."""

    id: int
    app: str
    width: float
    height: float
    #: The window's trait collection by UIKit's names (``horizontalSizeClass``, ``userInterfaceStyle``, ...).
    traits: dict[str, Any]
    #: top, left, bottom, right, in points inside the window.
    safe_area: tuple[float, float, float, float]
    orientation: str
    #: Why the size changed and how long it animates, from the transition's ``ViewWillTransitionToSize``
    #: (``None`` and 0 when its size did not change: traits, the keyboard).
    reason: str | None = None
    duration: float = 0.0
    #: The keyboard in window coordinates (``None`` while hidden), and whether it is docked at the bottom.
    keyboard: Frame | None = None
    keyboard_docked: bool = False
    #: iPadOS 26's window controls in window coordinates (``None`` where there are none), and the safe area
    #: adapted to them (``"horizontal"``, ``"vertical"``: top, left, bottom, right).
    window_controls: Frame | None = None
    corner_adapted_insets: dict[str, tuple[float, float, float, float]] = field(default_factory=dict)
    #: The names of the app's breakpoints (``declare(breakpoints=...)``) that hold for the window now.
    breakpoints: tuple[str, ...] = ()

    @property
    def horizontal_size_class(self) -> str:
        return str(self.traits.get("horizontalSizeClass", "regular"))

    @property
    def vertical_size_class(self) -> str:
        return str(self.traits.get("verticalSizeClass", "regular"))

    @property
    def window_width_size_class(self) -> str:
        """Android's window width size class of the window (``compact``, ``medium``, ``expanded``, ``large``,
        ``extra-large``)."""
        return str(self.traits.get("windowWidthSizeClass", "compact"))

    @property
    def window_height_size_class(self) -> str:
        """Android's window height size class of the window (``compact``, ``medium``, ``expanded``)."""
        return str(self.traits.get("windowHeightSizeClass", "compact"))

    @property
    def dark(self) -> bool:
        return self.traits.get("userInterfaceStyle") == "dark"


@dataclass
class Layout:
    """What an adapter reports: frames by element name (x, y, width, height in window coordinates), what each
    element is for traitd's layout checks (``background``, ``container``, ``content``, ``control``, ``text``),
    and extras of its own (strings, numbers, booleans)."""

    frames: dict[str, Frame]
    kinds: dict[str, str] = field(default_factory=dict)
    extras: dict[str, str | float | bool] = field(default_factory=dict)


LayoutFunction = Callable[[Transition], Union[Layout, dict[str, Frame]]]


class Adapter:
    """Adapter ``name`` of ``app``'s window on the traitd at ``address``, laying out with ``layout``.

    ``on_report(transition, layout_or_error)`` is called after each report (a script prints it); ``delay``
    seconds pass before each report (to play a slow adapter)."""

    def __init__(self, address: str, app: str, name: str, layout: LayoutFunction,
                 on_report: Callable[[Transition, Layout | str], None] | None = None,
                 on_registered: Callable[[str], None] | None = None, delay: float = 0.0) -> None:
        self.address, self.app, self.name, self.layout = address, app, name, layout
        self.on_report, self.on_registered, self.delay = on_report, on_registered, delay
        self.path = window_path(app)
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._stopped: asyncio.Event | None = None
        self._client: Client | None = None
        self._ready = threading.Event()

    # Running: in the caller's thread (a script), or on a thread of its own (a test).

    def run(self, stop_on: tuple[int, ...] = ()) -> None:
        """Runs until ``stop()``, or one of the signals ``stop_on`` (``signal.SIGTERM``) comes."""
        asyncio.run(self._main(stop_on))

    def start(self, timeout: float = 30) -> Adapter:
        """Runs on a thread of its own; returns once registered (``TimeoutError`` otherwise)."""
        self._thread = threading.Thread(target=self.run, name=f"traitd adapter {self.name}", daemon=True)
        self._thread.start()
        if not self._ready.wait(timeout):
            raise TimeoutError(f"adapter {self.name} for {self.app} did not register within {timeout} s")
        return self

    def stop(self) -> None:
        if self._loop is not None and self._stopped is not None:
            self._loop.call_soon_threadsafe(self._stopped.set)
        if self._thread is not None:
            self._thread.join(10)

    # What the app declares and asks of the system, from the adapter's own connection (the one traitd lets).

    def declare(self, minimum: tuple[float, float] | None = None, maximum: tuple[float, float] | None = None,
                orientations: list[str] | None = None, breakpoints: dict[str, str] | None = None) -> list[int]:
        """Declares the window's size restrictions (``minimum`` and ``maximum``, both), the orientations the app
        supports and its breakpoints (name -> condition in libadwaita's syntax, ``max-width: 500sp``: each
        ``Transition`` says which hold) (``SetSizeRestrictions``, ``SetSupportedOrientations``,
        ``SetBreakpoints``); returns the transitions they started."""
        async def declare(client: Client) -> list[int]:
            started: list[int] = []
            if minimum is not None and maximum is not None:
                started += (await client.window(self.app, "SetSizeRestrictions", "(dd)(dd)",
                                                [[float(v) for v in minimum], [float(v) for v in maximum]]))[0]
            if orientations is not None:
                started += (await client.window(self.app, "SetSupportedOrientations", "as", [list(orientations)]))[0]
            if breakpoints is not None:
                started += (await client.window(self.app, "SetBreakpoints", "a{ss}", [dict(breakpoints)]))[0]
            return started
        return list(self._on_loop(declare))

    def override_traits(self, overrides: dict[str, Any]) -> list[int]:
        """Overrides the window's traits, in place of the overrides it had (``SetTraitOverrides``, UIKit's
        ``traitOverrides``): a system trait by its key in ``Transition.traits`` (``{"userInterfaceStyle": "dark"}``,
        ``displayScale`` a float), a custom trait by a name with a dot to its value (bool, int, float or str; its
        default ``False``, 0 or ``""`` unless named before) or to ``{"default": ..., "value": ...}`` (``value``
        optional). Each ``Transition``'s ``traits`` holds the result; returns the transitions it started."""
        def variant(value: Any) -> Variant:
            if isinstance(value, bool):
                return Variant("b", value)
            if isinstance(value, int):
                return Variant("x", value)
            if isinstance(value, float):
                return Variant("d", value)
            if isinstance(value, str):
                return Variant("s", value)
            if isinstance(value, dict):
                return Variant("a{sv}", {str(k): variant(v) for k, v in value.items()})
            raise TypeError(f"a trait's value is a bool, an int, a float, a str or a dict with default and value; got {value!r}")
        entries = {str(name): variant(value) for name, value in overrides.items()}

        async def override(client: Client) -> list[int]:
            return list((await client.window(self.app, "SetTraitOverrides", "a{sv}", [entries]))[0])
        return list(self._on_loop(override))

    def request_geometry(self, orientations: list[str] | None = None, size: tuple[float, float] | None = None,
                         origin: tuple[float, float] | None = None) -> list[int]:
        """Asks for orientations, or a free-form window's size and origin (``RequestGeometryUpdate``);
        ``GeometryRequestDenied`` and ``GeometryRequestUnsupported`` as UIKit refuses."""
        preferences: dict[str, Variant] = {}
        if orientations is not None:
            preferences["orientations"] = Variant("as", list(orientations))
        if size is not None:
            preferences["size"] = Variant("(dd)", [float(v) for v in size])
        if origin is not None:
            preferences["origin"] = Variant("(dd)", [float(v) for v in origin])

        async def request(client: Client) -> list[int]:
            return list((await client.window(self.app, "RequestGeometryUpdate", "a{sv}", [preferences]))[0])
        return list(self._on_loop(request))

    def _on_loop(self, work: Callable[[Client], Any], timeout: float = 30) -> Any:
        """Runs ``work`` with the adapter's connection on its loop (``start()`` first)."""
        if self._loop is None or self._client is None:
            raise RuntimeError("the adapter is not running: start() it first")
        return asyncio.run_coroutine_threadsafe(work(self._client), self._loop).result(timeout)

    def __enter__(self) -> Adapter:
        return self.start()

    def __exit__(self, *_: object) -> None:
        self.stop()

    # The work.

    async def _main(self, stop_on: tuple[int, ...] = ()) -> None:
        self._loop = asyncio.get_running_loop()
        self._stopped = asyncio.Event()
        for number in stop_on:
            self._loop.add_signal_handler(number, self._stopped.set)
        client = await Client.connect(self.address)
        self._client = client
        contexts: dict[int, tuple[str, float]] = {}  # transition -> (reason, duration) of its size change
        registered_with: str | None = None
        index = len(client.events)
        try:
            while not self._stopped.is_set():
                # Registered with the daemon that owns the name now; again whenever it changes hands.
                if client.owner is not None and client.owner != registered_with:
                    registered_with = client.owner
                    if await self._register(client):
                        await self._report(client, 0, contexts)
                # Every transition's last signal: lay out there (signals that come while a report is on its way
                # are taken in turn).
                while index < len(client.events):
                    event = client.events[index]
                    index += 1
                    if event.path != self.path:
                        continue
                    if event.member == "ViewWillTransitionToSize" and len(event.args) >= 4:
                        context = event.args[3]
                        contexts[int(event.args[0])] = (str(context.get("reason", "")), float(context.get("duration", 0.0)))
                    elif event.member == "ViewWillLayoutSubviews":
                        await self._report(client, int(event.args[0]), contexts)
                await self._next_change(client)
        finally:
            client.close()

    async def _next_change(self, client: Client) -> None:
        """Waits for a new signal, a new owner of the name, or ``stop()``."""
        if self._stopped is None:
            return
        stopped: asyncio.Event = self._stopped
        owner = client.owner
        count = len(client.events)

        async def changed() -> None:
            async with client._changed:
                while len(client.events) == count and client.owner == owner and not stopped.is_set():
                    await asyncio.wait_for(client._changed.wait(), 0.5)

        try:
            await changed()
        except TimeoutError:
            pass  # stop() sets an event the condition does not hear: look again

    async def _register(self, client: Client) -> bool:
        owner = client.owner  # the daemon registered with, read before the await (it may go meanwhile)
        try:
            await client.display("RegisterAdapter", "ss", [self.app, self.name])
        except TraitdError as error:
            if self.on_registered is not None:
                self.on_registered(f"cannot register: {error.name}: {error}")
            return False
        self._ready.set()
        if self.on_registered is not None:
            self.on_registered(str(owner))
        return True

    async def _report(self, client: Client, id: int, contexts: dict[int, tuple[str, float]]) -> None:
        try:
            # To the name, as every call of the client: the owner may go between two awaits (traitd restarting),
            # and a call to no owner is an error reply (below), not a malformed message.
            window = plain((await client._call(BUS_NAME, self.path, "org.freedesktop.DBus.Properties",
                                               "GetAll", "s", [WINDOW]))[0])
            display = plain((await client._call(BUS_NAME, ROOT, "org.freedesktop.DBus.Properties",
                                                "GetAll", "s", [DISPLAY]))[0])
        except TraitdError:
            return  # the window is gone (its app closed), or traitd is: nothing to lay out
        transition = self._transition(id, window, display, contexts.pop(id, None))
        try:
            result: Layout | str = self._as_layout(self.layout(transition))
        except Exception as error:  # noqa: BLE001 - the adapter's own failure, reported as traitd expects
            result = f"{type(error).__name__}: {error}"
        if self.delay:
            await asyncio.sleep(self.delay)
        frames: dict[str, list[float]] = {}
        extras: dict[str, Variant] = {}
        if isinstance(result, Layout):
            frames = {k: [float(v) for v in f] for k, f in result.frames.items()}
            for key, value in result.extras.items():
                extras[key] = Variant("b", value) if isinstance(value, bool) else \
                    Variant("d", float(value)) if isinstance(value, (int, float)) else Variant("s", str(value))
            if result.kinds:
                extras["kinds"] = Variant("a{ss}", dict(result.kinds))
        else:
            extras["error"] = Variant("s", result)
        try:
            await client.window(self.app, "ReportLayout", "tsa{s(dddd)}a{sv}", [id, self.name, frames, extras])
        except (StaleTransition, AlreadyReported, NoSuchAdapter):
            return  # overtaken by a newer transition: the next one is answered
        except TraitdError:
            return  # the daemon went (no reply): its successor gets a registration and a report of its own
        if self.on_report is not None:
            self.on_report(transition, result)

    def _transition(self, id: int, w: dict[str, Any], d: dict[str, Any], context: tuple[str, float] | None) -> Transition:
        x, y, width, height = (float(v) for v in w["Frame"])
        keyboard: Frame | None = None
        mode = d.get("Keyboard", "hidden")
        if mode != "hidden" and w.get("Display", "device") == "device":
            kx, ky, kw, kh = (float(v) for v in d["KeyboardFrame"])
            keyboard = (kx - x, ky - y, kw, kh)
        controls = tuple(float(v) for v in w.get("WindowControls", (0, 0, 0, 0)))
        corner = w.get("CornerAdaptedInsets", {})
        return Transition(
            id=id, app=self.app, width=width, height=height, traits=dict(w["Traits"]),
            safe_area=tuple(float(v) for v in w["SafeAreaInsets"]),  # type: ignore[arg-type]
            orientation=str(d["Orientation"]), reason=context[0] if context else None,
            duration=context[1] if context else 0.0, keyboard=keyboard, keyboard_docked=mode in ("docked", "hardware"),
            window_controls=None if controls == (0.0, 0.0, 0.0, 0.0) else controls,  # type: ignore[arg-type]
            corner_adapted_insets={k: tuple(float(v) for v in insets) for k, insets in corner.items()},  # type: ignore[misc]
            breakpoints=tuple(str(name) for name in w.get("Breakpoints", [])))

    @staticmethod
    def _as_layout(result: Layout | dict[str, Frame]) -> Layout:
        return result if isinstance(result, Layout) else Layout(dict(result))
