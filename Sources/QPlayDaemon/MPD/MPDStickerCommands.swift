import Foundation
import QPlayLibrary
import QPlayMPD
import QPlayModel
import QPlayProtocol

/// `sticker` on songs as MPD 0.23 answers it (src/command/StickerCommands.cxx): `get`,
/// `set`, `delete` (one name or all), `list`, and `find` under a folder with an optional
/// `=`, `<` or `>` on the value, compared as text (byte order) as MPD 0.23's SQL does.
/// Stickers are kept in the state database by track id (`StateStore+Stickers`).
///
/// Three names stand for qplay's own figures instead (`FigureSticker`): `rating` (stars
/// × 2, as Cantata and myMPD write it), `playCount` and `lastPlayed` (read only).
enum MPDStickerCommands {
    static let all: [MPDCommand] = [
        MPDCommand("sticker", arguments: 3...Int.max) { call in try await sticker(&call) }
    ]

    private static let noSuchSticker = MPDError(.noExist, "no such sticker")

    private static func sticker(_ call: inout MPDCall) async throws {
        guard let store = call.context.player.store else {
            throw MPDError(.unknown, "sticker database is disabled")
        }
        guard call[1] == "song" else { throw MPDError(.argument, "unknown sticker domain") }
        let stickers = Stickers(store: store, context: call.context)
        switch (call[0], call.arguments.count) {
        case ("get", 4):
            let track = try song(call[2], call.context)
            guard let value = try stickers.value(of: track, call[3]), !value.isEmpty else { throw noSuchSticker }
            call.response.field("sticker", "\(call[3])=\(value)")
        case ("list", 3):
            let track = try song(call[2], call.context)
            for (name, value) in try stickers.all(of: track) {
                call.response.field("sticker", "\(name)=\(value)")
            }
        case ("set", 5):
            let track = try song(call[2], call.context)
            try await stickers.set(call[3], of: track, to: call[4])
            // As MPD: every set is a change, even to the value it had.
            call.context.activity.changed(.sticker)
        case ("delete", 3), ("delete", 4):
            let track = try song(call[2], call.context)
            guard try await stickers.delete(call.argument(3), of: track) else { throw noSuchSticker }
            call.context.activity.changed(.sticker)
        case ("find", 4), ("find", 6):
            let matches = try comparison(call)
            let found = try stickers.find(call[3], under: call[2], matching: matches)
            for (track, value) in found {
                call.response.field("file", track.path.string)
                call.response.field("sticker", "\(call[3])=\(value)")
                try await call.sendPart()
            }
        default:
            throw MPDError(.argument, "bad request")
        }
    }

    /// `find`'s test of a value: any value, or `=`, `<`, `>` compared byte by byte.
    private static func comparison(_ call: MPDCall) throws(MPDError) -> @Sendable (String) -> Bool {
        guard call.arguments.count == 6 else { return { _ in true } }
        let operand = call[5]
        switch call[4] {
        case "=": return { $0.utf8.elementsEqual(operand.utf8) }
        case "<": return { $0.utf8.lexicographicallyPrecedes(operand.utf8) }
        case ">": return { operand.utf8.lexicographicallyPrecedes($0.utf8) }
        default: throw MPDError(.argument, "bad operator")
        }
    }

    /// The library's song at exactly `uri`; a folder, or a path not in the library, is
    /// "No such song" as MPD's database answers it.
    private static func song(_ uri: String, _ context: MPDCommandContext) throws -> QPlayModel.Track {
        guard let track = try context.index.tracks(displayedPath: uri).first(where: { $0.path.string == uri }) else {
            throw MPDError(.noExist, "No such song")
        }
        return track
    }
}

/// qplay's listening figures under the sticker names MPD clients use for them. A figure
/// with no value (unrated, never played) is no sticker.
enum FigureSticker: String, CaseIterable {
    case rating, playCount, lastPlayed

    func value(_ figures: TrackFigures) -> String? {
        switch self {
        case .rating: figures.rating > 0 ? String(figures.rating * 2) : nil
        case .playCount: figures.plays > 0 ? String(figures.plays) : nil
        case .lastPlayed: figures.lastPlayed.map { String(Int($0)) }
        }
    }

    /// Why a client cannot set or delete it; nil for `rating`.
    var readOnly: MPDError? {
        switch self {
        case .rating: nil
        case .playCount: MPDError(.argument, "playCount is read-only: qplay counts plays itself")
        case .lastPlayed: MPDError(.argument, "lastPlayed is read-only: qplay records when a track is played")
        }
    }
}

/// The stickers of the library's songs: the stored ones, and qplay's figures under
/// their `FigureSticker` names. Ratings are written through the daemon's `PlayStatistics`
/// (the context's), as the JSON `rate` writes them, so every frontend reads the new rating.
private struct Stickers {
    let store: StateStore
    let context: MPDCommandContext

    private func figures(_ track: QPlayModel.Track) -> TrackFigures {
        ListeningFigures.shared.figures(of: track.id)
    }

    func value(of track: QPlayModel.Track, _ name: String) throws -> String? {
        if let figure = FigureSticker(rawValue: name) { return figure.value(figures(track)) }
        return try stored { try store.sticker(track: track.id, name: name) }
    }

    /// Every sticker of `track`, by name in byte order (as MPD lists them).
    func all(of track: QPlayModel.Track) throws -> [(String, String)] {
        var values = try stored { try store.stickers(track: track.id) }
        for figure in FigureSticker.allCases {
            if let value = figure.value(figures(track)) { values[figure.rawValue] = value }
        }
        return values.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }.map { ($0.key, $0.value) }
    }

    func set(_ name: String, of track: QPlayModel.Track, to value: String) async throws {
        guard let figure = FigureSticker(rawValue: name) else {
            return try stored { try store.setSticker(track: track.id, name: name, value: value) }
        }
        if let refusal = figure.readOnly { throw refusal }
        // 0–10 as clients write it; an odd number is rounded up to the next whole star.
        let stars = (try MPDArgument.unsigned(value, max: 10) + 1) / 2
        try await rate(track, stars: stars)
    }

    /// Deletes `name`, or every sticker when nil (the read-only figures stay); false
    /// when there was nothing to delete.
    func delete(_ name: String?, of track: QPlayModel.Track) async throws -> Bool {
        let rated = figures(track).rating > 0
        guard let name else {
            let deleted = try stored { try store.deleteStickers(track: track.id, name: nil) }
            if rated { try await rate(track, stars: 0) }
            return deleted || rated
        }
        guard let figure = FigureSticker(rawValue: name) else {
            return try stored { try store.deleteStickers(track: track.id, name: name) }
        }
        if let refusal = figure.readOnly { throw refusal }
        if rated { try await rate(track, stars: 0) }
        return rated
    }

    /// The songs under the folder `base` ("" for all) with a sticker `name` whose value
    /// passes `matches`, by URI in byte order. As MPD 0.23, `base` is a prefix of the
    /// URI followed by "/", and stickers of songs no longer in the library are left out.
    func find(
        _ name: String, under base: String, matching matches: (String) -> Bool
    ) throws -> [(QPlayModel.Track, String)] {
        var values: [TrackID: String]
        if let figure = FigureSticker(rawValue: name) {
            values = [:]
            for (id, figures) in try stored({ try store.trackFigures() }) {
                if let value = figure.value(figures) { values[id] = value }
            }
        } else {
            values = try stored { try store.stickers(named: name) }
        }
        values = values.filter { matches($0.value) }
        guard !values.isEmpty else { return [] }
        let prefix = base.isEmpty ? "" : base + "/"
        let tracks = try context.index.tracks(ids: Array(values.keys))
        return
            tracks
            .filter { $0.path.string.utf8.starts(with: prefix.utf8) }
            .sorted { $0.path.string.utf8.lexicographicallyPrecedes($1.path.string.utf8) }
            .compactMap { track in values[track.id].map { (track, $0) } }
    }

    private func rate(_ track: QPlayModel.Track, stars: Int) async throws {
        do {
            try await context.statistics.rate(track: track.id, stars: stars, player: context.player)
        } catch let error as ProtocolError {
            throw MPDError(.system, error.message)
        }
    }

    /// A state database read or write, its failure in words an MPD client can show.
    private func stored<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch where DatabaseFiles.isStorageFailure(error) {
            throw MPDError(.system, "cannot use the state database \(store.path): \(DatabaseFiles.reason(error))")
        }
    }
}
