import Logging
import QPlayAudio
import QPlayLibrary
import SystemPackage

/// Plays every decodable file below a directory once, in path order. The foreground
/// player of the foundation; the queue engine and daemon replace it.
struct FolderPlayback {
    let decoders: any AudioDecoderFactory
    let output: any AudioOutput
    let log: Logger

    /// Returns false when nothing could be played at all.
    func play(directory: FilePath) -> Bool {
        var files: [FilePath] = []
        let walker = MusicFileWalker(extensions: decoders.fileExtensions)
        for problem in walker.walk(directory, found: { files.append($0.path) }) {
            log.warning("skipped \(problem.path): \(problem.reason)")
        }
        guard !files.isEmpty else {
            log.error("no playable files in \(directory)")
            return false
        }
        log.info("playing \(files.count) files from \(directory) through \(output.name)")
        var played = 0
        for file in files {
            do {
                let tags = try? TagReader.read(file)
                let title = tags?.title ?? file.stem ?? file.string
                let decoder = try decoders.open(file, converting: output.requiredFormat)
                log.info("▶ \(title) — \(tags?.artist ?? "unknown artist") [\(decoder.format)]")
                try AudioPump.copy(from: decoder, to: output)
                played += 1
            } catch let error as AudioOutputError {
                log.error("\(error)")
                output.close()
                return false
            } catch {
                log.error("skipped \(file): \(error)")
            }
        }
        try? output.drain()
        output.close()
        return played > 0
    }
}
