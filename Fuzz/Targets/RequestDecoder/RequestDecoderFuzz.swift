import Foundation
import QPlayFuzzSupport
@testable import QPlayProtocol

/// Differential: `Request.decode` reads a line with the fast `JSONInput` when it can and
/// falls back to JSONDecoder otherwise; everything after the JSON value is shared. So
/// the two paths give the same request or the same error exactly when, on every line the
/// fast reader accepts, JSONDecoder accepts it too and reads the same value.
@main
enum RequestDecoderFuzz {
    static func main() { FuzzDriver.run(check) }

    static func check(_ line: [UInt8]) {
        let decoded = Request.decode(line: line)
        guard let quick = JSONInput.value(from: line) else { return }
        let slow: JSONValue
        do {
            slow = try JSONDecoder().decode(JSONValue.self, from: Data(line))
        } catch {
            fuzzCheck(false, "the fast reader accepts what JSONDecoder rejects (\(error)): read \(quick)")
            return
        }
        fuzzCheck(quick == slow, "the readers differ: fast \(quick), JSONDecoder \(slow)")
        // The line read as a slice (no contiguous storage fast path for the caller's
        // type) decodes the same.
        fuzzCheck(Request.decode(line: line[...]) == decoded, "decoding an array slice differs")
    }
}
