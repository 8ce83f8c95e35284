import QPlayModel
import SystemPackage

/// Turns what TagLib read into a `Track`, and says what was odd about the file.
enum TrackBuilder {
    /// Longer tag texts are cut: a 1 MB title is vandalism or a broken tagger, and would
    /// bloat every search result and queue listing that carries it.
    static let maximumTagLength = 1024

    static func track(
        tags: TagInfo, relativePath: [UInt8], size: Int64, modificationTime: Int64
    ) -> (Track, warnings: [String]) {
        var warnings: [String] = []
        func text(_ value: String?, _ name: String) -> String? {
            guard let value else { return nil }
            let trimmed = value.trimmingWhitespace()
            guard !trimmed.isEmpty else { return nil }
            var count = 0
            var end = trimmed.startIndex
            while end < trimmed.endIndex && count < maximumTagLength {
                trimmed.formIndex(after: &end)
                count += 1
            }
            if end < trimmed.endIndex {
                warnings.append(
                    "\(name) tag of \(trimmed.count) characters cut to \(maximumTagLength)")
                return String(trimmed[..<end])
            }
            return trimmed
        }
        let title = text(tags.title, "title") ?? Track.fileTitle(relativePath)
        if String(validating: relativePath, as: UTF8.self) == nil {
            warnings.append("name is not valid UTF-8 (indexed with its exact bytes)")
        }
        if tags.isTruncated, let promised = tags.promisedAudioBytes, let present = tags.presentAudioBytes {
            warnings.append("cut short: \(present) of \(promised) bytes of audio")
        }
        let track = Track(
            id: 0, path: PathBytes.path(relativePath), title: title,
            artist: text(tags.artist, "artist"), album: text(tags.album, "album"),
            albumArtist: text(tags.albumArtist, "album artist"), genre: text(tags.genre, "genre"),
            trackNumber: tags.track, discNumber: tags.disc, year: tags.year,
            duration: tags.duration, bitrateKbps: tags.bitrateKbps, sampleRate: tags.sampleRate,
            channels: tags.channels, format: tags.format, bitsPerSample: tags.bitsPerSample,
            replayGain: tags.replayGain, fileSize: size,
            modificationTime: modificationTime)
        return (track, warnings)
    }
}

extension String {
    func trimmingWhitespace() -> String {
        guard let first = firstIndex(where: { !$0.isWhitespace }) else { return "" }
        let last = lastIndex(where: { !$0.isWhitespace })!
        if first == startIndex && last == index(before: endIndex) { return self }
        return String(self[first...last])
    }
}
