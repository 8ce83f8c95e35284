import Testing

/// One row of a table of web requests: what is sent, on a connection of its own, and
/// the status the answer must have. `name` says which row failed.
struct WebStatusCase {
    var name: String
    var status: Int
    var send: (WebServerClient) throws -> WebServerClient.Reply

    static func request(
        _ name: String, _ method: String = "GET", _ path: String, headers: [(String, String)] = [], body: String = "",
        status: Int
    ) -> WebStatusCase {
        WebStatusCase(name: name, status: status) { try $0.request(method, path, headers: headers, body: body) }
    }

    static func upgrade(
        _ name: String, origin: String?, host: String? = nil, extra: [(String, String)] = [], status: Int
    ) -> WebStatusCase {
        WebStatusCase(name: name, status: status) { try $0.upgrade(origin: origin, host: host, extra: extra) }
    }

    /// Runs every row against the web remote on 127.0.0.1:`port`; a wrong status or a
    /// failed request is recorded under the row's name and the next row still runs.
    static func expectAll(_ cases: [WebStatusCase], port: Int, sourceLocation: SourceLocation = #_sourceLocation) {
        for row in cases {
            do {
                let reply = try row.send(WebServerClient(port: port))
                #expect(reply.status == row.status, "\(row.name): got \(reply.status)", sourceLocation: sourceLocation)
            } catch {
                Issue.record("\(row.name): \(error)", sourceLocation: sourceLocation)
            }
        }
    }
}
