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
    /// ...and at most this many bytes of them (in the wire format): a window's Layouts can reach a MiB, and
    /// 4,096 of those would not fit a reply.
    static let maximumBytes = 8 << 20

    /// One signal as sent: the whole message kept in the wire format (a few hundred bytes, where the same values
    /// as `DBusValue` trees took about 2 KiB each), read back only when asked for.
    struct Entry {
        let serial: UInt64
        let message: [UInt8]
        /// Sent by the command that made `serial`, as it did so.
        let ofItsCommand: Bool

        /// Whether the entry comes after the state reached `serial`.
        func isAfter(_ serial: UInt64) -> Bool { self.serial > serial || (self.serial == serial && !ofItsCommand) }

        /// The signal as `GetEvents` gives it (the journal wrote the bytes: they read back).
        var record: JournalEntry? {
            guard let signal = try? Marshalling.decodeSignal(message) else { return nil }
            return JournalEntry(serial: serial, path: signal.path, interface: signal.interface, member: signal.member,
                                arguments: signal.arguments)
        }
    }

    /// Signals sent while the engine runs, in the wire format: recorded once it has returned, at the serial it
    /// leaves (`engineReturned`), since the serial is the engine's, which is busy until then. Nil when it does
    /// not run.
    private var sentWhileTheEngineRuns: [[UInt8]]?
    /// The serial a command made, while its events are being sent (they are marked as that command's).
    var commandSerial: UInt64?

    /// A signal as it is sent, the state at `serial` (the serial of the moment, once the engine is not running).
    mutating func sent(_ message: [UInt8], serial: @autoclosure () -> UInt64) {
        if sentWhileTheEngineRuns != nil {
            sentWhileTheEngineRuns?.append(message)
        } else {
            let serial = serial()
            record(Entry(serial: serial, message: message, ofItsCommand: commandSerial == serial))
        }
    }

    /// The engine begins to run: signals sent meanwhile wait for its serial.
    mutating func engineRuns() { sentWhileTheEngineRuns = [] }

    /// The engine returned, leaving `serial`: the signals it sent are recorded at it.
    mutating func engineReturned(serial: UInt64) {
        let sent = sentWhileTheEngineRuns ?? []
        sentWhileTheEngineRuns = nil
        for message in sent { record(Entry(serial: serial, message: message, ofItsCommand: commandSerial == serial)) }
    }

    private var entries: [Entry] = []
    /// Index of the oldest entry kept: evicted entries are dropped from the front in batches, not one by one.
    private var start = 0
    private var bytes = 0
    /// The newest entry evicted, for `since`s it would have answered.
    private var newestEvicted: Entry?

    mutating func record(_ entry: Entry) {
        entries.append(entry)
        bytes += entry.message.count
        while entries.count - start > Self.maximumSignals || (bytes > Self.maximumBytes && entries.count - start > 1) {
            newestEvicted = entries[start]
            bytes -= entries[start].message.count
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
        return entries[start...].filter { $0.isAfter(serial) }.compactMap(\.record)
    }

    /// The oldest serial whose signals are all kept: what a `since` must be at least.
    var oldestComplete: UInt64 { newestEvicted?.serial ?? 0 }
}
