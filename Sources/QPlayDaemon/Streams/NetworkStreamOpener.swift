import Foundation
import QPlayAudio
import QPlayStreamInput
import QPlayStreams
import Synchronization
import SystemPackage

/// Connects URL entries for the audio thread's opener (`StreamOpening`): the request
/// and its answer run on NIO's event loop while the opener's thread waits for them, up
/// to the deadline it was given. Each stream has a `StreamReader` (an HTTP client) of
/// its own, shut down when the stream ends: nothing is left to close when the daemon
/// exits, and one stream at a time (two across a change) is all there is.
final class NetworkStreamOpener: StreamOpening {
    let options: StreamReaderOptions
    let board: StreamMetadataBoard

    /// The reader's limits fit the opener's window (`DecoderRegistry.streamOpenLimit`,
    /// 2.5 s): a failure arrives with its own reason before the window closes.
    static let options: StreamReaderOptions = {
        var options = StreamReaderOptions()
        options.connectTimeout = .seconds(2)
        options.answerTimeout = .milliseconds(2300)
        return options
    }()

    init(options: StreamReaderOptions = NetworkStreamOpener.options, board: StreamMetadataBoard) {
        self.options = options
        self.board = board
    }

    func open(url: String, token: UInt64, until deadline: ContinuousClock.Instant) throws(DecoderError) -> any StreamInput {
        let path = FilePath(url)
        guard let parsed = URL(string: url) else { throw DecoderError(path: path, reason: "not a URL") }
        let outcome = Outcome()
        let done = DispatchSemaphore(value: 0)
        let reader = StreamReader(options: options)
        let task = Task {
            let result: Result<StreamConnection, StreamReadError>
            do throws(StreamReadError) {
                result = .success(try await reader.open(parsed))
            } catch {
                result = .failure(error)
            }
            let taken = outcome.deliver(result)
            done.signal()
            switch result {
            case .success(let connection):
                // Too late: nobody takes the connection, so it ends here.
                if !taken { connection.buffer.close() }
                await connection.pump()
            case .failure: break
            }
            try? await reader.shutdown()
        }
        let left = deadline - .now
        let nanoseconds = max(0, left.components.seconds * 1_000_000_000 + left.components.attoseconds / 1_000_000_000)
        if done.wait(timeout: .now() + .nanoseconds(Int(nanoseconds))) == .timedOut {
            guard !outcome.abandon() else {
                task.cancel()
                throw DecoderError(path: path, reason: "the server did not answer in time")
            }
            // Delivered at the last moment after all.
            done.wait()
        }
        switch outcome.result {
        case .success(let connection):
            return NetworkStreamInput(connection, pump: task, token: token, board: board)
        case .failure(let error):
            throw DecoderError(path: path, reason: error.description)
        case nil:
            throw DecoderError(path: path, reason: "the server did not answer in time")
        }
    }

    /// The answer, handed from the request's task to the waiting thread unless that
    /// stopped waiting.
    private final class Outcome: Sendable {
        private let state = Mutex<(result: Result<StreamConnection, StreamReadError>?, abandoned: Bool)>((nil, false))

        func deliver(_ result: Result<StreamConnection, StreamReadError>) -> Bool {
            state.withLock { state in
                guard !state.abandoned else { return false }
                state.result = result
                return true
            }
        }

        /// False when the result is there already.
        func abandon() -> Bool {
            state.withLock { state in
                guard state.result == nil else { return false }
                state.abandoned = true
                return true
            }
        }

        var result: Result<StreamConnection, StreamReadError>? { state.withLock { $0.result } }
    }
}
