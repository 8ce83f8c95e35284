import Foundation
import QPlayTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The connection cap and the descriptor reserve against a real qplayd: a flood of
/// clients past what its open-file limit holds gets an `unavailable` line each, while
/// the daemon stays alive, answers the clients it has, plays tracks and scans.
@Suite("End to end: connection cap and descriptor limit", .timeLimit(.minutes(2)))
struct ConnectionLimitTests {
    @Test func max_connectionsIsHonouredExactly() throws {
        try withDaemon(config: "max_connections = 8\n") { daemon in
            // The clients that started the daemon and waited for its scan may not be
            // counted out yet: take the eight places as they come free.
            var held: [LineSocketClient] = []
            try waitUntil("eight clients are greeted") {
                let client = try LineSocketClient(path: daemon.socketPath)
                let first = try client.readLine()
                if isGreeting(first) {
                    held.append(client)
                } else {
                    #expect(isRefusal(first, cap: 8), "neither a greeting nor the refusal: \(first)")
                }
                return held.count == 8
            }
            let ninth = try LineSocketClient(path: daemon.socketPath)
            let line = try ninth.readLine()
            #expect(isRefusal(line, cap: 8), "the ninth client got \(line)")
            #expect(throws: LineSocketClient.Failure.self, "the refused connection is closed") { try ninth.readLine() }
            for client in held {
                #expect(try client.status()["state"] as? String != nil)
            }
            #expect(daemon.log.contains("refusing more"))

            held.removeLast()
            try waitUntil("a place comes free") {
                let client = try LineSocketClient(path: daemon.socketPath)
                guard isGreeting(try client.readLine()) else { return false }
                #expect(try client.status()["queue_length"] as? Int == 0)
                return true
            }
        }
    }

    @Test func aFloodPastTheOpenFileLimitIsRefusedWhileTheDaemonPlaysAndScans() throws {
        // 256 descriptors: 128 are kept back, so max_connections = 1000 is lowered to 128.
        let limited = try DescriptorLimitedDaemon(nofile: 256, config: "max_connections = 1000\n")
        let daemon = limited.daemon
        #expect(daemon.log.contains("max_connections = 1000 lowered to 128"), "\(daemon.log)")
        let control = try daemon.client()

        // 400 clients, each sending a request as soon as it is connected.
        var greeted: [LineSocketClient] = []
        var refused: [LineSocketClient] = []
        for _ in 0..<400 {
            let client = try LineSocketClient(path: daemon.socketPath)
            try? client.send(#"{"id":1,"cmd":"status"}"#)
            let first = try client.readLine()
            if isGreeting(first) {
                greeted.append(client)
            } else {
                #expect(isRefusal(first, cap: 128), "neither a greeting nor the refusal: \(first)")
                refused.append(client)
            }
        }
        #expect(limited.isRunning)
        #expect(greeted.count <= 127, "the control client holds one of the 128 places")
        #expect(greeted.count >= 100, "clients that came and went may hold a place for a moment")
        #expect(refused.count == 400 - greeted.count)
        let open = openDescriptors(of: limited.pid)
        #expect(open < 256 - 64, "\(open) descriptors open: the reserve for tracks, databases and scans is gone")
        for client in greeted {
            let response = try client.readObject()
            #expect(response["ok"] as? Bool == true && response["id"] as? Int == 1)
        }

        // With every place taken, the clients that have one are served, a track opens
        // and plays, and a scan runs.
        let added = try control.ok("add", ["where": [["property": "title", "op": "contains", "value": "love"]]])
        #expect(added["added"] as? Int ?? 0 > 0)
        try waitUntil("the track plays") {
            let status = try control.status()
            return status["state"] as? String == "playing" && (number(status["position"]) ?? 0) > 0.3
        }
        let status = try control.status()
        #expect((status["output"] as? [String: Any])?["error"] is NSNull, "\(status)")
        let scan = try control.request("update", ["wait": true])
        #expect(scan["ok"] as? Bool == true, "\(scan)")
        #expect(!daemon.log.contains("File access error"))
        #expect(limited.isRunning)

        // Once the flood leaves, newcomers are greeted again.
        greeted.removeAll()
        refused.removeAll()
        try waitUntil("a newcomer is greeted") {
            let client = try LineSocketClient(path: daemon.socketPath)
            return isGreeting(try client.readLine())
        }
        #expect(try daemon.client().status()["state"] as? String == "playing")
        #expect(limited.stop() == 0)
    }

    @Test func whenAcceptRunsOutOfDescriptorsCallersWaitInTheBacklogAndAreServedLater() throws {
        let limited = try DescriptorLimitedDaemon(nofile: 256, config: "")
        let daemon = limited.daemon
        // Something else took all but a few descriptors: lower the limit under the cap.
        let inUse = openDescriptors(of: limited.pid)
        try setDescriptorLimit(of: limited.pid, to: inUse + 4)
        var waiting: [LineSocketClient] = []
        for _ in 0..<12 {
            let client = try LineSocketClient(path: daemon.socketPath)
            try client.send(#"{"id":7,"cmd":"status"}"#)
            waiting.append(client)
        }
        try waitUntil("accept fails and pauses") { daemon.log.contains("pausing accept for 100 ms") }
        // Retrying a failing accept at once would spin a core; pausing costs nothing.
        let cpuBefore = try cpuSeconds(of: limited.pid)
        let wallBefore = Date()
        usleep(1_500_000)
        let cpu = try cpuSeconds(of: limited.pid) - cpuBefore
        let wall = Date().timeIntervalSince(wallBefore)
        #expect(cpu < wall / 4, "qplayd used \(cpu) s of CPU in \(wall) s while out of descriptors")
        #expect(limited.isRunning)
        try setDescriptorLimit(of: limited.pid, to: 256)
        for client in waiting {
            #expect(isGreeting(try client.readLine()))
            let response = try client.readObject()
            #expect(response["ok"] as? Bool == true && response["id"] as? Int == 7)
        }
        #expect(limited.stop() == 0)
    }

    private func setDescriptorLimit(of pid: Int32, to limit: Int) throws {
        let result = try runProcess(
            URL(fileURLWithPath: "/usr/bin/prlimit"), ["--pid", "\(pid)", "--nofile=\(limit):256"])
        guard result.status == 0 else {
            throw LineSocketClient.Failure(description: "prlimit --pid \(pid): \(result.stderr)")
        }
    }
}
