import CMPG123
import SystemPackage

/// What the two MP3 decoders (files and streams) set up alike: libmpg123 initialised
/// once, a handle that skips junk and decodes to 16-bit mono or stereo at the stream's
/// rate, the check that its format held after a change, and libmpg123's errors in the
/// same words.
enum MPG123Handle {
    /// mpg123_init is needed by libmpg123 before 1.27 and harmless after.
    private static let ready: Bool = mpg123_init() == Int32(MPG123_OK.rawValue)
    /// The only output encoding asked for.
    static let encoding = Int32(MPG123_ENC_SIGNED_16.rawValue)

    /// A new handle with `flags` (MPG123_QUIET and the like). The caller deletes it.
    static func make(flags: Int, path: FilePath) throws(DecoderError) -> OpaquePointer {
        guard ready else { throw DecoderError(path: path, reason: "libmpg123 failed to initialise") }
        var code: Int32 = 0
        guard let handle = mpg123_new(nil, &code) else {
            throw DecoderError(path: path, reason: message(code))
        }
        do throws(DecoderError) {
            try check(mpg123_param2(handle, Int32(MPG123_FLAGS.rawValue), flags, 0), handle, path)
            // Skip junk in the middle of a file instead of stopping there.
            try check(mpg123_param2(handle, Int32(MPG123_RESYNC_LIMIT.rawValue), -1, 0), handle, path)
            try check(mpg123_format_none(handle), handle, path)
            let layouts = Int32(MPG123_MONO.rawValue | MPG123_STEREO.rawValue)
            try check(mpg123_format2(handle, 0, layouts, encoding), handle, path)
        } catch {
            mpg123_delete(handle)
            throw error
        }
        return handle
    }

    /// Whether `handle` still decodes to `format`, asked after MPG123_NEW_FORMAT: audio of
    /// another rate or channel count cannot join what played before it.
    static func keeps(_ format: AudioFormat, _ handle: OpaquePointer) -> Bool {
        var rate = 0
        var channels: Int32 = 0
        var encoding: Int32 = 0
        mpg123_getformat(handle, &rate, &channels, &encoding)
        return rate == format.sampleRate && Int(channels) == format.channels
    }

    static func check(_ code: Int32, _ handle: OpaquePointer, _ path: FilePath) throws(DecoderError) {
        if code != Int32(MPG123_OK.rawValue) {
            throw DecoderError(path: path, reason: message(code, handle))
        }
    }

    static func message(_ code: Int32, _ handle: OpaquePointer? = nil) -> String {
        if code == Int32(MPG123_ERR.rawValue), let handle {
            return String(cString: mpg123_strerror(handle))
        }
        return String(cString: mpg123_plain_strerror(code))
    }
}
