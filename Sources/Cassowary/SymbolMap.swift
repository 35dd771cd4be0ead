/// Data kept per symbol, in an array indexed by symbol id: symbols are dense small integers, so a lookup is an
/// index instead of a hash (hashing was 7 % of a small build when these were dictionaries).
struct SymbolMap<Value> {
    private var values: [Value?] = []

    subscript(symbol: Symbol) -> Value? {
        get { symbol < values.count ? values[symbol] : nil }
        set {
            if symbol >= values.count {
                guard newValue != nil else { return }
                values.append(contentsOf: repeatElement(nil, count: symbol + 1 - values.count))
            }
            values[symbol] = newValue
        }
    }

    /// The symbols that have a value, in order, with it.
    var entries: [(symbol: Symbol, value: Value)] {
        values.indices.compactMap { s in values[s].map { (s, $0) } }
    }
}
