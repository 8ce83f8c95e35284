import QPlayLibrary
import QPlayModel
import SystemPackage

/// MPD's URIs of the library: paths relative to the music directory, a directory
/// standing for every track under it.
enum MPDLibraryPaths {
    /// The URI without leading, trailing or doubled slashes; "" is the music directory.
    static func normalized(_ uri: String) -> String {
        uri.split(separator: "/", omittingEmptySubsequences: true).joined(separator: "/")
    }

    /// The track at `uri`, or every track under the directory `uri` in MPD's order (a
    /// folder's files, then its sub-folders', each by name). The index narrows the
    /// search with a folded contains on the path; the exact match is checked here.
    static func tracks(under uri: String, in context: MPDCommandContext) throws -> [Track] {
        MPDDirectoryTree(try unordered(under: uri, in: context)).tracksInOrder
    }

    static func unordered(under uri: String, in context: MPDCommandContext) throws -> [Track] {
        let path = normalized(uri)
        if path.split(separator: "/").contains("..") { return [] }
        let candidates: ItemCollection
        if path.isEmpty {
            candidates = try context.index.search(Query())
        } else {
            candidates = try context.index.search(Query([Predicate(.path, .contains, path)]))
        }
        context.memory.queryAnswered()
        let prefix = path + "/"
        return candidates.filter { track in
            let shown = track.text(of: .path)
            return path.isEmpty || shown == path || shown.hasPrefix(prefix)
        }
    }
}

/// The library's folders as MPD lists them (`lsinfo`, `listall`, `listallinfo`): built
/// from the tracks' paths, since qplay indexes files, not folders. In each folder its
/// files come first, then its sub-folders, each sorted by name.
struct MPDDirectoryTree {
    final class Node {
        var files: [Track] = []
        var folders: [String: Node] = [:]
        /// The newest file in the folder or below it: the folder's `Last-Modified`.
        var modified: Int64 = 0
    }

    let root = Node()

    init(_ tracks: some Sequence<Track>) {
        for track in tracks {
            let components = track.text(of: .path).split(separator: "/").map(String.init)
            var node = root
            node.modified = max(node.modified, track.modificationTime)
            for name in components.dropLast() {
                let next = node.folders[name] ?? Node()
                node.folders[name] = next
                node = next
                node.modified = max(node.modified, track.modificationTime)
            }
            node.files.append(track)
        }
    }

    /// The folder at `uri` ("" for the top), nil when the library has none there.
    func node(at uri: String) -> Node? {
        var node = root
        for name in MPDLibraryPaths.normalized(uri).split(separator: "/") {
            guard let next = node.folders[String(name)] else { return nil }
            node = next
        }
        return node
    }

    /// Every track, a folder's files before its sub-folders', each by name.
    var tracksInOrder: [Track] {
        var tracks: [Track] = []
        func walk(_ node: Node) {
            tracks += Self.sortedFiles(node)
            for (_, folder) in Self.sortedFolders(node) { walk(folder) }
        }
        walk(root)
        return tracks
    }

    static func sortedFiles(_ node: Node) -> [Track] {
        node.files.sorted { $0.text(of: .path).utf8.lexicographicallyPrecedes($1.text(of: .path).utf8) }
    }

    static func sortedFolders(_ node: Node) -> [(String, Node)] {
        node.folders.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
    }
}
