import Foundation
import QPlayEngine
import QPlayLibrary
import QPlayModel
import QPlayProtocol

/// Named moments in tracks, and the resume points' table at start-up
/// (`storedResumePoints`), kept in the state database by library track id. A rescan
/// keeps a track's id while its file stays, so bookmarks survive it; a bookmark whose
/// track has left the library is forgotten the next time bookmarks are listed or
/// jumped to.
struct BookmarkService: Sendable {
    let store: StateStore
    let player: PlayerService
    let index: LibraryIndex

    /// A bookmark at the current track's position; nothing current is `bad_request`.
    func add(name: String?) async throws -> Int64 {
        let snapshot = await player.snapshot()
        guard let track = snapshot.status.track else {
            throw ProtocolError.badRequest("bookmark_add: nothing is playing or paused to bookmark")
        }
        return try saving { try store.addBookmark(track: track.id, position: snapshot.status.position, name: name) }
    }

    /// `count` bookmarks (the default window when nil) from the `start`th, oldest first,
    /// of the tracks the library still has. Only the window's tracks are built: a list
    /// of 100,000 bookmarks is answered a page at a time.
    func list(track: Int64?, start: Int = 0, count: Int? = nil) throws -> BookmarkList {
        // Those of tracks gone from the library go first, so the pages and the total
        // count only bookmarks that can be shown.
        let ids = try store.bookmarkedTracks(track: track)
        let known = try index.knownIDs(among: ids)
        if known.count < ids.count {
            try saving { try store.forgetTracks(Array(ids.subtracting(known))) }
        }
        let (window, total) = try store.bookmarks(
            track: track, start: start, count: count ?? BookmarkList.defaultWindow)
        let tracks = Dictionary(
            try index.tracks(ids: Array(Set(window.map(\.track)))).map { ($0.id, $0) },
            uniquingKeysWith: { first, _ in first })
        return BookmarkList(
            bookmarks: window.compactMap { bookmark in tracks[bookmark.track].map { Self.wire(bookmark, track: $0) } },
            start: start, total: total)
    }

    func remove(_ id: Int64) throws {
        guard try saving({ try store.removeBookmark(id) }) else { throw ProtocolError.notFound("no bookmark \(id)") }
    }

    /// A write to the state database; a full or read-only disk is told as that file's,
    /// not as the library index's (the dispatcher's word for other storage failures).
    private func saving<Result>(_ write: () throws -> Result) throws -> Result {
        do {
            return try write()
        } catch where DatabaseFiles.isStorageFailure(error) {
            throw ProtocolError.unavailable(
                "cannot write the state database \(store.path): \(DatabaseFiles.reason(error))")
        }
    }

    /// Plays the bookmark's track from its position: its entry when the queue has it
    /// (the current one first, else the first), else a new entry right after the
    /// playing one.
    func jump(_ id: Int64) async throws {
        guard let bookmark = try store.bookmarks().first(where: { $0.id == id }) else {
            throw ProtocolError.notFound("no bookmark \(id)")
        }
        guard let track = try index.tracks(ids: [bookmark.track]).first else {
            try saving { try store.forgetTracks([bookmark.track]) }
            throw ProtocolError.notFound("the track of bookmark \(id) is no longer in the library")
        }
        try await player.perform { engine, now, position throws(EngineError) in
            var output = EngineOutput()
            let queue = engine.queue
            let entry: EntryID
            if let current = queue.current, queue.entries.contains(where: { $0.id == current && $0.track.id == track.id }) {
                entry = current
            } else if let queued = queue.entries.first(where: { $0.track.id == track.id }) {
                entry = queued.id
            } else {
                let after = queue.current.flatMap { current in queue.entries.firstIndex { $0.id == current } }
                let added = try engine.add(
                    [track], at: after.map { $0 + 1 }, startsWhenEmpty: false, now: now, position: position)
                output.append(added.output)
                entry = added.entries[0]
            }
            output.append(try engine.jump(entry: entry, now: now, position: position))
            output.append(try engine.seek(to: bookmark.position, now: now, position: 0))
            return output
        }
    }

    /// The resume points of tracks the library still has (a rescan keeps a track's id
    /// while its file stays); the others are forgotten.
    static func storedResumePoints(store: StateStore, index: LibraryIndex) throws -> [TrackID: Double] {
        let stored = try store.resumePoints()
        guard !stored.isEmpty else { return [:] }
        let present = Set(try index.tracks(ids: Array(stored.keys)).map(\.id))
        try store.forgetTracks(stored.keys.filter { !present.contains($0) })
        return stored.filter { present.contains($0.key) }
    }

    static func wire(_ bookmark: StoredBookmark, track: QPlayModel.Track) -> Bookmark {
        let created = Date(timeIntervalSince1970: bookmark.created)
            .formatted(Date.ISO8601FormatStyle(timeZone: TimeZone.current))
        return Bookmark(
            bookmark: bookmark.id, track: QPlayProtocol.Track(track), position: bookmark.position, name: bookmark.name,
            created: created)
    }
}
