/// Adding a batch of constraints at once: all of them or none, in the order their variables were made.
extension Solver {
    /// Adds several constraints at once, as Auto Layout's `NSLayoutConstraint.activate(_:)` does: all of them,
    /// or none. When one cannot go in (a required constraint that conflicts, one already in the solver or twice
    /// in the batch), those of the batch that went in before it are taken out again, and the error is the one
    /// `add(_:)` threw for it.
    ///
    /// The constraints go in one by one, in an order the solver chooses rather than the caller's: by the
    /// variables they relate, in the order those variables were made (`Variable.serial`): those of the
    /// first-made variable first, and among them those whose other variables were made first. Constraints on the
    /// same and on neighbouring variables then go in one after another, and each new row is built from rows made
    /// just before it, still in the core's caches. One by one in a shuffled order, each term reached a row made
    /// long before, a miss to memory: on a 50 x 50 grid a shuffled build took 1.5 to 1.8 times as long as one in
    /// the file's order. As a batch it takes the same instructions in every order (`make solver-counts`); what
    /// time remains between orders (`make bench-solver`'s order table) is where the caller's objects lie in
    /// memory. (Ordered by the last-made variable instead, enaml-form's build took 9 % more instructions, and no
    /// workload fewer.)
    ///
    /// Where the optimum is not unique, the solution found may differ from that of adding the same constraints one
    /// by one in the caller's order (it is the one-by-one solution of the solver's order); where several
    /// constraints conflict, so may the one the error names.
    public func add(contentsOf batch: [Constraint]) throws {
        var added: [Constraint] = []
        added.reserveCapacity(batch.count)
        do {
            for constraint in Self.insertionOrder(of: batch) {
                try add(constraint)
                added.append(constraint)
            }
        } catch {
            // Each went in and none was removed since: taking them out cannot fail.
            for constraint in added.reversed() { try! remove(constraint) }
            throw error
        }
    }

    /// The batch sorted by its variables' serials (the lowest, then the highest), ties by `tieOrder`.
    ///
    /// Two stable counting passes, by the highest serial and then by the lowest: a serial less the batch's least
    /// is a bucket, and a batch's variables were mostly made together, so there are about as many buckets as
    /// variables. Their cost is the same for every order, where a comparison sort's is not (cheap on the file's
    /// order, nearly sorted already; with one, grid-50's shuffled builds took about 1.5 ms longer). A batch whose
    /// variables' serials lie far apart (some made long before the others) is sorted by comparison.
    static func insertionOrder(of constraints: [Constraint]) -> [Constraint] {
        // Each constraint's first- and last-made variable, and the range of the batch's serials.
        var keys = [(lowest: UInt64, highest: UInt64)](repeating: (.max, 0), count: constraints.count)
        var least = UInt64.max, most = UInt64.min
        for index in constraints.indices {
            var lowest = UInt64.max, highest = UInt64.min
            // Read in place, without a retain of each variable (an atomic write to it, see `Solver.makeRow`).
            constraints[index].expression.terms.withUnsafeBufferPointer { terms in
                for term in terms {
                    let serial = Unmanaged.passUnretained(term.variable)._withUnsafeGuaranteedRef { $0.serial }
                    lowest = min(lowest, serial)
                    highest = max(highest, serial)
                }
            }
            keys[index] = (lowest, highest)
            if lowest != .max {
                least = min(least, lowest)
                most = max(most, highest)
            }
        }
        // Constraints of no variables (`0 <= 1`) go first, in the caller's order; the others are sorted.
        var first: [Int] = []
        var order: [Int] = []
        order.reserveCapacity(constraints.count)
        for index in constraints.indices {
            if keys[index].lowest == .max { first.append(index) } else { order.append(index) }
        }
        let buckets = most &- least &+ 1
        if order.count > 1, buckets <= UInt64(4 * order.count + 1024) {
            // By the highest, then (stable) by the lowest: each pass counts the bucket sizes, turns them into each
            // bucket's start, and places the indices.
            var sorted = order
            var starts = [Int](repeating: 0, count: Int(buckets) + 1)
            for byLowest in [false, true] {
                starts.withUnsafeMutableBufferPointer { starts in
                    sorted.withUnsafeMutableBufferPointer { sorted in
                        keys.withUnsafeBufferPointer { keys in
                            func bucket(_ index: Int) -> Int { Int((byLowest ? keys[index].lowest : keys[index].highest) - least) }
                            for b in starts.indices { starts[b] = 0 }
                            for index in order { starts[bucket(index) + 1] += 1 }
                            for b in 1..<starts.count { starts[b] += starts[b - 1] }
                            for index in order {
                                let b = bucket(index)
                                sorted[starts[b]] = index
                                starts[b] += 1
                            }
                        }
                    }
                }
                swap(&order, &sorted)
            }
        } else {
            order.sort { (keys[$0].lowest, keys[$0].highest, $0) < (keys[$1].lowest, keys[$1].highest, $1) }
        }
        // Ties, constraints on the same first and last variable (`w >= 0`, `w >= 40 @750`, `w == 40 @250`), in an
        // order of their own rather than the caller's: which of them goes in first decides which symbols become
        // basic, and so the work after them (left in the caller's order, rows-30's build took 3 to 7 % more
        // instructions, by the order).
        var start = 0
        while start < order.count {
            let key = keys[order[start]]
            var end = start + 1
            while end < order.count, keys[order[end]] == key { end += 1 }
            if end - start > 1 { order[start..<end].sort { tieOrder(constraints[$0], constraints[$1]) ?? ($0 < $1) } }
            start = end
        }
        return (first + order).map { constraints[$0] }
    }

    /// Between two constraints on the same first and last variable, whether `a` goes first (nil when nothing
    /// but their place in the batch tells them apart): the stronger first (required before optional), then
    /// equalities before inequalities, then by the variables between (their serials' sum), then by the
    /// constant.
    private static func tieOrder(_ a: Constraint, _ b: Constraint) -> Bool? {
        func relationRank(_ c: Constraint) -> Int {
            switch c.relation { case .equal: 0; case .lessOrEqual: 1; case .greaterOrEqual: 2 }
        }
        func middle(_ c: Constraint) -> UInt64 { c.expression.terms.reduce(0) { $0 &+ $1.variable.serial } }
        if a.priority.rawValue != b.priority.rawValue { return a.priority.rawValue > b.priority.rawValue }
        if relationRank(a) != relationRank(b) { return relationRank(a) < relationRank(b) }
        if middle(a) != middle(b) { return middle(a) < middle(b) }
        if a.expression.constant != b.expression.constant { return a.expression.constant < b.expression.constant }
        return nil
    }
}
