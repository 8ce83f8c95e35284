/// Headers on every answer of the web remote.
enum WebHeaders {
    /// Nothing from elsewhere and no style attribute; no inline script or style but
    /// index.html's own (allowed by their hashes, which scripts/gen-web-assets writes
    /// beside the page). `default-src 'self'` covers the WebSocket to the same host in
    /// Chromium.
    static let contentSecurityPolicy = (["default-src 'self'"]
        + [("script-src", WebAssets.scriptHashes), ("style-src", WebAssets.styleHashes)]
        .filter { !$0.1.isEmpty }
        .map { "\($0.0) 'self' " + $0.1.joined(separator: " ") }).joined(separator: "; ")
    static let security: [(String, String)] = [
        ("Content-Security-Policy", contentSecurityPolicy),
        ("X-Content-Type-Options", "nosniff"),
        ("Referrer-Policy", "no-referrer"),
    ]
}
