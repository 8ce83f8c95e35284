import Foundation
import QPlayLibrary
import QPlayModel
import QPlayTestSupport
import SystemPackage

#if canImport(Glibc)
import Glibc
#endif

/// A temporary music folder and index for one test.
struct LibraryFixture {
    let directory = TemporaryDirectory("qplay-library")
    var music: FilePath { directory.appending("music") }
    var databasePath: FilePath { directory.appending("library.sqlite") }

    init() {
        mkdir(directory.appending("music").string, 0o755)
    }

    func openIndex() throws -> LibraryIndex {
        try LibraryIndex(databasePath: databasePath)
    }

    func scanner(_ index: LibraryIndex, music: FilePath? = nil) -> LibraryScanner {
        LibraryScanner(musicDirectory: music ?? self.music, index: index, extensions: AudioFileFormat.allFileExtensions)
    }

    /// Copies every Sample into the music folder, keeping the relative paths.
    func copySamples() throws {
        for sample in SampleCatalog.all {
            let target = music.appending(sample.file)
            try makeDirectories(target.removingLastComponent())
            try directory.copy(sample.path, to: target)
        }
    }

    func makeDirectories(_ path: FilePath) throws {
        try FileManager.default.createDirectory(atPath: path.string, withIntermediateDirectories: true)
    }

    func remove() {
        // gen-library leaves a folder with mode 0: make it removable first.
        chmod(music.appending("BAD/unreadable").string, 0o755)
        directory.remove()
    }
}

/// Sets a file's modification time, in whole seconds since the epoch.
func setModificationTime(_ path: FilePath, seconds: Int) {
    var times = [timespec(tv_sec: seconds, tv_nsec: 0), timespec(tv_sec: seconds, tv_nsec: 0)]
    _ = path.withPlatformString { utimensat(AT_FDCWD, $0, &times, 0) }
}

/// What `scripts/gen-library` wrote, from its manifest.json.
struct GeneratedLibrary: Decodable {
    struct Counts: Decodable {
        var tracks: Int
        var untagged: Int
        var common: Int
        var rare: Int
    }
    struct Entry: Decodable {
        var path: String
        var title: String
        var artist: String?
        var album: String?
        var tagged: Bool
        /// `mp3`, `flac`, `vorbis` or `opus`, and the exact decoded length.
        var format: String?
        var seconds: Double?
    }
    /// A copy cut short: indexed as far as it goes, or skipped.
    struct Damaged: Decodable {
        var path: String
        var format: String
        var max_seconds: Double
    }
    struct Extra: Decodable {
        var path: String
        var title: String
    }
    struct Bad: Decodable {
        var path: String
        var indexed: Bool
        var reason: String
        var title: String?
        var directory: Bool?
        var readable_by_root: String?
    }
    var counts: Counts
    var common_word: String
    var rare_word: String
    var extra_good: [Extra]
    var bad: [Bad]
    var damaged: [Damaged]?
    var tracks: [Entry]?

    static let script = SampleCatalog.repositoryRoot.appending("scripts/gen-library")

    /// gen-library needs python3 and lame (scripts/test installs lame).
    static var canGenerate: Bool { installed(["python3", "lame"]) }

    /// A library of every format also needs flac, oggenc and opusenc.
    static var canGenerateAllFormats: Bool { installed(["python3", "lame", "flac", "oggenc", "opusenc"]) }

    private static func installed(_ tools: [String]) -> Bool {
        tools.allSatisfy { tool in
            (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
                .contains { access("\($0)/\(tool)", X_OK) == 0 }
        }
    }

    static func generate(
        in directory: FilePath, count: Int, seed: Int, formats: [String] = ["mp3"]
    ) throws -> GeneratedLibrary {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "python3", script.string, directory.string, "\(count)", "--seed", "\(seed)",
            "--formats", formats.joined(separator: ","),
        ]
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: "gen-library failed"])
        }
        let data = try Data(contentsOf: URL(fileURLWithPath: directory.appending("manifest.json").string))
        return try JSONDecoder().decode(GeneratedLibrary.self, from: data)
    }
}
