/// What to do with one request given the command-list state.
public enum MPDCommandListStep: Sendable, Equatable {
    /// Outside a list: run it now, answer with OK or ACK.
    case run(MPDRequest)
    /// Kept for the list; nothing is answered yet.
    case buffered
    /// `command_list_end`: run these in order, stop at the first error (its ACK names
    /// its index); `okEach` (`command_list_ok_begin`): `list_OK` after each success;
    /// one `OK` at the end when all succeeded.
    case runList([MPDRequest], okEach: Bool)
    /// `command_list_end` of a list with a line that did not parse: run `requests` as
    /// for `runList`, then answer `failure` as the ACK at `index` (where MPD, which
    /// parses a listed line only when it runs it, reports it) instead of OK.
    case runListThenFail([MPDRequest], okEach: Bool, failure: MPDError, index: Int)
    case failed(MPDError)
}

/// The `command_list_begin` / `command_list_ok_begin` / `command_list_end` state of one
/// connection (client/Process.cxx, command/CommandListBuilder).
public struct MPDCommandList: Sendable {
    private var buffered: [MPDRequest] = []
    /// The first listed line that did not parse; MPD never runs past it.
    private var failure: (error: MPDError, index: Int)?
    private var okEach = false
    private var size = 0
    public private(set) var isActive = false
    /// MPD's default max_command_list_size (2048 KiB), counted as MPD counts it: the
    /// bytes of the lines kept.
    public var maximumSize: Int

    public init(maximumSize: Int = 2048 * 1024) { self.maximumSize = maximumSize }

    public mutating func feed(_ request: MPDRequest) -> MPDCommandListStep {
        let bare = request.arguments.isEmpty
        if isActive {
            if bare && request.name == "command_list_end" {
                let list = buffered
                let each = okEach
                let failed = failure
                reset()
                guard let failed else { return .runList(list, okEach: each) }
                return .runListThenFail(list, okEach: each, failure: failed.error, index: failed.index)
            }
            // Nothing after a failing line runs.
            guard failure == nil else { return .buffered }
            // Inside a list MPD keeps every other line as it is, a nested begin too
            // (which, run, is an unknown command).
            size += MPDQuoting.line(request.name, request.arguments).utf8.count + 1
            guard size <= maximumSize else {
                reset()
                return .failed(MPDError(.unknown, "command list size is larger than the max", closing: .withoutReply))
            }
            buffered.append(request)
            return .buffered
        }
        switch request.name {
        case "command_list_begin" where bare, "command_list_ok_begin" where bare:
            isActive = true
            okEach = request.name == "command_list_ok_begin"
            return .buffered
        case "command_list_begin", "command_list_ok_begin", "command_list_end":
            // Not the exact line MPD looks for: it reaches MPD's command table, which
            // does not know these words.
            return .failed(MPDError(.unknown, "unknown command \"\(request.name)\""))
        default:
            return .run(request)
        }
    }

    /// A line `MPDRequestParser` refused. Outside a list it fails now. Inside one MPD
    /// keeps the raw line and fails it only when the list runs, at its place; a line
    /// MPD hangs up on at once (one not starting with a lower-case letter) still fails
    /// now.
    public mutating func feed(unparsable error: MPDError) -> MPDCommandListStep {
        guard isActive, error.closing != .withoutReply else {
            if error.closing == .withoutReply { reset() }
            return .failed(error)
        }
        if failure == nil {
            // MPD's quirk, kept since clients see it: a malformed command word is
            // reported at its place in the list, a malformed argument at index 0.
            let index = error.closing == .afterReply || error.code != .unknown ? buffered.count : 0
            failure = (error, index)
        }
        return .buffered
    }

    private mutating func reset() {
        failure = nil
        buffered = []
        okEach = false
        size = 0
        isActive = false
    }
}
