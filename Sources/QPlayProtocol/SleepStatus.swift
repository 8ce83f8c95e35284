/// `status.sleep`: the sleep timer, null when none is set.
public struct SleepStatus: Sendable, Hashable, Codable {
    /// Seconds until it acts: until it fires, or (end of track) left in the track; 0
    /// while its fade runs.
    public var remaining: Double
    /// Set by `{"end_of_track": true}`.
    public var endOfTrack: Bool

    public init(remaining: Double, endOfTrack: Bool = false) {
        self.remaining = remaining
        self.endOfTrack = endOfTrack
    }

    enum CodingKeys: String, CodingKey { case remaining, endOfTrack = "end_of_track" }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        remaining = try container.decode(Double.self, forKey: .remaining)
        endOfTrack = try container.decodeIfPresent(Bool.self, forKey: .endOfTrack) ?? false
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(endOfTrack, forKey: .endOfTrack)
        try container.encode(Seconds.rounded(remaining), forKey: .remaining)
    }
}

extension SleepStatus: WireEncodable {
    func write(to output: inout JSONOutput) {
        output.raw("{")
        output.key("end_of_track"); output.bool(endOfTrack); output.comma()
        output.key("remaining"); output.number(Seconds.rounded(remaining))
        output.raw("}")
    }
}

extension SleepStatus: WireDecodable {
    public init?(wire: JSONValue) {
        guard let object = WireObject(wire),
            let remaining = object.required("remaining").flatMap(WireObject.double),
            let endOfTrack = object.optional("end_of_track", WireObject.bool)
        else { return nil }
        self.init(remaining: remaining, endOfTrack: endOfTrack ?? false)
    }
}

/// What `sleep` asks for.
public enum SleepRequest: Sendable, Hashable {
    /// Fire after this many seconds (wall time).
    case after(Double)
    case endOfTrack
    case cancel
}
