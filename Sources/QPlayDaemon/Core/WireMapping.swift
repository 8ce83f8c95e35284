import QPlayAudio
import QPlayEngine
import QPlayLibrary
import QPlayModel
import QPlayProtocol

// The protocol module knows nothing of the library and engine; these conversions are
// the one place where their types become wire types.

extension QPlayProtocol.Track {
    init(_ track: QPlayModel.Track) {
        let figures = ListeningFigures.shared.figures(of: track.id)
        // A URL entry's path is its URL as it was given (its `FilePath` holds `http:/host/…`).
        self.init(
            id: track.id, path: track.streamURL ?? track.path.string, title: track.title, artist: track.artist,
            album: track.album, albumArtist: track.albumArtist, track: track.trackNumber,
            disc: track.discNumber, year: track.year, genre: track.genre, duration: track.duration,
            format: track.format.rawValue, sampleRate: track.sampleRate, channels: track.channels,
            bits: track.bitsPerSample, art: ArtworkKnowledge.shared.hasArt(track.id), plays: figures.plays,
            skips: figures.skips, lastPlayed: figures.lastPlayed.map(WireTime.text), rating: figures.rating,
            added: figures.added.map(WireTime.text))
    }
}

extension QPlayProtocol.Status {
    init(_ snapshot: PlayerSnapshot) {
        let status = snapshot.status
        let hasTrack = status.entry != nil
        self.init(
            state: PlayerState(status.state),
            track: status.track.map(QPlayProtocol.Track.init),
            entry: status.entry?.id,
            index: status.index,
            position: hasTrack ? status.position : nil,
            duration: status.duration,
            queueLength: status.queueLength,
            queueModified: status.queueModified,
            volume: status.volume,
            repeat: QPlayProtocol.RepeatMode(status.repeatMode),
            shuffle: status.shuffle,
            single: status.single,
            consume: status.consume,
            seeking: Seeking(status.seeking),
            output: snapshot.outputs.first.map(OutputStatus.init)
                ?? OutputStatus(name: snapshot.outputName, error: snapshot.outputError),
            storageError: snapshot.storageError,
            replayGain: ReplayGainStatus(
                mode: snapshot.replayGainMode.rawValue, gain: snapshot.replayGain?.decibels,
                source: snapshot.replayGain?.source.rawValue),
            sleep: snapshot.sleep.map { SleepStatus(remaining: $0.remaining, endOfTrack: $0.endOfTrack) },
            level: snapshot.level.map(LevelReading.init),
            stream: snapshot.buffering.map { _ in true }, buffering: snapshot.buffering,
            chapters: snapshot.chapters.isEmpty
                ? nil : snapshot.chapters.map { ChapterInfo(title: $0.title, start: $0.start) },
            chapter: snapshot.chapter, outputs: snapshot.outputs.map(OutputStatus.init))
    }
}

extension QPlayProtocol.OutputStatus {
    /// The audio side's message begins with the output's name; `name` carries it.
    init(_ condition: OutputCondition) {
        let prefix = condition.name + ": "
        self.init(
            name: condition.name,
            error: condition.error.map { $0.hasPrefix(prefix) ? String($0.dropFirst(prefix.count)) : $0 },
            state: OutputState(rawValue: condition.state.rawValue))
    }
}

extension QPlayProtocol.Event {
    init(_ event: CoreEvent) {
        switch event {
        case .player(let snapshot):
            self = .player(QPlayProtocol.Status(snapshot))
        case .queue(let change):
            self = .queue(QueueChange(length: change.length, modified: change.modified))
        case .scan(let progress):
            self = .scan(
                ScanProgressUpdate(seen: progress.seen, total: progress.total, rate: progress.rate, done: progress.done))
        case .error(let entry, let reason):
            self = .error(SkippedEntry(entry: Int64(entry.id), track: QPlayProtocol.Track(entry.track), reason: reason))
        case .outputError(let output, let reason):
            self = .outputError(OutputFailure(output: output, reason: reason))
        case .storage(let error):
            self = .storage(StorageStatus(error: error))
        case .alarm(let firing):
            self = .alarm(AlarmFired(alarm: firing.id, time: firing.time, due: firing.due, skipped: firing.skipped))
        case .level(let level):
            self = .level(LevelReading(level))
        case .playlists:
            self = .playlists(PlaylistsChanged())
        }
    }
}

extension LevelReading {
    init(_ level: AudioLevel) {
        self.init(rmsDB: level.rms, peakDB: level.peak)
    }
}

extension QPlayProtocol.Queue {
    init(_ queue: QueueSnapshot) {
        self.init(
            entries: queue.entries.enumerated().map { offset, entry in
                Entry(entry: entry.id, index: queue.start + offset, track: QPlayProtocol.Track(entry.track))
            },
            current: queue.current, modified: queue.modified, start: queue.start, total: queue.total)
    }
}

extension PlayerState {
    init(_ state: PlaybackState) {
        switch state {
        case .playing: self = .playing
        case .paused: self = .paused
        case .stopped: self = .stopped
        }
    }
}

extension QPlayProtocol.RepeatMode {
    init(_ mode: QPlayModel.RepeatMode) {
        switch mode {
        case .off: self = .off
        case .one: self = .one
        case .all: self = .all
        }
    }
}

extension QPlayModel.RepeatMode {
    init(_ mode: QPlayProtocol.RepeatMode) {
        switch mode {
        case .off: self = .off
        case .one: self = .one
        case .all: self = .all
        }
    }
}

extension Seeking {
    init(_ direction: ScanDirection) {
        switch direction {
        case .none: self = .none
        case .forward: self = .forward
        case .backward: self = .backward
        }
    }
}

extension QPlayModel.Button {
    init(_ button: QPlayProtocol.Button) {
        switch button {
        case .next: self = .next
        case .previous: self = .previous
        }
    }
}

extension QPlayProtocol.ButtonAction {
    init(_ action: QPlayModel.ButtonAction) {
        switch action {
        case .skip: self = .skip
        case .restart: self = .restart
        case .previous: self = .previous
        case .seek: self = .seek
        }
    }
}

extension Query {
    /// The wire's predicates (already checked when the request was read): texts become
    /// the library's text predicates, counts and ages its figure predicates.
    init(_ predicates: [QPlayProtocol.Predicate]) {
        var texts: [QPlayLibrary.Predicate] = []
        var figures: [FigurePredicate] = []
        for predicate in predicates {
            // Both modules spell the properties the same (docs/PROTOCOL.md, Types).
            if let property = QPlayLibrary.SearchProperty(rawValue: predicate.property.rawValue) {
                texts.append(
                    QPlayLibrary.Predicate(
                        property, predicate.comparison == .equals ? .equals : .contains, predicate.value))
            } else if let property = FigureProperty(rawValue: predicate.property.rawValue) {
                figures.append(FigurePredicate(property, FigurePredicate.Test(predicate)))
            }
        }
        self.init(texts, figures: figures)
    }
}

extension FigurePredicate.Test {
    init(_ predicate: QPlayProtocol.Predicate) {
        let count = predicate.count ?? 0
        let age = predicate.ageSeconds ?? 0
        switch predicate.comparison {
        case .lt: self = .less(count)
        case .gt: self = .greater(count)
        case .le: self = .lessOrEqual(count)
        case .ge: self = .greaterOrEqual(count)
        case .within: self = .within(seconds: age)
        case .before: self = .before(seconds: age)
        case .eq, .contains, .equals: self = .equal(count)
        }
    }
}

extension ProtocolError {
    init(_ error: EngineError) {
        switch error {
        case .noMatch: self = .noMatch("no track matches")
        case .notFound(let what): self = .notFound(what)
        case .badRequest(let why): self = .badRequest(why)
        case .queueFull(let limit, let length, let adding):
            self = .queueFull(
                "adding \(adding) \(adding == 1 ? "track" : "tracks") to the \(length) in the queue would pass its limit of \(limit) entries (max_queue_length); nothing was added")
        }
    }
}

extension ScanTotals {
    init(_ summary: ScanSummary) {
        self.init(
            added: summary.added, updated: summary.updated, removed: summary.removed,
            skipped: summary.skipped, seconds: summary.seconds)
    }
}
