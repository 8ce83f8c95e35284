import ArgumentParser
import QPlayLibrary
import SystemPackage

@main
struct QPlay: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "qplay",
        abstract: "Drive the qplay music daemon.",
        subcommands: [Tags.self])
}

/// Shows what the library scanner reads from files, to check a collection's tags.
struct Tags: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print the tags and audio properties TagLib reads from files.")

    @Argument(help: "Audio files.")
    var files: [String]

    func run() throws {
        var failed = false
        for file in files {
            do {
                let tags = try TagReader.read(FilePath(file))
                print(file)
                print(TagsText(tags).lines.map { "  " + $0 }.joined(separator: "\n"))
            } catch {
                print("\(file): \(error)")
                failed = true
            }
        }
        if failed { throw ExitCode.failure }
    }
}

/// Tags as `name: value` lines, absent ones left out.
struct TagsText {
    let lines: [String]

    init(_ tags: TagInfo) {
        var lines: [String] = []
        func add(_ name: String, _ value: CustomStringConvertible?) {
            if let value { lines.append("\(name): \(value)") }
        }
        add("title", tags.title)
        add("artist", tags.artist)
        add("album", tags.album)
        add("album artist", tags.albumArtist)
        add("track", tags.track.map { n in tags.trackTotal.map { "\(n)/\($0)" } ?? "\(n)" })
        add("disc", tags.disc.map { n in tags.discTotal.map { "\(n)/\($0)" } ?? "\(n)" })
        add("year", tags.year)
        add("genre", tags.genre)
        add("duration", "\(tags.durationMilliseconds) ms")
        add("audio", "\(tags.sampleRate) Hz, \(tags.channels) ch, \(tags.bitrateKbps) kb/s")
        add("replaygain track", tags.replayGain.trackGain.map { "\($0) dB" })
        add("replaygain album", tags.replayGain.albumGain.map { "\($0) dB" })
        self.lines = lines
    }
}
