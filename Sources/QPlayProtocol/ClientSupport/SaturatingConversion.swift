extension Int {
    /// `value` rounded down, for numbers that come from the wire: `Int(_:)` traps on
    /// NaN, infinities and anything past ±9.2e18, and a client must not die of what a
    /// daemon (or anything on its socket) sends. NaN is 0; the rest is held within
    /// ±10^15, beyond any count or time shown.
    public init(saturating value: Double) {
        guard !value.isNaN else {
            self = 0
            return
        }
        self = Int(Swift.min(Swift.max(value, -1e15), 1e15).rounded(.down))
    }
}
