import QPlayEngine
import QPlayMPD
import QPlayModel

/// Transport, seeking, volume and play modes. MPD's `previous` always goes back an
/// entry (no 3 s restart); `random` is shuffle; repeat and single map onto qplay's
/// repeat off/one/all and single (see `modes`).
enum MPDPlaybackCommands {
    static let all: [MPDCommand] = [
        MPDCommand("play", arguments: 0...1) { call in
            let position = try call.argument(0).map { text throws(MPDError) in try MPDArgument.integer(text) }
            try await call.context.player.perform { engine, now, at throws(EngineError) in
                guard let position, position >= 0 else { return engine.play(now: now, position: at) }
                guard position < engine.queue.entries.count else { throw badSongIndex }
                return try engine.jump(index: position, now: now, position: at)
            }
        },
        MPDCommand("playid", arguments: 0...1) { call in
            let id = try call.argument(0).map { text throws(MPDError) in try MPDArgument.integer(text) }
            try await call.context.player.perform { engine, now, at throws(EngineError) in
                guard let id, id >= 0 else { return engine.play(now: now, position: at) }
                guard engine.queue.entries.contains(where: { $0.id == EntryID(id) }) else { throw noSuchSong }
                return try engine.jump(entry: EntryID(id), now: now, position: at)
            }
        },
        MPDCommand("pause", arguments: 0...1) { call in
            let pause = try call.argument(0).map { text throws(MPDError) in try MPDArgument.boolean(text) }
            try await call.context.player.perform { engine, now, at in
                switch pause {
                case nil: engine.toggle(now: now, position: at)
                case true?: engine.pause(now: now, position: at)
                case false?: engine.play(now: now, position: at)
                }
            }
        },
        MPDCommand("stop") { call in
            try await call.context.player.perform { engine, now, at in engine.stop(now: now, position: at) }
        },
        MPDCommand("next") { call in
            try await call.context.player.perform { engine, now, at in engine.next(now: now, position: at) }
        },
        MPDCommand("previous") { call in
            try await call.context.player.perform { engine, now, at in
                engine.previous(now: now, position: at, restarting: false)
            }
        },
        MPDCommand("seek", arguments: 2...2) { call in
            let position = try MPDArgument.unsigned(call[0])
            let seconds = try MPDArgument.songTime(call[1])
            try await call.context.player.perform { engine, now, at throws(EngineError) in
                let entries = engine.queue.entries
                guard position < entries.count else { throw badSongIndex }
                return try seek(entries[position].id, to: seconds, in: &engine, now: now, at: at)
            }
        },
        MPDCommand("seekid", arguments: 2...2) { call in
            let id = EntryID(try MPDArgument.unsigned(call[0]))
            let seconds = try MPDArgument.songTime(call[1])
            try await call.context.player.perform { engine, now, at throws(EngineError) in
                guard engine.queue.entries.contains(where: { $0.id == id }) else { throw noSuchSong }
                return try seek(id, to: seconds, in: &engine, now: now, at: at)
            }
        },
        MPDCommand("seekcur", arguments: 1...1) { call in
            let target = try MPDArgument.time(call[0])
            try await call.context.player.perform { engine, now, at throws(EngineError) in
                guard engine.status(position: at).entry != nil else { throw EngineError.notFound("Not playing") }
                switch target {
                case .absolute(let seconds): return try engine.seek(to: seconds, now: now, position: at)
                case .relative(let seconds): return try engine.seek(by: seconds, now: now, position: at)
                }
            }
        },
        MPDCommand("setvol", arguments: 1...1) { call in
            let level = try MPDArgument.integer(call[0], in: 0...100)
            try await call.context.player.perform { engine, now, at in engine.setVolume(level, now: now, position: at) }
        },
        MPDCommand("volume", arguments: 1...1) { call in
            let delta = try MPDArgument.integer(call[0], in: -100...100)
            try await call.context.player.perform { engine, now, at in
                engine.changeVolume(by: delta, now: now, position: at)
            }
        },
        MPDCommand("getvol") { call in
            call.response.field("volume", await call.context.player.snapshot().status.volume)
        },
        MPDCommand("repeat", arguments: 1...1) { call in
            let on = try MPDArgument.boolean(call[0])
            try await setModes(call.context, repeat: on, single: nil)
        },
        MPDCommand("single", arguments: 1...1) { call in
            guard call[0] != "oneshot" else {
                throw MPDError(.argument, "single oneshot is not supported by qplay; use single 1")
            }
            let on = try MPDArgument.boolean(call[0])
            try await setModes(call.context, repeat: nil, single: on)
        },
        MPDCommand("random", arguments: 1...1) { call in
            let on = try MPDArgument.boolean(call[0])
            try await call.context.player.perform { engine, now, at in engine.setShuffle(on, now: now, position: at) }
        },
        MPDCommand("consume", arguments: 1...1) { call in
            guard call[0] != "oneshot" else {
                throw MPDError(.argument, "consume oneshot is not supported by qplay; use consume 1")
            }
            let on = try MPDArgument.boolean(call[0])
            try await call.context.player.perform { engine, now, at in engine.setConsume(on, now: now, position: at) }
        },
        MPDCommand("crossfade", arguments: 1...1) { call in
            let seconds = try MPDArgument.unsigned(call[0])
            // qplay plays gaplessly and mixes no two tracks: only "no crossfade" holds.
            guard seconds == 0 else { throw MPDError(.argument, "qplay plays gaplessly and has no crossfade; only 0 is accepted") }
        },
        MPDCommand("mixrampdb", arguments: 1...1) { call in
            _ = try MPDArgument.number(call[0])
        },
        MPDCommand("mixrampdelay", arguments: 1...1) { call in
            _ = try MPDArgument.number(call[0])
        },
    ]

    // Engine errors, as they are thrown inside engine commands; `MPDErrors` gives them
    // MPD's codes (`badRequest` → 2, `notFound` → 50) with MPD's messages.
    static let badSongIndex = EngineError.badRequest("Bad song index")
    static let noSuchSong = EngineError.notFound("No such song")

    /// Seeks within entry `id`, first playing it when it is not the current one (MPD's
    /// seek starts the song it names).
    private static func seek(
        _ id: EntryID, to seconds: Double, in engine: inout PlayerEngine, now: Duration, at: Double
    ) throws(EngineError) -> EngineOutput {
        var output = EngineOutput()
        var position = at
        if engine.status(position: at).entry?.id != id || engine.status(position: at).state == .stopped {
            output.merge(try engine.jump(entry: id, now: now, position: at))
            position = 0
        }
        output.merge(try engine.seek(to: seconds, now: now, position: position))
        return output
    }

    /// MPD's (repeat, single) pairs as qplay's modes: (0,0) repeat off; (0,1) single;
    /// (1,0) repeat all; (1,1) repeat one. Single stays set under repeat one, so turning
    /// repeat off leaves MPD's single on, as in MPD.
    private static func setModes(_ context: MPDCommandContext, repeat newRepeat: Bool?, single newSingle: Bool?) async throws {
        try await context.player.perform { engine, now, at in
            let status = engine.status(position: at)
            let repeatOn = newRepeat ?? (status.repeatMode != .off)
            let singleOn = newSingle ?? (status.repeatMode == .one || status.single)
            let mode: RepeatMode = repeatOn ? (singleOn ? .one : .all) : .off
            var output = engine.setRepeat(mode, now: now, position: at)
            output.merge(engine.setSingle(singleOn, now: now, position: at))
            return output
        }
    }
}

extension EngineOutput {
    /// Another command's output after this one's; an event told once.
    mutating func merge(_ other: EngineOutput) {
        audio += other.audio
        events += other.events.filter { !events.contains($0) }
    }
}
