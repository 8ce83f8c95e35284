/// The subcommand a mistyped one (`stauts`) most likely meant, for "did you mean".
public enum NearestName {
    /// The closest of `names` to `typed`, nil when none is close: at most two edits
    /// (an insertion, deletion, substitution or swap of two neighbours each), and
    /// fewer than half the typed word's length.
    public static func suggestion(for typed: String, among names: [String]) -> String? {
        let word = Array(typed.lowercased())
        let limit = min(2, (word.count - 1) / 2)
        var best: (name: String, distance: Int)?
        for name in names {
            let distance = editDistance(word, Array(name))
            if distance <= limit, distance < best?.distance ?? .max { best = (name, distance) }
        }
        return best?.name
    }

    /// Optimal string alignment distance: Levenshtein plus a swap of adjacent letters
    /// as one edit, the commonest typo.
    static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var table = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { table[i][0] = i }
        for j in 0...b.count { table[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var value = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    value = min(value, table[i - 2][j - 2] + 1)
                }
                table[i][j] = value
            }
        }
        return table[a.count][b.count]
    }
}
