import QPlayProtocol

/// The invocations status bars and key bindings spawn all the time — `status`
/// (`--format`, `--json`), `toggle`, `next`, `press next`, ... with at most `--socket`
/// and `--timeout` —
/// read without building ArgumentParser's command tree, which costs more than the
/// rest of the run. Anything else (help, other commands, repeated or unknown options,
/// `--opt=value`, a socket path that looks like an option) is left to ArgumentParser,
/// so usage errors and help read exactly as before.
struct QuickInvocation {
    enum Action {
        case status(format: String?)
        case quiet(Command)
        case press(ButtonName)
        case release(ButtonName)
    }

    var action: Action
    var connection: Connection

    init?(_ arguments: [String]) {
        guard let name = arguments.first else { return nil }
        var rest = arguments.dropFirst()
        var socket: String?
        var timeout: Timeout?
        var json = false
        var format: String?
        var button: ButtonName?
        let takesFormat = name == "status"
        let takesButton = name == "press" || name == "release"
        while let argument = rest.popFirst() {
            switch argument {
            case "--socket":
                guard socket == nil, let value = rest.popFirst(), !value.hasPrefix("-") else { return nil }
                socket = value
            case "--timeout":
                guard timeout == nil, let value = rest.popFirst(), let seconds = Timeout(argument: value) else {
                    return nil
                }
                timeout = seconds
            case "--json":
                guard !json else { return nil }
                json = true
            case "--format" where takesFormat:
                // Any value, as `status --format` takes it: a template may begin with '-'.
                guard format == nil, let value = rest.popFirst() else { return nil }
                format = value
            case "next" where takesButton && button == nil, "prev" where takesButton && button == nil:
                button = ButtonName(rawValue: argument)
            default:
                return nil
            }
        }
        // A malformed $QPLAY_TIMEOUT is a usage error: ArgumentParser's path reports it.
        guard let resolved = try? Timeout.resolve(explicit: timeout) else { return nil }
        connection = Connection(socket: socket, json: json, timeout: resolved)
        switch name {
        case "status":
            // A template with an error is ArgumentParser's to report, as a usage error.
            if let format, (try? StatusFormat.validate(format)) == nil { return nil }
            action = .status(format: format)
        case "press", "release":
            guard let button else { return nil }
            action = name == "press" ? .press(button) : .release(button)
        default:
            guard let command = quietCommands[name] else { return nil }
            action = .quiet(command)
        }
    }

    func run() throws {
        switch action {
        case .status(let format): try StatusCommand.show(format: format, connection: connection)
        case .quiet(let command): try performing { _ = try connection.run(command) }
        case .press(let button): try performing { _ = try connection.run(.press(button.button)) }
        case .release(let button): try Release.release(button, connection: connection)
        }
    }
}
