import QPlayLibrary
import QPlayMPD
import QPlayModel

/// An MPD filter applied to qplay's tracks. `find` compares exactly and case-sensitively;
/// `search` (`folded`) compares with qplay's folding (case and accents), as qplay's own
/// search does. The library index answers a folded contains fast, so the terms it can
/// take narrow the candidates first (`narrowing`); `matches` then decides exactly.
struct MPDTrackFilter {
    let filter: MPDFilter?
    let folded: Bool
    private var regexes: [String: Regex<AnyRegexOutput>] = [:]

    init(_ filter: MPDFilter?, folded: Bool) throws {
        self.filter = filter
        self.folded = folded
        if let filter { try compile(filter) }
    }

    private mutating func compile(_ filter: MPDFilter) throws {
        switch filter {
        case .compare(_, let comparison, let value):
            guard comparison == .regex || comparison == .notRegex, regexes[value] == nil else { return }
            do {
                let regex = try Regex(value)
                regexes[value] = folded ? regex.ignoresCase() : regex
            } catch {
                throw MPDError(.argument, "Invalid regular expression: \(value)")
            }
        case .not(let inner):
            try compile(inner)
        case .and(let parts):
            for part in parts { try compile(part) }
        }
    }

    /// The index query whose result holds every match (a folded contains on the terms
    /// that must all hold), and whether that result is already exact.
    var narrowing: (query: Query, exact: Bool) {
        guard let filter else { return (Query(), true) }
        let terms: [MPDFilter]
        if case .and(let parts) = filter { terms = parts } else { terms = [filter] }
        var predicates: [QPlayLibrary.Predicate] = []
        var exact = true
        for term in terms {
            guard case .compare(let subject, let comparison, let value) = term, !value.isEmpty,
                comparison == .equals || comparison == .contains || comparison == .startsWith,
                let property = Self.property(subject)
            else {
                exact = false
                continue
            }
            predicates.append(QPlayLibrary.Predicate(property, .contains, value))
            // A folded contains is exactly `search`'s contains; all else is checked after.
            if !(folded && comparison == .contains && subject != .base) { exact = false }
        }
        return (Query(predicates), exact)
    }

    private static func property(_ subject: MPDFilterSubject) -> SearchProperty? {
        switch subject {
        case .tag(.title): .title
        case .tag(.artist): .artist
        case .tag(.album): .album
        case .tag(.albumArtist): .albumArtist
        case .tag(.genre): .genre
        case .file, .base: .path
        default: nil
        }
    }

    func matches(_ track: Track) -> Bool {
        guard let filter else { return true }
        return matches(filter, track)
    }

    private func matches(_ filter: MPDFilter, _ track: Track) -> Bool {
        switch filter {
        case .and(let parts): return parts.allSatisfy { matches($0, track) }
        case .not(let inner): return !matches(inner, track)
        case .compare(let subject, let comparison, let value):
            switch subject {
            case .base:
                let base = MPDLibraryPaths.normalized(value)
                let path = track.text(of: .path)
                return base.isEmpty || path == base || path.hasPrefix(base + "/")
            case .file:
                return compare(track.text(of: .path), comparison, value)
            case .tag(let tag):
                // A missing tag is the empty string for (in)equality, as in MPD, and
                // matches nothing else.
                guard let text = MPDSongWriter.value(of: tag, in: track) else {
                    switch comparison {
                    case .equals: return value.isEmpty
                    case .notEquals: return !value.isEmpty
                    default: return comparison == .notRegex
                    }
                }
                return compare(text, comparison, value)
            case .any:
                let texts = MPDSongWriter.supportedTags.compactMap { MPDSongWriter.value(of: $0, in: track) }
                if comparison == .notEquals || comparison == .notRegex {
                    return texts.allSatisfy { compare($0, comparison, value) }
                }
                return texts.contains { compare($0, comparison, value) }
            }
        }
    }

    private func compare(_ text: String, _ comparison: MPDFilterOperator, _ value: String) -> Bool {
        switch comparison {
        case .regex, .notRegex:
            guard let regex = regexes[value] else { return false }
            let found = (try? regex.firstMatch(in: text)) != nil
            return comparison == .regex ? found : !found
        default:
            break
        }
        let subject = folded ? TextFolding.fold(text) : text
        let wanted = folded ? TextFolding.fold(value) : value
        switch comparison {
        case .equals: return subject == wanted
        case .notEquals: return subject != wanted
        case .contains: return wanted.isEmpty || subject.utf8.firstRange(of: wanted.utf8) != nil
        case .startsWith: return subject.utf8.starts(with: wanted.utf8)
        case .regex, .notRegex: return false
        }
    }
}
