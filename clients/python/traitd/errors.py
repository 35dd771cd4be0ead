"""Every D-Bus error traitd names, one exception class each (``org.traitd.Layout1.Error.*``, and the
standard ``InvalidArgs``), so that a test can ``pytest.raises(NotOffered)``."""

from __future__ import annotations

from . import _contract


class TraitdError(Exception):
    """A refusal from traitd: ``name`` is the D-Bus error name, the message what was wrong and what is allowed."""

    name = "org.freedesktop.DBus.Error.Failed"

    def __init__(self, message: str, name: str | None = None) -> None:
        super().__init__(message)
        if name is not None:
            self.name = name


class InvalidArgs(TraitdError):
    name = "org.freedesktop.DBus.Error.InvalidArgs"


# One class per error the contract names (``_contract.ERRORS``, generated from traitd's declarations): a new
# error in traitd gets its class here without an edit, and the names below are looked up, so one traitd no longer
# names fails at import. ``test_contract.py`` checks that every error has its name here.
ERRORS: dict[str, type[TraitdError]] = {
    name: type(name.rsplit(".", 1)[-1], (TraitdError,), {"name": name, "__doc__": name}) for name in _contract.ERRORS
}
ERRORS[InvalidArgs.name] = InvalidArgs


def _named(suffix: str) -> type[TraitdError]:
    return ERRORS["org.traitd.Layout1.Error." + suffix]


NotOffered = _named("NotOffered")
NoSuchApp = _named("NoSuchApp")
AppExists = _named("AppExists")
RoleTaken = _named("RoleTaken")
MissingApp = _named("MissingApp")
NotDragging = _named("NotDragging")
Dragging = _named("Dragging")
NoDivider = _named("NoDivider")
OutOfRange = _named("OutOfRange")
StaleTransition = _named("StaleTransition")
AlreadyReported = _named("AlreadyReported")
NoSuchAdapter = _named("NoSuchAdapter")
AdapterExists = _named("AdapterExists")
LimitExceeded = _named("LimitExceeded")
GeometryRequestUnsupported = _named("GeometryRequestUnsupported")
GeometryRequestDenied = _named("GeometryRequestDenied")
EventsLost = _named("EventsLost")


def error_for(name: str, message: str) -> TraitdError:
    """The exception for a D-Bus error reply: its own class when traitd names it, else ``TraitdError``."""
    return ERRORS.get(name, TraitdError)(message, name)
