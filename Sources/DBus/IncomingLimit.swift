import CDBus

#if canImport(Glibc)
    import Glibc
#endif

/// The largest body an exported object accepts, checked on the message itself before any value is built
/// (parse once, at the edge): a call past it is refused by name and never decoded, so a refused call costs no
/// memory that outlives it.
///
/// A body decoded in full and refused afterwards (500,000 nested empty arrays, say) left the daemon's heap tens
/// of MiB larger for good: glibc keeps the freed small blocks. Measuring walks libdbus's own buffer with an
/// iterator and stops at the first limit passed; arrays of fixed-size values are counted, not walked.
public struct IncomingLimit: Sendable {
    /// Bytes of the body in the wire format (approximately: padding is not counted).
    public var bytes: Int
    /// Containers nested in the body (arrays, structs, dict entries and variants each count one).
    public var depth: Int
    /// The D-Bus error a call past either gets.
    public var errorName: String
    /// What the limits are called where a user sets them (`limits.restoration-bytes`), for the message.
    public var bytesSetting: String
    public var depthSetting: String

    public init(bytes: Int, depth: Int, errorName: String, bytesSetting: String, depthSetting: String) {
        self.bytes = bytes
        self.depth = depth
        self.errorName = errorName
        self.bytesSetting = bytesSetting
        self.depthSetting = depthSetting
    }

    /// Bodies at least this large are followed by giving free memory back to the system.
    static let releaseAfterBytes = 32 * 1024

    /// Makes the process give large buffers back to the system when they are freed: every allocation of 128 KiB
    /// or more gets its own mapping, whatever was freed before (glibc otherwise raises that threshold to the
    /// largest block freed, and a few large messages then leave megabytes in the heap for good). Call once, at
    /// the start of a long-running process.
    public static func returnLargeBuffersWhenFreed() { _ = cdbus_fix_mmap_threshold(128 * 1024) }

    /// Throws the refusal when `message`'s body passes a limit; returns its measured size otherwise.
    func admit(_ message: Message) throws -> Int {
        let measured = message.measureBody(upTo: self)
        if measured.depth > depth {
            throw DBusError(errorName, "the call nests more than \(depth) containers (\(depthSetting)); it was refused unread")
        }
        if measured.bytes > bytes {
            throw DBusError(errorName, "the call's body has more than \(bytes) bytes (\(bytesSetting)); it was refused unread")
        }
        return measured.bytes
    }
}

extension Message {
    /// The body's size and depth, walking no further than needed to see that it passes `limit`: over its bytes
    /// (`measureFromTheBytes`), or where that gives up, with libdbus's iterator.
    func measureBody(upTo limit: IncomingLimit) -> (bytes: Int, depth: Int) {
        measureFromTheBytes(upTo: limit) ?? measureBodyThroughTheIterator(upTo: limit)
    }

    /// The same with libdbus's iterator: what `measureBody` must equal.
    func measureBodyThroughTheIterator(upTo limit: IncomingLimit) -> (bytes: Int, depth: Int) {
        var iter = DBusMessageIter()
        guard dbus_message_iter_init(raw, &iter) != 0 else { return (0, 0) }
        var total = (bytes: 0, depth: 0)
        Self.measure(&iter, depth: 0, into: &total, limit: limit)
        return total
    }

    /// Adds every value from `iter` on to `total`; returns false once a limit is passed (the walk stops).
    @discardableResult
    private static func measure(_ iter: inout DBusMessageIter, depth: Int, into total: inout (bytes: Int, depth: Int),
                                limit: IncomingLimit) -> Bool {
        while dbus_message_iter_get_arg_type(&iter) != CDBUS_TYPE_INVALID {
            let type = dbus_message_iter_get_arg_type(&iter)
            switch type {
            case CDBUS_TYPE_ARRAY, CDBUS_TYPE_STRUCT, CDBUS_TYPE_DICT_ENTRY, CDBUS_TYPE_VARIANT:
                total.depth = max(total.depth, depth + 1)
                total.bytes += 4
                if total.depth > limit.depth { return false }
                if type == CDBUS_TYPE_ARRAY,
                   let size = DBusValue.fixedSize(ofTypeCode: UInt8(truncatingIfNeeded: dbus_message_iter_get_element_type(&iter))) {
                    total.bytes += Int(dbus_message_iter_get_element_count(&iter)) * size
                } else {
                    var sub = DBusMessageIter()
                    dbus_message_iter_recurse(&iter, &sub)
                    if !measure(&sub, depth: depth + 1, into: &total, limit: limit) { return false }
                }
            case CDBUS_TYPE_STRING, CDBUS_TYPE_OBJECT_PATH, CDBUS_TYPE_SIGNATURE:
                var basic = DBusBasicValue()
                dbus_message_iter_get_basic(&iter, &basic)
                total.bytes += 5 + strlen(basic.str)
            default:
                total.bytes += DBusValue.fixedSize(ofTypeCode: UInt8(truncatingIfNeeded: type)) ?? 8
            }
            if total.bytes > limit.bytes { return false }
            dbus_message_iter_next(&iter)
        }
        return true
    }
}

/// Gives the heap's free pages back to the system, after a large message.
func releaseFreeMemory() { _ = cdbus_release_free_memory() }
