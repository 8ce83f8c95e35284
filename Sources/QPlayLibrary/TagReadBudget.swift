/// The most one file may cost TagLib. Past it the file is skipped as hostile: a file of
/// junk or zeros makes TagLib search it to its end a kilobyte at a time (a 2 GB one held
/// a scanner thread for 200 s), while a real file's tags and headers take a few hundred
/// kilobytes and milliseconds (a large cover is one read of its size).
public struct TagReadBudget: Sendable, Equatable {
    /// Bytes TagLib may ask for.
    public var bytes: Int
    /// CPU time of the reading thread, not wall time: a busy machine must not make a
    /// good file look hostile (a skipped file is remembered until it changes).
    public var cpuTime: Duration

    public init(bytes: Int, cpuTime: Duration) {
        self.bytes = bytes
        self.cpuTime = cpuTime
    }

    /// 64 MB and 1 s of CPU time.
    public static let standard = TagReadBudget(bytes: 64 << 20, cpuTime: .seconds(1))
}
