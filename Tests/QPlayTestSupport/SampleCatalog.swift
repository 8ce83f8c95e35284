import Foundation
import SystemPackage

/// One row of the table in Samples/README.md: what a Sample holds, as generated.
public struct SampleEntry: Sendable, CustomStringConvertible {
    public var file: String
    public var title: String?
    public var artist: String?
    public var album: String?
    public var albumArtist: String?
    public var track: Int?
    public var trackTotal: Int?
    public var disc: Int?
    public var discTotal: Int?
    public var year: Int?
    public var genre: String?
    public var toneHz: Double
    public var seconds: Int
    public var sampleRate: Int
    public var channels: Int
    public var encoding: String
    public var trackGain: Double?
    public var trackPeak: Double?
    public var albumGain: Double?
    public var albumPeak: Double?

    public var path: FilePath { SampleCatalog.directory.appending(file) }
    public var frames: Int { seconds * sampleRate }
    public var description: String { file }
}

/// One row of the FLAC, Ogg Vorbis and Opus table in Samples/README.md.
public struct FormatSampleEntry: Sendable, CustomStringConvertible {
    public var file: String
    public var title: String?
    public var artist: String?
    public var album: String?
    public var albumArtist: String?
    public var track: Int?
    public var trackTotal: Int?
    public var disc: Int?
    /// `flac`, `vorbis` or `opus`.
    public var format: String
    /// The rate the file decodes to (Opus: 48000).
    public var sampleRate: Int
    public var channels: Int
    public var bits: Int?
    /// The exact decoded length in samples per channel at `sampleRate`.
    public var frames: Int
    public var toneHz: Double
    public var trackGain: Double?
    public var trackPeak: Double?
    public var albumGain: Double?
    public var albumPeak: Double?

    public var path: FilePath { SampleCatalog.directory.appending(file) }
    public var seconds: Double { Double(frames) / Double(sampleRate) }
    public var description: String { file }
}

/// The Samples folder and its README table, the single source of truth for tests.
public enum SampleCatalog {
    public static let repositoryRoot: FilePath = {
        var path = FilePath(#filePath)  // Tests/QPlayTestSupport/SampleCatalog.swift
        for _ in 0..<3 { path.removeLastComponent() }
        return path
    }()

    public static let directory = repositoryRoot.appending("Samples")

    /// The MP3 samples (the first table).
    public static let all: [SampleEntry] = tableRows(0).map(parse)

    /// The FLAC, Ogg Vorbis and Opus samples in Formats/ (the second table).
    public static let formats: [FormatSampleEntry] = tableRows(1).map(parseFormat)

    /// Every sample file, relative to the folder: what a scan of all formats indexes.
    public static var allFiles: [String] { all.map(\.file) + formats.map(\.file) }

    /// Data rows of the README's `table`-th table (tables are split by "## " headings).
    private static func tableRows(_ table: Int) -> [Substring] {
        let readme = directory.appending("README.md")
        guard let text = try? String(contentsOfFile: readme.string, encoding: .utf8) else {
            fatalError("cannot read \(readme)")
        }
        let sections = text.components(separatedBy: "\n## ")
        guard table < sections.count else { return [] }
        return sections[table].split(separator: "\n").filter { $0.hasPrefix("| `") }
    }

    private static func parseFormat(_ row: Substring) -> FormatSampleEntry {
        let cells = row.split(separator: "|", omittingEmptySubsequences: false)
            .dropFirst().dropLast()
            .map { $0.trimmingCharacters(in: .whitespaces) }
        precondition(cells.count == 17, "Samples/README.md row has \(cells.count) cells: \(row)")
        func text(_ i: Int) -> String? { cells[i] == "—" ? nil : cells[i] }
        let track = text(5)?.split(separator: "/").map { Int($0) }
        return FormatSampleEntry(
            file: cells[0].trimmingCharacters(in: CharacterSet(charactersIn: "`")),
            title: text(1), artist: text(2), album: text(3), albumArtist: text(4),
            track: track?[0], trackTotal: (track?.count ?? 0) > 1 ? track?[1] : nil,
            disc: text(6).flatMap { Int($0) }, format: cells[7], sampleRate: Int(cells[8])!,
            channels: Int(cells[9])!, bits: text(10).flatMap { Int($0) }, frames: Int(cells[11])!,
            toneHz: Double(cells[12])!,
            trackGain: text(13).flatMap { Double($0) }, trackPeak: text(14).flatMap { Double($0) },
            albumGain: text(15).flatMap { Double($0) }, albumPeak: text(16).flatMap { Double($0) })
    }

    public static func named(_ file: String) -> SampleEntry {
        guard let entry = all.first(where: { $0.file == file }) else {
            fatalError("no sample \(file) in Samples/README.md")
        }
        return entry
    }

    /// The catalogue tone nearest to `hz`.
    public static func nearestTone(to hz: Double) -> SampleEntry {
        all.min { abs($0.toneHz - hz) < abs($1.toneHz - hz) }!
    }

    private static func parse(_ row: Substring) -> SampleEntry {
        let cells = row.split(separator: "|", omittingEmptySubsequences: false)
            .dropFirst().dropLast()
            .map { $0.trimmingCharacters(in: .whitespaces) }
        precondition(cells.count == 18, "Samples/README.md row has \(cells.count) cells: \(row)")
        func text(_ i: Int) -> String? { cells[i] == "—" ? nil : cells[i] }
        func pair(_ i: Int) -> (Int?, Int?) {
            guard let value = text(i) else { return (nil, nil) }
            let parts = value.split(separator: "/").map { Int($0) }
            return (parts[0], parts.count > 1 ? parts[1] : nil)
        }
        let (track, trackTotal) = pair(5)
        let (disc, discTotal) = pair(6)
        return SampleEntry(
            file: cells[0].trimmingCharacters(in: CharacterSet(charactersIn: "`")),
            title: text(1), artist: text(2), album: text(3), albumArtist: text(4),
            track: track, trackTotal: trackTotal, disc: disc, discTotal: discTotal,
            year: text(7).flatMap { Int($0) }, genre: text(8),
            toneHz: Double(cells[9])!, seconds: Int(cells[10])!, sampleRate: Int(cells[11])!,
            channels: Int(cells[12])!, encoding: cells[13],
            trackGain: text(14).flatMap { Double($0) }, trackPeak: text(15).flatMap { Double($0) },
            albumGain: text(16).flatMap { Double($0) }, albumPeak: text(17).flatMap { Double($0) })
    }
}
