import QPlayLibrary
import QPlayMPD
import QPlayModel

/// An MPD filter applied to qplay's tracks. `find` compares exactly and case-sensitively;
/// `search` (`folded`) compares with qplay's folding (case and accents), as qplay's own
/// search does. The library index answers a folded contains fast, so the terms it can
/// take narrow the candidates first (`narrowing`); `matches` then decides exactly.
/// Regular expressions run on `BoundedRegex` (linear time in the text), with a budget of
/// steps for the whole filtering (`stepBudget`): a hostile pattern cannot hold a core.
struct MPDTrackFilter: Sendable {
    /// The regular expression steps (states visited) one command may take over all the
    /// tracks it filters; past them it fails with an ACK rather than hold a core. A
    /// pattern of ten states over 200,000 paths of 80 characters takes 160 million.
    static let stepBudget = 400_000_000

    let filter: MPDFilter?
    let folded: Bool
    private var regexes: [String: BoundedRegex] = [:]

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
                // `search` compares without case, as MPD's PCRE2_CASELESS; `find` with it.
                regexes[value] = try BoundedRegex(value, caseless: folded)
            } catch {
                throw MPDError(.argument, "Invalid regular expression: \(value) (\(error.reason) at \(error.offset))")
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

    /// The tracks that match, in their order; an ACK when the regular expressions ran
    /// out of `stepBudget`.
    func selected(from tracks: [Track]) throws(MPDError) -> [Track] {
        var steps = Self.stepBudget
        let found = tracks.filter { matches($0, steps: &steps) }
        guard steps >= 0 else {
            throw MPDError(.argument, "regular expression too costly for the library (over \(Self.stepBudget) steps)")
        }
        return found
    }

    /// Whether `track` matches, with a budget of its own.
    func matches(_ track: Track) -> Bool {
        var steps = Self.stepBudget
        return matches(track, steps: &steps)
    }

    /// Whether `track` matches; `steps` counts the regular expressions' work down (past
    /// zero, they match nothing).
    func matches(_ track: Track, steps: inout Int) -> Bool {
        guard let filter else { return true }
        return matches(filter, track, &steps)
    }

    private func matches(_ filter: MPDFilter, _ track: Track, _ steps: inout Int) -> Bool {
        switch filter {
        case .and(let parts): return parts.allSatisfy { matches($0, track, &steps) }
        case .not(let inner): return !matches(inner, track, &steps)
        case .compare(let subject, let comparison, let value):
            switch subject {
            case .base:
                let base = MPDLibraryPaths.normalized(value)
                let path = track.text(of: .path)
                return base.isEmpty || path == base || path.hasPrefix(base + "/")
            case .file:
                return compare(track.text(of: .path), comparison, value, &steps)
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
                return compare(text, comparison, value, &steps)
            case .any:
                let texts = MPDSongWriter.supportedTags.compactMap { MPDSongWriter.value(of: $0, in: track) }
                if comparison == .notEquals || comparison == .notRegex {
                    return texts.allSatisfy { compare($0, comparison, value, &steps) }
                }
                return texts.contains { compare($0, comparison, value, &steps) }
            }
        }
    }

    private func compare(_ text: String, _ comparison: MPDFilterOperator, _ value: String, _ steps: inout Int) -> Bool {
        switch comparison {
        case .regex, .notRegex:
            // Out of steps: no match either way; `selected` then fails the command.
            guard let regex = regexes[value], let found = regex.matches(text, steps: &steps) else { return false }
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
