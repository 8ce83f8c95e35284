/// Headers on every answer of the web remote.
enum WebHeaders {
    /// No inline script or style, nothing from elsewhere; `default-src 'self'` covers
    /// the WebSocket to the same host in Chromium.
    static let contentSecurityPolicy = "default-src 'self'"
    static let security: [(String, String)] = [
        ("Content-Security-Policy", contentSecurityPolicy),
        ("X-Content-Type-Options", "nosniff"),
        ("Referrer-Policy", "no-referrer"),
    ]
}
