/// The first line the daemon sends on every connection.
public struct Greeting: Sendable, Hashable, Codable {
    /// Always `qplay/1` for this protocol version.
    public var `protocol`: String
    /// The daemon's version (semver).
    public var version: String

    public init(protocol: String = Greeting.protocolName, version: String = QPlayVersion.current) {
        self.protocol = `protocol`
        self.version = version
    }

    public static let protocolName = "qplay/1"
}

/// The version of qplay (daemon and client are released together).
public enum QPlayVersion {
    public static let current = "0.5.0"
}
