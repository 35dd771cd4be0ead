import DBus
import TraitProtocol

/// Every signal traitd sent, oldest first, in a ring bounded by count and bytes: what `GetEvents(since)`
/// answers, so that a subscriber who comes late, or a test that looks back, misses nothing it asks for.
///
/// "After Serial `since`" means after the state reached that serial: the signals of later commands, and the
/// later signals of that command's own transitions (their completions and layouts, which come with no new
/// serial), but not the signals the command that made `since` sent as it did so (a client that read the state
/// at `since` has those already).
struct SignalJournal {
    /// At most this many signals are kept...
    static let maximumSignals = 4096
    /// ...and at most this many bytes of them (their arguments in the wire format): a window's Layouts can
    /// reach a MiB, and 4,096 of those would not fit a reply.
    static let maximumBytes = 8 << 20

    struct Entry {
        let record: JournalEntry
        /// Sent by the command that made `record.serial`, as it did so.
        let ofItsCommand: Bool
        let bytes: Int

        /// Whether the entry comes after the state reached `serial`.
        func isAfter(_ serial: UInt64) -> Bool { record.serial > serial || (record.serial == serial && !ofItsCommand) }
    }

    private var entries: [Entry] = []
    /// Index of the oldest entry kept: evicted entries are dropped from the front in batches, not one by one.
    private var start = 0
    private var bytes = 0
    /// The newest entry evicted, for `since`s it would have answered.
    private var newestEvicted: Entry?

    mutating func record(_ record: JournalEntry, ofItsCommand: Bool) {
        let size = DBusValue.structure(record.arguments).wireSize
        entries.append(Entry(record: record, ofItsCommand: ofItsCommand, bytes: size))
        bytes += size
        while entries.count - start > Self.maximumSignals || (bytes > Self.maximumBytes && entries.count - start > 1) {
            newestEvicted = entries[start]
            bytes -= entries[start].bytes
            start += 1
        }
        if start > Self.maximumSignals {
            entries.removeFirst(start)
            start = 0
        }
    }

    /// The signals after `serial`, oldest first; nil when some of them are no longer kept.
    func events(after serial: UInt64) -> [JournalEntry]? {
        if let newestEvicted, newestEvicted.isAfter(serial) { return nil }
        return entries[start...].filter { $0.isAfter(serial) }.map(\.record)
    }

    /// The oldest serial whose signals are all kept: what a `since` must be at least.
    var oldestComplete: UInt64 { newestEvicted?.record.serial ?? 0 }
}
