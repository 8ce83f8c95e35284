import Testing

@testable import QPlayDaemon

@Suite struct IDRunsTests {
    @Test func consecutiveIDsJoinOneRun() {
        #expect(IDRuns.runs(of: [Int64]()) == [])
        #expect(IDRuns.runs(of: [7]) == [7...7])
        #expect(IDRuns.runs(of: [5, 3, 4, 9, 1, 10, 4]) == [1...1, 3...5, 9...10])
        #expect(IDRuns.runs(of: Set((1...10_000).map(Int64.init))) == [1...10_000])
        #expect(IDRuns.runs(of: [Int64.max, Int64.max - 1, Int64.min]) == [Int64.min...Int64.min, (Int64.max - 1)...Int64.max])
    }
}
