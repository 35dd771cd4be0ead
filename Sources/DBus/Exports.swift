// D-Bus's data (values, errors, the wire's limits and sizes) is a module of its own, `BusValues`, without libdbus,
// so that what only keeps or measures values (the daemon's core, the state file) links no bus. Everything that
// imports DBus sees it as before.
@_exported import BusValues
// The mutex the connection's threads share, also what the state writer locks with.
@_exported import Locks

/// Inside this module the name is ours, not libdbus's C struct of the same name (CDBus is imported beside it).
public typealias DBusError = BusValues.DBusError
