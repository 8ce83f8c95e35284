/// Entry ids grouped into runs of consecutive integers. Entries are numbered in the
/// order they join, so the rows a clear or a playlist's replacement leaves behind are a
/// few long runs: one `WHERE id BETWEEN` statement per run walks the table's b-tree
/// once, where a statement per id (10,000 of them for a cleared playlist) paid each
/// statement's own cost and a descent from the root.
enum IDRuns {
    static func runs(of ids: some Sequence<Int64>) -> [ClosedRange<Int64>] {
        let sorted = ids.sorted()
        var runs: [ClosedRange<Int64>] = []
        var start: Int64?
        var last: Int64 = 0
        for id in sorted {
            if let first = start {
                if id == last { continue }
                if id == last + 1 {
                    last = id
                    continue
                }
                runs.append(first...last)
            }
            start = id
            last = id
        }
        if let first = start { runs.append(first...last) }
        return runs
    }
}
