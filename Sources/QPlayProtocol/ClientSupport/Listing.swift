/// The readable text `qplay` prints for queues, tracks and status.
public enum Listing {
    /// `Artist – Title`, or the title alone.
    public static func trackName(_ track: Track) -> String {
        if let artist = track.artist, !artist.isEmpty { return "\(artist) – \(track.title)" }
        return track.title
    }

    /// `ID  M:SS  Artist – Title  “name”`: a row of `qplay bookmarks`.
    public static func bookmarkRow(_ bookmark: Bookmark) -> String {
        var row = "\(bookmark.bookmark)  \(TimeText.format(bookmark.position))  \(trackName(bookmark.track))"
        if let name = bookmark.name, !name.isEmpty { row += "  “\(name)”" }
        return row
    }

    /// One queue row per entry, 1-based, `▶` on the playing entry; then a note when the
    /// queue is modified and not yet installed.
    public static func queue(_ queue: Queue) -> [String] {
        guard !queue.entries.isEmpty else {
            return ["the queue is empty"] + (queue.modified ? [modifiedNote] : [])
        }
        let width = String(queue.entries.count).count
        var lines = queue.entries.map { entry in
            let marker = entry.entry == queue.current ? "▶" : " "
            let number = String(entry.index + 1)
            let padded = String(repeating: " ", count: max(0, width - number.count)) + number
            let duration = entry.track.duration.map { "  " + TimeText.format($0) } ?? ""
            return "\(marker) \(padded)  \(trackName(entry.track))\(duration)"
        }
        if queue.modified { lines.append(modifiedNote) }
        return lines
    }

    static let modifiedNote = "(queue modified: the player switches to it at the next track change)"

    /// `qplay chapters`: one row per chapter, 1-based, `▶` on the one playing, with its
    /// start.
    public static func chapters(_ status: Status) -> [String] {
        guard let chapters = status.chapters, !chapters.isEmpty else {
            return [status.track == nil ? "nothing is playing" : "the playing track has no chapters"]
        }
        let width = String(chapters.count).count
        return chapters.enumerated().map { index, chapter in
            let marker = index == status.chapter ? "▶" : " "
            let number = String(index + 1)
            let padded = String(repeating: " ", count: max(0, width - number.count)) + number
            return "\(marker) \(padded)  \(TimeText.format(chapter.start))  \(chapterTitle(chapter, index))"
        }
    }

    /// A chapter's title, or `Chapter N` for one without.
    public static func chapterTitle(_ chapter: ChapterInfo, _ index: Int) -> String {
        chapter.title.isEmpty ? "Chapter \(index + 1)" : chapter.title
    }

    /// `  id  Artist – Title  (Album)  3:07`.
    public static func searchRow(_ track: Track) -> String {
        var row = "\(track.id)\t\(trackName(track))"
        if let album = track.album, !album.isEmpty { row += "  (\(album))" }
        if let duration = track.duration { row += "  " + TimeText.format(duration) }
        return row
    }

    /// `qplay status`'s block.
    public static func status(_ status: Status) -> [String] {
        var lines: [String] = []
        if let track = status.track, status.state != .stopped {
            // Not "playing" while the output fails: nothing is heard (the output line says why).
            let state = StatusFormat.isSilentlyPlaying(status) ? "waiting for the output" : status.state.rawValue
            lines.append("\(state): \(trackName(track))")
            var about: [String] = []
            if let album = track.album, !album.isEmpty {
                about.append(track.year.map { "\(album) (\($0))" } ?? album)
            }
            if let number = track.track { about.append("track \(number)") }
            if !about.isEmpty { lines.append("  " + about.joined(separator: ", ")) }
            var time = TimeText.format(status.position ?? 0)
            if let duration = status.duration { time += " / " + TimeText.format(duration) }
            if let index = status.index { time += "   entry \(index + 1) of \(status.queueLength)" }
            if status.seeking != .none { time += "   scanning \(status.seeking.rawValue)" }
            lines.append("  " + time)
            if let chapters = status.chapters, let index = status.chapter, chapters.indices.contains(index) {
                lines.append("  chapter \(index + 1) of \(chapters.count): \(chapterTitle(chapters[index], index))")
            }
        } else {
            lines.append("stopped, \(status.queueLength) \(status.queueLength == 1 ? "entry" : "entries") in the queue")
        }
        var options = "  volume \(status.volume)%   repeat \(status.repeat.rawValue)   shuffle \(status.shuffle ? "on" : "off")"
        // Set by MPD clients only: shown when on, so the usual block stays as it was.
        if status.single { options += "   single on" }
        if status.consume { options += "   consume on" }
        if let replayGain = status.replayGain, replayGain.mode != "off" {
            options += "   replaygain \(replayGain.mode)"
            if let gain = replayGain.roundedGain, let source = replayGain.source, status.state != .stopped {
                options += " (\(source) \(gain > 0 ? "+" : "")\(gain) dB)"
            }
        }
        lines.append(options)
        if status.sleep != nil { lines.append("  " + SleepArgument.describe(status.sleep)) }
        if status.queueModified { lines.append("  " + modifiedNote) }
        var output = "  output \(status.output.name)"
        if let error = status.output.error { output += ": \(error)" }
        lines.append(output)
        return lines
    }

    /// `qplay stats`.
    public static func stats(_ stats: Stats) -> [String] {
        var lines = ["\(stats.tracks) tracks, \(stats.artists) artists, \(stats.albums) albums"]
        if let scan = stats.lastScan {
            lines.append("last scan: \(scanSummary(scan))")
        } else {
            lines.append("no scan has finished yet")
        }
        lines.append("daemon up \(TimeText.format(stats.uptime))")
        return lines
    }

    /// `added 3, updated 1, removed 0, skipped 2 in 1.2 s`.
    public static func scanSummary(_ totals: ScanTotals) -> String {
        let seconds = (totals.seconds * 10).rounded() / 10
        return "added \(totals.added), updated \(totals.updated), removed \(totals.removed), "
            + "skipped \(totals.skipped) in \(seconds) s"
    }

    /// `[##########----------]  512/1024 files  410/s  ETA 0:01`, or without a total
    /// `512 files  410/s`.
    public static func progressBar(_ progress: ScanProgressUpdate, width: Int = 24) -> String {
        let rate = Int(saturating: progress.rate.rounded())
        guard let total = progress.total, total > 0 else {
            return "\(progress.seen) files  \(rate)/s"
        }
        let fraction = min(1, Double(progress.seen) / Double(total))
        let filled = min(width, max(0, Int(saturating: fraction * Double(width))))
        let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
        var text = "[\(bar)] \(progress.seen)/\(total) files  \(rate)/s"
        if progress.rate > 0 && progress.seen < total {
            text += "  ETA " + TimeText.format(Double(total - progress.seen) / progress.rate)
        }
        return text
    }
}
