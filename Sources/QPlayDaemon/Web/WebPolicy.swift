/// Who may use the web remote, from a request's headers alone: the rules every request
/// and the WebSocket upgrade pass (docs/PROTOCOL.md, "Over a WebSocket").
///
/// - The `Host` must be a loopback name or address, a host the daemon listens on, or one
///   of `http_hosts`: a page of another site whose name was rebound to this machine's
///   address (DNS rebinding) sends its own name and is turned away (421).
/// - The WebSocket upgrade and every POST need an `Origin` naming the same host, or
///   `Origin: null` with `Sec-Fetch-Site: same-origin` (what Chromium sends for a plain
///   form post under `Referrer-Policy: no-referrer`): another site's page cannot drive
///   the player through the user's browser (403).
/// - `/stream` is not for other sites' pages either: a browser says where a request
///   comes from (`Sec-Fetch-Site`, and `Origin` where it sends one), a player (mpv, VLC,
///   ffmpeg) sends neither, and the page's own audio element is `same-origin` (403).
struct WebPolicy: Sendable {
    /// Lowercased host names and addresses, without ports, allowed besides loopback.
    let hosts: Set<String>
    /// Whether a sign-in is needed (`http_password` is set).
    let needsSession: Bool

    init(listen: [MPDAddress], extraHosts: [String], needsSession: Bool) {
        var hosts = Set(extraHosts.map { Self.name(ofHost: $0) })
        for case .tcp(let host, _) in listen where host != "0.0.0.0" && host != "::" {
            hosts.insert(Self.name(ofHost: host))
        }
        self.hosts = hosts
        self.needsSession = needsSession
    }

    enum Verdict: Equatable {
        case allowed
        case misdirected
        case forbidden
    }

    /// The `Host` check alone (every request).
    func checkHost(_ host: String?) -> Verdict {
        guard let host, !host.isEmpty else { return .misdirected }
        let name = Self.name(ofHost: host)
        return Self.isLoopback(name) || hosts.contains(name) ? .allowed : .misdirected
    }

    /// The `Host` check and the same-origin check (POST and the WebSocket upgrade).
    func checkChange(host: String?, origin: String?, fetchSite: String?) -> Verdict {
        guard checkHost(host) == .allowed, let host else { return .misdirected }
        guard let origin else { return .forbidden }
        if origin == "null" {
            return fetchSite?.lowercased() == "same-origin" ? .allowed : .forbidden
        }
        guard let schemeEnd = origin.range(of: "://") else { return .forbidden }
        let scheme = origin[..<schemeEnd.lowerBound].lowercased()
        guard scheme == "http" || scheme == "https" else { return .forbidden }
        let authority = origin[schemeEnd.upperBound...].lowercased()
        return authority == host.lowercased() ? .allowed : .forbidden
    }

    /// The `Host` check and, for a request a browser made, that no other site's page made
    /// it (`/stream`).
    func checkListen(host: String?, origin: String?, fetchSite: String?) -> Verdict {
        guard checkHost(host) == .allowed else { return .misdirected }
        if let origin { return checkChange(host: host, origin: origin, fetchSite: fetchSite) }
        switch fetchSite?.lowercased() {
        case nil, "same-origin", "none": return .allowed
        default: return .forbidden
        }
    }

    /// `Host` without its port, lowercased, without a trailing dot; IPv6 without brackets.
    static func name(ofHost host: String) -> String {
        var text = Substring(host.lowercased())
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { return String(text) }
            return String(text[text.index(after: text.startIndex)..<close])
        }
        if text.filter({ $0 == ":" }).count == 1, let colon = text.firstIndex(of: ":") {
            text = text[..<colon]
        }
        if text.hasSuffix(".") { text = text.dropLast() }
        return String(text)
    }

    static func isLoopback(_ name: String) -> Bool {
        if name == "localhost" || name.hasSuffix(".localhost") || name == "::1" { return true }
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4, parts[0] == "127" else { return false }
        return parts.allSatisfy { part in
            !part.isEmpty && part.count <= 3 && part.allSatisfy(\.isASCII) && part.allSatisfy(\.isNumber)
                && (Int(part) ?? 256) < 256
        }
    }
}
