import Foundation
import QPlayModel
import SystemPackage

/// URL entries: a path that is a URL (`Track.streamURL(of:)`) opens a stream through
/// `streams` and a stream decoder chosen by the server's content type; files open as
/// before.
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

    /// The decoder the stream's content type calls for.
    static func streamDecoder(
        _ input: any StreamInput, url: String, path: FilePath, until deadline: ContinuousClock.Instant
    ) throws(DecoderError) -> any AudioDecoder {
        let type = (input.contentType ?? "").split(separator: ";").first.map {
            $0.trimmingCharacters(in: .whitespaces).lowercased()
        } ?? ""
        switch type {
        case "audio/mpeg", "audio/mp3", "audio/mpg", "audio/x-mpeg", "", "application/octet-stream":
            input.waitForBytes(streamPrebuffer, until: deadline)
            return try MPG123StreamDecoder(input: input, path: path, until: deadline)
        default:
            throw DecoderError(path: path, reason: "a stream of \(type) is not played (MP3 streams are)")
        }
    }
}
