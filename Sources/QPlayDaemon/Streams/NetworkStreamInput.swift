import Foundation
import QPlayAudio
import QPlayStreamInput
import Synchronization

/// A stream connection as the decoder reads it: the audio from its buffer, never
/// waiting on the audio thread, while two tasks of its own copy the network into the
/// buffer and hand each ICY title to the board once the audio it precedes has been
/// read by the decoder (so the title changes with the audio, not seconds before it).
final class NetworkStreamInput: StreamInput {
    let connection: StreamConnection
    private let tasks = Mutex<[Task<Void, Never>]>([])
    private let token: UInt64
    private let board: StreamMetadataBoard

    /// The connection's copy is run (`pump`) by whoever opened it; this reads it.
    init(_ connection: StreamConnection, pump: Task<Void, Never>, token: UInt64, board: StreamMetadataBoard) {
        self.connection = connection
        self.token = token
        self.board = board
        board.opened(token: token, station: connection.response.station)
        let titles = Task {
            for await event in connection.events {
                while connection.buffer.bytesRead < event.audioOffset, !Task.isCancelled {
                    try? await Task.sleep(for: .milliseconds(100))
                }
                guard !Task.isCancelled else { return }
                board.received(event.metadata, token: token)
            }
        }
        tasks.withLock { $0 = [pump, titles] }
    }

    var contentType: String? { connection.response.contentType }

    func read(into buffer: UnsafeMutableRawBufferPointer) -> StreamInputRead {
        switch connection.buffer.read(into: buffer) {
        case .bytes(let count): .bytes(count)
        case .empty: .empty
        case .ended(.ended), .ended(.closed): .ended(nil)
        case .ended(let reason): .ended(reason.description)
        }
    }

    func waitForBytes(_ count: Int, until deadline: ContinuousClock.Instant) {
        let buffer = connection.buffer
        while buffer.available < count, !buffer.hasEnded, ContinuousClock.now < deadline {
            usleep(10_000)
        }
    }

    func close() {
        connection.buffer.close()
        for task in tasks.withLock({ $0 }) { task.cancel() }
        board.closed(token: token)
    }
}
