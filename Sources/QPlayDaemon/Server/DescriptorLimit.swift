#if canImport(Glibc)
import Glibc
#endif

/// The process's open-file limit (`RLIMIT_NOFILE`) and the share of it client
/// connections may take.
///
/// Every client holds a descriptor. Were connections to use them all, what else needs
/// one would fail: opening a track ("File access error"), the databases, ALSA, a scan's
/// folders — and libdispatch's thread-pool monitor traps (SIGILL) when it cannot open
/// `/proc/TID/stat`. So connections are capped below the limit, leaving `reserve` for
/// the rest.
public struct DescriptorLimit: Sendable, Equatable {
    /// The soft limit: what `open` and `accept` are held to.
    public var soft: Int
    /// The ceiling the soft limit may be raised to; nil when unlimited.
    public var hard: Int?

    public init(soft: Int, hard: Int?) {
        self.soft = soft
        self.hard = hard
    }

    /// Descriptors kept for everything but clients: tracks playing and prepared, the two
    /// databases with their WAL and readers, ALSA, a scan's open folders, the event loop,
    /// `/proc` reads. A freshly started daemon uses about 30.
    public static let reserve = 128

    /// Client connections this limit affords: `configured`, lowered to leave the reserve
    /// (half the limit when the limit is small), and at least one.
    public func connectionCap(configured: Int) -> Int {
        let reserved = min(Self.reserve, soft / 2)
        return max(1, min(configured, soft - reserved))
    }

    /// The limit now.
    public static func current() -> DescriptorLimit {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else {
            return DescriptorLimit(soft: 1024, hard: nil)  // what Linux gives a process by default
        }
        return DescriptorLimit(soft: Self.count(limit.rlim_cur) ?? Int.max, hard: Self.count(limit.rlim_max))
    }

    /// Raises the soft limit to the hard one — the 1,024 most sessions start with is a
    /// relic of `select`, which nothing here uses — and returns the limit in force, raised
    /// or not, with the errno when raising failed.
    public static func raiseSoftLimitToHard() -> (limit: DescriptorLimit, failure: Int32?) {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return (current(), errno) }
        guard limit.rlim_cur != limit.rlim_max else { return (current(), nil) }
        limit.rlim_cur = limit.rlim_max
        let failure: Int32? = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 ? nil : errno
        return (current(), failure)
    }

    private static func count(_ value: rlim_t) -> Int? {
        // RLIM_INFINITY is all ones (Glibc imports the macro as an overflowing literal).
        value == rlim_t.max || value > rlim_t(Int.max) ? nil : Int(value)
    }
}
