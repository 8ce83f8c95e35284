/// Why a pattern was refused, and where (in Unicode scalars from its start).
public struct BoundedRegexError: Error, Sendable, Equatable {
    public let reason: String
    public let offset: Int
}

/// A regular expression for MPD's `=~`/`!~` filters, matched in time linear in the text:
/// a Thompson NFA run breadth-first over the text's Unicode scalars, every state at most
/// once per position. A backtracking engine (Swift's `Regex`) takes exponential time on
/// `^(.*)*Z$`; this one takes text length × program size, and the program is capped
/// (`instructionLimit`). As MPD (PCRE2 with DOTALL), `.` matches a newline; `caseless`
/// is what MPD's `search` sets, `find` leaves it off.
public struct BoundedRegex: Sendable {
    /// The most instructions a pattern may compile to (`{m,n}` copies its item).
    public static let instructionLimit = 20_000

    enum Instruction: Sendable {
        case scalar(Unicode.Scalar)
        /// Compared with the text's scalar lower-cased.
        case caselessScalar(Unicode.Scalar)
        case any
        case set(Int, caseless: Bool)
        case split(Int, Int)
        case jump(Int)
        case assertion(BoundedRegexAssertion)
        case match
    }

    let program: [Instruction]
    let sets: [BoundedRegexSet]

    public init(_ pattern: String, caseless: Bool = false) throws(BoundedRegexError) {
        var compiler = BoundedRegexCompiler()
        try compiler.compile(try BoundedRegexParser.parse(pattern, caseless: caseless))
        compiler.emit(.match)
        program = compiler.program
        sets = compiler.sets
    }

    /// Whether the pattern matches somewhere in `text`.
    public func matches(_ text: String) -> Bool {
        var steps = Int.max
        return matches(text, steps: &steps) ?? false
    }

    /// Whether the pattern matches somewhere in `text`, each state visited counted off
    /// `steps`: nil when they ran out first.
    public func matches(_ text: String, steps: inout Int) -> Bool? {
        let text = Array(text.unicodeScalars)
        var current = StateSet(capacity: program.count)
        var next = StateSet(capacity: program.count)
        var stack: [Int] = []
        var position = 0
        while true {
            // Unanchored: a new attempt starts at every position.
            if add(0, at: position, in: text, to: &current, stack: &stack) { return true }
            steps -= current.count
            if steps < 0 { return nil }
            guard position < text.count, current.count > 0 || !anchoredAtStart else { return false }
            let scalar = text[position]
            let lower = BoundedRegexSet.lowercased(scalar)
            next.removeAll()
            for state in current.members {
                let taken: Bool
                switch program[state] {
                case .scalar(let wanted): taken = scalar == wanted
                case .caselessScalar(let wanted): taken = lower == wanted
                case .any: taken = true
                case .set(let index, let caseless): taken = sets[index].contains(scalar, caseless: caseless)
                default: taken = false
                }
                if taken, add(state + 1, at: position + 1, in: text, to: &next, stack: &stack) { return true }
            }
            swap(&current, &next)
            position += 1
        }
    }

    /// Whether every match must begin at the start (a leading `^`): then the run ends as
    /// soon as no state is left.
    private var anchoredAtStart: Bool {
        if case .assertion(.start) = program[0] { return true }
        return false
    }

    /// Adds `state` and every state it reaches without reading a scalar; true when one
    /// of them is the match.
    private func add(
        _ state: Int, at position: Int, in text: [Unicode.Scalar], to set: inout StateSet, stack: inout [Int]
    ) -> Bool {
        stack.removeAll(keepingCapacity: true)
        stack.append(state)
        while let state = stack.popLast() {
            guard set.insert(state) else { continue }
            switch program[state] {
            case .match: return true
            case .jump(let target): stack.append(target)
            case .split(let first, let second):
                stack.append(second)
                stack.append(first)
            case .assertion(let assertion):
                if Self.holds(assertion, at: position, in: text) { stack.append(state + 1) }
            default: break
            }
        }
        return false
    }

    private static func holds(_ assertion: BoundedRegexAssertion, at position: Int, in text: [Unicode.Scalar]) -> Bool {
        switch assertion {
        case .start: return position == 0
        case .absoluteEnd: return position == text.count
        case .end: return position == text.count || (position == text.count - 1 && text[position] == "\n")
        case .wordBoundary, .notWordBoundary:
            let before = position > 0 && BoundedRegexSet.isWord(text[position - 1])
            let after = position < text.count && BoundedRegexSet.isWord(text[position])
            return (before != after) == (assertion == .wordBoundary)
        }
    }
}

/// The states of one position: a sparse set, cleared in constant time.
private struct StateSet {
    private var dense: [Int]
    private var sparse: [Int]
    private(set) var count = 0

    init(capacity: Int) {
        dense = Array(repeating: 0, count: capacity)
        sparse = Array(repeating: 0, count: capacity)
    }

    var members: ArraySlice<Int> { dense[..<count] }

    /// False when `state` was in already.
    mutating func insert(_ state: Int) -> Bool {
        let slot = sparse[state]
        if slot < count, dense[slot] == state { return false }
        sparse[state] = count
        dense[count] = state
        count += 1
        return true
    }

    mutating func removeAll() { count = 0 }
}

/// The tree to instructions: each repetition a loop of splits, each count a copy.
struct BoundedRegexCompiler {
    var program: [BoundedRegex.Instruction] = []
    var sets: [BoundedRegexSet] = []

    mutating func emit(_ instruction: BoundedRegex.Instruction) {
        program.append(instruction)
    }

    private mutating func reserve() throws(BoundedRegexError) -> Int {
        guard program.count < BoundedRegex.instructionLimit else {
            throw BoundedRegexError(reason: "pattern too large (over \(BoundedRegex.instructionLimit) states)", offset: 0)
        }
        program.append(.match)
        return program.count - 1
    }

    mutating func compile(_ node: BoundedRegexNode) throws(BoundedRegexError) {
        switch node {
        case .empty:
            break
        case .scalar(let scalar, let caseless):
            program[try reserve()] = caseless ? .caselessScalar(BoundedRegexSet.lowercased(scalar)) : .scalar(scalar)
        case .any:
            program[try reserve()] = .any
        case .set(let set, let caseless):
            program[try reserve()] = .set(sets.count, caseless: caseless)
            sets.append(set)
        case .assertion(let assertion):
            program[try reserve()] = .assertion(assertion)
        case .concat(let items):
            for item in items { try compile(item) }
        case .alternation(let branches):
            // split L1, next; L1: branch; jump end; next: split … ; last branch
            var jumps: [Int] = []
            for (index, branch) in branches.enumerated() {
                if index == branches.count - 1 {
                    try compile(branch)
                } else {
                    let split = try reserve()
                    try compile(branch)
                    jumps.append(try reserve())
                    program[split] = .split(split + 1, program.count)
                }
            }
            for jump in jumps { program[jump] = .jump(program.count) }
        case .repetition(let item, let min, let max):
            for _ in 0..<min { try compile(item) }
            if let max {
                // Each optional copy: split over it to the end.
                var splits: [Int] = []
                for _ in min..<max {
                    splits.append(try reserve())
                    try compile(item)
                }
                for split in splits { program[split] = .split(split + 1, program.count) }
            } else {
                let split = try reserve()
                try compile(item)
                program[try reserve()] = .jump(split)
                program[split] = .split(split + 1, program.count)
            }
        }
    }
}
