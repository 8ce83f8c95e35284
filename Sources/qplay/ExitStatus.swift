/// qplay's exit statuses: the one rule that `qplay --help` and README.md ("Exit codes")
/// state. What qplay fails to write to stderr (closed, or a pipe nobody reads) never
/// changes them.
enum ExitStatus {
    static let success: Int32 = 0
    /// The daemon answered with an error, nothing matched (`search`), or the daemon sent
    /// a reply qplay cannot read.
    static let refused: Int32 = 1
    /// A usage error: an unknown command or option, a bad or missing argument, a bad
    /// `$QPLAY_TIMEOUT`; found before the daemon is asked.
    static let usage: Int32 = 2
    /// No daemon answers on the socket (or the connection broke).
    static let noDaemon: Int32 = 3
    /// The daemon is there but did not answer within the timeout.
    static let noAnswer: Int32 = 4

    /// The rule as `qplay --help` prints it.
    static let summary = """
        Exit codes: 0 success; 1 the daemon answered with an error, nothing matched \
        (`search`), or its reply could not be read; 2 usage error (unknown command or \
        option, bad argument), found before the daemon is asked; 3 no daemon answers on \
        the socket; 4 the daemon did not answer within the timeout. A closed or unread \
        stderr does not change them.
        """
}
