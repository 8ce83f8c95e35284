import QPlayEngine
import QPlayLibrary
import QPlayMPD
import QPlayModel
import SystemPackage

/// The library: `find`/`search` (and their `add` forms), `list`, `count`, `lsinfo`,
/// `listall`, `listallinfo`, `update`, `rescan`.
enum MPDDatabaseCommands {
    static let all: [MPDCommand] = [
        MPDCommand("find", arguments: 1...Int.max) { call in try await find(&call, folded: false) },
        MPDCommand("search", arguments: 1...Int.max) { call in try await find(&call, folded: true) },
        MPDCommand("findadd", arguments: 1...Int.max) { call in try await findAdd(&call, folded: false) },
        MPDCommand("searchadd", arguments: 1...Int.max) { call in try await findAdd(&call, folded: true) },
        MPDCommand("count", arguments: 1...Int.max) { call in try await count(&call) },
        MPDCommand("list", arguments: 1...Int.max) { call in try await list(&call) },
        MPDCommand("lsinfo", arguments: 0...1) { call in try lsinfo(&call) },
        MPDCommand("listall", arguments: 0...1) { call in try listAll(&call, info: false) },
        MPDCommand("listallinfo", arguments: 0...1) { call in try listAll(&call, info: true) },
        MPDCommand("update", arguments: 0...1) { call in try await update(&call) },
        // qplay's scan reads every file whose size or time changed; a forced re-read of
        // unchanged files is not offered, so `rescan` is `update`.
        MPDCommand("rescan", arguments: 0...1) { call in try await update(&call) },
    ]

    /// The tracks an MPD filter selects, in the index's order. Off the connection's event
    /// loop: a search of a large library, or a costly regular expression, must not keep
    /// the loop's other clients from being greeted and answered.
    static func tracks(matching filter: MPDTrackFilter, in context: MPDCommandContext) async throws -> [Track] {
        try await withTaskExecutorPreference(globalConcurrentExecutor) {
            let (query, exact) = filter.narrowing
            let candidates = try context.index.search(query)
            context.memory.queryAnswered()
            return exact ? candidates.tracks : try filter.selected(from: candidates.tracks)
        }
    }

    private static func searchArguments(_ call: MPDCall, from start: Int, folded: Bool) throws -> (MPDSearchArguments, MPDTrackFilter) {
        let arguments = try MPDSearchArguments.parse(call.arguments[start...], oldStyle: folded ? .contains : .equals)
        return (arguments, try MPDTrackFilter(arguments.filter, folded: folded))
    }

    private static func find(_ call: inout MPDCall, folded: Bool) async throws {
        let (arguments, filter) = try searchArguments(call, from: 0, folded: folded)
        var found = try await tracks(matching: filter, in: call.context)
        if let sort = arguments.sort { found = try sorted(found, by: sort) }
        let window = arguments.window.map { $0.clamped(to: found.count) } ?? found.indices
        let mask = MPDTagMask(call.settings.tags)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(512)
        for track in found[window] {
            bytes.removeAll(keepingCapacity: true)
            MPDSongWriter.write(track, position: nil, id: nil, tags: mask, into: &bytes)
            call.response.append(bytes)
        }
    }

    private static func findAdd(_ call: inout MPDCall, folded: Bool) async throws {
        let (arguments, filter) = try searchArguments(call, from: 0, folded: folded)
        var found = try await tracks(matching: filter, in: call.context)
        if let sort = arguments.sort { found = try sorted(found, by: sort) }
        let window = arguments.window.map { $0.clamped(to: found.count) } ?? found.indices
        let selected = Array(found[window])
        // MPD adds nothing and answers OK when nothing matches.
        guard !selected.isEmpty else { return }
        try await call.context.player.perform { engine, now, at throws(EngineError) in
            let result = try engine.add(selected, startsWhenEmpty: false, now: now, position: at)
            return result.output
        }
    }

    private static func sorted(_ tracks: [Track], by key: String) throws -> [Track] {
        let descending = key.hasPrefix("-")
        guard let tag = MPDTag.named(descending ? String(key.dropFirst()) : key) else {
            throw MPDError(.argument, "Unknown sort tag")
        }
        let keyed = tracks.map { (MPDSongWriter.value(of: tag, in: $0) ?? "", $0) }
        let ordered = keyed.sorted { lhs, rhs in
            descending ? rhs.0.utf8.lexicographicallyPrecedes(lhs.0.utf8) : lhs.0.utf8.lexicographicallyPrecedes(rhs.0.utf8)
        }
        return ordered.map(\.1)
    }

    /// `group TAG` pairs at the end of `list`/`count`, split off what comes before.
    private static func splitGroups(_ arguments: ArraySlice<String>) throws -> (ArraySlice<String>, [MPDTag]) {
        var rest = arguments
        var groups: [MPDTag] = []
        while rest.count >= 2, rest[rest.endIndex - 2] == "group" {
            let name = rest[rest.endIndex - 1]
            guard let tag = MPDTag.named(name) else { throw MPDError(.argument, "Unknown tag type: \(name)") }
            groups.insert(tag, at: 0)
            rest = rest.dropLast(2)
        }
        return (rest, groups)
    }

    private static func filter(_ arguments: ArraySlice<String>, folded: Bool) throws -> MPDTrackFilter {
        guard !arguments.isEmpty else { return try MPDTrackFilter(nil, folded: folded) }
        return try MPDTrackFilter(MPDSearchArguments.parse(arguments, oldStyle: .equals).filter, folded: folded)
    }

    /// A tag's value for grouping and `list`: AlbumArtist falls back on Artist, as in MPD.
    private static func listValue(_ tag: MPDTag, _ track: Track) -> String {
        if tag == .albumArtist { return MPDSongWriter.value(of: .albumArtist, in: track) ?? MPDSongWriter.value(of: .artist, in: track) ?? "" }
        return MPDSongWriter.value(of: tag, in: track) ?? ""
    }

    private static func count(_ call: inout MPDCall) async throws {
        let (rest, groups) = try splitGroups(call.arguments[...])
        let found = try await tracks(matching: try filter(rest, folded: false), in: call.context)
        guard let group = groups.first else {
            call.response.field("songs", found.count)
            call.response.field("playtime", Int(found.reduce(0) { $0 + $1.duration }))
            return
        }
        var totals: [String: (songs: Int, seconds: Double)] = [:]
        for track in found {
            totals[listValue(group, track), default: (0, 0)].songs += 1
            totals[listValue(group, track), default: (0, 0)].seconds += track.duration
        }
        for (value, total) in totals.sorted(by: { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }) {
            call.response.field(group.rawValue, value)
            call.response.field("songs", total.songs)
            call.response.field("playtime", Int(total.seconds))
        }
    }

    /// `list TAG [FILTER] [group TAG]...`: the distinct values, sorted, under their groups.
    /// `list file` lists the files; `list album ARTIST` is MPD's old form.
    private static func list(_ call: inout MPDCall) async throws {
        let name = call[0]
        let listsFiles = name.lowercased() == "file"
        guard listsFiles || MPDTag.named(name) != nil || MPDKnownTags.contains(name) else {
            throw MPDError(.argument, "Unknown tag type: \(name)")
        }
        let tag = MPDTag.named(name)
        var (rest, groups) = try splitGroups(call.arguments.dropFirst())
        let trackFilter: MPDTrackFilter
        if rest.count == 1, tag == .album, !(rest.first?.hasPrefix("(") ?? false) {
            trackFilter = try MPDTrackFilter(.compare(.tag(.artist), .equals, rest[rest.startIndex]), folded: false)
            rest = []
        } else {
            trackFilter = try filter(rest, folded: false)
        }
        let found = try await tracks(matching: trackFilter, in: call.context)
        if listsFiles {
            for track in found { call.response.field("file", track.text(of: .path)) }
            return
        }
        // A tag qplay has no data for has only the empty value.
        let value: (Track) -> String = { track in tag.map { listValue($0, track) } ?? "" }
        let columns = groups + [tag].compactMap { $0 }
        if groups.isEmpty {
            // The common case (a tag's values): no row arrays.
            let values = Set(found.lazy.map(value))
            for text in values.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
                call.response.field(columns.first?.rawValue ?? name, text)
            }
            return
        }
        var rows = Set<[String]>()
        for track in found {
            rows.insert(groups.map { listValue($0, track) } + [value(track)])
        }
        let sortedRows = rows.sorted { lhs, rhs in
            for (left, right) in zip(lhs, rhs) where left != right {
                return left.utf8.lexicographicallyPrecedes(right.utf8)
            }
            return false
        }
        var previous: [String] = []
        for row in sortedRows {
            for (column, text) in row.enumerated() {
                // A group's value is shown once, above the values under it.
                let isGroup = column < groups.count
                if isGroup, column < previous.count, previous[...column] == row[...column] { continue }
                call.response.field(column < columns.count ? columns[column].rawValue : name, text)
            }
            previous = row
        }
    }

    private static func lsinfo(_ call: inout MPDCall) throws {
        let uri = call.argument(0) ?? ""
        let tree = MPDDirectoryTree(try MPDLibraryPaths.unordered(under: "", in: call.context))
        guard let node = tree.node(at: uri) else {
            // A file: MPD shows the song.
            let path = MPDLibraryPaths.normalized(uri)
            if let track = try MPDLibraryPaths.tracks(under: path, in: call.context).first(where: { $0.text(of: .path) == path }) {
                MPDSongWriter.write(track, tags: call.settings.tags, into: &call.response)
                return
            }
            throw MPDError(.noExist, "No such directory")
        }
        let prefix = MPDLibraryPaths.normalized(uri)
        for track in MPDDirectoryTree.sortedFiles(node) {
            MPDSongWriter.write(track, tags: call.settings.tags, into: &call.response)
        }
        for (name, folder) in MPDDirectoryTree.sortedFolders(node) {
            call.response.field("directory", prefix.isEmpty ? name : prefix + "/" + name)
            call.response.field("Last-Modified", MPDSongWriter.isoDate(nanoseconds: folder.modified))
        }
        // As MPD, the root also lists the stored playlists.
        if prefix.isEmpty { try MPDPlaylistCommands.writeList(&call) }
    }

    private static func listAll(_ call: inout MPDCall, info: Bool) throws {
        let uri = MPDLibraryPaths.normalized(call.argument(0) ?? "")
        let tree = MPDDirectoryTree(try MPDLibraryPaths.unordered(under: uri, in: call.context))
        guard let node = tree.node(at: uri) else {
            throw MPDError(.noExist, "No such directory")
        }
        let tags = MPDTagMask(call.settings.tags)
        var scratch: [UInt8] = []
        scratch.reserveCapacity(512)
        func walk(_ node: MPDDirectoryTree.Node, _ prefix: String, _ response: inout MPDResponse) {
            for track in MPDDirectoryTree.sortedFiles(node) {
                if info {
                    scratch.removeAll(keepingCapacity: true)
                    MPDSongWriter.write(track, position: nil, id: nil, tags: tags, into: &scratch)
                    response.append(scratch)
                } else {
                    response.field("file", track.text(of: .path))
                }
            }
            for (name, folder) in MPDDirectoryTree.sortedFolders(node) {
                let path = prefix.isEmpty ? name : prefix + "/" + name
                response.field("directory", path)
                if info { response.field("Last-Modified", MPDSongWriter.isoDate(nanoseconds: folder.modified)) }
                walk(folder, path, &response)
            }
        }
        // MPD names the folder asked for first (not the root, which has no name).
        if !uri.isEmpty {
            call.response.field("directory", uri)
            if info { call.response.field("Last-Modified", MPDSongWriter.isoDate(nanoseconds: node.modified)) }
        }
        walk(node, uri, &call.response)
    }

    private static func update(_ call: inout MPDCall) async throws {
        let library = call.context.library
        var subpath: FilePath?
        if let uri = call.argument(0) {
            let path = MPDLibraryPaths.normalized(uri)
            guard !path.split(separator: "/").contains("..") else { throw MPDError(.argument, "Malformed path") }
            if !path.isEmpty {
                subpath = FilePath(path)
                try library.checkScanTarget(FilePath(path))
            }
        }
        // The job is numbered before the scan can send its first event.
        let job = call.context.activity.updateQueued()
        _ = await library.startScan(subpath: subpath)
        call.response.field("updating_db", job)
    }
}
