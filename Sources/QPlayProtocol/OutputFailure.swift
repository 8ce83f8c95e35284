/// `error` event data when an audio output fails or stalls (status `outputs` shows it
/// until it works again): the output as configured and why, for people.
public struct OutputFailure: Sendable, Hashable, Codable {
    public var output: String
    /// "stalled: took no samples for 500 ms", "no reader has the FIFO open …".
    public var reason: String

    public init(output: String, reason: String) {
        self.output = output
        self.reason = reason
    }
}
