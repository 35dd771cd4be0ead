/// A small seeded generator (SplitMix64): the same seed gives the same sequence on every machine, so a
/// failing fuzz run is reproduced by its seed.
public struct SeededRandom: RandomNumberGenerator {
    private var state: UInt64
    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in 0..<n (the small bias of a modulo does not matter for fuzzing; speed in a debug build does).
    public mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
    public mutating func int(_ range: ClosedRange<Int>) -> Int { range.lowerBound + below(range.count) }
    public mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }
    public mutating func chance(_ p: Double) -> Bool { unit() < p }
    public mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }
}
