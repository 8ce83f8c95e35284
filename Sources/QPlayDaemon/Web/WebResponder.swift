import Hummingbird
import NIOCore
import QPlayLibrary
import QPlayModel
import QPlayProtocol
import QPlayStreamOutput

/// Every plain HTTP request of the web remote: the page (`/`, filled in with the track
/// playing: `WebPageTemplate`) and its files (`WebAssets`), gzip'd when the browser takes
/// it, ETag and 304; `/art/<track id>`, and the sign-in when
/// `http_password` is set; `/stream`, the music encoded live, when `http_stream` is set.
/// `WebPolicy`'s rules first; the security headers on every answer. `/ws` is the
/// WebSocket (`WebSocketSession`); reached without an upgrade it is 400.
struct WebResponder: HTTPResponder {
    typealias Context = WebContext

    let policy: WebPolicy
    let signIn: WebSignIn?
    let art: WebArt
    let stream: StreamBroadcast?
    /// The daemon's status now, for the page's first paint (nil: it did not answer).
    let nowPlaying: @Sendable () async -> QPlayProtocol.Status?

    func respond(to request: Request, context: WebContext) async throws -> Response {
        var response = await route(request, context: context)
        for (name, value) in WebHeaders.security {
            response.headers[.init(name)!] = value
        }
        return response
    }

    private func route(_ request: Request, context: WebContext) async -> Response {
        let headers = request.headers
        let host = request.head.authority
        guard policy.checkHost(host) == .allowed else { return Self.text(.misdirectedRequest, "unknown host\n") }
        let path = request.uri.path
        if path == "/stream",
            policy.checkListen(host: host, origin: headers[.origin], fetchSite: headers[.init("Sec-Fetch-Site")!]) != .allowed
        {
            return Self.text(.forbidden, "the stream is not for other sites' pages\n")
        }
        if request.method == .post {
            let verdict = policy.checkChange(
                host: host, origin: headers[.origin], fetchSite: headers[.init("Sec-Fetch-Site")!])
            guard verdict == .allowed else { return Self.text(.forbidden, "cross-origin request refused\n") }
            guard path == "/login", let signIn else { return Self.text(.notFound, "not found\n") }
            return await logIn(request, signIn: signIn, context: context)
        }
        guard request.method == .get || request.method == .head else {
            return Self.text(.methodNotAllowed, "method not allowed\n")
        }
        if let signIn, !signIn.isSignedIn(cookieHeader: headers[.cookie]) {
            if path == "/login" { return asset("/login.html", request) }
            if path.hasPrefix("/art/") || path == "/ws" || path == "/stream" {
                return Self.text(.unauthorized, "sign in first\n")
            }
            // The sign-in page's own style sheet and pictures hold no secrets.
            if let file = WebAssets.files[path], !file.contentType.hasPrefix("text/html"),
                !file.contentType.contains("javascript")
            {
                return asset(path, request)
            }
            return Self.redirect("/login")
        }
        if path == "/login" { return Self.redirect("/") }
        if path == "/ws" { return Self.text(.badRequest, "WebSocket upgrade expected\n") }
        if path.hasPrefix("/art/") {
            return await art.response(for: String(path.dropFirst("/art/".count)), ifNoneMatch: headers[.ifNoneMatch])
        }
        if path == "/stream" {
            guard let stream else { return Self.text(.notFound, "no stream (http_stream is not set)\n") }
            return Self.listen(to: stream, request, channel: context.channel)
        }
        if path == "/login.html" { return Self.redirect("/") }
        if path == "/" {
            var slots = WebNowPlaying.slots(await nowPlaying())
            slots[.listenHidden] = stream == nil ? " hidden" : ""
            let page = WebAssets.page.fill(slots)
            return Self.answer(
                request, contentType: "text/html; charset=utf-8", etag: page.etag, body: page.body,
                gzipped: page.gzipped)
        }
        guard WebAssets.files[path] != nil else { return Self.text(.notFound, "not found\n") }
        return asset(path, request)
    }

    private func asset(_ path: String, _ request: Request) -> Response {
        guard let file = WebAssets.files[path] else { return Self.text(.notFound, "not found\n") }
        return Self.answer(
            request, contentType: file.contentType, etag: file.etag, body: file.body, gzipped: file.gzipped)
    }

    private static func answer(
        _ request: Request, contentType: String, etag: String, body: [UInt8], gzipped: [UInt8]
    ) -> Response {
        var headers: HTTPFields = [.contentType: contentType, .eTag: etag, .cacheControl: "no-cache"]
        headers[.vary] = "Accept-Encoding"
        if request.headers[.ifNoneMatch] == etag {
            return Response(status: .notModified, headers: headers)
        }
        let gzip = request.headers[.acceptEncoding]?.lowercased().contains("gzip") ?? false
        let body = gzip ? gzipped : body
        if gzip { headers[.contentEncoding] = "gzip" }
        headers[.contentLength] = String(body.count)
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }

    private func logIn(_ request: Request, signIn: WebSignIn, context: WebContext) async -> Response {
        var request = request
        guard let buffer = try? await request.collectBody(upTo: 4096) else {
            return Self.text(.contentTooLarge, "form too large\n")
        }
        let password = WebForm.value(of: "password", in: String(buffer: buffer)) ?? ""
        let address = context.remoteAddress?.ipAddress ?? "unknown"
        switch signIn.attempt(password, from: address) {
        case .signedIn(let token):
            var response = Self.redirect("/")
            response.headers[.setCookie] = "\(WebSignIn.cookieName)=\(token); Path=/; HttpOnly; SameSite=Strict"
            return response
        case .wrong:
            return Self.redirect("/login?failed=1")
        case .tooMany:
            return Self.text(.tooManyRequests, "too many failed sign-ins; wait a minute\n")
        }
    }

    /// The live stream for one listener, until it leaves or falls too far behind (its
    /// connection is closed then, as a write to it may be waiting for it to read).
    private static func listen(to stream: StreamBroadcast, _ request: Request, channel: any Channel) -> Response {
        var headers: HTTPFields = [.contentType: stream.encoding.contentType, .cacheControl: "no-cache, no-store"]
        headers[.init("icy-name")!] = "qplay"
        guard request.method == .get else { return Response(status: .ok, headers: headers) }
        let listener: StreamListener
        do {
            listener = try stream.listen()
        } catch {
            return text(.internalServerError, "the stream cannot be encoded: \(error)\n")
        }
        listener.onDrop { channel.close(promise: nil) }
        // The kernel's send buffer, left to grow, holds minutes of a stream for a client
        // that stopped reading; held to 32 KiB, such a listener shows as behind within
        // seconds (NIO's own buffer and the 2 s allowed come on top).
        channel.setOption(ChannelOptions.socketOption(.so_sndbuf), value: 32 * 1024).whenFailure { _ in }
        return Response(
            status: .ok, headers: headers,
            body: ResponseBody { writer in
                defer { stream.leave(listener) }
                for await chunk in listener.chunks {
                    try await writer.write(ByteBuffer(bytes: chunk))
                    listener.sent(chunk.count)
                }
                try await writer.finish(nil)
            })
    }

    static func text(_ status: HTTPResponse.Status, _ body: String) -> Response {
        Response(
            status: status,
            headers: [.contentType: "text/plain; charset=utf-8", .contentLength: String(body.utf8.count)],
            body: .init(byteBuffer: ByteBuffer(string: body)))
    }

    static func redirect(_ location: String) -> Response {
        Response(status: .seeOther, headers: [.location: location, .contentLength: "0"])
    }
}
