/// The signals a connection receives: subscriptions by sender, checked on every signal, and the owners of the
/// well-known names it follows (`SignalRouter` holds them).
extension Connection {
    /// A signal as it arrived, safe to hand to other threads.
    public struct Signal: Sendable {
        public let sender: String?
        public let path: String
        public let interface: String
        public let member: String
        public let arguments: [DBusValue]

        /// A signal as it would arrive (to decode one without a bus, or to replay a recorded one).
        public init(sender: String?, path: String, interface: String, member: String, arguments: [DBusValue]) {
            self.sender = sender
            self.path = path
            self.interface = interface
            self.member = member
            self.arguments = arguments
        }
    }

    /// Calls `handler` (on the connection's thread) for every signal this connection receives from `sender`,
    /// and for no other. Any peer can send a signal straight to this connection, whatever match rules say, so
    /// the sender is checked on every signal:
    /// - `org.freedesktop.DBus`: only the bus itself (no peer can send under that name);
    /// - a unique name (`:1.42`): only that connection;
    /// - a well-known name (`org.traitd.Layout1`): only its current owner, which the connection follows once
    ///   `watchOwner(of:)` has been called (until then, nothing from it is delivered).
    ///
    /// Pair with `addMatch` (or use `subscribe(sender:matching:_:)`) so that the bus routes the signals here.
    /// Returns an id for `unsubscribe`.
    @discardableResult
    public func subscribe(sender: String, _ handler: @escaping @Sendable (Signal) -> Void) -> UInt64 {
        router.subscribe(sender: sender, handler)
    }

    /// `subscribe(sender:_:)`, with the match rule `type='signal',sender='SENDER'` and `rule` added, and the
    /// owner of a well-known `sender` followed; signals flow when this returns.
    @discardableResult
    public func subscribe(sender: String, matching rule: String, _ handler: @escaping @Sendable (Signal) -> Void) async throws
        -> UInt64
    {
        if Self.isWellKnown(sender) { try await watchOwner(of: sender) }
        let id = subscribe(sender: sender, handler)
        do {
            try await addMatch("type='signal',sender='\(sender)'" + (rule.isEmpty ? "" : "," + rule))
        } catch {
            unsubscribe(id)
            throw error
        }
        return id
    }

    public func unsubscribe(_ id: UInt64) {
        router.unsubscribe(id)
    }

    /// Follows the owner of the well-known `name` (`NameOwnerChanged` from the bus, after a first
    /// `GetNameOwner`), so that signals from it can be told from signals by anyone else.
    public func watchOwner(of name: String) async throws {
        // The first caller asks the bus; a caller that comes while the answer is on its way waits for it.
        let first = await withCheckedContinuation { (done: CheckedContinuation<Bool, Never>) in
            perform { [self] in
                if router.watchedNames.insert(name).inserted {
                    router.ownerWaiters[name] = []
                    done.resume(returning: true)
                } else if router.owners[name] == nil, router.ownerWaiters[name] != nil {
                    router.ownerWaiters[name]!.append { done.resume(returning: false) }
                } else {
                    done.resume(returning: false)
                }
            }
        }
        guard first else { return }
        do {
            try await addMatch(
                "type='signal',sender='\(Self.busName)',interface='\(Self.busName)',member='NameOwnerChanged',arg0='\(name)'")
            let message = try Message.methodCall(
                destination: Self.busName, path: Self.busPath, interface: Self.busName, member: "GetNameOwner")
            try message.append([.string(name)])
            // The answer is applied on the connection's thread as it arrives, in order with the NameOwnerChanged
            // signals around it, so a change that comes after it is never overwritten by it.
            let _: Void = await withCheckedContinuation { continuation in
                send(message, timeout: 25) { [self] result in
                    let apply: @Sendable () -> Void = { [self] in
                        if case .success(let values) = result {
                            router.owners[name] = values.first?.string ?? ""
                        } else {
                            router.owners[name] = ""
                        }
                        for waiter in router.ownerWaiters.removeValue(forKey: name) ?? [] { waiter() }
                        continuation.resume()
                    }
                    // A reply arrives on the connection's thread; only a connection closing first ends it elsewhere.
                    if isOnConnectionThread || !loop.performIfRunning(apply) { apply() }
                }
            }
        } catch {
            // Let a later call try again, and release whoever waited.
            perform { [self] in
                router.watchedNames.remove(name)
                for waiter in router.ownerWaiters.removeValue(forKey: name) ?? [] { waiter() }
            }
            throw error
        }
    }

    /// The owner of a name followed with `watchOwner(of:)`: nil before the first answer, "" when it has none.
    /// Call on the connection's thread.
    public func owner(of name: String) -> String? { router.owners[name] }

    static func isWellKnown(_ name: String) -> Bool { !name.hasPrefix(":") && name != busName }
}
