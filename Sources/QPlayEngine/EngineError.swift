/// Why the engine refused a command; maps onto the protocol codes `no_match`,
/// `not_found`, `bad_request` and `queue_full`. A refused command changes nothing.
public enum EngineError: Error, Equatable, Sendable {
    case noMatch
    case notFound(String)
    case badRequest(String)
    /// An `add` of `adding` tracks to a collection of `length` entries would pass `limit`
    /// (`EngineConfiguration.maxQueueLength`).
    case queueFull(limit: Int, length: Int, adding: Int)
}
