import QPlayModel

extension PlayerEngine {
    /// Whether `next` and `previous` (without its restart rule) would move to an entry
    /// now: what MPRIS's CanGoNext and CanGoPrevious say. Planned like the skip itself
    /// (a modified collection installed, repeat wrapping forward), nothing performed.
    public var skipsAvailable: (next: Bool, previous: Bool) {
        guard current != nil else { return (false, false) }
        return (plan(.skipForward).entry != nil, plan(.skipBack).entry != nil)
    }
}
