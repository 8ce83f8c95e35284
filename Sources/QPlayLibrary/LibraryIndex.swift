import Foundation
import GRDB
import QPlayModel
import Synchronization
import SystemPackage

/// The library index: a SQLite database (GRDB `DatabasePool`, WAL) of every track the
/// scanner found. Readers never wait for a scan: queries see the last committed state
/// while the scanner writes in batched transactions.
public final class LibraryIndex: Sendable {
    let pool: DatabasePool
    public let databasePath: FilePath
    /// The listening figures figure predicates test.
    public let listening: ListeningFigures
    /// Set while a scan writes, so two scans never interleave their batches.
    let scanning = Mutex(false)
    /// The in-memory search table of the last query's snapshot (`searchTable(_:loading:)`).
    let table = Mutex<SearchTable?>(nil)
    /// Set while `prepareSearchTable` builds the table outside `table`'s lock; read and
    /// written only under that lock.
    let building = Mutex(false)
    /// Results this long trim the heap afterwards (`MemoryTrim`).
    static let largeResult = 20_000

    /// Opens the index at `databasePath`, creating it (and migrating it to the current
    /// schema) when needed. Opening an existing index does no scan and reads no tracks.
    public init(databasePath: FilePath, listening: ListeningFigures = .shared) throws {
        self.databasePath = databasePath
        self.listening = listening
        MemoryTrim.configure
        var configuration = Configuration()
        configuration.label = "qplay.library"
        // Readers: queries from several clients at once; each keeps its own page cache.
        configuration.maximumReaderCount = 4
        configuration.prepareDatabase { db in
            // WAL + NORMAL survives a crash (the last transactions may be lost, never the
            // database) and spares an fsync per batch.
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
            if db.configuration.readonly {
                // Queries answer from the search table; SQLite only reads trigram
                // doclists and a few ids, which the kernel's page cache serves as well.
                // SQLite's default (2 MB per connection, kept for the connection's
                // life) would cost up to 8 MB of resident memory for nothing.
                try db.execute(sql: "PRAGMA cache_size = -256")
            }
        }
        pool = try DatabasePool(path: databasePath.string, configuration: configuration)
        try LibrarySchema.migrator.migrate(pool)
    }

    // MARK: Queries

    /// The tracks matching every predicate of `query`, in the library order (docs/BEHAVIOUR.md, Queries and their order).
    ///
    /// Answered from the in-memory `SearchTable` of the last committed data (built ahead
    /// by `prepareSearchTable`, else loaded by the first query after a write); by SQL
    /// while a scan of this index is writing, so a scan's batches do not each cost a
    /// reload, and while `prepareSearchTable` builds it.
    public func search(_ query: Query, limit: Int? = nil) throws -> ItemCollection {
        let tracks = try pool.read { db in
            guard let table = try searchTable(db, loading: true) else {
                return try sqlSearch(query, limit: limit, db)
            }
            let ranks = try table.ranks(matching: query, listening: listening, db)
            let total = ranks?.count ?? table.count
            let wanted = min(total, max(limit ?? total, 0))
            if let ranks {
                return table.tracks(atRanks: Array(ranks.prefix(wanted)))
            }
            return table.tracks(atRanks: 0..<wanted)
        }
        if tracks.count >= Self.largeResult {
            // Building it freed scratch memory the size of the result (FTS doclists,
            // SQLite pages); hand it back rather than let glibc keep it.
            MemoryTrim.releaseFreeMemory()
        }
        return ItemCollection(tracks)
    }

    /// How many tracks match `query`, without reading them.
    public func count(_ query: Query) throws -> Int {
        try pool.read { db in
            guard let table = try searchTable(db, loading: true) else {
                if !query.figures.isEmpty { return try sqlSearch(query, limit: nil, db).count }
                let statement = SearchSQL(query, limit: nil)
                return try Int.fetchOne(
                    db, sql: "SELECT count(*) FROM (\(statement.sql))", arguments: statement.arguments) ?? 0
            }
            return try table.ranks(matching: query, listening: listening, db)?.count ?? table.count
        }
    }

    /// The tracks with these ids, in the order given (repeats kept); unknown ids left out.
    public func tracks(ids: [TrackID]) throws -> [Track] {
        try pool.read { db in
            // The table when it is current (never loaded just for this: a few ids are
            // quick in SQL, and the daemon asks for them at start-up).
            if let table = try searchTable(db, loading: false) {
                return table.tracks(atRanks: ids.compactMap { table.rank(of: $0) })
            }
            let found = try fetch(keys: Array(Set(ids)), column: "id", db)
            var byID: [TrackID: Track] = [:]
            for track in found { byID[track.id] = track }
            return ids.compactMap { byID[$0] }
        }
    }

    /// The track at each of these paths (relative to the music directory, byte-exact),
    /// in the order given; nil for a path the index does not hold.
    ///
    /// With the search table current, no SQL runs: paths are found in the table's
    /// `PathLookup` and the tracks built from it, so a 10,000-entry playlist decodes no
    /// rows.
    public func tracks(paths: [FilePath]) throws -> [Track?] {
        try pool.read { db in
            if let table = try searchTable(db, loading: false) {
                let ranks = table.ranks(of: paths)
                var built = table.tracks(atRanks: ranks.compactMap { $0 }).makeIterator()
                return ranks.map { $0 == nil ? nil : built.next() }
            }
            let keys = paths.map { Data(PathBytes.bytes($0)) }
            let unique = Array(Set(keys))
            var byPath: [Data: Track] = [:]
            for track in try fetch(keys: unique, column: "path", db) {
                byPath[Data(PathBytes.bytes(track.path))] = track
            }
            return keys.map { byPath[$0] }
        }
    }

    /// The tracks found at these paths, in the order given, and how many paths name
    /// none: what a playlist's load needs, without a place kept for each missing one
    /// (moving 10,000 tracks into optionals and out again cost a copy of each).
    public func tracksFound(paths: [FilePath]) throws -> (tracks: [Track], missing: Int) {
        let fromTable: (tracks: [Track], missing: Int)? = try pool.read { db in
            guard let table = try searchTable(db, loading: false) else { return nil }
            let ranks = table.ranks(of: paths).compactMap { $0 }
            return (table.tracks(atRanks: ranks), paths.count - ranks.count)
        }
        if let fromTable { return fromTable }
        let all = try tracks(paths: paths)
        let found = all.compactMap { $0 }
        return (found, all.count - found.count)
    }

    public func track(id: TrackID) throws -> Track? {
        try tracks(ids: [id]).first
    }

    public func statistics() throws -> LibraryStatistics {
        try pool.read { db in
            let totals = try Row.fetchOne(
                db,
                sql: """
                    SELECT count(*), count(DISTINCT nullif(f_artist, '')), total(duration)
                    FROM track
                    """)!
            let albums =
                try Int.fetchOne(
                    db,
                    sql: """
                        SELECT count(*) FROM (SELECT DISTINCT sort_artist, f_album FROM track
                        WHERE f_album <> '')
                        """) ?? 0
            var statistics = LibraryStatistics(
                tracks: totals[0], artists: totals[1], albums: albums, totalDuration: totals[2])
            if let data = try Data.fetchOne(
                db, sql: "SELECT value FROM library_info WHERE key = 'last_scan'")
            {
                let record = try? JSONDecoder().decode(LastScanRecord.self, from: data)
                statistics.lastScan = record?.summary
                statistics.lastScanDate = record?.finished
            }
            return statistics
        }
    }

    /// Bytes the database files take on disk (main file and write-ahead log).
    public func sizeOnDisk() -> Int64 {
        ["", "-wal", "-shm"].reduce(Int64(0)) { total, suffix in
            let attributes = try? FileManager.default.attributesOfItem(
                atPath: databasePath.string + suffix)
            return total + ((attributes?[.size] as? NSNumber)?.int64Value ?? 0)
        }
    }

    /// Moves everything in the write-ahead log into the database file.
    public func checkpoint() throws {
        try pool.writeWithoutTransaction { db in
            _ = try db.checkpoint(.truncate)
        }
    }

    private func fetch(keys: [some DatabaseValueConvertible], column: String, _ db: Database) throws -> [Track] {
        var tracks: [Track] = []
        try forEachChunk(of: keys, db) { chunk, marks in
            let cursor = try Row.fetchCursor(
                db, sql: "SELECT \(TrackRow.selection) FROM track WHERE \(column) IN (\(marks))",
                arguments: StatementArguments(Array(chunk)))
            while let row = try cursor.next() { tracks.append(TrackRow.track(from: row)) }
        }
        return tracks
    }

    /// `body` for each run of at most 500 keys with as many `?` marks: SQLite limits the
    /// number of bound variables per statement.
    private func forEachChunk<Key>(
        of keys: [Key], _ db: Database, _ body: (ArraySlice<Key>, String) throws -> Void
    ) throws {
        for start in stride(from: 0, to: keys.count, by: 500) {
            let chunk = keys[start..<min(start + 500, keys.count)]
            try body(chunk, Array(repeating: "?", count: chunk.count).joined(separator: ","))
        }
    }

    /// The query in SQL (`SearchSQL`): the path taken while a scan writes.
    /// Figure predicates are not in SQL (the figures are not in this database): the
    /// rows SQL finds are filtered by them, and the limit applied after.
    func sqlSearch(_ query: Query, limit: Int?, _ db: Database) throws -> [Track] {
        let statement = SearchSQL(query, limit: query.figures.isEmpty ? limit : nil)
        let cursor = try Row.fetchCursor(db.cachedStatement(sql: statement.sql), arguments: statement.arguments)
        let now = Date().timeIntervalSince1970
        var tracks: [Track] = []
        while let row = try cursor.next() {
            if let limit, tracks.count >= limit { break }
            let track = TrackRow.track(from: row)
            if listening.passes(query.figures, track.id, now: now) { tracks.append(track) }
        }
        return tracks
    }
}

/// The last scan's summary as stored in `library_info`.
struct LastScanRecord: Codable {
    var summary: ScanSummary
    var finished: Double
}
