import Foundation
import QPlayTestSupport
import Testing

/// How the real qplay reads its command line: connection options before the
/// subcommand, a `--format` template that begins with '-', a mistyped subcommand, and
/// usage errors that say once where help is.
@Suite("End to end: qplay's command line", .timeLimit(.minutes(2)))
struct CommandLineUsageEndToEndTests {
    let nowhere = ["QPLAY_SOCKET": "/nonexistent/qplay.sock"]

    func qplay(_ arguments: String...) throws -> ProcessResult {
        try runProcess(BuiltProducts.url("qplay"), arguments, environment: nowhere)
    }

    @Test func connectionOptionsWorkBeforeTheSubcommand() throws {
        try withDaemon { daemon in
            try daemon.qplayOK("add", "love")
            let socket = daemon.socketPath
            let expected = try daemon.qplayOK("status")
            // $QPLAY_SOCKET points nowhere: only the option can have found the daemon.
            let variants: [[String]] = [
                ["--socket", socket, "status"],
                ["--socket=\(socket)", "status"],
                ["--timeout", "10", "--socket", socket, "status"],
                ["--socket", socket, "--timeout=10", "status"],
            ]
            for arguments in variants {
                let result = try runProcess(BuiltProducts.url("qplay"), arguments, environment: nowhere)
                #expect(result.status == 0, "qplay \(arguments): \(result.stderr)")
                #expect(result.stdout == expected, "qplay \(arguments)")
            }
            let json = try runProcess(BuiltProducts.url("qplay"), ["--json", "--socket", socket, "queue"], environment: nowhere)
            #expect(json.status == 0, "\(json.stderr)")
            #expect(try parseObject(json.stdout)["entries"] != nil, "\(json.stdout)")
            // Before a subcommand ArgumentParser reads itself (not the quick path), with its
            // own options after it.
            let search = try runProcess(
                BuiltProducts.url("qplay"), ["--socket", socket, "search", "love", "--limit", "1"], environment: nowhere)
            #expect(search.status == 0, "\(search.stderr)")
            #expect(search.stdout.split(separator: "\n").count == 1, "\(search.stdout)")
            // A template that begins with '-', as its own word, on both paths (quick, and
            // ArgumentParser's when another option makes it take over).
            let title = try daemon.qplayJSON("status")["track"].flatMap { ($0 as? [String: Any])?["title"] as? String }
            for arguments in [
                ["status", "--format", "- {title}"], ["--socket", socket, "status", "--format", "- {title}"],
                ["status", "--format", "- {title}", "--socket", socket, "--socket", socket],
            ] {
                let result = try runProcess(
                    BuiltProducts.url("qplay"), arguments, environment: ["QPLAY_SOCKET": socket])
                #expect(result.status == 0, "qplay \(arguments): \(result.stderr)")
                #expect(result.stdout == "- \(title ?? "?")\n", "qplay \(arguments)")
            }
        }
    }

    @Test func aMistypedSubcommandGetsTheNearestName() throws {
        let typo = try qplay("stauts")
        #expect(typo.status == 2)
        #expect(typo.stderr.contains("did you mean 'status'?"), "\(typo.stderr)")
        let swapped = try qplay("nxet")
        #expect(swapped.stderr.contains("did you mean 'next'?"), "\(swapped.stderr)")
        let unlike = try qplay("frobnicate")
        #expect(unlike.status == 2)
        #expect(unlike.stderr.contains("unknown command 'frobnicate'"), "\(unlike.stderr)")
        #expect(!unlike.stderr.contains("did you mean"), "\(unlike.stderr)")
    }

    @Test func everyUsageErrorSaysOnceWhereHelpIs() throws {
        let cases: [[String]] = [
            ["stauts"], ["seek", "soon"], ["status", "--bogus"], ["--bogus"], ["alarm", "25:00"],
            ["status", "--format", "{nope}"], ["jump", "0"], ["--socket"],
        ]
        for arguments in cases {
            let result = try runProcess(BuiltProducts.url("qplay"), arguments, environment: nowhere)
            #expect(result.status == 2, "qplay \(arguments): \(result.stderr)")
            let mentions = result.stderr.components(separatedBy: "--help").count - 1
            #expect(mentions == 1, "qplay \(arguments):\n\(result.stderr)")
        }
    }
}
