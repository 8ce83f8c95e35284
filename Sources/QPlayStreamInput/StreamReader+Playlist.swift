import AsyncHTTPClient
import FoundationEssentials
import NIOCore
import QPlayStreams

extension StreamReader {
    /// The body of a station's playlist link (`.m3u`, `.pls`), up to
    /// `StreamPlaylist.maximumBytes`, for `StreamPlaylist.parse`; redirects and
    /// timeouts as for a stream.
    public func fetchPlaylist(_ url: URL) async throws(StreamReadError) -> (body: [UInt8], url: URL) {
        guard case .success(let url) = StreamURL.check(url) else { throw .badURL(url.absoluteString) }
        var request = HTTPClientRequest(url: url.absoluteString)
        request.headers.add(name: "User-Agent", value: "qplay")
        do {
            let response = try await client.execute(request, timeout: TimeAmount(options.answerTimeout))
            guard (200..<300).contains(response.status.code) else {
                throw StreamReadError.httpStatus(Int(response.status.code), response.status.reasonPhrase)
            }
            let body = try await response.body.collect(upTo: StreamPlaylist.maximumBytes)
            return (Array(body.readableBytesView), response.url ?? url)
        } catch let error as StreamReadError {
            throw error
        } catch {
            throw Self.classify(error, connectTimeout: options.connectTimeout)
        }
    }
}
