extension StoredTrack {
    /// The same JSON object `JSONEncoder` writes for this value (absent optionals left
    /// out, so `JSONDecoder` reads it back equal), appended to `out`. Written by hand
    /// because a queue of 10,000 new entries is saved in one go: Foundation's encoder
    /// took ~15 µs a track, this takes about one.
    public func appendJSON(to out: inout [UInt8]) {
        var writer = JSONObjectWriter()
        swap(&writer.out, &out)  // appends in place: no copy of what `out` holds
        writer.open()
        writer.number("id", id)
        if let path { writer.string("path", path) }
        if let pathBytes {
            writer.key("pathBytes")
            writer.out.append(UInt8(ascii: "["))
            for (index, byte) in pathBytes.enumerated() {
                if index > 0 { writer.out.append(UInt8(ascii: ",")) }
                writer.appendDecimal(Int64(byte))
            }
            writer.out.append(UInt8(ascii: "]"))
        }
        writer.string("title", title)
        if let artist { writer.string("artist", artist) }
        if let album { writer.string("album", album) }
        if let albumArtist { writer.string("albumArtist", albumArtist) }
        if let genre { writer.string("genre", genre) }
        if let trackNumber { writer.number("trackNumber", Int64(trackNumber)) }
        if let discNumber { writer.number("discNumber", Int64(discNumber)) }
        if let year { writer.number("year", Int64(year)) }
        writer.number("duration", duration)
        writer.number("bitrateKbps", Int64(bitrateKbps))
        writer.number("sampleRate", Int64(sampleRate))
        writer.number("channels", Int64(channels))
        if let format { writer.string("format", format.rawValue) }
        if let bitsPerSample { writer.number("bitsPerSample", Int64(bitsPerSample)) }
        if let trackGain { writer.number("trackGain", trackGain) }
        if let trackPeak { writer.number("trackPeak", trackPeak) }
        if let albumGain { writer.number("albumGain", albumGain) }
        if let albumPeak { writer.number("albumPeak", albumPeak) }
        writer.number("fileSize", fileSize)
        writer.number("modificationTime", modificationTime)
        out = writer.finish()
    }
}

/// Appends one flat JSON object's members; `finish` closes it.
private struct JSONObjectWriter {
    var out: [UInt8] = []
    private var first = true

    mutating func open() {
        out.append(UInt8(ascii: "{"))
    }

    mutating func key(_ name: StaticString) {
        if !first { out.append(UInt8(ascii: ",")) }
        first = false
        out.append(UInt8(ascii: "\""))
        name.withUTF8Buffer { out.append(contentsOf: $0) }
        out.append(contentsOf: [UInt8(ascii: "\""), UInt8(ascii: ":")])
    }

    mutating func number(_ name: StaticString, _ value: Int64) {
        key(name)
        appendDecimal(value)
    }

    /// Shortest round-trip digits, as Swift prints a Double (JSON reads `1e-05` and
    /// `1.0`). JSON has no infinity or NaN: those are written as 0, where the encoder
    /// would have failed the whole save.
    mutating func number(_ name: StaticString, _ value: Double) {
        key(name)
        if value.isFinite {
            out.append(contentsOf: value.description.utf8)
        } else {
            out.append(UInt8(ascii: "0"))
        }
    }

    mutating func string(_ name: StaticString, _ value: String) {
        key(name)
        out.append(UInt8(ascii: "\""))
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"):
                out.append(UInt8(ascii: "\\"))
                out.append(byte)
            case 0..<0x20:
                out.append(contentsOf: "\\u00".utf8)
                let low = byte & 0xF
                out.append(UInt8(ascii: "0") + (byte >> 4))
                out.append(low < 10 ? UInt8(ascii: "0") + low : UInt8(ascii: "a") + (low - 10))
            default:
                out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    mutating func appendDecimal(_ value: Int64) {
        if value < 0 { out.append(UInt8(ascii: "-")) }
        let start = out.count
        var magnitude = value.magnitude
        repeat {
            out.append(UInt8(ascii: "0") + UInt8(magnitude % 10))
            magnitude /= 10
        } while magnitude > 0
        out[start...].reverse()
    }

    mutating func finish() -> [UInt8] {
        out.append(UInt8(ascii: "}"))
        return out
    }
}
