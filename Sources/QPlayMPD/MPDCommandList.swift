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
    case failed(MPDError)
}

/// The `command_list_begin` / `command_list_ok_begin` / `command_list_end` state of one
/// connection (client/Process.cxx, command/CommandListBuilder).
public struct MPDCommandList: Sendable {
    private var buffered: [MPDRequest] = []
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
                reset()
                return .runList(list, okEach: each)
            }
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

    private mutating func reset() {
        buffered = []
        okEach = false
        size = 0
        isActive = false
    }
}
