"""traitd for Python: a typed client of ``org.traitd.Layout1`` (``Client``, asyncio; ``SyncClient``, blocking),
its errors (one class per ``org.traitd.Layout1.Error.*``), and a pytest plugin (``traitd.pytest_plugin``)."""

from .client import Client
from .errors import (ERRORS, AdapterExists, AlreadyReported, Dragging, EventsLost, InvalidArgs, LimitExceeded, MissingApp,
                     NoDivider, NoSuchAdapter, NoSuchApp, NotDragging, NotOffered, OutOfRange, RoleTaken,
                     StaleTransition, TraitdError, AppExists)
from .model import Event, window_path
from .sync import SyncClient

__all__ = ["Client", "SyncClient", "Event", "window_path", "ERRORS", "TraitdError", "InvalidArgs", "NotOffered",
           "NoSuchApp", "AppExists", "RoleTaken", "MissingApp", "NotDragging", "Dragging", "NoDivider", "OutOfRange",
           "StaleTransition", "AlreadyReported", "NoSuchAdapter", "AdapterExists", "LimitExceeded", "EventsLost"]
