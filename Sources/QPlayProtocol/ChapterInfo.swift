/// One entry of `status.chapters`: a chapter's title and its start in seconds.
public struct ChapterInfo: Sendable, Hashable, Codable {
    public var title: String
    public var start: Double

    public init(title: String, start: Double) {
        self.title = title
        self.start = start
    }

    enum CodingKeys: String, CodingKey { case start, title }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(Seconds.rounded(start), forKey: .start)
        try container.encode(title, forKey: .title)
    }
}

extension ChapterInfo: WireEncodable {
    func write(to output: inout JSONOutput) {
        output.raw("{")
        output.key("start"); output.number(Seconds.rounded(start)); output.comma()
        output.key("title"); output.string(title)
        output.raw("}")
    }
}

extension ChapterInfo: WireDecodable {
    public init?(wire: JSONValue) {
        guard let object = WireObject(wire),
            let title = object.required("title").flatMap(WireObject.string),
            let start = object.required("start").flatMap(WireObject.double)
        else { return nil }
        self.init(title: title, start: start)
    }
}

/// `chapter`: to a chapter by 0-based index, or one on (+1) or back (-1).
public enum ChapterTarget: Sendable, Hashable {
    case index(Int)
    case step(Int)
}
