import QPlayMPD

/// One MPD connection's request state and its way through a line: `idle`/`noidle`,
/// command lists, the password rule, the command table. Runs on the connection's
/// request loop only, so it needs no lock; what events touch lives in `MPDConnection`.
struct MPDSession {
    /// The protocol version in the greeting: what MPD 0.23 announces, so that clients
    /// enable the commands and filter expressions qplay answers.
    static let protocolVersion = "0.23.0"

    enum Outcome {
        case reply([UInt8])
        case replyAndClose([UInt8])
        /// The client waits in `idle`; an event or `noidle` answers it.
        case idle
    }

    let context: MPDCommandContext
    let connection: MPDConnection
    /// Where long answers go in parts as they are made; nil: answers are kept whole.
    let stream: MPDAnswerStream?
    private var settings: MPDSessionSettings
    private var commandList = MPDCommandList()

    init(context: MPDCommandContext, connection: MPDConnection, password: String?, stream: MPDAnswerStream? = nil) {
        self.context = context
        self.connection = connection
        self.stream = stream
        settings = MPDSessionSettings(password: password)
    }

    mutating func handle(line: [UInt8]) async -> Outcome {
        if connection.isIdle {
            // While idle MPD accepts `noidle` only; anything else ends the connection.
            if Self.isNoidle(line) {
                _ = connection.endIdle()
                return .reply([])
            }
            return .replyAndClose([])
        }
        let step: MPDCommandListStep
        do {
            let request = try MPDRequestParser.parse(line)
            // A `noidle` after an event already answered the idle is ignored, as by MPD.
            if request.name == "noidle" { return .reply([]) }
            step = commandList.feed(request)
        } catch {
            step = commandList.feed(unparsable: error)
        }
        switch step {
        case .buffered:
            return .reply([])
        case .failed(let error):
            return failed(error, index: 0, after: MPDResponse())
        case .run(let request):
            var response = MPDResponse()
            let (ok, effect) = await run(request, index: 0, into: &response)
            if ok { response.ok() }
            switch effect {
            case .none: return .reply(response.bytes)
            case .close: return .replyAndClose(response.bytes)
            case .gone: return .replyAndClose([])
            case .idle(let wanted):
                if let answer = connection.beginIdle(wanted) { return .reply(answer) }
                return .idle
            }
        case .runList(let requests, let okEach):
            return await runList(requests, okEach: okEach, then: nil)
        case .runListThenFail(let requests, let okEach, let failure, let index):
            return await runList(requests, okEach: okEach, then: (failure, index))
        }
    }

    /// A command list: each command in turn, `list_OK` after each with
    /// `command_list_ok_begin`, one `OK` at the end; the first failure's ACK (with its
    /// index) ends it. `idle` inside a list is answered at once, not waited for.
    /// The answer leaves in parts as the commands run (as MPD writes it), each part once
    /// the client has room: a list of thousands of long answers costs one part.
    private mutating func runList(_ requests: [MPDRequest], okEach: Bool, then failure: (MPDError, Int)?) async -> Outcome {
        var response = MPDResponse()
        var closes = false
        for (index, request) in requests.enumerated() {
            let (ok, effect) = await run(request, index: index, into: &response)
            if case .gone = effect { return .replyAndClose([]) }
            guard ok else { return closes ? .replyAndClose(response.bytes) : .reply(response.bytes) }
            if case .close = effect { closes = true }
            if okEach { response.listOK() }
            do {
                try await stream?.sendPart(of: &response)
            } catch {
                return .replyAndClose([])
            }
        }
        if let (error, index) = failure { return failed(error, index: index, after: response) }
        response.ok()
        return closes ? .replyAndClose(response.bytes) : .reply(response.bytes)
    }

    /// An error the codec raised before any command ran: MPD hangs up on lines that are
    /// not its protocol at all, with or without the ACK.
    private func failed(_ error: MPDError, index: Int, after response: MPDResponse) -> Outcome {
        var response = response
        switch error.closing {
        case .keepOpen:
            response.ack(error, index: index)
            return .reply(response.bytes)
        case .afterReply:
            response.ack(error, index: index)
            return .replyAndClose(response.bytes)
        case .withoutReply:
            return .replyAndClose(response.bytes)
        }
    }

    private enum Effect {
        case none, close
        case idle(MPDSubsystems)
        /// The client went away while its answer was being sent.
        case gone
    }

    /// MPD's three messages for an argument count out of range: "wrong number" when the
    /// command takes exactly one count, else "too few" or "too many" (clients show them).
    static func arityError(_ command: MPDCommand, count: Int) -> MPDError {
        let problem =
            command.arguments.count == 1 ? "wrong number of" : count < command.arguments.lowerBound ? "too few" : "too many"
        return MPDError(.argument, "\(problem) arguments for \"\(command.name)\"", command: command.name)
    }

    /// Runs one command into `response`; false when it failed (its ACK is written).
    private mutating func run(_ request: MPDRequest, index: Int, into response: inout MPDResponse) async -> (Bool, Effect) {
        guard let command = MPDCommandTable.command(named: request.name) else {
            append(MPDError(.unknown, "unknown command \"\(request.name)\""), index: index, to: &response)
            return (false, .none)
        }
        guard settings.permits(command) else {
            append(
                MPDError(.permission, "you don't have permission for \"\(command.name)\"", command: command.name),
                index: index, to: &response)
            return (false, .none)
        }
        guard command.arguments.contains(request.arguments.count) else {
            append(Self.arityError(command, count: request.arguments.count), index: index, to: &response)
            return (false, .none)
        }
        var call = MPDCall(
            context: context, arguments: request.arguments, response: response, settings: settings, stream: stream)
        do {
            try await command.run(&call)
        } catch is MPDConnectionClosed {
            return (false, .gone)
        } catch {
            response = call.response
            var failure = MPDErrors.translate(error)
            failure.command = command.name
            append(failure, index: index, to: &response)
            return (false, .none)
        }
        response = call.response
        settings = call.settings
        if settings.authorized { connection.markAuthorized() }
        if call.closes { return (true, .close) }
        if let wanted = call.idle { return (true, .idle(wanted)) }
        return (true, .none)
    }

    private func append(_ error: MPDError, index: Int, to response: inout MPDResponse) {
        response.ack(error, index: index)
    }

    private static func isNoidle(_ line: [UInt8]) -> Bool {
        var end = line.count
        while end > 0, line[end - 1] == 0x20 || line[end - 1] == 0x0D || line[end - 1] == 0x09 { end -= 1 }
        return line[..<end].elementsEqual("noidle".utf8)
    }
}

/// What a command may read and change of its connection: the password state and the
/// tags songs show.
struct MPDSessionSettings: Sendable {
    let password: String?
    var authorized: Bool
    /// The tags `tagtypes` left enabled; songs show only these.
    var tags: Set<MPDTag> = Set(MPDSongWriter.supportedTags)
    /// The most bytes one `albumart` or `readpicture` chunk carries (`binarylimit`).
    var binaryLimit = MPDArtworkCommands.defaultBinaryLimit

    init(password: String?) {
        self.password = password
        authorized = password == nil
    }

    func permits(_ command: MPDCommand) -> Bool {
        authorized || command.beforePassword
    }
}
