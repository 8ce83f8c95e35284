import QPlayEngine
import QPlayMPD
import QPlayModel

/// The queue as MPD's "current playlist": positions are indices of the collection the
/// user sees, song ids are entry ids. Edits follow qplay's rule (docs/BEHAVIOUR.md, Queue rules): the modified
/// collection is installed at the next track change. `add` never starts playback.
enum MPDQueueCommands {
    static let all: [MPDCommand] = [
        MPDCommand("add", arguments: 1...2) { call in
            _ = try await add(&call, single: false)
        },
        MPDCommand("addid", arguments: 1...2) { call in
            let ids = try await add(&call, single: true)
            if let id = ids.first { call.response.field("Id", Int(id)) }
        },
        MPDCommand("delete", arguments: 0...1) { call in
            let range = try call.argument(0).map { text throws(MPDError) in try MPDRange.parse(text) } ?? .all
            try await call.context.player.perform { engine, now, at throws(EngineError) in
                let count = engine.queue.entries.count
                let positions = try checked(range, count: count)
                var output = EngineOutput()
                // From the back, so the positions still to remove stay where they were.
                for position in positions.reversed() {
                    output.append(try engine.remove(index: position, now: now, position: at))
                }
                return output
            }
        },
        MPDCommand("deleteid", arguments: 1...1) { call in
            let id = EntryID(try MPDArgument.unsigned(call[0]))
            try await call.context.player.perform { engine, now, at throws(EngineError) in
                guard engine.queue.entries.contains(where: { $0.id == id }) else { throw MPDPlaybackCommands.noSuchSong }
                return try engine.remove(entry: id, now: now, position: at)
            }
        },
        MPDCommand("move", arguments: 2...2) { call in
            let range = try MPDRange.parse(call[0])
            let target = try MPDArgument.position(call[1])
            try await call.context.player.perform { engine, now, at throws(EngineError) in
                let queue = engine.queue
                let block = try checked(range, count: queue.entries.count)
                let to = try resolve(target, in: queue, status: engine.status(position: at))
                guard to >= 0, to + block.count <= queue.entries.count else { throw MPDPlaybackCommands.badSongIndex }
                return try move(block, to: to, in: &engine, now: now, at: at)
            }
        },
        MPDCommand("moveid", arguments: 2...2) { call in
            let id = EntryID(try MPDArgument.unsigned(call[0]))
            let target = try MPDArgument.position(call[1])
            try await call.context.player.perform { engine, now, at throws(EngineError) in
                let queue = engine.queue
                guard let from = queue.entries.firstIndex(where: { $0.id == id }) else { throw MPDPlaybackCommands.noSuchSong }
                let to = try resolve(target, in: queue, status: engine.status(position: at))
                guard to >= 0, to < queue.entries.count else { throw MPDPlaybackCommands.badSongIndex }
                return try engine.move(from: from, to: to, now: now, position: at)
            }
        },
        MPDCommand("clear") { call in
            // MPD's clear also stops (docs/MPD.md).
            try await call.context.player.perform { engine, now, at in
                var output = engine.clear(now: now, position: at)
                output.append(engine.stop(now: now, position: at))
                return output
            }
        },
        MPDCommand("playlist") { call in
            let queue = await call.context.player.queueSnapshot()
            for (position, entry) in queue.entries.enumerated() {
                call.response.field("\(position):file", entry.track.text(of: .path))
            }
        },
        MPDCommand("playlistinfo", arguments: 0...1) { call in
            guard let text = call.argument(0) else {
                let queue = await call.context.player.queueSnapshot()
                try await writeEntries(&call, queue, queue.entries.indices)
                return
            }
            // A page of a long queue: only its entries are taken and written, not the
            // whole listing that `writeEntries` keeps (built again after every edit).
            let range = try MPDRange.parse(text)
            let window = await call.context.player.queueSnapshot(
                from: range.start, count: range.end.map { $0 - range.start } ?? Int.max)
            try await writeWindow(&call, window, try checked(range, count: window.total))
        },
        MPDCommand("playlistid", arguments: 0...1) { call in
            let queue = await call.context.player.queueSnapshot()
            guard let text = call.argument(0) else {
                try await writeEntries(&call, queue, queue.entries.indices)
                return
            }
            let id = EntryID(try MPDArgument.unsigned(text))
            guard let position = queue.entries.firstIndex(where: { $0.id == id }) else {
                throw MPDError(.noExist, "No such song")
            }
            try await writeEntries(&call, queue, position..<(position + 1))
        },
        MPDCommand("plchanges", arguments: 1...2) { call in
            let (queue, positions) = try await changes(call)
            try await writeEntries(&call, queue, positions)
        },
        MPDCommand("plchangesposid", arguments: 1...2) { call in
            let (queue, positions) = try await changes(call)
            for position in positions {
                call.response.field("cpos", position)
                call.response.field("Id", Int(queue.entries[position].id))
            }
        },
    ]

    /// Entries written between two chances to send the answer in parts (~300 bytes each).
    private static let entriesPerPart = 1024

    /// The songs at `positions`, sent in parts as they are written: a 200,000-entry queue
    /// is a 60 MB answer.
    private static func writeEntries(_ call: inout MPDCall, _ queue: QueueSnapshot, _ positions: Range<Int>) async throws {
        let tags = MPDTagMask(call.settings.tags)
        for start in stride(from: positions.lowerBound, to: positions.upperBound, by: entriesPerPart) {
            let part = start..<min(start + entriesPerPart, positions.upperBound)
            call.context.queueListing.write(queue, part, tags: tags, into: &call.response)
            try await call.sendPart()
        }
    }

    /// The songs at `positions` of a window (`QueueSnapshot.start` on), written as they
    /// are asked: a window is small, and the whole listing is not built for it.
    private static func writeWindow(_ call: inout MPDCall, _ window: QueueSnapshot, _ positions: Range<Int>) async throws {
        let tags = MPDTagMask(call.settings.tags)
        var bytes: [UInt8] = []
        for start in stride(from: positions.lowerBound, to: positions.upperBound, by: entriesPerPart) {
            bytes.removeAll(keepingCapacity: true)
            for position in start..<min(start + entriesPerPart, positions.upperBound) {
                let entry = window.entries[position - window.start]
                MPDSongWriter.write(entry.track, position: position, id: entry.id, tags: tags, into: &bytes)
            }
            call.response.append(bytes)
            try await call.sendPart()
        }
    }

    /// `plchanges VERSION [RANGE]`: qplay does not keep the version each entry last
    /// changed in, so any other version than the current one answers the whole list (or
    /// range) — what a client that missed every change needs; the current version
    /// answers nothing.
    private static func changes(_ call: MPDCall) async throws -> (QueueSnapshot, Range<Int>) {
        let version = try MPDArgument.unsigned(call[0])
        let range = try call.argument(1).map { text throws(MPDError) in try MPDRange.parse(text) } ?? .all
        let queue = await call.context.player.queueSnapshot()
        guard UInt64(version) != queue.version else { return (queue, 0..<0) }
        return (queue, range.clamped(to: queue.entries.count))
    }

    /// The positions `range` names in a list of `count`, or MPD's "Bad song index".
    static func checked(_ range: MPDRange, count: Int) throws(EngineError) -> Range<Int> {
        guard range.start <= count, range.end.map({ $0 >= range.start }) ?? true else {
            throw MPDPlaybackCommands.badSongIndex
        }
        // A single position ("N") must name an entry; an open or wider range is clipped.
        if range.end == range.start + 1, range.start >= count { throw MPDPlaybackCommands.badSongIndex }
        return range.clamped(to: count)
    }

    /// An MPD position (`N`, `+N` after the current song, `-N` before it) as a collection
    /// index; the relative forms need a current song in the list.
    static func resolve(_ position: MPDPosition, in queue: QueueSnapshot, status: EngineStatus) throws(EngineError) -> Int {
        switch position {
        case .absolute(let index):
            return index
        case .afterCurrent(let offset):
            guard let current = status.index else { throw EngineError.notFound("No current song") }
            return current + 1 + offset
        case .beforeCurrent(let offset):
            guard let current = status.index else { throw EngineError.notFound("No current song") }
            return current - offset
        }
    }

    /// Moves the entries at `block` so that the first of them stands at `to`, one entry
    /// at a time (the engine moves single entries).
    private static func move(
        _ block: Range<Int>, to: Int, in engine: inout PlayerEngine, now: Duration, at: Double
    ) throws(EngineError) -> EngineOutput {
        var output = EngineOutput()
        if to > block.lowerBound {
            for _ in block { output.append(try engine.move(from: block.lowerBound, to: to + block.count - 1, now: now, position: at)) }
        } else if to < block.lowerBound {
            for offset in 0..<block.count {
                output.append(try engine.move(from: block.lowerBound + offset, to: to + offset, now: now, position: at))
            }
        }
        return output
    }

    /// `add URI [POS]` / `addid URI [POS]`: a file or a whole directory of the library,
    /// appended or inserted at POS; never starts playback. Answers the new entry ids.
    private static func add(_ call: inout MPDCall, single: Bool) async throws -> [EntryID] {
        let uri = call[0]
        let position = try call.argument(1).map { text throws(MPDError) in try MPDArgument.position(text) }
        let tracks = try await MPDStreamURIs.tracks(uri) ?? MPDLibraryPaths.tracks(under: uri, in: call.context)
        guard !tracks.isEmpty else {
            throw MPDError(.noExist, single ? "No such song" : "No such directory")
        }
        if single, tracks.count > 1 || (!tracks[0].isStream && tracks[0].path.string != MPDLibraryPaths.normalized(uri)) {
            throw MPDError(.noExist, "No such song")
        }
        return try await call.context.player.perform { engine, now, at throws(EngineError) in
            var index: Int?
            if let position {
                let queue = engine.queue
                let resolved = try resolve(position, in: queue, status: engine.status(position: at))
                guard resolved >= 0, resolved <= queue.entries.count else { throw MPDPlaybackCommands.badSongIndex }
                index = resolved
            }
            let result = try engine.add(tracks, at: index, startsWhenEmpty: false, now: now, position: at)
            return (result.entries, result.output)
        }
    }
}
