"""traitd for Python: a typed client of ``org.traitd.Layout1`` (``Client``, asyncio; ``SyncClient``, blocking),
adapters without D-Bus (``Adapter``, ``Transition``, ``Layout``), its errors (one class per ``org.traitd.Layout1.Error.*``), and a pytest plugin (``traitd.pytest_plugin``)."""

from .adapter import Adapter, Layout, Transition
from .client import Client
from .errors import (ERRORS, AdapterExists, AlreadyReported, Dragging, EventsLost, InvalidArgs, LimitExceeded, MissingApp,
                     NoDivider, NoSuchAdapter, NoSuchApp, NotDragging, NotOffered, OutOfRange, RoleTaken,
                     StaleTransition, TraitdError, AppExists, GeometryRequestDenied, GeometryRequestUnsupported)
from .model import Event, window_path
from .sync import SyncClient

__all__ = ["Adapter", "Layout", "Transition", "Client", "SyncClient", "Event", "window_path", "ERRORS", "TraitdError", "InvalidArgs", "NotOffered",
           "NoSuchApp", "AppExists", "RoleTaken", "MissingApp", "NotDragging", "Dragging", "NoDivider", "OutOfRange",
           "StaleTransition", "AlreadyReported", "NoSuchAdapter", "AdapterExists", "LimitExceeded", "EventsLost",
           "GeometryRequestDenied", "GeometryRequestUnsupported"]
