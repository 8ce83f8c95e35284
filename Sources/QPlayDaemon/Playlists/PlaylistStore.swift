import Foundation
import Synchronization
import SystemPackage

#if canImport(Glibc)
import Glibc
#endif

/// The folder of stored playlists (`playlist_directory`): `NAME.m3u` files, as MPD keeps
/// them, so one folder serves MPD and qplay; `NAME.m3u8` files are read too (MPD lists
/// only `.m3u`); smart playlists are `NAME.smart` (their query as JSON, which MPD
/// ignores), read-only to every edit but `smart_save`, rename and delete. Every call reads the folder anew, so files another program wrote are
/// seen at the next command. Edits are read-modify-write under one lock, and every file
/// is written whole to a temporary file that is then renamed over the old one: a reader
/// (MPD, a crash) never sees half a playlist.
final class PlaylistStore: Sendable {
    /// A playlist in the folder listing.
    struct Summary: Sendable, Equatable {
        var name: String
        var file: FilePath
        /// The file's modification time, seconds since 1970.
        var modified: Int64
        var smart: Bool { file.string.hasSuffix(PlaylistStore.smartSuffix) }
    }

    let folder: FilePath
    /// The music directory, for absolute paths in files written by other programs.
    let musicDirectory: FilePath
    private let lock = Mutex(0)
    /// Called after every change this store makes, on the changing thread (the
    /// `playlists` event): it must only hand the news on.
    private let listeners: Mutex<[@Sendable () -> Void]>

    init(folder: FilePath, musicDirectory: FilePath, changed: (@Sendable () -> Void)? = nil) {
        self.folder = folder
        self.musicDirectory = musicDirectory
        listeners = Mutex(changed.map { [$0] } ?? [])
    }

    private func changed() {
        known.withLock { $0 = Self.snapshot(of: folder) }
        for listener in listeners.withLock({ $0 }) { listener() }
    }

    /// Each playlist file's name, time, size and inode when this store last looked:
    /// what a change on disk is told apart from this store's own writes by.
    private let known = Mutex<[String: [Int]]?>(nil)

    /// The folder may have changed (the watcher saw something): when its files differ
    /// from what this store last saw, the listeners hear of it. Answers whether they did.
    @discardableResult
    func folderMayHaveChanged() -> Bool {
        let now = Self.snapshot(of: folder)
        let before = known.withLock { known in
            defer { known = now }
            return known
        }
        guard before != nil, before != now else { return false }
        for listener in listeners.withLock({ $0 }) { listener() }
        return true
    }

    private static func snapshot(of folder: FilePath) -> [String: [Int]] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.string)) ?? []
        var files: [String: [Int]] = [:]
        for name in names where suffixes.contains(where: { name.hasSuffix($0) }) {
            var info = stat()
            guard stat(folder.appending(name).string, &info) == 0 else { continue }
            files[name] = [
                Int(info.st_mtim.tv_sec), Int(info.st_mtim.tv_nsec), Int(info.st_size), Int(info.st_ino),
            ]
        }
        return files
    }

    /// Every suffix, in the order a name is looked up.
    static let suffixes = [".m3u", ".m3u8", smartSuffix]
    static let smartSuffix = ".smart"

    /// Every playlist, by name (`.m3u` before an `.m3u8` of the same name). A missing
    /// folder is an empty one.
    func list() throws(PlaylistError) -> [Summary] {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: folder.string)
        } catch {
            if !FileManager.default.fileExists(atPath: folder.string) { return [] }
            throw .storage("cannot read the playlist folder \(folder): \(error.localizedDescription)")
        }
        var found: [String: Summary] = [:]
        for suffix in Self.suffixes {
            for file in names where file.hasSuffix(suffix) {
                let name = String(file.dropLast(suffix.count))
                guard found[name] == nil, PlaylistName.isValid(name) else { continue }
                let path = folder.appending(file)
                guard let modified = Self.regularFileTime(path) else { continue }
                found[name] = Summary(name: name, file: path, modified: modified)
            }
        }
        return found.values.sorted { $0.name < $1.name }
    }

    /// The file of playlist `name`, if there is one.
    func file(of name: String) throws(PlaylistError) -> Summary? {
        let name = try PlaylistName.checked(name)
        for suffix in Self.suffixes {
            let path = folder.appending(name + suffix)
            if let modified = Self.regularFileTime(path) { return Summary(name: name, file: path, modified: modified) }
        }
        return nil
    }

    /// A playlist file's lines; `readOnly` for a smart playlist (see `contents`).
    func read(_ name: String) throws(PlaylistError) -> StoredPlaylist {
        guard let summary = try file(of: name) else { throw .notFound }
        return try read(summary)
    }

    private func read(_ summary: Summary) throws(PlaylistError) -> StoredPlaylist {
        guard !summary.smart else { throw .readOnly }
        return StoredPlaylist.parse(
            String(decoding: try bytes(of: summary.file), as: UTF8.self), musicDirectory: musicDirectory.string)
    }

    func bytes(of path: FilePath) throws(PlaylistError) -> Data {
        do {
            return try Data(contentsOf: URL(fileURLWithPath: path.string))
        } catch {
            throw .storage("cannot read \(path): \(error.localizedDescription)")
        }
    }

    /// Writes smart playlist `name` (its query as `text`), over a smart playlist of that
    /// name; `exists` when a playlist file has the name.
    func saveSmart(_ name: String, _ text: String) throws(PlaylistError) {
        try lock.withLock { _ throws(PlaylistError) in
            if let existing = try file(of: name), !existing.smart { throw PlaylistError.exists }
            try write(Array(text.utf8), to: folder.appending(name + Self.smartSuffix))
        }
        changed()
    }

    /// Writes a new playlist; `exists` when one of that name is there.
    func create(_ name: String, _ playlist: StoredPlaylist) throws(PlaylistError) {
        try lock.withLock { _ throws(PlaylistError) in
            guard try file(of: name) == nil else { throw PlaylistError.exists }
            try write(playlist, to: folder.appending(name + ".m3u"))
        }
        changed()
    }

    /// Replaces playlist `name` (its own file, `.m3u8` too), or writes it new.
    func replace(_ name: String, _ playlist: StoredPlaylist) throws(PlaylistError) {
        try lock.withLock { _ throws(PlaylistError) in
            let existing = try file(of: name)
            if existing?.smart == true { throw PlaylistError.readOnly }
            try write(playlist, to: existing?.file ?? folder.appending(name + ".m3u"))
        }
        changed()
    }

    /// Reads playlist `name`, lets `edit` change it, and writes the result back.
    /// `creating`: a missing playlist starts empty (MPD's `playlistadd`), else `notFound`.
    @discardableResult
    func edit<Result>(
        _ name: String, creating: Bool = false, _ edit: (inout StoredPlaylist) throws(PlaylistError) -> Result
    ) throws(PlaylistError) -> Result {
        let result = try lock.withLock { _ throws(PlaylistError) -> Result in
            let existing = try file(of: name)
            guard existing != nil || creating else { throw PlaylistError.notFound }
            var playlist = try existing.map { summary throws(PlaylistError) in try read(summary) } ?? StoredPlaylist()
            let result = try edit(&playlist)
            try write(playlist, to: existing?.file ?? folder.appending(name + ".m3u"))
            return result
        }
        changed()
        return result
    }

    func delete(_ name: String) throws(PlaylistError) {
        try lock.withLock { _ throws(PlaylistError) in
            guard let summary = try file(of: name) else { throw PlaylistError.notFound }
            guard unlink(summary.file.string) == 0 else {
                throw PlaylistError.storage("cannot remove \(summary.file): \(String(cString: strerror(errno)))")
            }
        }
        changed()
    }

    /// Renames playlist `name` to `newName` (the file keeps its suffix); `exists` when
    /// `newName` is taken.
    func rename(_ name: String, to newName: String) throws(PlaylistError) {
        try lock.withLock { _ throws(PlaylistError) in
            guard let summary = try file(of: name) else { throw PlaylistError.notFound }
            guard try file(of: newName) == nil else { throw PlaylistError.exists }
            let suffix = Self.suffixes.first { summary.file.string.hasSuffix($0) } ?? ".m3u"
            let target = folder.appending(newName + suffix)
            guard Glibc.rename(summary.file.string, target.string) == 0 else {
                throw PlaylistError.storage("cannot rename \(summary.file): \(String(cString: strerror(errno)))")
            }
        }
        changed()
    }

    // MARK: Files

    /// The whole text to a temporary file beside `path`, flushed, then renamed over it.
    private func write(_ playlist: StoredPlaylist, to path: FilePath) throws(PlaylistError) {
        try write(Array(playlist.rendered().utf8), to: path)
    }

    private func write(_ bytes: [UInt8], to path: FilePath) throws(PlaylistError) {
        do {
            try FileManager.default.createDirectory(atPath: folder.string, withIntermediateDirectories: true)
        } catch {
            throw .storage("cannot create the playlist folder \(folder): \(error.localizedDescription)")
        }
        let temporary = folder.appending(".\(path.lastComponent?.string ?? "playlist").\(getpid()).tmp")
        do {
            let descriptor = try FileDescriptor.open(
                temporary, .writeOnly, options: [.create, .truncate, .closeOnExec], permissions: [.ownerReadWrite, .groupRead, .otherRead])
            try descriptor.closeAfter {
                _ = try descriptor.writeAll(bytes)
                guard fsync(descriptor.rawValue) == 0 else { throw Errno(rawValue: errno) }
            }
            guard Glibc.rename(temporary.string, path.string) == 0 else { throw Errno(rawValue: errno) }
        } catch {
            unlink(temporary.string)
            throw .storage("cannot write \(path): \(error)")
        }
    }

    /// A regular file's modification time (seconds), nil when there is none.
    private static func regularFileTime(_ path: FilePath) -> Int64? {
        var info = stat()
        guard stat(path.string, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        return Int64(info.st_mtim.tv_sec)
    }
}
