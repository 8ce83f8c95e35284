import Foundation
import QPlayAudio
import QPlayModel
import QPlayStreamInput
import Synchronization

/// A stream as the decoder reads it: the audio from its buffer, never waiting on the
/// audio thread, while tasks of its own run the network side (`NetworkStreamLink`:
/// the copy into the buffer and the reconnections), hand each ICY title to the board
/// once the audio it precedes has been read by the decoder (so the title changes with
/// the audio, not seconds before it), and tell the board whether the stream is
/// buffering (the decoder plays silence for want of bytes).
final class NetworkStreamInput: StreamInput {
    let buffer: StreamBuffer
    let contentType: String?
    private let link: NetworkStreamLink
    private let tasks = Mutex<[Task<Void, Never>]>([])
    private let token: UInt64
    private let board: StreamMetadataBoard

    init(first: StreamConnection, link: NetworkStreamLink, token: UInt64, board: StreamMetadataBoard) {
        buffer = first.buffer
        contentType = first.response.contentType
        self.link = link
        self.token = token
        self.board = board
        board.opened(token: token, station: first.response.station)
        let buffer = buffer
        let run = Task { await link.run(first: first, buffer: buffer) }
        let titles = Task {
            for await event in link.titles {
                while buffer.bytesRead < event.audioOffset, !Task.isCancelled {
                    try? await Task.sleep(for: .milliseconds(100))
                }
                guard !Task.isCancelled else { return }
                board.received(event.metadata, token: token)
            }
        }
        let watch = Task {
            let signals = link.signals
            while !Task.isCancelled {
                if signals.rejoin.load(ordering: .acquiring) { link.dropConnection() }
                board.buffering(signals.buffering, token: token)
                try? await Task.sleep(for: NetworkStreamLink.tick)
            }
        }
        tasks.withLock { $0 = [run, titles, watch] }
    }

    func read(into destination: UnsafeMutableRawBufferPointer) -> StreamInputRead {
        let signals = link.signals
        if signals.reading() { signals.rejoin.store(true, ordering: .releasing) }
        if signals.rejoin.load(ordering: .acquiring) {
            signals.starved.store(true, ordering: .relaxed)
            return .empty
        }
        switch buffer.read(into: destination) {
        case .bytes(let count):
            signals.starved.store(false, ordering: .relaxed)
            return .bytes(count)
        case .empty:
            signals.starved.store(true, ordering: .relaxed)
            return .empty
        case .ended(.ended), .ended(.closed): return .ended(nil)
        case .ended(let reason): return .ended(reason.description)
        }
    }

    func waitForBytes(_ count: Int, until deadline: ContinuousClock.Instant) {
        while buffer.available < count, !buffer.hasEnded, ContinuousClock.now < deadline {
            usleep(10_000)
        }
        link.signals.touch()
    }

    func decoding(_ format: AudioFileFormat, audio: AudioFormat, bitrateKbps: Int?) {
        board.decoding(StreamDecoding(format: format, audio: audio, bitrateKbps: bitrateKbps), token: token)
    }

    func close() {
        buffer.close()
        for task in tasks.withLock({ $0 }) { task.cancel() }
        board.closed(token: token)
    }
}
