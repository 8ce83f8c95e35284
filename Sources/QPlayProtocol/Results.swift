/// A command result: anything the daemon puts under `result`.
public typealias ResultPayload = Encodable & Sendable

/// `{}`: the result of commands that only say "done".
public struct EmptyResult: Sendable, Hashable, Codable {
    public init() {}
}

/// The `search` result.
public struct SearchResult: Sendable, Hashable, Codable {
    public var tracks: [Track]
    public init(tracks: [Track]) { self.tracks = tracks }
}

/// The `add` result: how many entries joined and whether playback started from them.
public struct AddResult: Sendable, Hashable, Codable {
    public var added: Int
    public var started: Bool
    public init(added: Int, started: Bool) {
        self.added = added
        self.started = started
    }
}

/// What a released button did.
public enum ButtonAction: String, Sendable, Hashable, Codable, CaseIterable {
    case skip, restart, previous, seek
}

/// The `release` result.
public struct ReleaseResult: Sendable, Hashable, Codable {
    public var action: ButtonAction
    /// How long the button was held, as the daemon measured it.
    public var heldMilliseconds: Int

    public init(action: ButtonAction, heldMilliseconds: Int) {
        self.action = action
        self.heldMilliseconds = heldMilliseconds
    }

    enum CodingKeys: String, CodingKey { case action, heldMilliseconds = "held_ms" }
}

/// The `update` result without `wait`.
public struct UpdateStarted: Sendable, Hashable, Codable {
    public var started: Bool
    public init(started: Bool = true) { self.started = started }
}
