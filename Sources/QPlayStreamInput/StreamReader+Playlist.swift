import FoundationEssentials
import QPlayStreams

extension StreamReader {
    /// The body of a station's playlist link (`.m3u`, `.pls`), up to
    /// `StreamPlaylist.maximumBytes`, for `StreamPlaylist.parse`; redirects and
    /// timeouts as for a stream.
    public func fetchPlaylist(_ url: URL) async throws(StreamReadError) -> (body: [UInt8], url: URL) {
        guard case .success(let url) = StreamURL.check(url) else { throw .badURL(url.absoluteString) }
        let transfer = try CurlTransfer(
            url: url, icyMetadata: false, options: options, sink: .collect(limit: StreamPlaylist.maximumBytes))
        transfer.start()
        let head = try await Self.checkedHead(transfer)
        let end = await transfer.pump()
        guard end == .ended else { throw end }
        return (transfer.collected, URL(string: head.url) ?? url)
    }
}
