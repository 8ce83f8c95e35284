import Foundation
import QPlayEngine
import QPlayLibrary
import QPlayModel
import QPlayProtocol
import QPlayStreams
import SystemPackage

#if canImport(Glibc)
import Glibc
#endif

/// OpenUri: a `file://` URI inside the music directory joins the queue after the playing
/// entry and plays. A file the index does not hold yet is indexed on the spot (its
/// folder is scanned, incrementally) — a file manager's "Open with qplay". An `http://`
/// or `https://` URI is a stream, as `add` with `urls` takes it (a playlist URL is
/// fetched and adds its streams) — a browser's or a radio directory's "Open with".
extension MPRISBusLoop {
    struct Failure: Error {
        var name: String
        var message: String

        static func invalid(_ message: String) -> Failure {
            Failure(name: "org.freedesktop.DBus.Error.InvalidArgs", message: message)
        }
    }

    /// The URI schemes `open` takes: MPRIS's `SupportedUriSchemes`.
    static let uriSchemes = ["file"] + StreamURL.schemes

    /// Nil when it plays; else the D-Bus error to answer.
    func open(_ uri: String) -> Failure? {
        if StreamURL.isStreamURI(uri) { return openStream(uri) }
        guard let absolute = FileURI.decode(uri) else {
            return .invalid("qplay opens file://, http:// and https:// URIs, not \(uri)")
        }
        // FilePath drops a trailing `/` or `/.`, which would make `track.mp3/` the file.
        let written = uri.removingPercentEncoding ?? uri
        guard !written.hasSuffix("/"), !written.hasSuffix("/.") else {
            return .invalid("\(uri) is not a file: a path that ends in / names a folder")
        }
        let root = library.musicDirectory.lexicallyNormalized()
        let path = absolute.lexicallyNormalized()
        guard path.starts(with: root), path.components.count > root.components.count else {
            return .invalid("\(path) is not inside the music directory \(root)")
        }
        let relative = FilePath(root: nil, path.components.dropFirst(root.components.count))
        let library = self.library
        let player = self.player
        let outcome = BlockingAwait.run { () async -> Failure? in
            do {
                var tracks = try library.index.tracks(paths: [relative]).compactMap { $0 }
                if tracks.isEmpty {
                    var info = stat()
                    guard path.withPlatformString({ stat($0, &info) }) == 0, info.st_mode & S_IFMT == S_IFREG else {
                        return Failure(name: "org.freedesktop.DBus.Error.FileNotFound", message: "no file at \(path)")
                    }
                    let folder = relative.removingLastComponent()
                    _ = try await library.startScan(subpath: folder.isEmpty ? nil : folder).value
                    tracks = try library.index.tracks(paths: [relative]).compactMap { $0 }
                    guard !tracks.isEmpty else { return .invalid("\(path) is not a file qplay plays") }
                }
                return await Self.play(tracks, on: player, naming: path.string)
            } catch {
                return Failure(name: "org.freedesktop.DBus.Error.Failed", message: "cannot open \(path): \(error)")
            }
        }
        if let outcome { log.notice("MPRIS OpenUri \(uri): \(outcome.message)") }
        return outcome
    }

    /// A stream URL (or a playlist URL's streams) joins the queue after the playing entry
    /// and plays; the stream is contacted when it plays, and one that cannot be reached
    /// is skipped with its reason then, as any entry.
    private func openStream(_ uri: String) -> Failure? {
        let player = self.player
        let outcome = BlockingAwait.run { () async -> Failure? in
            do throws(ProtocolError) {
                let tracks = try await StreamEntries.tracks(for: .urls([uri])) ?? []
                return await Self.play(tracks, on: player, naming: uri)
            } catch {
                return Failure(
                    name: error.code == .badRequest ? "org.freedesktop.DBus.Error.InvalidArgs" : "org.freedesktop.DBus.Error.Failed",
                    message: "cannot open \(uri): \(error.message)")
            }
        }
        if let outcome { log.notice("MPRIS OpenUri \(uri): \(outcome.message)") }
        return outcome
    }

    /// Adds `tracks` after the playing entry and jumps to the first (an empty queue
    /// simply starts with them). Nil when it plays; else the D-Bus error.
    private static func play(
        _ tracks: [QPlayModel.Track], on player: PlayerService, naming name: String
    ) async -> Failure? {
        do throws(EngineError) {
            try await player.perform { engine, now, at throws(EngineError) in
                let after = engine.status(position: at).index.map { $0 + 1 }
                let added = try engine.add(tracks, at: after, now: now, position: at)
                var output = added.output
                if !added.started, let first = added.entries.first {
                    output.append(try engine.jump(entry: first, now: now, position: at))
                }
                return output
            }
            return nil
        } catch {
            // A full queue, said as qplay's own protocol says it.
            let full = if case .queueFull = error { true } else { false }
            return Failure(
                name: full ? "org.freedesktop.DBus.Error.LimitsExceeded" : "org.freedesktop.DBus.Error.Failed",
                message: "cannot open \(name): \(ProtocolError(error).message)")
        }
    }
}
