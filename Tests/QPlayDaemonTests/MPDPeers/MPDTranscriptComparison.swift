/// Compares two servers' normalised responses to the same script, step by step, against
/// a list of allowed differences.
struct MPDTranscriptComparison {
    /// What an allowed difference lets differ.
    enum Leeway: CustomStringConvertible {
        /// The whole response.
        case wholeResponse
        /// Only the lines with these keys (their values, presence and places).
        case fields([String])
        /// Only the order of the lines within each song or folder of the response.
        case order

        var description: String {
            switch self {
            case .wholeResponse: "whole response"
            case .fields(let keys): keys.joined(separator: ", ")
            case .order: "order within a song"
            }
        }
    }

    /// A difference the candidate is allowed; `request` nil: in every step.
    struct Allowed: CustomStringConvertible {
        var request: String?
        var leeway: Leeway
        var reason: String

        var description: String { "\(request ?? "every request") [\(leeway)]: \(reason)" }
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
            if let whole = matching.first(where: {
                if case .wholeResponse = allowed[$0].leeway { true } else { false }
            }) {
                explained = true
                used.insert(whole)
            } else {
                let leeways = matching.map { allowed[$0].leeway }
                explained = Self.loosened(want, leeways) == Self.loosened(got, leeways)
                // An allowance is used when it is needed: the step would differ without it.
                for (position, allowance) in matching.enumerated() where explained {
                    var others = leeways
                    others.remove(at: position)
                    if Self.loosened(want, others) != Self.loosened(got, others) { used.insert(allowance) }
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

    /// The response with what the leeways allow to differ taken out.
    private static func loosened(_ response: [String], _ leeways: [Leeway]) -> [[String]] {
        var keys = Set<String>()
        var orderFree = false
        for leeway in leeways {
            switch leeway {
            case .fields(let names): keys.formUnion(names)
            case .order: orderFree = true
            case .wholeResponse: break
            }
        }
        let kept = response.filter { line in !(line.range(of: ": ").map { keys.contains(String(line[..<$0.lowerBound])) } ?? false) }
        // Songs and folders start with their `file:`/`directory:` line.
        var blocks: [[String]] = []
        for line in kept {
            if blocks.isEmpty || line.hasPrefix("file: ") || line.hasPrefix("directory: ") {
                blocks.append([line])
            } else {
                blocks[blocks.count - 1].append(line)
            }
        }
        return orderFree ? blocks.map { [$0[0]] + $0.dropFirst().sorted() } : blocks
    }
}
