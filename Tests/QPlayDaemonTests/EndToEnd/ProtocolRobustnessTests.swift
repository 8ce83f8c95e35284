import Foundation
import QPlayTestSupport
import Testing

/// Malformed input and many clients against the real daemon while it plays: each gets
/// its error or result, and the music goes on without a gap.
@Suite("End to end: protocol robustness", .timeLimit(.minutes(2)))
struct ProtocolRobustnessTests {
    func error(_ response: [String: Any]) -> String? {
        guard response["ok"] as? Bool == false else { return nil }
        return (response["error"] as? [String: Any])?["code"] as? String
    }

    @Test func badRequestsGetErrorsAndPlaybackContinues() throws {
        do {
            try withDaemon { daemon in
                try daemon.qplayOK("add", "love")
                try daemon.qplayOK("repeat", "all")
                let client = try daemon.client()

                try client.send("this is not json")
                var response = try client.readObject()
                #expect(error(response) == "bad_request")
                #expect(response["id"] is NSNull)

                try client.send(#"{"id":2,"cmd":"fly"}"#)
                response = try client.readObject()
                #expect(error(response) == "unknown_command")
                #expect(response["id"] as? Int == 2)

                try client.send(#"{"id":"three","cmd":"volume","args":{"set":"loud"}}"#)
                response = try client.readObject()
                #expect(error(response) == "bad_request")
                #expect(response["id"] as? String == "three")
                let message = (response["error"] as? [String: Any])?["message"] as? String ?? ""
                #expect(message.contains("set"), "the message names the argument: \(message)")

                try client.send(#"{"id":4,"cmd":"seek","args":{"position":[1]}}"#)
                #expect(error(try client.readObject()) == "bad_request")
                try client.send(#"{"id":5,"cmd":"jump","args":{"index":99}}"#)
                #expect(error(try client.readObject()) == "not_found")
                try client.send(#"{"id":6,"cmd":"add","args":{"where":"love"}}"#)
                #expect(error(try client.readObject()) == "bad_request")

                // A 1 MB line: answered, skipped, and the connection still serves.
                let huge = #"{"id":7,"cmd":"search","args":{"where":[{"property":"title","op":"contains","value":""#
                    + String(repeating: "x", count: 1 << 20) + "\"}]}}"
                try client.send(huge)
                response = try client.readObject()
                #expect(error(response) == "line_too_long")
                #expect(response["id"] is NSNull)
                #expect(try client.request("ping", id: 8)["ok"] as? Bool == true)

                // Clients that go away in the middle of a request.
                do {
                    let partial = try daemon.client()
                    try partial.send(raw: Array(#"{"id":1,"cmd":"sta"#.utf8))
                }
                do {
                    let unread = try daemon.client()
                    try unread.send(#"{"id":1,"cmd":"status"}"#)
                    try unread.send(#"{"id":2,"cmd":"queue"}"#)
                }
                do {
                    let longPartial = try daemon.client()
                    try longPartial.send(raw: Array(repeating: UInt8(ascii: "x"), count: 200_000))
                }

                let status = try client.status()
                #expect(status["state"] as? String == "playing")
                #expect((status["output"] as? [String: Any])?["error"] is NSNull)
                try waitUntil("a second track has played a second") {
                    let status = try client.status()
                    return title(status) != "Love Song" && number(status["position"]) ?? 0 >= 1
                }
                let samples = try daemon.capturedSamples()
                #expect(ToneSequence.files(in: samples).count >= 2)
                #expect(ToneSequence.longestSilence(in: samples) < 441, "no gap of 10 ms or more")
            }
        }
    }

    @Test func sixtyFourSubscribedClientsEachGetEveryEvent() throws {
        do {
            try withDaemon { daemon in
                try daemon.qplayOK("add", "love")
                try daemon.qplayOK("repeat", "all")
                let clients = try (0..<64).map { _ in try daemon.client() }
                for client in clients {
                    try client.send(#"{"id":"s","cmd":"subscribe","args":{"events":["player","queue"]}}"#)
                }
                for client in clients {
                    #expect(try client.readObject()["ok"] as? Bool == true)
                }
                let control = try daemon.client()
                try control.ok("pause")
                for client in clients {
                    try client.event("player") { $0["state"] as? String == "paused" }
                }
                try control.ok("play")
                for client in clients {
                    try client.event("player") { $0["state"] as? String == "playing" }
                }
                try daemon.qplayOK("add", "--where", "album~day")
                for client in clients {
                    let change = try client.event("queue")
                    #expect(change["length"] as? Int == 5)
                    #expect(change["modified"] as? Bool == true)
                }
                // Every client can still ask, all at once.
                for (index, client) in clients.enumerated() {
                    try client.send(#"{"id":\#(index),"cmd":"status"}"#)
                }
                for (index, client) in clients.enumerated() {
                    var response = try client.readObject()
                    while response["event"] != nil { response = try client.readObject() }
                    #expect(response["id"] as? Int == index)
                    #expect((response["result"] as? [String: Any])?["state"] as? String == "playing")
                }
                let status = try control.status()
                #expect(status["state"] as? String == "playing")
                #expect((status["output"] as? [String: Any])?["error"] is NSNull)
                #expect(ToneSequence.longestSilence(in: try daemon.capturedSamples()) < 441)
            }
        }
    }
}
