import Foundation
import Logging
import QPlayAudio
import QPlayStreamInput
import QPlayStreams
import SystemPackage

/// Connects URL entries for the audio thread's opener (`StreamOpening`): the request
/// and its answer run on NIO's event loop while the opener's thread waits for them, up
/// to the deadline it was given. Each stream has a `StreamReader` (an HTTP client) of
/// its own, kept for its reconnections and shut down when the stream ends: nothing is
/// left to close when the daemon exits, and one stream at a time (two across a change)
/// is all there is.
final class NetworkStreamOpener: StreamOpening {
    let options: StreamReaderOptions
    let board: StreamMetadataBoard
    let log: Logger?

    /// The reader's limits fit the opener's window (`DecoderRegistry.streamOpenLimit`,
    /// 2.5 s): a failure arrives with its own reason before the window closes.
    static let options: StreamReaderOptions = {
        var options = StreamReaderOptions()
        options.connectTimeout = .seconds(2)
        options.answerTimeout = .milliseconds(2300)
        return options
    }()

    init(options: StreamReaderOptions = NetworkStreamOpener.options, board: StreamMetadataBoard, log: Logger? = nil) {
        self.options = options
        self.board = board
        self.log = log
    }

    func open(url: String, token: UInt64, until deadline: ContinuousClock.Instant) throws(DecoderError) -> any StreamInput {
        let path = FilePath(url)
        guard let parsed = URL(string: url) else { throw DecoderError(path: path, reason: "not a URL") }
        let reader = StreamReader(options: options)
        let outcome = BlockingAwait.run(until: deadline) { () async -> Result<StreamConnection, StreamReadError> in
            do throws(StreamReadError) {
                return .success(try await reader.open(parsed))
            } catch {
                return .failure(error)
            }
        } late: { result in
            // Too late: nobody takes the connection, so it ends here.
            Task {
                if case .success(let connection) = result {
                    connection.buffer.close()
                    await connection.pump()
                }
                try? await reader.shutdown()
            }
        }
        switch outcome {
        case .success(let connection):
            return NetworkStreamInput(
                first: connection, link: NetworkStreamLink(reader: reader, url: parsed, log: log),
                token: token, board: board)
        case .failure(let error):
            Task { try? await reader.shutdown() }
            throw DecoderError(path: path, reason: error.description)
        case nil:
            throw DecoderError(path: path, reason: "the server did not answer in time")
        }
    }
}
