import QPlayMPD
import QPlayModel
import QPlayProtocol
import QPlayStreams

/// MPD's `add URL` / `addid URL`: an `http://` or `https://` URI is a stream (a
/// playlist URL adds its streams), as `add` with `urls` does.
enum MPDStreamURIs {
    /// The tracks `uri` adds when it is a URL; nil when it names the library.
    static func tracks(_ uri: String) async throws(MPDError) -> [QPlayModel.Track]? {
        guard StreamURL.isStreamURI(uri) else { return nil }
        do throws(ProtocolError) {
            return try await StreamEntries.tracks(for: .urls([uri]))
        } catch {
            throw MPDError(error.code == .badRequest ? .argument : .noExist, error.message)
        }
    }
}
