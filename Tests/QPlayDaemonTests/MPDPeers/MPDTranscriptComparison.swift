/// Compares two servers' normalised responses to the same script, step by step, against
/// a list of allowed differences.
struct MPDTranscriptComparison {
    /// A difference the candidate is allowed: `request` nil = in every step; `fields`
    /// nil = the whole response may differ, otherwise only the lines with those keys.
    struct Allowed: CustomStringConvertible {
        var request: String?
        var fields: [String]?
        var reason: String

        var description: String { "\(request ?? "*") \(fields ?? ["whole response"]): \(reason)" }
    }

    /// The differing steps no allowance explains, readable.
    private(set) var unexplained: [String] = []
    /// Allowances that explained nothing: the difference is gone, the entry must go.
    private(set) var stale: [Allowed] = []

    init(script: [String], expected: [[String]], actual: [[String]], allowed: [Allowed], name: String) {
        var used = Set<Int>()
        for (index, request) in script.enumerated() {
            let want = expected[index]
            let got = actual[index]
            guard want != got else { continue }
            let matching = allowed.indices.filter { allowed[$0].request == nil || allowed[$0].request == request }
            var explained: Bool
            if let whole = matching.first(where: { allowed[$0].fields == nil }) {
                explained = true
                used.insert(whole)
            } else {
                // Lines of the allowed fields are set aside; the rest must be equal.
                let fields = Set(matching.flatMap { allowed[$0].fields ?? [] })
                explained = Self.lines(want, without: fields) == Self.lines(got, without: fields)
                for allowance in matching {
                    let keys = Set(allowed[allowance].fields ?? [])
                    if Self.lines(want, keyedIn: keys) != Self.lines(got, keyedIn: keys) { used.insert(allowance) }
                }
            }
            if !explained {
                unexplained.append(
                    "step \(index + 1) `\(request.replacingOccurrences(of: "\n", with: "⏎"))`\n"
                        + "  mpd:    \(want.joined(separator: " | "))\n  \(name): \(got.joined(separator: " | "))")
            }
        }
        stale = allowed.indices.filter { !used.contains($0) }.map { allowed[$0] }
    }

    private static func key(_ line: String) -> String? {
        line.range(of: ": ").map { String(line[..<$0.lowerBound]) }
    }

    private static func lines(_ response: [String], keyedIn keys: Set<String>) -> [String] {
        response.filter { key($0).map(keys.contains) ?? false }
    }

    private static func lines(_ response: [String], without keys: Set<String>) -> [String] {
        response.filter { !(key($0).map(keys.contains) ?? false) }
    }
}
