import Foundation
import QPlayLibrary

/// Keeps play counts, ratings, stickers, bookmarks and resume points on their files when
/// the library index is built again from nothing (docs/BEHAVIOUR.md, Play counts and
/// ratings): the state database keys them by track id and keeps each id's path
/// (`StateStore+TrackPaths`); a new index is noticed by its identity at start-up, the old
/// ids are detached, and each file's data takes its new id once a scan has indexed it.
struct ListeningKeys: Sendable {
    let store: StateStore
    let index: LibraryIndex

    /// At start-up, before anything reads the data: binds the store to this index. Rows
    /// written before paths were kept get theirs now (their ids are this index's).
    func bind() throws {
        let identity = try index.identity()
        switch try store.libraryIdentity() {
        case identity?:
            try recordMissingPaths()
        case nil:
            try recordMissingPaths()
            try store.bind(toLibrary: identity)
        case _?:
            try store.detachAll(bindingTo: identity)
        }
        _ = try attach()
    }

    private func recordMissingPaths() throws {
        let missing = try store.tracksWithoutPath()
        guard !missing.isEmpty else { return }
        try store.recordPaths(try index.pathBytes(ids: missing))
    }

    /// Gives detached data the id its file has in the index now; true when some moved.
    func attach() throws -> Bool {
        let detached = try store.detachedPaths()
        guard !detached.isEmpty else { return false }
        let ids = try index.trackIDs(pathBytes: Array(Set(detached.values)))
        var moves: [Int64: Int64] = [:]
        for (key, path) in detached {
            if let id = ids[path] { moves[key] = id }
        }
        guard !moves.isEmpty else { return false }
        try store.attach(moves)
        return true
    }
}
