import SystemPackage

/// Why the configuration could not be resolved. `description` is the message for the
/// user: it names where the bad value came from (file and line, or key, or flag).
public struct ConfigurationError: Error, Equatable, CustomStringConvertible {
    /// The config file path, a flag such as `--output`, or a variable such as `QPLAY_SOCKET`.
    public var origin: String
    /// The line (1-based) in the config file, when known.
    public var line: Int?
    public var column: Int?
    /// The config key, when the problem is a key's value.
    public var key: String?
    public var reason: String

    public init(origin: String, line: Int? = nil, column: Int? = nil, key: String? = nil, reason: String) {
        self.origin = origin
        self.line = line
        self.column = column
        self.key = key
        self.reason = reason
    }

    public var description: String {
        var text = origin
        if let line {
            text += ":\(line)"
            if let column { text += ":\(column)" }
        }
        if let key { text += ": key '\(key)'" }
        return text + ": " + reason
    }
}
