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

    init(context: MPDCommandContext, arguments: [String], response: MPDResponse, settings: MPDSessionSettings) {
        self.context = context
        self.arguments = arguments
        self.response = response
        self.settings = settings
    }

    subscript(_ index: Int) -> String { arguments[index] }

    /// The argument at `index`, when given.
    func argument(_ index: Int) -> String? {
        index < arguments.count ? arguments[index] : nil
    }
}
