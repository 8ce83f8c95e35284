/// Limits of one stream reader; the defaults are the radio player's.
public struct StreamReaderOptions: Sendable {
    /// To establish the TCP (and TLS) connection.
    public var connectTimeout: Duration = .seconds(10)
    /// From the request to the response head, redirects included.
    public var answerTimeout: Duration = .seconds(15)
    /// Without a byte while the reader waits for one (not while the buffer is full).
    public var stallTimeout: Duration = .seconds(10)
    public var maximumRedirects = 5
    /// Audio bytes held between the network and the decoder: 256 KiB is 16 s of a
    /// 128 kb/s stream.
    public var bufferCapacity = 256 * 1024

    public init() {}
}
