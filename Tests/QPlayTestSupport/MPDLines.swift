import Foundation

/// MPD's text protocol on a `LineSocketClient`: a response is every line up to and
/// including its `OK` or `ACK …` line.
extension LineSocketClient {
    /// Connects to an MPD server (real MPD or qplayd's frontend) and reads its greeting,
    /// which must be `OK MPD VERSION`.
    public static func mpd(host: String = "127.0.0.1", port: Int, timeoutSeconds: Int = 10) throws -> (
        client: LineSocketClient, greeting: String
    ) {
        let client = try LineSocketClient(host: host, port: port, timeoutSeconds: timeoutSeconds)
        let greeting = try client.readLine()
        guard greeting.hasPrefix("OK MPD ") else {
            throw Failure(description: "not an MPD greeting: \(greeting)")
        }
        return (client, greeting)
    }

    /// The lines of the next response, its closing `OK` or `ACK` line last.
    public func mpdResponse() throws -> [String] {
        var lines: [String] = []
        while true {
            let line = try readLine()
            lines.append(line)
            if line == "OK" || line.hasPrefix("ACK ") { return lines }
        }
    }

    /// Sends one request line and returns its response.
    public func mpd(_ line: String) throws -> [String] {
        try send(line)
        return try mpdResponse()
    }

    /// The `key: value` pairs of a response that must end in `OK`, in order.
    public func mpdFields(_ line: String) throws -> [(key: String, value: String)] {
        let response = try mpd(line)
        guard response.last == "OK" else {
            throw Failure(description: "\(line) failed: \(response.joined(separator: "\n"))")
        }
        return response.dropLast().map { field in
            guard let colon = field.range(of: ": ") else { return (field, "") }
            return (String(field[..<colon.lowerBound]), String(field[colon.upperBound...]))
        }
    }

    /// `status` as a dictionary.
    public func mpdStatus() throws -> [String: String] {
        try mpdDictionary("status")
    }

    /// The fields of a response that must end in `OK`, a key seen twice keeping the first.
    public func mpdDictionary(_ line: String) throws -> [String: String] {
        Dictionary(try mpdFields(line).map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first })
    }
}
