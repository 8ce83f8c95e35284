import GRDB
import QPlayModel

extension LibraryIndex {
    /// The ids of the tracks above `id`, in order. Ids are never reused (AUTOINCREMENT),
    /// so these are the tracks a scan indexed since the one that had `id` was.
    public func trackIDs(above id: TrackID) throws -> [TrackID] {
        try pool.read { db in
            try TrackID.fetchAll(db, sql: "SELECT id FROM track WHERE id > ? ORDER BY id", arguments: [id])
        }
    }
}
