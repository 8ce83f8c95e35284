import Foundation
import QPlayTestSupport
import Testing

/// A config file that is not valid TOML stops the real qplayd with exit status 78 and
/// a message naming the file, line and column (README, "Configuration") — never a crash.
/// The first two once aborted qplayd inside the C++ TOML parser, release builds too.
@Suite("End to end: an invalid config file", .timeLimit(.minutes(2)))
struct InvalidConfigEndToEndTests {
    @Test(arguments: [
        ("[&]\n", "1:2", "expected a key, found '&'"),
        ("key = [1, }]\n", "1:11", "expected a value, found '}'"),
        ("music_directory = \"/music\"\n\nscan_rate = \"\"\"4\n", "3:13", "the string is not closed"),
        ("scan_rate = 4\nscan_rate = 5\n", "2:1", "the key 'scan_rate' is defined twice"),
        ("mpd_listen = [\"127.0.0.1:6600\"\n# no closing bracket\n", "1:14", "the array is not closed"),
    ])
    func qplaydExits78NamingTheLineAndColumn(text: String, place: String, reason: String) throws {
        let daemon = DaemonProcess()
        defer { daemon.directory.remove() }
        let config = try daemon.writeConfig(text)
        let result = try runProcess(
            BuiltProducts.url("qplayd"), daemon.standardArguments + ["--config", config],
            environment: daemon.environment, killAfter: 30)
        #expect(result.status == 78, "\(result.stderr)")
        #expect(result.stderr.contains("qplayd: \(config):\(place): invalid TOML: \(reason)"), "\(result.stderr)")
        #expect(!result.stderr.contains("Assertion") && !result.stderr.contains("Fatal error"), "\(result.stderr)")
    }

    /// The fuzzing finds that once crashed the config loader, replayed through the daemon.
    @Test func everyCommittedCrashingConfigExits78WithALineAndColumn() throws {
        let folder = SampleCatalog.repositoryRoot.appending("Fuzz/crashes/config").string
        let names = try FileManager.default.contentsOfDirectory(atPath: folder).filter { !$0.hasPrefix(".") }.sorted()
        #expect(names.count >= 2)
        for name in names {
            let daemon = DaemonProcess()
            defer { daemon.directory.remove() }
            let text = try String(contentsOfFile: "\(folder)/\(name)", encoding: .utf8)
            let config = try daemon.writeConfig(text)
            let result = try runProcess(
                BuiltProducts.url("qplayd"), daemon.standardArguments + ["--config", config],
                environment: daemon.environment, killAfter: 30)
            #expect(result.status == 78, "\(name): \(result.stderr)")
            #expect(result.stderr.range(of: "\(config):[0-9]+:[0-9]+: ", options: .regularExpression) != nil, "\(name): \(result.stderr)")
        }
    }
}
