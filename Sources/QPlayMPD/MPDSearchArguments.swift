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

/// The tails a command takes after its filter; MPD reads them from the end of the
/// arguments (window last, then sort, then groups), and one a command does not take is
/// read as part of the filter (where it is an unknown filter type).
public struct MPDSearchTails: OptionSet, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    public static let window = MPDSearchTails(rawValue: 1)
    public static let sort = MPDSearchTails(rawValue: 2)
    public static let group = MPDSearchTails(rawValue: 4)
    /// What `find` and `search` take in MPD 0.23.
    public static let findAndSearch: MPDSearchTails = [.window, .sort]
}

extension MPDSearchArguments {
    /// Parses a filter and its tails. A first argument starting with "(" is an
    /// expression; otherwise `TAG VALUE` pairs, joined with AND, compare with
    /// `oldStyle` (`equals` for find, `contains` for search); the two can be mixed, as
    /// in MPD. `allowsEmptyFilter`: `list` and `count` may have no filter, which is
    /// `.and([])` and matches every song.
    public static func parse(
        _ arguments: ArraySlice<String>, oldStyle: MPDFilterOperator,
        tails: MPDSearchTails = .findAndSearch, allowsEmptyFilter: Bool = false
    ) throws(MPDError) -> MPDSearchArguments {
        var rest = arguments
        var window: MPDRange?
        var sort: String?
        var group: [MPDTag] = []
        if tails.contains(.window), rest.count >= 2, rest[rest.endIndex - 2] == "window" {
            window = try MPDRange.parse(rest[rest.endIndex - 1])
            rest.removeLast(2)
        }
        if tails.contains(.sort), rest.count >= 2, rest[rest.endIndex - 2] == "sort" {
            let name = rest[rest.endIndex - 1]
            let tagName = name.hasPrefix("-") ? String(name.dropFirst()) : name
            guard asciiLowercased(tagName) == "last-modified" || MPDTag.named(tagName) != nil else {
                throw MPDError(.argument, "Unknown sort tag")
            }
            sort = name
            rest.removeLast(2)
        }
        while tails.contains(.group), rest.count >= 2, rest[rest.endIndex - 2] == "group" {
            let name = rest[rest.endIndex - 1]
            guard let tag = MPDTag.named(name) else { throw MPDError(.argument, "Unknown tag type: \(name)") }
            guard !group.contains(tag) else { throw MPDError(.argument, "Conflicting group") }
            group.insert(tag, at: 0)
            rest.removeLast(2)
        }
        let filter = try parseFilter(rest, oldStyle: oldStyle, allowsEmpty: allowsEmptyFilter)
        return MPDSearchArguments(filter: filter, sort: sort, window: window, group: group)
    }

    static func parseFilter(
        _ arguments: ArraySlice<String>, oldStyle: MPDFilterOperator, allowsEmpty: Bool
    ) throws(MPDError) -> MPDFilter {
        guard !arguments.isEmpty || allowsEmpty else {
            throw MPDError(.argument, "Incorrect number of filter arguments")
        }
        var items: [MPDFilter] = []
        var rest = arguments
        while let first = rest.first {
            if first.hasPrefix("(") {
                items.append(try MPDFilterExpression.parse(first))
                rest.removeFirst()
                continue
            }
            guard rest.count >= 2 else { throw MPDError(.argument, "Incorrect number of filter arguments") }
            let value = rest[rest.startIndex + 1]
            if first == "base" {
                guard isSafeLocalPath(value) else { throw MPDError(.argument, "Bad URI") }
                items.append(.compare(.base, .equals, value))
            } else {
                let subject = try MPDFilterExpression.subject(named: first, message: "Unknown filter type")
                items.append(.compare(subject, oldStyle, value))
            }
            rest.removeFirst(2)
        }
        return items.count == 1 ? items[0] : .and(items)
    }

    /// MPD's uri_safe_local: a relative path whose segments are neither empty nor
    /// "." nor "..".
    static func isSafeLocalPath(_ path: String) -> Bool {
        path.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false).allSatisfy { segment in
            !(segment.isEmpty || segment.elementsEqual(".".utf8) || segment.elementsEqual("..".utf8))
        }
    }
}
