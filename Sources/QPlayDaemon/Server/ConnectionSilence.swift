/// What a connection that sends nothing is doing, as its frontend sees it: the
/// `ConnectionHandler` closes a silent one after its timeout, so that connections held
/// open and quiet cannot take every place under the connection cap.
enum ConnectionSilence: Sendable {
    /// It waits by design (an MPD client in `idle`, a JSON client subscribed to events,
    /// as a status bar is for days): never closed for its silence.
    case waitsByDesign
    case authenticated
    /// It has not given the password yet: closed sooner.
    case unauthenticated
}

/// How long a connection may send nothing, by what it is doing.
struct SilenceTimeouts: Sendable {
    /// A client that has not authenticated gets this long at most: a silent stranger
    /// holds a place for seconds, not a minute.
    static let unauthenticatedLimit = Duration.seconds(10)

    var authenticated: Duration
    var unauthenticated: Duration

    /// `connection_timeout` for everyone; the shorter of it and ten seconds before the
    /// password.
    init(connectionTimeout: Duration) {
        authenticated = connectionTimeout
        unauthenticated = min(connectionTimeout, Self.unauthenticatedLimit)
    }

    func limit(_ silence: ConnectionSilence) -> Duration? {
        switch silence {
        case .waitsByDesign: nil
        case .authenticated: authenticated
        case .unauthenticated: unauthenticated
        }
    }
}
