import Foundation
import Logging
import QPlayStreamInput
import Synchronization

/// The network side of one playing stream: pumps its connection into the buffer the
/// decoder reads and, when the connection drops after the stream has played (the
/// source stopped, the server went away, a stall), connects again with back-off — 1,
/// 2, 4 … 30 s, whatever the server answers meanwhile — into the same buffer while the
/// entry stays current. A decoder read again after a pause gets the stream live: the
/// stale buffer is dropped and the stream joined anew. All of it runs in tasks, never
/// on the audio thread, and never waits on the player.
final class NetworkStreamLink: Sendable {
    let reader: StreamReader
    let url: URL
    let log: Logger?
    let signals = StreamReadSignals()
    /// Every connection's ICY titles, one after another.
    let titles: AsyncStream<StreamMetadataEvent>
    private let titleSink: AsyncStream<StreamMetadataEvent>.Continuation
    private let pumping = Mutex<Task<StreamReadError, Never>?>(nil)

    static let longestDelay = Duration.seconds(30)
    /// A connection that lasted this long was a good one: the next drop retries after
    /// 1 s again rather than going on from the last delay.
    static let steady = Duration.seconds(10)
    static let tick = Duration.milliseconds(100)

    init(reader: StreamReader, url: URL, log: Logger?) {
        self.reader = reader
        self.url = url
        self.log = log
        (titles, titleSink) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(16))
    }

    /// Plays `first`, and every connection after it, into `buffer` until the task is
    /// cancelled or the consumer closes the buffer; then the reader is shut down.
    func run(first: StreamConnection, buffer: StreamBuffer) async {
        var connection: StreamConnection? = first
        var delay = Duration.seconds(1)
        while !Task.isCancelled {
            if let current = connection {
                connection = nil
                let started = ContinuousClock.now
                let reason = await play(current)
                if Task.isCancelled { break }
                if signals.rejoin.load(ordering: .acquiring) {
                    delay = .zero
                } else {
                    if reason == .closed { break }
                    // A file served over HTTP (it has a length) plays once, to its end.
                    if reason == .ended, current.response.length != nil {
                        buffer.finish(.ended)
                        break
                    }
                    if ContinuousClock.now - started >= Self.steady { delay = .seconds(1) }
                    log?.notice("stream \(url.absoluteString): \(reason); connecting again in \(delay)")
                }
            }
            guard await waitBeforeConnecting(delay) else { break }
            if signals.rejoin.load(ordering: .acquiring) {
                // Nothing pumps now: drop the stale audio, then let reads through again.
                buffer.discard()
                signals.rejoin.store(false, ordering: .releasing)
                log?.info("stream \(url.absoluteString): rejoined live after a pause")
            }
            do throws(StreamReadError) {
                connection = try await reader.open(url, into: buffer)
            } catch {
                if error == .closed || Task.isCancelled { break }
                delay = delay == .zero ? .seconds(1) : min(delay * 2, Self.longestDelay)
                log?.notice("stream \(url.absoluteString): \(error); connecting again in \(delay)")
            }
        }
        titleSink.finish()
        try? await reader.shutdown()
    }

    /// Stops the connection being pumped (a rejoin after a pause wants a new one).
    func dropConnection() {
        pumping.withLock { $0 }?.cancel()
    }

    private func play(_ connection: StreamConnection) async -> StreamReadError {
        let pump = Task { await connection.pump(finishing: false) }
        pumping.withLock { $0 = pump }
        let sink = titleSink
        let copy = Task {
            for await event in connection.events { sink.yield(event) }
        }
        let reason = await withTaskCancellationHandler {
            await pump.value
        } onCancel: {
            pump.cancel()
        }
        pumping.withLock { $0 = nil }
        // The pump's end finished the connection's events: this drains them.
        await copy.value
        return reason
    }

    /// Waits `delay`, longer while nobody reads (paused: no point connecting), shorter
    /// when a read after a pause asks for the stream; false when cancelled.
    private func waitBeforeConnecting(_ delay: Duration) async -> Bool {
        var waited = Duration.zero
        while !Task.isCancelled {
            if signals.rejoin.load(ordering: .acquiring) { return true }
            if waited >= delay, !signals.idle { return true }
            try? await Task.sleep(for: Self.tick)
            waited += Self.tick
        }
        return false
    }
}
