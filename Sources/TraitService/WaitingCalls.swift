import DBus

/// Calls the core answers later (`EndResize` while a live-resize step waits): the caller id the core is given
/// -> the reply to send when its `.answered` event comes.
struct WaitingCalls {
    private var replies: [UInt64: ObjectServer.DeferredReply] = [:]
    private var next: UInt64 = 1

    /// Keeps `reply`; returns the caller id to hand the core.
    mutating func add(_ reply: ObjectServer.DeferredReply) -> UInt64 {
        defer { next += 1 }
        replies[next] = reply
        return next
    }

    /// The reply of `caller`, no longer kept; nil when it was answered already.
    mutating func take(_ caller: UInt64) -> ObjectServer.DeferredReply? { replies.removeValue(forKey: caller) }
}
