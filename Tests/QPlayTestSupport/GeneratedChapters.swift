import Foundation
import SystemPackage

/// Audiobook chapters added to an MP4 file with Debian's ffmpeg.
extension GeneratedAudio {
    /// The two ways an MP4 names its chapters.
    public enum ChapterLayout: String, Sendable, CaseIterable, CustomStringConvertible {
        /// A QuickTime text track referred to by the audio track's `tref/chap` (iTunes's).
        case quickTimeTrack
        /// Nero's `chpl` box in `moov/udta` only.
        case neroList
        public var description: String { rawValue }
    }

    /// `source` (an MP4 file) remuxed into `name` with `chapters` (title, start in
    /// seconds; each ends where the next starts, the last at `length`); `rate` is the
    /// audio's.
    @discardableResult
    public static func addChapters(
        _ chapters: [(title: String, start: Double)], length: Double, to source: FilePath, as name: String,
        layout: ChapterLayout, rate: Int = 44100, in directory: TemporaryDirectory
    ) throws -> FilePath {
        var metadata = ";FFMETADATA1\ntitle=Chaptered\n"
        for (index, chapter) in chapters.enumerated() {
            let end = index + 1 < chapters.count ? chapters[index + 1].start : length
            metadata += "[CHAPTER]\nTIMEBASE=1/1000\nSTART=\(Int((chapter.start * 1000).rounded()))\n"
            metadata += "END=\(Int((end * 1000).rounded()))\ntitle=\(chapter.title)\n"
        }
        let metadataFile = directory.appending("\(name)-chapters.txt")
        try directory.write(Array(metadata.utf8), to: metadataFile)
        defer { try? FileManager.default.removeItem(atPath: metadataFile.string) }
        let output = directory.appending(name)
        // ffmpeg writes both a chapter track and `chpl` unless told not to write `chpl`.
        let flags = layout == .quickTimeTrack ? ["-movflags", "disable_chpl"] : []
        try run(
            ["ffmpeg", "-v", "error", "-y", "-i", source.string, "-i", metadataFile.string, "-map", "0:a",
                "-map_metadata", "0", "-map_chapters", "1", "-c", "copy",
                // The edit list in samples, as `encode` writes it (the default of 1,000
                // a second rounds an AAC track's length to a millisecond).
                "-movie_timescale", "\(rate)"] + flags + ["-f", "mp4", output.string])
        if layout == .neroList {
            // The audio track's reference to the chapter track, renamed to a type no
            // reader knows: only `chpl` names the chapters.
            var bytes = try TemporaryDirectory.read(output)
            // `tref`'s header, then its one child's: size, `chap`.
            let tref = Array("tref".utf8)
            let chap = Array("chap".utf8)
            guard
                let at = (0..<max(0, bytes.count - 12)).first(where: {
                    bytes[$0..<($0 + 4)].elementsEqual(tref) && bytes[($0 + 8)..<($0 + 12)].elementsEqual(chap)
                })
            else {
                throw CocoaError(.fileReadCorruptFile, userInfo: [NSLocalizedDescriptionKey: "no tref/chap in \(output)"])
            }
            bytes.replaceSubrange((at + 8)..<(at + 12), with: Array("xxxx".utf8))
            try directory.write(bytes, to: output)
        }
        return output
    }
}
