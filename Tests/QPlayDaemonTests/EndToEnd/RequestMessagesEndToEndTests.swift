import Foundation
import QPlayTestSupport
import Testing

/// Requests that are wrong in a small way, sent raw to the real daemon: each gets a
/// `bad_request` (or `not_found`) that says what is wrong, nothing changes, and the
/// connection keeps serving.
@Suite("End to end: messages for malformed requests", .timeLimit(.minutes(2)))
struct RequestMessagesEndToEndTests {
    @Test func badRequestsAreRefusedClearlyAndChangeNothing() throws {
        try withDaemon { daemon in
            let client = try daemon.client()
            let before = try client.request("status")["result"] as? [String: Any]
            let refusals: [(String, String, String)] = [
                (#"{"id":1,"cmd":"add","args":{"paths":["track01.mp3\u0000../../etc/passwd"]}}"#, "bad_request",
                 "add: each of `paths` must not contain a NUL character"),
                (#"{"id":2,"cmd":"update","args":{"path":"\u0000"}}"#, "bad_request",
                 "update: `path` must not contain a NUL character"),
                (#"{"id":3,"cmd":"ping","cmd":"clear"}"#, "bad_request", "the request has the key `cmd` twice"),
                (#"{"id":4,"cmd":"volume","args":{"set":1e20}}"#, "bad_request",
                 "volume: `set` must be a whole number from 0 to 100, got 1e+20"),
                (#"{"id":5,"cmd":"jump","args":{"index":9223372036854775807}}"#, "not_found",
                 "no entry at index 9223372036854775807; the queue has 0 entries"),
            ]
            for (line, code, message) in refusals {
                try client.send(line)
                let response = try client.readObject()
                let error = response["error"] as? [String: Any]
                #expect(error?["code"] as? String == code, "\(line) → \(response)")
                #expect((error?["message"] as? String)?.hasPrefix(message) == true, "\(line) → \(response)")
            }
            let status = try client.request("status")["result"] as? [String: Any]
            #expect(status?["queue_length"] as? Int == 0, "nothing was added")
            #expect(status?["volume"] as? Int == before?["volume"] as? Int, "the volume did not change")

            // Ids come back exactly as written, however long or odd the number.
            for spelling in ["123456789012345678901234567890", "1.0", "-0", "1E+3"] {
                try client.send(#"{"id":\#(spelling),"cmd":"ping"}"#)
                #expect(try client.readLine() == #"{"id":\#(spelling),"ok":true,"result":{}}"#)
            }
        }
    }
}
