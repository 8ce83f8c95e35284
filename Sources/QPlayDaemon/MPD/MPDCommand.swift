import QPlayMPD

/// One row of the MPD command table, as MPD's own command/AllCommands.cxx: the name, whether
/// it works before `password`, how many arguments it takes, and the handler.
struct MPDCommand: Sendable {
    typealias Handler = @Sendable (inout MPDCall) async throws -> Void

    let name: String
    /// Works on a connection that has not sent the password yet.
    let beforePassword: Bool
    let arguments: ClosedRange<Int>
    let run: Handler

    init(_ name: String, beforePassword: Bool = false, arguments: ClosedRange<Int> = 0...0, _ run: @escaping Handler) {
        self.name = name
        self.beforePassword = beforePassword
        self.arguments = arguments
        self.run = run
    }
}

/// What a handler works with: the services, its arguments, the response it writes and the
/// connection's settings it may change; `closes` and `idle` tell the session what
/// follows the answer.
struct MPDCall {
    let context: MPDCommandContext
    let arguments: [String]
    var response: MPDResponse
    var settings: MPDSessionSettings
    var closes = false
    /// `idle`: the subsystems the client waits for.
    var idle: MPDSubsystems?
    /// Where the answer goes in parts as it grows; nil: it is kept whole.
    let stream: MPDAnswerStream?

    init(
        context: MPDCommandContext, arguments: [String], response: MPDResponse, settings: MPDSessionSettings,
        stream: MPDAnswerStream? = nil
    ) {
        self.context = context
        self.arguments = arguments
        self.response = response
        self.settings = settings
        self.stream = stream
    }

    /// Sends what the answer holds once it reaches a part's size. Handlers that write
    /// many songs call it between them.
    mutating func sendPart() async throws(MPDConnectionClosed) {
        try await stream?.sendPart(of: &response)
    }

    subscript(_ index: Int) -> String { arguments[index] }

    /// The argument at `index`, when given.
    func argument(_ index: Int) -> String? {
        index < arguments.count ? arguments[index] : nil
    }
}
