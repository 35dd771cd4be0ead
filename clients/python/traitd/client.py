"""``Client``: traitd's D-Bus API over dbus-fast (asyncio), typed; signals only from the daemon that owns the
name now (a signal another peer sends straight to us is dropped), followed across restarts."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from typing import Any

from dbus_fast import Message, MessageType, Variant
from dbus_fast.aio.message_bus import MessageBus

from . import _contract
from .errors import TraitdError, error_for
from .model import BUS_NAME, DISPLAY, ROOT, SETTINGS, WINDOW, Event, app_of, window_path

DBUS = ("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus")


def check_call(interface: str, member: str, signature: str) -> None:
    """A call to one of traitd's interfaces must be a method of the contract (``_contract.METHODS``) with its
    input signature: a name or signature copied wrong fails here, in the client's own tests, not on the bus."""
    methods = _contract.METHODS.get(interface)
    if methods is None:
        return  # not traitd's (org.freedesktop.DBus, its Properties)
    declared = methods.get(member)
    if declared is None:
        raise ValueError(f"{interface} has no method {member!r} in traitd's contract; it has {', '.join(methods)}")
    if declared[0] != signature:
        raise ValueError(f"{member} takes ({declared[0]}) in traitd's contract; called with ({signature})")


def plain(value: Any) -> Any:
    """A D-Bus value as plain Python: variants unwrapped, structures as lists, dictionaries as dicts."""
    if isinstance(value, Variant):
        return plain(value.value)
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    return value


def problem(value: list[str]) -> dict[str, str]:
    """One of a window's ``LayoutProblems`` (adapter, element, rule, message) as ``traitctl status --json`` has it."""
    adapter, element, rule, message = value
    return {"adapter": adapter, "element": element, "rule": rule, "message": message}


class Client:
    """One connection to a bus, speaking to traitd on it. ``await Client.connect(address)``."""

    def __init__(self, bus: MessageBus) -> None:
        self.bus = bus
        self.owner: str | None = None
        self.events: list[Event] = []
        self._changed = asyncio.Condition()
        self._owned = asyncio.Event()
        bus.add_message_handler(self._receive)

    @classmethod
    async def connect(cls, address: str) -> Client:
        client = cls(await MessageBus(bus_address=address).connect())
        # Every signal of traitd's objects, and the owner of its name as it changes.
        for rule in [f"type='signal',sender='{BUS_NAME}',path_namespace='{ROOT}'",
                     f"type='signal',sender='org.freedesktop.DBus',member='NameOwnerChanged',arg0='{BUS_NAME}'"]:
            await client._call(*DBUS, "AddMatch", "s", [rule])
        try:
            client._owner_is(str((await client._call(*DBUS, "GetNameOwner", "s", [BUS_NAME]))[0]))
        except TraitdError:
            pass  # not owned yet: NameOwnerChanged will say when (the match rule was added first)
        return client

    async def wait_for_owner(self, timeout: float = 30) -> str:
        """traitd's unique name, once it owns ``org.traitd.Layout1`` (``NameOwnerChanged``, not a clock)."""
        try:
            await asyncio.wait_for(self._owned.wait(), timeout)
        except TimeoutError:
            raise TimeoutError(f"traitd did not take {BUS_NAME} within {timeout} s") from None
        assert self.owner is not None
        return self.owner

    def _owner_is(self, owner: str | None) -> None:
        self.owner = owner or None
        if self.owner:
            self._owned.set()
        else:
            self._owned.clear()

    def close(self) -> None:
        self.bus.disconnect()

    # Commands: each returns the ids of the transitions it started.

    async def set_device(self, device: str) -> list[int]:
        return list((await self.display("SetDevice", "s", [device]))[0])

    async def rotate(self, orientation: str) -> list[int]:
        return list((await self.display("Rotate", "s", [orientation]))[0])

    async def set_arrangement(self, arrangement: str) -> list[int]:
        return list((await self.display("SetArrangement", "s", [arrangement]))[0])

    async def set_windowing(self, mode: str) -> list[int]:
        return list((await self.display("SetWindowing", "s", [mode]))[0])

    async def set_traits(self, changes: dict[str, Any]) -> list[int]:
        """Display-wide settings by property name (``{"Appearance": "dark", "ReduceMotion": True}``)."""
        body = {k: Variant("b", v) if isinstance(v, bool) else Variant("s", v) for k, v in changes.items()}
        return list((await self.display("SetTraits", "a{sv}", [body]))[0])

    async def open_app(self, app: str, role: str = "secondary") -> list[int]:
        return list((await self.display("OpenApp", "ss", [app, role]))[1])

    async def close_app(self, app: str) -> list[int]:
        return list((await self.display("CloseApp", "s", [app]))[0])

    async def get_state(self) -> tuple[int, dict[str, Any], list[tuple[str, dict[str, Any]]]]:
        serial, display, windows = await self.display("GetState", "", [])
        return int(serial), plain(display), [(path, plain(props)) for path, props in windows]

    async def display(self, member: str, signature: str, body: list[Any]) -> list[Any]:
        """Any method of ``org.traitd.Layout1.Display``; a refusal raises its own exception class."""
        return await self._call(BUS_NAME, ROOT, DISPLAY, member, signature, body)

    async def window(self, app: str, member: str, signature: str, body: list[Any]) -> list[Any]:
        """Any method of an app's ``org.traitd.Layout1.Window``."""
        return await self._call(BUS_NAME, window_path(app), WINDOW, member, signature, body)

    async def status(self) -> dict[str, Any]:
        """The display as ``traitctl status --json`` prints it."""
        serial, d, windows = await self.get_state()
        out: dict[str, Any] = {
            "serial": serial, "device": d["Device"], "orientation": d["Orientation"], "screenSize": list(d["ScreenSize"]),
            "scale": d["Scale"], "arrangement": d["Arrangement"], "dividerPosition": d["DividerPosition"],
            "dragging": d["Dragging"], "backgroundApps": list(d["BackgroundApps"]),
            "traits": {word: ("on" if d[name] else "off") if isinstance(d[name], bool) else d[name]
                       for name, word in SETTINGS.items() if name in d},
            "windowing": d.get("Windowing", "split-view"),
            "stacking": [app_of(p) for p in d.get("Stacking", [])],
            "displays": list(d.get("Displays", [])),
            "keyboard": d.get("Keyboard", "hidden"),
            "keyboardFrame": list(d.get("KeyboardFrame", (0.0, 0.0, 0.0, 0.0))),
        }
        out["windows"] = [{
            "path": path, "app": w["App"], "role": w["Role"], "frame": list(w["Frame"]),
            "safeAreaInsets": list(w["SafeAreaInsets"]), "horizontalSizeClass": w["HorizontalSizeClass"],
            "verticalSizeClass": w["VerticalSizeClass"], "state": w["State"], "display": w.get("Display", "device"),
            "idiom": w["Traits"]["idiom"], "displayScale": w["Traits"]["displayScale"], "adapters": list(w["Adapters"]),
            "layouts": {a: {e: list(f) for e, f in frames.items()} for a, frames in w["Layouts"].items()},
            "layoutProblems": [problem(p) for p in w.get("LayoutProblems", [])],
            "traits": plain(w["Traits"]),
            "breakpoints": list(w.get("Breakpoints", [])),
            "windowControls": list(w.get("WindowControls", (0.0, 0.0, 0.0, 0.0))),
            "cornerAdaptedInsets": {k: list(v) for k, v in w.get(
                "CornerAdaptedInsets", {"horizontal": w["SafeAreaInsets"], "vertical": w["SafeAreaInsets"]}).items()},
        } for path, w in windows]
        return out

    # Signals.

    async def wait_for(self, member: str, app: str | None = None, timeout: float = 30,
                       where: Callable[[Event], bool] | None = None, after: int = 0) -> tuple[int, Event]:
        """The first signal ``member`` (of ``app``'s window) logged at or after index ``after``; returns its
        index and the event. ``TimeoutError`` says what it waited for."""
        def find() -> tuple[int, Event] | None:
            for index in range(after, len(self.events)):
                event = self.events[index]
                if event.member == member and (app is None or event.app == app) and (where is None or where(event)):
                    return index, event
            return None

        async def wait() -> tuple[int, Event]:
            async with self._changed:
                while (found := find()) is None:
                    await self._changed.wait()
                return found

        try:
            return await asyncio.wait_for(wait(), timeout)
        except TimeoutError:
            raise TimeoutError(f"no {member}{' of ' + app if app else ''} from traitd within {timeout} s") from None

    async def wait_for_transitions(self, ids: list[int], timeout: float = 30) -> None:
        """Returns once each transition in ``ids`` has its ``TransitionCompleted``."""
        for id in ids:
            def completes(event: Event, id: int = id) -> bool:
                return bool(event.args and event.args[0] == id)
            await self.wait_for("TransitionCompleted", timeout=timeout, where=completes)

    async def stream(self) -> AsyncIterator[Event]:
        """Every signal from now on, as it comes."""
        index = len(self.events)
        while True:
            async with self._changed:
                while index >= len(self.events):
                    await self._changed.wait()
                event = self.events[index]
            index += 1
            yield event

    def _receive(self, message: Message) -> None:
        if message.message_type != MessageType.SIGNAL:
            return
        if message.member == "NameOwnerChanged" and message.sender == "org.freedesktop.DBus":
            if message.body and message.body[0] == BUS_NAME:
                self._owner_is(str(message.body[2]))
                asyncio.get_running_loop().create_task(self._notify())  # waiters that follow the owner look again
            return
        # Only the daemon that owns the name now: anyone can send a signal straight to this connection.
        if self.owner is None or message.sender != self.owner or not (message.path or "").startswith(ROOT):
            return
        self.events.append(Event(message.member or "", message.path or "", message.interface or "", plain(message.body)))
        asyncio.get_running_loop().create_task(self._notify())

    async def _notify(self) -> None:
        async with self._changed:
            self._changed.notify_all()

    async def _call(self, destination: str, path: str, interface: str, member: str, signature: str,
                    body: list[Any]) -> list[Any]:
        check_call(interface, member, signature)
        reply = await self.bus.call(Message(destination=destination, path=path, interface=interface, member=member,
                                            signature=signature, body=body))
        if reply is None:
            raise ConnectionError(f"{member}: no reply")
        if reply.message_type == MessageType.ERROR:
            raise error_for(str(reply.error_name or ""), str(reply.body[0]) if reply.body else "")
        return list(reply.body)
