import FoundationEssentials

extension StreamPlaylist {
    /// PLS: an INI file, `[playlist]` then `FileN=URL`, `TitleN=`, `LengthN=`,
    /// `NumberOfEntries=`, `Version=` (keys in any case). Entries come in the order of
    /// their numbers, not of their lines; `NumberOfEntries` is not trusted (stations get
    /// it wrong).
    static func parsePLS(_ lines: [ArraySlice<UInt8>], base: URL?) throws(StreamPlaylistError) -> StreamPlaylist {
        var playlist = StreamPlaylist(format: .pls, entries: [], skipped: [])
        var files: [Int: (line: Int, value: ArraySlice<UInt8>)] = [:]
        var titles: [Int: String] = [:]
        for (offset, line) in lines.enumerated() {
            let number = offset + 1
            guard let first = line.first, first != UInt8(ascii: ";"), first != UInt8(ascii: "#"),
                first != UInt8(ascii: "[")
            else { continue }
            guard let equals = line.firstIndex(of: UInt8(ascii: "=")) else {
                playlist.skipped.append(SkippedLine(line: number, reason: "not a KEY=VALUE line"))
                continue
            }
            let key = TextBytes.trimmed(line[..<equals])
            let value = TextBytes.trimmed(line[(equals + 1)...])
            if let index = numbered(key, "file") {
                if let kept = files[index] {
                    playlist.skipped.append(
                        SkippedLine(line: number, reason: "File\(index) given twice (line \(kept.line) is kept)"))
                } else {
                    files[index] = (number, value)
                }
            } else if let index = numbered(key, "title") {
                if !value.isEmpty { titles[index] = TextBytes.decode(value) }
            } else if TextBytes.hasPrefix(key, caseInsensitive: "file") {
                playlist.skipped.append(SkippedLine(line: number, reason: "a File key without an entry number"))
            }
        }
        for (index, file) in files.sorted(by: { $0.key < $1.key }) {
            switch resolve(file.value, base: base) {
            case .success(let url): playlist.entries.append(Entry(url: url, title: titles[index]))
            case .failure(let problem):
                playlist.skipped.append(SkippedLine(line: file.line, reason: problem.description))
            }
        }
        playlist.skipped.sort { $0.line < $1.line }
        return playlist
    }

    /// N of a `NAMEN` key (`File1`, `title12`), if `key` is `name` then 1 to 9 digits.
    static func numbered(_ key: ArraySlice<UInt8>, _ name: String) -> Int? {
        guard TextBytes.hasPrefix(key, caseInsensitive: name) else { return nil }
        let digits = key.dropFirst(name.utf8.count)
        guard (1...9).contains(digits.count), digits.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        return digits.reduce(0) { $0 * 10 + Int($1 - 0x30) }
    }
}
