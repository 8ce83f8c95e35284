/// Why the engine refused a command; maps onto the protocol codes `no_match`,
/// `not_found` and `bad_request`. A refused command changes nothing.
public enum EngineError: Error, Equatable, Sendable {
    case noMatch
    case notFound(String)
    case badRequest(String)
}
