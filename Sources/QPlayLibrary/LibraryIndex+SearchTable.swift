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
    /// - Older cached table (or none): a new one read from this snapshot, when `loading`
    ///   and no scan of this index is writing. During a scan every batch moves the
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
            guard loading else { return nil }
            cached = nil  // free the stale table before reading the new one
            if scanning.withLock({ $0 }) { return nil }
            let loaded = try SearchTable.load(db, generation: generation)
            cached = loaded
            MemoryTrim.releaseFreeMemory()  // the loader's scratch buffers, the old table
            return loaded
        }
    }
}
