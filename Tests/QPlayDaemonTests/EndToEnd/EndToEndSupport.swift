import Foundation
import QPlayTestSupport
import Testing

// Helpers for the end-to-end tests: a real qplayd on its own socket, data folder and
// `file:` capture, driven by the real qplay binary and raw socket clients. The tests
// are synchronous and block (processes, sockets): `#expect` must run in the test's own
// context to be attributed to it, so they do not hop to threads of their own.

/// A started daemon whose start-up scan has indexed `music` (Samples/ by default), for a
/// test that keeps it past one scope; `withDaemon` stops and removes a scoped one.
func startedDaemon(music: String = SampleCatalog.directory.string, config: String? = nil) throws -> DaemonProcess {
    try DaemonProcess.started(music: music, config: config)
}

/// Waits until `condition` holds, checking every 50 ms. The limit only keeps a broken
/// daemon from hanging the suite; nothing is asserted about how long it took.
func waitUntil(_ what: String, limit: Double = 20, _ condition: () throws -> Bool) throws {
    let deadline = Date().addingTimeInterval(limit)
    while try !condition() {
        guard Date() < deadline else { throw LineSocketClient.Failure(description: "never happened: \(what)") }
        usleep(50_000)
    }
}

func parseObject(_ text: String) throws -> [String: Any] {
    guard let object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] else {
        throw LineSocketClient.Failure(description: "not a JSON object: \(text)")
    }
    return object
}

func number(_ value: Any?) -> Double? { (value as? NSNumber)?.doubleValue }

/// The title of a status's track, nil when nothing is current.
func title(_ status: [String: Any]) -> String? {
    (status["track"] as? [String: Any])?["title"] as? String
}

func sampleFile(titled title: String) -> String {
    SampleCatalog.all.first { $0.title == title }!.file
}

extension DaemonProcess {
    /// `qplay ARGS --json`, which must succeed; its output parsed.
    func qplayJSON(_ arguments: String...) throws -> [String: Any] {
        let result = try qplay(arguments: arguments + ["--json"])
        guard result.status == 0 else {
            throw LineSocketClient.Failure(description: "qplay \(arguments) exited \(result.status): \(result.stderr)")
        }
        return try parseObject(result.stdout)
    }

    /// `qplay ARGS`, which must exit 0; its standard output.
    @discardableResult
    func qplayOK(_ arguments: String...) throws -> String {
        let result = try qplay(arguments: arguments)
        guard result.status == 0 else {
            throw LineSocketClient.Failure(description: "qplay \(arguments) exited \(result.status): \(result.stderr)")
        }
        return result.stdout
    }

    func capturedFiles() throws -> [String] {
        ToneSequence.files(in: try capturedSamples())
    }
}

extension LineSocketClient {
    /// The result of a request that must succeed.
    @discardableResult
    func ok(_ cmd: String, _ args: [String: Any]? = nil) throws -> [String: Any] {
        let response = try request(cmd, args)
        guard response["ok"] as? Bool == true, let result = response["result"] as? [String: Any] else {
            throw LineSocketClient.Failure(description: "\(cmd) \(args ?? [:]) failed: \(response)")
        }
        return result
    }

    func status() throws -> [String: Any] { try ok("status") }

    /// Reads lines until an event of `kind` whose data satisfies `predicate` arrives.
    @discardableResult
    func event(_ kind: String, where predicate: ([String: Any]) -> Bool = { _ in true }) throws -> [String: Any] {
        while true {
            let message = try readObject()
            if message["event"] as? String == kind, let data = message["data"] as? [String: Any], predicate(data) {
                return data
            }
        }
    }
}
