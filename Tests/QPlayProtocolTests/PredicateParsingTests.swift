import QPlayProtocol
import Testing

@Suite("where predicates in requests")
struct PredicateParsingTests {
    /// Found by the request-decoder fuzz target: with several unknown fields, the one
    /// named depended on the dictionary's order, which differs between decodings.
    @Test func unknownFieldsAreNamedInSortedOrder() {
        let line = Array(
            #"{"cmd":"search","args":{"where":[{"property":"artist","op":"contains","value":"x","zz":1,"aa":2,"mm":3}]}}"#
                .utf8)
        for _ in 0..<50 {
            guard case .failure(let failure) = Request.decode(line: line) else {
                Issue.record("decoded a predicate with unknown fields")
                return
            }
            #expect(failure.error.message == "search: unknown predicate field `aa` (fields: property, op, value)")
        }
    }
}
