import Synchronization

/// The web remote's sign-in: the password compared in constant time, session tokens
/// handed out as cookies, and five failed tries a minute per address at most.
final class WebSignIn: Sendable {
    static let cookieName = "qplay_session"
    static let triesPerMinute = 5

    enum Outcome: Equatable {
        case signedIn(token: String)
        case wrong
        case tooMany
    }

    private struct State {
        var sessions: Set<String> = []
        /// Failed tries by client address, the last minute's only.
        var failures: [String: [ContinuousClock.Instant]] = [:]
    }

    private let password: [UInt8]
    private let state = Mutex(State())

    init(password: String) {
        self.password = Array(password.utf8)
    }

    func attempt(_ given: String, from address: String) -> Outcome {
        let now = ContinuousClock.now
        let refused = state.withLock { state -> Bool in
            let recent = (state.failures[address] ?? []).filter { now - $0 < .seconds(60) }
            state.failures[address] = recent.isEmpty ? nil : recent
            return recent.count >= Self.triesPerMinute
        }
        if refused { return .tooMany }
        guard Self.equalInConstantTime(Array(given.utf8), password) else {
            state.withLock { state -> Void in state.failures[address, default: []].append(now) }
            return .wrong
        }
        var generator = SystemRandomNumberGenerator()
        let token = (0..<4).map { _ in
            let word = generator.next() as UInt64
            let hex = String(word, radix: 16)
            return String(repeating: "0", count: 16 - hex.count) + hex
        }.joined()
        _ = state.withLock { $0.sessions.insert(token) }
        return .signedIn(token: token)
    }

    /// Whether the `Cookie` header carries a session this daemon handed out.
    func isSignedIn(cookieHeader: String?) -> Bool {
        guard let cookieHeader else { return false }
        for pair in cookieHeader.split(separator: ";") {
            let trimmed = pair.drop(while: { $0 == " " })
            guard trimmed.hasPrefix(Self.cookieName + "=") else { continue }
            let token = String(trimmed.dropFirst(Self.cookieName.count + 1))
            if state.withLock({ $0.sessions.contains(token) }) { return true }
        }
        return false
    }

    /// The time taken depends on the lengths only, not on where the bytes differ.
    static func equalInConstantTime(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        var difference = UInt8(a.count == b.count ? 0 : 1)
        for index in 0..<max(a.count, b.count) {
            let x = index < a.count ? a[index] : 0
            let y = index < b.count ? b[index] : 0
            difference |= x ^ y
        }
        return difference == 0
    }
}
