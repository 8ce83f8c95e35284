import ArgumentParser
import Logging
import QPlayAudio
import QPlayLibrary
import SystemPackage

#if canImport(Glibc)
import Glibc
#endif

@main
struct QPlayd: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "qplayd",
        abstract: "The qplay music daemon.",
        discussion: """
            This early version plays every MP3 below the music directory once, in path \
            order, through the output, and logs each track's tags.
            """)

    @Option(name: .long, help: "The music directory.")
    var music: String = "Samples"

    @Option(name: .long, help: "alsa, alsa:DEVICE, null, file:PATH or pipe:PATH.")
    var output: String = "alsa"

    func run() throws {
        signal(SIGPIPE, SIG_IGN)
        LoggingSystem.bootstrap(StreamLogHandler.standardError)
        let log = Logger(label: "qplayd")
        let spec: OutputSpec
        do {
            spec = try OutputSpec(parsing: output)
        } catch {
            throw ValidationError(error.description)
        }
        let player = FolderPlayback(decoders: MPG123DecoderFactory(), output: spec.makeOutput(), log: log)
        if !player.play(directory: FilePath(music)) {
            throw ExitCode.failure
        }
    }
}
