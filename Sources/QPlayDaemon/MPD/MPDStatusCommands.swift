import QPlayEngine
import QPlayMPD
import QPlayModel

/// `status`, `currentsong`, `stats`, `outputs`, `replay_gain_status`: MPD's fields from
/// qplay's player snapshot and library statistics.
enum MPDStatusCommands {
    static let all: [MPDCommand] = [
        MPDCommand("status") { call in
            let (snapshot, nextPosition) = await call.context.player.snapshotWithNextPosition()
            writeStatus(
                snapshot, nextPosition: nextPosition, updatingJob: call.context.activity.runningJob,
                into: &call.response)
        },
        MPDCommand("currentsong") { call in
            let status = await call.context.player.snapshot().status
            // The playing track even when its entry is no longer in the list (docs/MPD.md):
            // without a Pos then.
            guard let entry = status.entry else { return }
            guard entry.track.isStream else {
                return MPDSongWriter.write(
                    entry.track, position: status.index, id: entry.id, tags: call.settings.tags, into: &call.response)
            }
            var bytes: [UInt8] = []
            MPDSongWriter.writeStream(
                entry.track, heard: await call.context.player.playingStream(), position: status.index, id: entry.id,
                tags: MPDTagMask(call.settings.tags), into: &bytes)
            call.response.append(bytes)
        },
        MPDCommand("stats") { call in
            let statistics = try call.context.index.statistics()
            call.response.field("uptime", call.context.uptime)
            call.response.field("playtime", call.context.activity.playedSeconds)
            call.response.field("artists", statistics.artists)
            call.response.field("albums", statistics.albums)
            call.response.field("songs", statistics.tracks)
            call.response.field("db_playtime", MPDNumber.roundedSeconds(statistics.totalDuration))
            if let date = statistics.lastScanDate { call.response.field("db_update", Int(date)) }
        },
        MPDCommand("outputs") { call in
            // Every output, the first (the clock) first; each plays while qplay plays, so
            // each is enabled (enabling and disabling are refused).
            let snapshot = await call.context.player.snapshot()
            let names = snapshot.outputs.isEmpty ? [snapshot.outputName] : snapshot.outputs.map(\.name)
            for (id, name) in names.enumerated() {
                call.response.field("outputid", id)
                call.response.field("outputname", name)
                call.response.field("plugin", name.split(separator: ":").first.map(String.init) ?? "")
                call.response.field("outputenabled", 1)
            }
        },
        MPDCommand("replay_gain_status") { call in
            let snapshot = await call.context.player.snapshot()
            call.response.field("replay_gain_mode", snapshot.replayGainMode.rawValue)
        },
        MPDCommand("clearerror") { _ in
            // qplay's last error clears itself when the next track starts.
        },
    ]

    /// MPD 0.23's `status`, field for field and in its order.
    static func writeStatus(
        _ snapshot: PlayerSnapshot, nextPosition: Int?, updatingJob: Int?, into response: inout MPDResponse
    ) {
        let status = snapshot.status
        response.field("volume", status.volume)
        response.field("repeat", status.repeatMode == .off ? 0 : 1)
        response.field("random", status.shuffle ? 1 : 0)
        response.field("single", status.repeatMode == .one || status.single ? 1 : 0)
        response.field("consume", status.consume ? 1 : 0)
        response.field("partition", "default")
        response.field("playlist", Int(truncatingIfNeeded: status.queueVersion))
        response.field("playlistlength", status.queueLength)
        response.field("mixrampdb", 0)
        response.field("state", state(status.state))
        if let index = status.index, let entry = status.entry {
            response.field("song", index)
            response.field("songid", Int(entry.id))
        }
        if status.state != .stopped, let track = status.track {
            let duration = status.duration ?? track.duration
            response.field(
                "time", "\(MPDNumber.roundedSeconds(status.position)):\(MPDNumber.roundedSeconds(duration))")
            response.field("elapsed", MPDNumber.seconds(status.position))
            response.field("bitrate", status.state == .playing ? track.bitrateKbps : 0)
            if duration > 0 { response.field("duration", MPDNumber.seconds(duration)) }
            if track.sampleRate > 0 {
                response.field("audio", "\(track.sampleRate):\(MPDSongWriter.sampleFormat(track)):\(track.channels)")
            }
        }
        if let updatingJob { response.field("updating_db", updatingJob) }
        if let error = snapshot.outputError ?? status.lastError ?? snapshot.storageError {
            response.field("error", error)
        }
        if let next = status.next, let position = nextPosition {
            response.field("nextsong", position)
            response.field("nextsongid", Int(next.id))
        }
    }

    static func state(_ state: PlaybackState) -> String {
        switch state {
        case .playing: "play"
        case .paused: "pause"
        case .stopped: "stop"
        }
    }
}
