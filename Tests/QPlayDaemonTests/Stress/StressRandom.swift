import QPlayEngine
/// The engine's own SplitMix64 (`ShuffleRandom`): the same sequence on every platform
/// and Swift version, so a seed names one run for good.
typealias SplitMix64 = ShuffleRandom

extension ShuffleRandom {
    init(seed: UInt64) {
        self.init(state: seed)
    }
}

/// The random numbers of one step, all drawn before the step looks at any state. What
/// the daemon did (a track that ended early on a loaded machine) may change how a step
/// uses its numbers, but never how many it takes, so the steps after it still come from
/// the same part of the sequence and a seed replays the same run of commands.
struct StepDraws {
    private var values: [UInt64]

    static let count = 8

    init(_ random: inout SplitMix64) {
        values = (0..<Self.count).map { _ in random.next() }
    }

    /// A number in 0..<n from draw `slot` (0 when n is 0).
    func pick(_ slot: Int, _ n: Int) -> Int {
        n <= 0 ? 0 : Int(values[slot] % UInt64(n))
    }

    /// A number in range from draw `slot`.
    func pick(_ slot: Int, in range: ClosedRange<Int>) -> Int {
        range.lowerBound + pick(slot, range.count)
    }

    /// True with probability `percent`/100, from draw `slot`.
    func chance(_ slot: Int, percent: Int) -> Bool {
        pick(slot, 100) < percent
    }

    /// A fraction in 0..<1 from draw `slot`.
    func fraction(_ slot: Int) -> Double {
        Double(values[slot] >> 11) / Double(1 << 53)
    }
}
