/// A format both players are measured in. scripts/bench-lib/engine generates its files
/// under the music folder by these names: `cpu/KEY.EXT` (pink noise, the costliest to
/// decode; long enough for the CPU window) and `skip/KEY/silent.EXT`, `skip/KEY/loud.EXT`
/// (for `next` → first sample).
struct BenchFormat: Sendable {
    let key: String
    let fileExtension: String
    /// How the table names it.
    let label: String
    /// What `DecoderRegistry.formatName(of:)` answers for the format's files.
    let registryName: String
    /// Whether both players resample it (its rate is not the outputs' fixed 44.1 kHz).
    let resampled: Bool
    /// The decoder plugin MPD plays it with (scripts/bench-lib/engine checks the log).
    let mpdPlugin: String

    var cpuFile: String { "cpu/\(key).\(fileExtension)" }
    var silentFile: String { "skip/\(key)/silent.\(fileExtension)" }
    var loudFile: String { "skip/\(key)/loud.\(fileExtension)" }

    static let mp3 = BenchFormat(
        key: "mp3", fileExtension: "mp3", label: "MP3 320 kb/s", registryName: "mp3", resampled: false,
        mpdPlugin: "mpg123")

    static let all: [BenchFormat] = [
        mp3,
        BenchFormat(
            key: "flac16", fileExtension: "flac", label: "FLAC 16-bit/44.1 kHz", registryName: "flac",
            resampled: false, mpdPlugin: "flac"),
        BenchFormat(
            key: "flac24", fileExtension: "flac", label: "FLAC 24-bit/96 kHz", registryName: "flac",
            resampled: true, mpdPlugin: "flac"),
        BenchFormat(
            key: "vorbis", fileExtension: "ogg", label: "Vorbis q5", registryName: "vorbis", resampled: false,
            mpdPlugin: "vorbis"),
        BenchFormat(
            key: "opus", fileExtension: "opus", label: "Opus 128 kb/s (48 kHz)", registryName: "opus",
            resampled: true, mpdPlugin: "opus"),
        // Through FFmpeg in both players (qplay's FFmpegDecoder, MPD's ffmpeg plugin).
        BenchFormat(
            key: "aac", fileExtension: "m4a", label: "AAC-LC 256 kb/s (.m4a)", registryName: "aac", resampled: false,
            mpdPlugin: "ffmpeg"),
        BenchFormat(
            key: "alac", fileExtension: "m4a", label: "ALAC 16-bit/44.1 kHz (.m4a)", registryName: "alac",
            resampled: false, mpdPlugin: "ffmpeg"),
    ]
}
