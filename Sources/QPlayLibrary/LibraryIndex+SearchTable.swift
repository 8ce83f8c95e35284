import GRDB

extension LibraryIndex {
    /// The write counter in `library_info`: every committed batch adds one (`write`), so
    /// a snapshot's counter says exactly which data it holds.
    static func generation(_ db: Database) throws -> Int64 {
        try Int64.fetchOne(db, sql: "SELECT value FROM library_info WHERE key = 'generation'") ?? 0
    }

    static let bumpGeneration = """
        INSERT INTO library_info (key, value) VALUES ('generation', 1)
        ON CONFLICT (key) DO UPDATE SET value = value + 1
        """

    /// The search table holding exactly `db`'s snapshot (call inside a read transaction).
    ///
    /// - Same generation as the cached table: the cached table.
    /// - Older cached table (or none): a new one read from this snapshot, when `loading`,
    ///   no scan of this index is writing and no build is under way. During a scan every batch moves the
    ///   counter; reloading 100,000 rows per batch would cost more than the SQL path,
    ///   so the stale table is dropped and nil returned (SQL answers) until the scan ends.
    /// - A cached table newer than this snapshot (another query loaded it after this
    ///   transaction began): nil; the trigram sub-queries must see the table's data.
    ///
    /// The lock is taken inside the read transaction, so a loading query holds its own
    /// reader connection and never waits for another while others wait for it.
    func searchTable(_ db: Database, loading: Bool) throws -> SearchTable? {
        let generation = try Self.generation(db)
        return try table.withLock { cached throws -> SearchTable? in
            if let current = cached, current.generation == generation { return current }
            if let current = cached, current.generation > generation { return nil }
            // A build in the background (`prepareSearchTable`) will install it: SQL
            // answers meanwhile rather than waiting for it or loading a second copy.
            if building.withLock({ $0 }) { return nil }
            guard loading else { return nil }
            cached = nil  // free the stale table before reading the new one
            if scanning.withLock({ $0 }) { return nil }
            let loaded = try SearchTable.load(db, generation: generation)
            cached = loaded
            MemoryTrim.releaseFreeMemory()  // the loader's scratch buffers, the old table
            return loaded
        }
    }

    /// Builds the search table of the last committed data now, so the first query after
    /// start-up or after a scan finds it ready instead of loading it (~60 ms at 20,000
    /// tracks, ~350 ms at 100,000). Blocks the calling thread for the build: call it on a
    /// thread of its own. Queries meanwhile answer through SQL, as during a scan.
    ///
    /// Does nothing (nil) when the table is already current, another build is under way
    /// or a scan is writing (its end calls for the build). The stale table is dropped
    /// before the new one is read, so memory never holds two. Returns the table's track
    /// count when it built one.
    @discardableResult
    public func prepareSearchTable() throws -> Int? {
        try prepareSearchTable(whileBuilding: {})
    }

    /// `whileBuilding` runs after the build is claimed and before rows are read (tests
    /// ask their queries there).
    func prepareSearchTable(whileBuilding: () -> Void) throws -> Int? {
        try pool.read { db in
            let generation = try Self.generation(db)
            let claimed = table.withLock { cached -> Bool in
                if let current = cached, current.generation >= generation { return false }
                if scanning.withLock({ $0 }) { return false }
                return building.withLock { busy in
                    if busy { return false }
                    busy = true
                    cached = nil
                    return true
                }
            }
            guard claimed else { return nil }
            // Unclaimed however the build ends; a query never waits on the lock for it.
            defer { table.withLock { _ in building.withLock { $0 = false } } }
            whileBuilding()
            let loaded = try SearchTable.load(db, generation: generation)
            table.withLock { cached in
                // A query may have loaded a newer snapshot after a write in between.
                if cached.map({ $0.generation < generation }) ?? true { cached = loaded }
            }
            MemoryTrim.releaseFreeMemory()  // the loader's scratch buffers
            return loaded.count
        }
    }
}
