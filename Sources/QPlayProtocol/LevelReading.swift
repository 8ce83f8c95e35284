/// `level` event data and `status.level`: per channel, the RMS and the peak in dBFS of
/// the last ~100 ms handed to the output, after volume (silence −160, a full-scale sine
/// rms −3.01 and peak 0).
public struct LevelReading: Sendable, Hashable, Codable {
    public var rmsDB: [Double]
    public var peakDB: [Double]

    /// What silence reads as.
    public static let floor = -160.0

    public init(rmsDB: [Double], peakDB: [Double]) {
        self.rmsDB = rmsDB
        self.peakDB = peakDB
    }

    enum CodingKeys: String, CodingKey {
        case rmsDB = "rms_db"
        case peakDB = "peak_db"
    }

    /// The loudest channel's RMS: what one number (`{level_db}`, a one-line bar) shows.
    public var loudestRMS: Double { rmsDB.max() ?? Self.floor }
}

extension LevelReading: WireEncodable {
    func write(to output: inout JSONOutput) {
        output.raw("{")
        output.key("peak_db"); output.raw("[")
        for (index, value) in peakDB.enumerated() {
            if index > 0 { output.comma() }
            output.number(value)
        }
        output.raw("]"); output.comma()
        output.key("rms_db"); output.raw("[")
        for (index, value) in rmsDB.enumerated() {
            if index > 0 { output.comma() }
            output.number(value)
        }
        output.raw("]")
        output.raw("}")
    }
}

extension LevelReading: WireDecodable {
    public init?(wire: JSONValue) {
        guard let object = WireObject(wire),
            case .array(let rms)? = object.required("rms_db"),
            case .array(let peak)? = object.required("peak_db")
        else { return nil }
        let rmsValues = rms.compactMap(WireObject.double)
        let peakValues = peak.compactMap(WireObject.double)
        guard rmsValues.count == rms.count, peakValues.count == peak.count else { return nil }
        self.init(rmsDB: rmsValues, peakDB: peakValues)
    }
}
