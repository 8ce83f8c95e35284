/// Headers on every answer of the web remote.
enum WebHeaders {
    /// Nothing from elsewhere and no inline style; no inline script but index.html's own
    /// (allowed by their hashes, which scripts/gen-web-assets writes beside the page).
    /// `default-src 'self'` covers the WebSocket to the same host in Chromium.
    static let contentSecurityPolicy =
        WebAssets.scriptHashes.isEmpty
        ? "default-src 'self'"
        : "default-src 'self'; script-src 'self' " + WebAssets.scriptHashes.joined(separator: " ")
    static let security: [(String, String)] = [
        ("Content-Security-Policy", contentSecurityPolicy),
        ("X-Content-Type-Options", "nosniff"),
        ("Referrer-Policy", "no-referrer"),
    ]
}
