/// The arguments of `find`, `search`, `findadd`, `searchadd`, `count`, `list`: a filter,
/// then the optional `sort TAG`, `window START:END` and `group TAG` tails.
public struct MPDSearchArguments: Sendable, Equatable {
    public var filter: MPDFilter
    /// The tag name as the client gave it (MPD allows a leading `-` for descending).
    public var sort: String?
    public var window: MPDRange?
    public var group: [MPDTag]

    public init(filter: MPDFilter, sort: String? = nil, window: MPDRange? = nil, group: [MPDTag] = []) {
        self.filter = filter
        self.sort = sort
        self.window = window
        self.group = group
    }
}

extension MPDSearchArguments {
    /// `oldStyle`: the operator of old `TAG VALUE` pairs (`equals` for find, `contains`
    /// for search).
    public static func parse(
        _ arguments: ArraySlice<String>, oldStyle: MPDFilterOperator
    ) throws(MPDError) -> MPDSearchArguments {
        throw MPDError(.unknown, "filters are not parsed yet")
    }
}
