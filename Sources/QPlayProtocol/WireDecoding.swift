// The types a client reads on every run build themselves from a `JSONValue` (read by
// JSONInput), so a short-lived `qplay` never starts JSONDecoder. A value that is not
// exactly what the Codable conformance accepts without doubt gives nil, and the caller
// decodes the line with JSONDecoder instead: results and error messages stay the same.
// Tests/QPlayProtocolTests/FastDecodingTests.swift compares the two readers.

/// A wire type that can read itself from a decoded JSON value, as its Decodable
/// conformance would; nil when unsure.
public protocol WireDecodable: Decodable {
    init?(wire: JSONValue)
}

/// The members of a JSON object, read with the rules of synthesized Decodable: absent
/// and `null` optionals are nil; any other mismatch makes the whole value unsure (nil).
struct WireObject {
    let members: [String: JSONValue]

    init?(_ value: JSONValue) {
        guard case .object(let members) = value else { return nil }
        self.members = members
    }

    /// A required member; nil when absent.
    func required(_ key: String) -> JSONValue? {
        members[key]
    }

    /// An optional member: .some(nil) when absent or null, nil when present but read by
    /// `read` as nil.
    func optional<T>(_ key: String, _ read: (JSONValue) -> T?) -> T?? {
        guard let value = members[key], value != .null else { return .some(nil) }
        guard let read = read(value) else { return nil }
        return .some(read)
    }

    static func string(_ value: JSONValue) -> String? {
        if case .string(let text) = value { return text }
        return nil
    }

    static func bool(_ value: JSONValue) -> Bool? {
        if case .bool(let flag) = value { return flag }
        return nil
    }

    static func int64(_ value: JSONValue) -> Int64? {
        if case .integer(let number) = value { return number }
        return nil
    }

    static func int(_ value: JSONValue) -> Int? {
        if case .integer(let number) = value { return Int(exactly: number) }
        return nil
    }

    static func double(_ value: JSONValue) -> Double? {
        switch value {
        case .integer(let number): Double(exactly: number)
        case .number(let number): number
        default: nil
        }
    }

    static func wire<T: WireDecodable>(_ type: T.Type) -> (JSONValue) -> T? {
        { T(wire: $0) }
    }

    /// An array whose every element reads as `T`; nil when one does not.
    static func wireArray<T: WireDecodable>(_ type: T.Type) -> (JSONValue) -> [T]? {
        { value in
            guard case .array(let items) = value else { return nil }
            let read = items.compactMap(T.init(wire:))
            return read.count == items.count ? read : nil
        }
    }
}

extension WireDecodable where Self: RawRepresentable, RawValue == String {
    public init?(wire: JSONValue) {
        guard let text = WireObject.string(wire) else { return nil }
        self.init(rawValue: text)
    }
}

extension PlayerState: WireDecodable {}
extension RepeatMode: WireDecodable {}
extension Seeking: WireDecodable {}
extension OutputState: WireDecodable {}

extension OutputStatus: WireDecodable {
    public init?(wire: JSONValue) {
        guard let object = WireObject(wire),
            let name = object.required("name").flatMap(WireObject.string),
            let error = object.optional("error", WireObject.string),
            let state = object.optional("state", OutputState.init(wire:))
        else { return nil }
        self.init(name: name, error: error, state: state)
    }
}

extension ReplayGainStatus: WireDecodable {
    public init?(wire: JSONValue) {
        guard let object = WireObject(wire),
            let mode = object.required("mode").flatMap(WireObject.string),
            let gain = object.optional("gain", WireObject.double),
            let source = object.optional("source", WireObject.string)
        else { return nil }
        self.init(mode: mode, gain: gain, source: source)
    }
}

extension Track: WireDecodable {
    public init?(wire: JSONValue) {
        guard let object = WireObject(wire),
            let id = object.required("id").flatMap(WireObject.int64),
            let path = object.required("path").flatMap(WireObject.string),
            let title = object.required("title").flatMap(WireObject.string),
            let artist = object.optional("artist", WireObject.string),
            let album = object.optional("album", WireObject.string),
            let albumArtist = object.optional("album_artist", WireObject.string),
            let track = object.optional("track", WireObject.int),
            let disc = object.optional("disc", WireObject.int),
            let year = object.optional("year", WireObject.int),
            let genre = object.optional("genre", WireObject.string),
            let duration = object.optional("duration", WireObject.double),
            let format = object.optional("format", WireObject.string),
            let sampleRate = object.optional("sample_rate", WireObject.int),
            let channels = object.optional("channels", WireObject.int),
            let bits = object.optional("bits", WireObject.int),
            let art = object.optional("art", WireObject.bool),
            let plays = object.optional("plays", WireObject.int),
            let skips = object.optional("skips", WireObject.int),
            let lastPlayed = object.optional("last_played", WireObject.string),
            let rating = object.optional("rating", WireObject.int),
            let added = object.optional("added", WireObject.string)
        else { return nil }
        self.init(
            id: id, path: path, title: title, artist: artist, album: album, albumArtist: albumArtist,
            track: track, disc: disc, year: year, genre: genre, duration: duration, format: format,
            sampleRate: sampleRate, channels: channels, bits: bits, art: art, plays: plays, skips: skips,
            lastPlayed: lastPlayed, rating: rating, added: added)
    }
}

extension Status: WireDecodable {
    public init?(wire: JSONValue) {
        guard let object = WireObject(wire),
            let state = object.required("state").flatMap(PlayerState.init(wire:)),
            let track = object.optional("track", WireObject.wire(Track.self)),
            let entry = object.optional("entry", WireObject.int64),
            let index = object.optional("index", WireObject.int),
            let position = object.optional("position", WireObject.double),
            let duration = object.optional("duration", WireObject.double),
            let queueLength = object.required("queue_length").flatMap(WireObject.int),
            let queueModified = object.required("queue_modified").flatMap(WireObject.bool),
            let volume = object.required("volume").flatMap(WireObject.int),
            let repeatMode = object.required("repeat").flatMap(RepeatMode.init(wire:)),
            let shuffle = object.required("shuffle").flatMap(WireObject.bool),
            let single = object.optional("single", WireObject.bool),
            let consume = object.optional("consume", WireObject.bool),
            let seeking = object.required("seeking").flatMap(Seeking.init(wire:)),
            let output = object.required("output").flatMap(OutputStatus.init(wire:)),
            let outputs = object.optional("outputs", WireObject.wireArray(OutputStatus.self)),
            let storageError = object.optional("storage_error", WireObject.string),
            let replayGain = object.optional("replaygain", WireObject.wire(ReplayGainStatus.self)),
            let sleep = object.optional("sleep", WireObject.wire(SleepStatus.self)),
            let level = object.optional("level", WireObject.wire(LevelReading.self)),
            let chapters = object.optional("chapters", WireObject.wireArray(ChapterInfo.self)),
            let chapter = object.optional("chapter", WireObject.int),
            let stream = object.optional("stream", WireObject.bool),
            let buffering = object.optional("buffering", WireObject.bool)
        else { return nil }
        self.init(
            state: state, track: track, entry: entry, index: index, position: position, duration: duration,
            queueLength: queueLength, queueModified: queueModified, volume: volume, repeat: repeatMode,
            shuffle: shuffle, single: single ?? false, consume: consume ?? false, seeking: seeking,
            output: output, storageError: storageError, replayGain: replayGain, sleep: sleep, level: level,
            stream: stream, buffering: buffering,
            chapters: chapters, chapter: chapter, outputs: outputs)
    }
}

extension ProtocolError: WireDecodable {
    public init?(wire: JSONValue) {
        guard let object = WireObject(wire),
            let code = object.required("code").flatMap(WireObject.string),
            let message = object.required("message").flatMap(WireObject.string)
        else { return nil }
        self.init(ErrorCode(code), message)
    }
}
