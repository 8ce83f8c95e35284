import Foundation
import QPlayModel
import SystemPackage

/// URL entries: a path that is a URL (`Track.streamURL(of:)`) opens a stream through
/// `streams` and the stream decoder its first bytes and the server's content type call
/// for (`streamDecoders`); files open as before.
extension DecoderRegistry {
    /// How long opening a stream may take, within the audio thread's open limit
    /// (`PlaybackTuning.openLimit`, 3 s): the connection, the answer and the first audio.
    static let streamOpenLimit = Duration.milliseconds(2500)
    /// Audio buffered before a stream plays, when it comes in time: 2 s at 128 kb/s.
    /// Icecast sends this much at once (its burst), so the wait is usually none.
    static let streamPrebuffer = 32 * 1024

    func open(_ item: PlaybackItem, converting format: AudioFormat?) throws(DecoderError) -> any AudioDecoder {
        let path = item.path
        guard let url = Track.streamURL(of: path) else { return try open(path, converting: format) }
        guard let streams else { throw DecoderError(path: path, reason: "internet radio is not available") }
        let deadline = ContinuousClock.now + Self.streamOpenLimit
        let input = try streams.open(url: url, token: item.token, until: deadline)
        do throws(DecoderError) {
            let decoder = try Self.streamDecoder(input, url: url, path: path, until: deadline)
            return try converted(decoder, path: path, to: format)
        } catch {
            input.close()
            throw error
        }
    }

    /// The stream decoders, one row each: the format, the content types stations send
    /// it as, and how it opens over the stream's feed (waiting for the network up to the
    /// deadline, on the opener's thread). See `streamRow` for how a stream finds its row.
    static let streamDecoders: [StreamDecoderRow] = [
        StreamDecoderRow(.mp3, ["audio/mpeg", "audio/mp3", "audio/mpg", "audio/x-mpeg", "audio/x-mp3"]) {
            feed, path, deadline throws(DecoderError) in
            try MPG123StreamDecoder(input: feed, path: path, until: deadline)
        },
        StreamDecoderRow(.vorbis, ["audio/vorbis", "audio/x-vorbis"]) { feed, path, deadline throws(DecoderError) in
            LiveStreamDecoder(try VorbisStreamDecoder(feed: feed, path: path, until: deadline), feed: feed, path: path)
        },
        StreamDecoderRow(.opus, ["audio/opus", "audio/x-opus"]) { feed, path, deadline throws(DecoderError) in
            LiveStreamDecoder(try OpusStreamDecoder(feed: feed, path: path, until: deadline), feed: feed, path: path)
        },
        StreamDecoderRow(.aac, ["audio/aac", "audio/aacp", "audio/x-aac", "audio/x-aacp"]) {
            feed, path, deadline throws(DecoderError) in
            LiveStreamDecoder(try AACStreamDecoder(feed: feed, path: path, until: deadline), feed: feed, path: path)
        },
    ]

    /// Content types that say "Ogg" but not which codec: the first page tells.
    static let oggContentTypes: Set<String> = ["application/ogg", "audio/ogg", "video/ogg", "audio/x-ogg"]
    /// Content types that say nothing (no type at all, or only "bytes").
    static let unnamedContentTypes: Set<String> = ["", "application/octet-stream"]

    /// The decoder the stream calls for, opened after its first `streamPrebuffer` bytes
    /// (or what came by the deadline).
    static func streamDecoder(
        _ input: any StreamInput, url: String, path: FilePath, until deadline: ContinuousClock.Instant
    ) throws(DecoderError) -> any AudioDecoder {
        let type = (input.contentType ?? "").split(separator: ";").first.map {
            $0.trimmingCharacters(in: .whitespaces).lowercased()
        } ?? ""
        input.waitForBytes(streamPrebuffer, until: deadline)
        let feed = StreamFeed(input, until: deadline)
        switch streamRow(contentType: type, head: feed.head) {
        case .success(let row):
            let decoder = try row.open(feed, path, deadline)
            input.decoding(row.format, audio: decoder.format, bitrateKbps: decoder.bitrateKbps)
            return decoder
        case .failure(let refusal): throw DecoderError(path: path, reason: refusal.reason)
        }
    }

    /// The row for a stream of content type `type` (lower case, no parameters) whose
    /// first bytes are `head`. An Ogg stream is taken by the codec its first page names,
    /// whatever its type (stations send Opus as `application/ogg` or `audio/ogg`); then
    /// the content type decides; a stream whose type says nothing is recognised by its
    /// head where it can be (ADTS and MPEG frame syncs, as files are) and otherwise taken
    /// for MP3, which libmpg123 searches for.
    static func streamRow(contentType type: String, head: [UInt8]) -> Result<StreamDecoderRow, StreamRefusal> {
        if head.starts(with: Array("OggS".utf8)) {
            if let row = streamDecoders.first(where: { $0.format.row.signature.matches(head) }) { return .success(row) }
            return .failure(StreamRefusal("an Ogg stream of a codec qplay does not play (\(playedStreams) are played)"))
        }
        if let row = streamDecoders.first(where: { $0.contentTypes.contains(type) }) { return .success(row) }
        if oggContentTypes.contains(type) {
            return .failure(StreamRefusal("a stream of \(type) that does not start with an Ogg page"))
        }
        guard unnamedContentTypes.contains(type) else {
            return .failure(StreamRefusal("a stream of \(type) is not played (\(playedStreams) are)"))
        }
        let recognised = streamDecoders.first { $0.format.row.signature.matches(head) }
        return .success(recognised ?? streamDecoders[0])
    }

    /// "MP3, Ogg Vorbis, Opus and AAC streams", from the table.
    static var playedStreams: String {
        let names = streamDecoders.map(\.format.row.displayName)
        return names.dropLast().joined(separator: ", ") + " and " + names.last! + " streams"
    }
}

/// A row of `DecoderRegistry.streamDecoders`.
struct StreamDecoderRow: Sendable {
    typealias Opener = @Sendable (StreamFeed, FilePath, ContinuousClock.Instant) throws(DecoderError) -> any AudioDecoder

    let format: AudioFileFormat
    /// Lower case, without parameters.
    let contentTypes: Set<String>
    let open: Opener

    init(_ format: AudioFileFormat, _ contentTypes: Set<String>, open: @escaping Opener) {
        self.format = format
        self.contentTypes = contentTypes
        self.open = open
    }
}

/// Why a stream is not played, in words.
struct StreamRefusal: Error, Equatable {
    let reason: String

    init(_ reason: String) {
        self.reason = reason
    }
}
