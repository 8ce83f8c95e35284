/// MPD's error numbers (`ACK [NUMBER@index]`), as its protocol/Ack.hxx defines them.
public enum MPDErrorCode: Int, Sendable {
    case notList = 1, argument = 2, password = 3, permission = 4, unknown = 5
    case noExist = 50, playlistMax = 51, system = 52, playlistLoad = 53, updateAlready = 54, playerSync = 55,
        exist = 56
}

/// What becomes of the connection after an error: MPD answers most errors and keeps
/// serving, but hangs up on a line that is not MPD's protocol at all (a badly routed
/// HTTP request, say) — with its ACK when the command word is malformed, without a
/// word when the line does not even start with a lower-case letter or a command list
/// grows beyond its limit.
public enum MPDClosing: Sendable, Equatable {
    case keepOpen, afterReply, withoutReply
}

/// One failed command: the `ACK` line MPD would send for it.
public struct MPDError: Error, Sendable, Equatable {
    public var code: MPDErrorCode
    public var message: String
    /// The command that failed, `{…}` in the ACK; empty when the line never got as far
    /// as naming a known command.
    public var command: String
    public var closing: MPDClosing

    public init(_ code: MPDErrorCode, _ message: String, command: String = "", closing: MPDClosing = .keepOpen) {
        self.code = code
        self.message = message
        self.command = command
        self.closing = closing
    }

    /// `ACK [code@index] {command} message\n`; `index` is the command's place in a
    /// command list (0 outside one). A newline in the message would end the line early,
    /// so it becomes a space.
    public func ackLine(index: Int) -> String {
        "ACK [\(code.rawValue)@\(index)] {\(MPDResponse.oneLine(command))} \(MPDResponse.oneLine(message))\n"
    }

    /// The same error naming `command`, for handlers whose argument parsers do not know it.
    public func naming(_ command: String) -> MPDError {
        var copy = self
        copy.command = command
        return copy
    }
}
