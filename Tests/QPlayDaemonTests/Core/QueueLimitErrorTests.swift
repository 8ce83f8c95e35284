import QPlayEngine
import QPlayMPD
import QPlayProtocol
import Testing

@testable import QPlayDaemon

/// An add past `max_queue_length` as each frontend tells it: its own code, and a message
/// that names the limit and the setting to change.
@Suite struct QueueLimitErrorTests {
    static let refusal = EngineError.queueFull(limit: 200_000, length: 199_990, adding: 20)

    @Test func theWireSaysQueueFullAndNamesTheSetting() {
        let error = ProtocolError(Self.refusal)
        #expect(error.code == .queueFull)
        #expect(error.code.rawValue == "queue_full")
        #expect(
            error.message
                == "adding 20 tracks to the 199990 in the queue would pass its limit of 200000 entries (max_queue_length); nothing was added")
    }

    @Test func mpdClientsGetMPDsPlaylistMaxError() {
        let error = MPDErrors.translate(Self.refusal)
        #expect(error.code == .playlistMax)
        #expect(error.message == "playlist is at the max size")
    }
}
