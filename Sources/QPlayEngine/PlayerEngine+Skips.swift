import QPlayModel

extension PlayerEngine {
    /// Whether `next` and `previous` would do something now: what MPRIS's CanGoNext and
    /// CanGoPrevious say. Next: an entry to move to, planned like the skip itself (a
    /// modified collection installed, repeat wrapping), nothing performed. Previous: an
    /// entry before this one, or a loaded track it restarts (qplay's rule) — clients such
    /// as playerctl refuse to send Previous while CanGoPrevious is false.
    public var skipsAvailable: (next: Bool, previous: Bool) {
        guard current != nil else { return (false, false) }
        return (plan(.skipForward).entry != nil, isLoaded || plan(.skipBack).entry != nil)
    }
}
