/// Finds a table header (`[name]`, `[[name]]`) whose name does not start like a key.
/// TOMLKit's parser (toml++ 3) asserts on one — `[&]`, `[ é]`, `[` then a newline —
/// which aborts a debug build of the daemon and is undefined behaviour in a release
/// build, so the loader refuses such a file before parsing it. qplay's config has no
/// tables, so every file with a header fails anyway; this only keeps the failure an
/// error message. (A line of a multi-line value that starts with `[` is judged the same
/// way: such a value is no valid setting either.)
enum TableHeaderCheck {
    /// The 1-based line and column of the first bad header name, nil when there is none.
    static func firstBadHeader(in text: String) -> (line: Int, column: Int)? {
        var lineNumber = 0
        for line in text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            lineNumber += 1
            var index = line.startIndex
            skipBlanks(line, &index)
            guard index < line.endIndex, line[index] == UInt8(ascii: "[") else { continue }
            index = line.index(after: index)
            if index < line.endIndex, line[index] == UInt8(ascii: "[") { index = line.index(after: index) }
            skipBlanks(line, &index)
            if index == line.endIndex || !startsKey(line[index]) {
                return (lineNumber, line.distance(from: line.startIndex, to: index) + 1)
            }
        }
        return nil
    }

    private static func skipBlanks(_ line: Substring.UTF8View.SubSequence, _ index: inout Substring.UTF8View.Index) {
        while index < line.endIndex, line[index] == UInt8(ascii: " ") || line[index] == UInt8(ascii: "\t") {
            index = line.index(after: index)
        }
    }

    /// A bare key character (ASCII letters, digits, `_`, `-`) or a quote.
    private static func startsKey(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "-"),
            UInt8(ascii: "\""), UInt8(ascii: "'"):
            return true
        default:
            return false
        }
    }
}
