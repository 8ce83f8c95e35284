// The hot wire types write their JSON by hand (see JSONOutput). Keys go in sorted
// order, values as their Codable conformances encode them, so the bytes equal
// JSONEncoder's; Tests/QPlayProtocolTests/FastEncodingTests.swift compares the two.

extension Track: WireEncodable {
    func write(to output: inout JSONOutput) {
        output.raw("{")
        output.key("added"); output.string(added); output.comma()
        output.key("album"); output.string(album); output.comma()
        output.key("album_artist"); output.string(albumArtist); output.comma()
        output.key("art"); if let art { output.bool(art) } else { output.raw("null") }; output.comma()
        output.key("artist"); output.string(artist); output.comma()
        output.key("bits"); output.integer(bits); output.comma()
        output.key("channels"); output.integer(channels); output.comma()
        output.key("disc"); output.integer(disc); output.comma()
        output.key("duration"); output.number(duration.map(Seconds.rounded)); output.comma()
        output.key("format"); output.string(format); output.comma()
        output.key("genre"); output.string(genre); output.comma()
        output.key("id"); output.integer(id); output.comma()
        output.key("last_played"); output.string(lastPlayed); output.comma()
        output.key("path"); output.string(path); output.comma()
        output.key("plays"); output.integer(plays); output.comma()
        output.key("rating"); output.integer(rating); output.comma()
        output.key("sample_rate"); output.integer(sampleRate); output.comma()
        output.key("skips"); output.integer(skips); output.comma()
        output.key("title"); output.string(title); output.comma()
        output.key("track"); output.integer(track); output.comma()
        output.key("year"); output.integer(year)
        output.raw("}")
    }
}

extension OutputStatus: WireEncodable {
    func write(to output: inout JSONOutput) {
        output.raw("{")
        output.key("error"); output.string(error); output.comma()
        output.key("name"); output.string(name); output.comma()
        output.key("state"); output.string(state.rawValue)
        output.raw("}")
    }
}

extension ReplayGainStatus: WireEncodable {
    func write(to output: inout JSONOutput) {
        output.raw("{")
        output.key("gain"); output.number(roundedGain); output.comma()
        output.key("mode"); output.string(mode); output.comma()
        output.key("source"); output.string(source)
        output.raw("}")
    }
}

extension Status: WireEncodable {
    func write(to output: inout JSONOutput) {
        output.raw("{")
        if let buffering { output.key("buffering"); output.bool(buffering); output.comma() }
        output.key("chapter"); output.integer(chapter); output.comma()
        output.key("chapters"); if let chapters { output.array(chapters) } else { output.null() }; output.comma()
        output.key("consume"); output.bool(consume); output.comma()
        output.key("duration"); output.number(duration.map(Seconds.rounded)); output.comma()
        output.key("entry"); output.integer(entry); output.comma()
        output.key("index"); output.integer(index); output.comma()
        output.key("level"); output.value(level); output.comma()
        output.key("output"); output.value(self.output); output.comma()
        output.key("outputs"); if let outputs { output.array(outputs) } else { output.null() }; output.comma()
        output.key("position"); output.number(position.map(Seconds.rounded)); output.comma()
        output.key("queue_length"); output.integer(queueLength); output.comma()
        output.key("queue_modified"); output.bool(queueModified); output.comma()
        output.key("repeat"); output.string(self.repeat.rawValue); output.comma()
        output.key("replaygain"); output.value(replayGain); output.comma()
        output.key("seeking"); output.string(seeking.rawValue); output.comma()
        output.key("shuffle"); output.bool(shuffle); output.comma()
        output.key("single"); output.bool(single); output.comma()
        output.key("sleep"); output.value(sleep); output.comma()
        output.key("state"); output.string(state.rawValue); output.comma()
        output.key("storage_error"); output.string(storageError); output.comma()
        if let stream { output.key("stream"); output.bool(stream); output.comma() }
        output.key("track"); output.value(track); output.comma()
        output.key("volume"); output.integer(volume)
        output.raw("}")
    }
}

extension Entry: WireEncodable {
    func write(to output: inout JSONOutput) {
        output.raw("{")
        output.key("entry"); output.integer(entry); output.comma()
        output.key("index"); output.integer(index); output.comma()
        output.key("track"); output.value(track)
        output.raw("}")
    }
}

extension Queue: WireEncodable {
    func write(to output: inout JSONOutput) {
        output.raw("{")
        output.key("current"); output.integer(current); output.comma()
        output.key("entries"); output.array(entries); output.comma()
        output.key("modified"); output.bool(modified); output.comma()
        output.key("start"); output.integer(start); output.comma()
        output.key("total"); output.integer(total)
        output.raw("}")
    }
}

extension SearchResult: WireEncodable {
    func write(to output: inout JSONOutput) {
        output.raw("{")
        output.key("tracks"); output.array(tracks)
        output.raw("}")
    }
}

extension EmptyResult: WireEncodable {
    func write(to output: inout JSONOutput) { output.raw("{}") }
}

extension AddResult: WireEncodable {
    func write(to output: inout JSONOutput) {
        output.raw("{")
        output.key("added"); output.integer(added); output.comma()
        output.key("started"); output.bool(started)
        output.raw("}")
    }
}

extension ReleaseResult: WireEncodable {
    func write(to output: inout JSONOutput) {
        output.raw("{")
        output.key("action"); output.string(action.rawValue); output.comma()
        output.key("held_ms"); output.integer(heldMilliseconds)
        output.raw("}")
    }
}

extension UpdateStarted: WireEncodable {
    func write(to output: inout JSONOutput) {
        output.raw("{")
        output.key("started"); output.bool(started)
        output.raw("}")
    }
}

extension QueueChange: WireEncodable {
    func write(to output: inout JSONOutput) {
        output.raw("{")
        output.key("length"); output.integer(length); output.comma()
        output.key("modified"); output.bool(modified)
        output.raw("}")
    }
}

extension ScanProgressUpdate: WireEncodable {
    func write(to output: inout JSONOutput) {
        output.raw("{")
        output.key("done"); output.bool(done); output.comma()
        output.key("rate"); output.number(rate.isFinite ? (rate * 10).rounded() / 10 : 0); output.comma()
        output.key("seen"); output.integer(seen); output.comma()
        output.key("total"); output.integer(total)
        output.raw("}")
    }
}

extension SkippedEntry: WireEncodable {
    func write(to output: inout JSONOutput) {
        output.raw("{")
        output.key("entry"); output.integer(entry); output.comma()
        output.key("reason"); output.string(reason); output.comma()
        output.key("track"); output.value(track)
        output.raw("}")
    }
}

extension OutputFailure: WireEncodable {
    func write(to output: inout JSONOutput) {
        output.raw("{")
        output.key("output"); output.string(self.output); output.comma()
        output.key("reason"); output.string(reason)
        output.raw("}")
    }
}

extension Event: WireEncodable {
    func write(to output: inout JSONOutput) {
        output.raw("{")
        output.key("data")
        switch self {
        case .player(let status): output.value(status)
        case .queue(let change): output.value(change)
        case .scan(let progress): output.value(progress)
        case .error(let skipped): output.value(skipped)
        case .outputError(let failure): output.value(failure)
        case .storage(let storage):
            output.raw("{")
            output.key("error"); output.string(storage.error)
            output.raw("}")
        case .alarm:
            // Written by JSONEncoder (see `AlarmFired`).
            output.exact = false
        case .level(let level): output.value(level)
        case .playlists: output.raw("{}")
        }
        output.comma()
        output.key("event"); output.string(kind.rawValue)
        output.raw("}")
    }
}

extension Greeting: WireEncodable {
    func write(to output: inout JSONOutput) {
        output.raw("{")
        output.key("protocol"); output.string(self.protocol); output.comma()
        output.key("version"); output.string(version)
        output.raw("}")
    }
}

extension ProtocolError: WireEncodable {
    func write(to output: inout JSONOutput) {
        output.raw("{")
        output.key("code"); output.string(code.rawValue); output.comma()
        output.key("message"); output.string(message)
        output.raw("}")
    }
}

extension RequestID {
    private static let numberBytes = Set("0123456789+-.eE".utf8)

    func write(to output: inout JSONOutput) {
        switch self {
        case .integer(let value): output.integer(value)
        // The number's text from the request (see `Request.decode`), written as it came;
        // anything that is not number text is left to the slow path.
        case .number(let text):
            if Double(text) != nil, text.utf8.allSatisfy({ Self.numberBytes.contains($0) }) {
                output.bytes.append(contentsOf: text.utf8)
            } else {
                output.exact = false
            }
        case .string(let value): output.string(value)
        }
    }
}

extension JSONOutput {
    mutating func array<Element: WireEncodable>(_ elements: [Element]) {
        raw("[")
        for (offset, element) in elements.enumerated() {
            if offset > 0 { comma() }
            element.write(to: &self)
        }
        raw("]")
    }

    mutating func requestID(_ id: RequestID?) {
        if let id { id.write(to: &self) } else { null() }
    }
}

extension JSONValue: WireEncodable {
    /// Objects' keys in byte order, which is JSONEncoder's sorted order for certain only
    /// for keys of lowercase ASCII letters (request fields and argument names): any other
    /// key leaves the value to JSONEncoder.
    func write(to output: inout JSONOutput) {
        switch self {
        case .null: output.null()
        case .bool(let value): output.bool(value)
        case .integer(let value): output.integer(value)
        case .number(let value): output.number(value)
        case .string(let value): output.string(value)
        case .array(let elements):
            output.raw("[")
            for (offset, element) in elements.enumerated() {
                if offset > 0 { output.comma() }
                element.write(to: &output)
            }
            output.raw("]")
        case .object(let members):
            output.raw("{")
            for (offset, key) in members.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }).enumerated() {
                if !key.utf8.allSatisfy({ (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0) }) {
                    output.exact = false
                }
                if offset > 0 { output.comma() }
                output.string(key)
                output.raw(":")
                members[key]?.write(to: &output)
            }
            output.raw("}")
        }
    }
}
