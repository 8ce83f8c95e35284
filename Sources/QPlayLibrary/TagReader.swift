import CTagLib
import SystemPackage

#if canImport(Glibc)
import Glibc
#endif

/// Why a file's tags could not be read. Every case is a reason to skip or report the
/// file, never to stop a scan.
public enum TagReadError: Error, Equatable, CustomStringConvertible {
    case unreadable(errno: Int32)
    case unsupportedFormat
    case invalidFile
    case notAudio
    case libraryFailure

    public var description: String {
        switch self {
        case .unreadable(let code): return "cannot open: \(String(cString: strerror(code)))"
        case .unsupportedFormat: return "not a format TagLib knows"
        case .invalidFile: return "not a valid audio file"
        case .notAudio: return "no audio stream found"
        case .libraryFailure: return "TagLib failed while reading it"
        }
    }
}

/// Reads tags and audio properties through the TagLib shim. Paths go to TagLib as the
/// raw bytes of the file name, so names that are not valid UTF-8 work.
public enum TagReader {
    public static func read(_ path: FilePath) throws(TagReadError) -> TagInfo {
        var raw = qp_tag_info()
        var errorNumber: Int32 = 0
        let status = path.withPlatformString { qp_tag_read($0, &raw, &errorNumber) }
        switch status {
        case QP_TAG_OK: break
        case QP_TAG_UNREADABLE: throw .unreadable(errno: errorNumber)
        case QP_TAG_UNSUPPORTED: throw .unsupportedFormat
        case QP_TAG_INVALID: throw .invalidFile
        case QP_TAG_NOT_AUDIO: throw .notAudio
        default: throw .libraryFailure
        }
        defer { qp_tag_info_free(&raw) }
        return TagInfo(
            title: string(raw.title), artist: string(raw.artist), album: string(raw.album),
            albumArtist: string(raw.album_artist), genre: string(raw.genre),
            track: positive(raw.track), trackTotal: positive(raw.track_total),
            disc: positive(raw.disc), discTotal: positive(raw.disc_total),
            year: positive(raw.year),
            durationMilliseconds: Int(raw.duration_ms), bitrateKbps: Int(raw.bitrate_kbps),
            sampleRate: Int(raw.sample_rate), channels: Int(raw.channels),
            replayGain: ReplayGain(
                trackGain: raw.has_track_gain != 0 ? raw.track_gain : nil,
                trackPeak: raw.has_track_peak != 0 ? raw.track_peak : nil,
                albumGain: raw.has_album_gain != 0 ? raw.album_gain : nil,
                albumPeak: raw.has_album_peak != 0 ? raw.album_peak : nil),
            gaplessSamples: raw.gapless_samples > 0 ? Int(raw.gapless_samples) : nil,
            promisedAudioBytes: raw.promised_audio_bytes > 0 ? Int(raw.promised_audio_bytes) : nil,
            presentAudioBytes: raw.present_audio_bytes > 0 ? Int(raw.present_audio_bytes) : nil)
    }

    private static func string(_ pointer: UnsafeMutablePointer<CChar>?) -> String? {
        pointer.map { String(cString: $0) }
    }

    private static func positive(_ value: Int32) -> Int? {
        value > 0 ? Int(value) : nil
    }
}
