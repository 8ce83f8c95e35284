import Foundation
import QPlayAudio
import Synchronization
import SystemPackage

/// `qplay-bench-engine player FIFO [RATE]`: qplay's audio thread in a process of its
/// own, so its CPU time is measured apart from the benchmark's. It plays into FIFO
/// through the `file:` output (raw S16LE stereo at RATE, default 44100, paced to real
/// time by qplay itself, as MPD's fifo output paces itself; 48000 for Opus, which
/// decodes at that rate), and takes commands on stdin: `queue PATH<TAB>PATH…`, `play N`,
/// `next`, `stop`, `quit`. It follows the queue the way the engine does: the successor
/// is set when a track starts, so tracks join gaplessly.
final class QPlayChild: Sendable {
    private struct Queue {
        var paths: [String] = []
        var current = 0
        var tokens: [UInt64: Int] = [:]
        var nextToken: UInt64 = 1

        mutating func item(_ index: Int) -> PlaybackItem {
            defer { nextToken += 1 }
            tokens[nextToken] = index
            return PlaybackItem(token: nextToken, path: FilePath(paths[index]))
        }
    }

    private let player: AudioPlayer
    private let queue = Mutex(Queue())

    init(fifo: String, rate: Int) {
        let format = AudioFormat(sampleRate: rate, channels: 2)
        player = AudioPlayer(
            makeOutput: { RawPCMOutput(kind: .file, path: FilePath(fifo), format: format) }, decoders: .standard)
    }

    static func run(fifo: String, rate: Int = AudioFormat.cd.sampleRate) {
        let child = QPlayChild(fifo: fifo, rate: rate)
        Task.detached {
            for await event in child.player.events { child.handle(event) }
        }
        child.reply("ready")
        while let line = readLine() {
            if !child.command(line) { return }
        }
    }

    private func play(_ index: Int) {
        queue.withLock { queue in
            guard index < queue.paths.count else { return player.stop() }
            queue.current = index
            player.play(queue.item(index))
            player.setNext(index + 1 < queue.paths.count ? queue.item(index + 1) : nil)
        }
    }

    private func handle(_ event: AudioEvent) {
        switch event {
        case .started(let token):
            queue.withLock { queue in
                guard let index = queue.tokens[token] else { return }
                queue.current = index
                player.setNext(index + 1 < queue.paths.count ? queue.item(index + 1) : nil)
            }
        case .finished(let token):
            if let index = queue.withLock({ $0.tokens[token] }) { play(index + 1) }
        case .failed(_, let reason):
            FileHandle.standardError.write(Data("qplay: failed: \(reason)\n".utf8))
        case .outputError(let output, let message):
            FileHandle.standardError.write(Data("qplay: output: \(message ?? "\(output) recovered")\n".utf8))
        case .fadeEnded:
            break  // the benchmark never fades
        }
    }

    /// False on `quit`.
    private func command(_ line: String) -> Bool {
        let parts = line.split(separator: " ", maxSplits: 1).map(String.init)
        switch parts.first {
        case "queue":
            let paths = parts.count > 1 ? parts[1].split(separator: "\t").map(String.init) : []
            queue.withLock { $0.paths = paths }
        case "play": play(Int(parts.last ?? "0") ?? 0)
        case "next": play(queue.withLock { $0.current } + 1)
        case "stop": player.stop()
        case "quit":
            reply("\(player.snapshot.underruns) (\(player.snapshot.outputName))")
            player.shutdown()
            return false
        default: break
        }
        return true
    }

    private func reply(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }
}
