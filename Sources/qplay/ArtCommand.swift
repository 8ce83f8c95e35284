import ArgumentParser
import QPlayProtocol

#if canImport(Glibc)
import Glibc
#endif

/// `qplay art`: writes a track's picture, read in pieces (`art` with offsets).
struct ArtCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "art",
        abstract: "Write the picture of the playing track (or --track ID) to --out FILE or stdout.",
        discussion: """
            The embedded front cover, else an image beside the file (cover, folder, front or \
            album .jpg/.jpeg/.png/.webp). Binary image data is not written to a terminal: give \
            --out FILE or redirect stdout. Exit status 1 when the track has no picture.
            """)
    @Option(name: .customLong("track"), help: "The track's id (qplay search --json shows ids).") var track: Int64?
    @Option(name: .customLong("out"), help: "The file to write (replaced).") var out: String?
    @OptionGroup var options: ConnectionOptions

    func validate() throws {
        if out == nil, !options.json, isatty(1) == 1 {
            throw ValidationError("refusing to write binary image data to a terminal: give --out FILE or redirect stdout")
        }
    }

    func run() throws {
        try performing {
            var connection = options.connection
            let json = connection.json
            connection.json = false
            var picture: [UInt8] = []
            var size = 0
            repeat {
                guard let response = try connection.run(.art(track: track, offset: picture.count)) else { return }
                let chunk = try response.result(as: ArtChunk.self)
                if json {
                    // Each piece's result on a line of its own, as the daemon sent it.
                    Output.bytes((response.rawResult ?? ArraySlice("{}".utf8)) + [10])
                }
                guard let bytes = chunk.bytes, chunk.offset == picture.count else {
                    throw ProtocolError.internalError("qplayd sent a piece of the picture that is not base64 at its offset")
                }
                size = chunk.size
                picture += bytes
                if bytes.isEmpty { break }
            } while picture.count < size
            if json { return }
            guard let out else {
                Output.bytes(picture)
                return
            }
            try write(picture, to: out)
        }
    }

    private func write(_ bytes: [UInt8], to path: String) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw ValidationError("cannot write \(path): \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        var offset = 0
        while offset < bytes.count {
            let count = bytes[offset...].withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { throw ValidationError("cannot write \(path): \(String(cString: strerror(errno)))") }
            offset += count
        }
    }
}
