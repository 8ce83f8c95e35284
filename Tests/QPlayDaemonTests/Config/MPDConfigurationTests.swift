import QPlayTestSupport
import SystemPackage
import Testing

@testable import QPlayDaemon

@Suite struct MPDConfigurationTests {
    private func load(file text: String?, flags: [String]? = nil) throws -> DaemonConfiguration {
        let directory = TemporaryDirectory("qplay-mpd-config")
        defer { directory.remove() }
        var overrides = DaemonConfiguration.Overrides(musicDirectory: "/m", dataDirectory: "/d")
        if let text {
            let path = directory.appending("config.toml")
            try directory.write(Array(text.utf8), to: path)
            overrides.configFile = path.string
        }
        overrides.mpdListen = flags
        let environment = ConfigurationEnvironment(
            variables: [:], userID: 4321, currentDirectory: directory.path, homeDirectory: directory.path)
        return try DaemonConfiguration.load(overrides: overrides, environment: environment)
    }

    @Test func theMPDFrontendIsOffUnlessConfigured() throws {
        let configuration = try load(file: nil)
        #expect(configuration.mpdListen.isEmpty)
        #expect(configuration.mpdPassword == nil)
    }

    @Test func theConfigFileListsAddressesAndAPassword() throws {
        let configuration = try load(
            file: """
                mpd_listen = ["127.0.0.1:6600", "/run/user/1000/qplay/mpd.sock", "[::1]:6601", "0.0.0.0:6602"]
                mpd_password = "s3cret word"
                """)
        #expect(
            configuration.mpdListen == [
                .tcp(host: "127.0.0.1", port: 6600), .unix("/run/user/1000/qplay/mpd.sock"),
                .tcp(host: "::1", port: 6601), .tcp(host: "0.0.0.0", port: 6602),
            ])
        #expect(configuration.mpdPassword == "s3cret word")
    }

    @Test func flagsReplaceTheConfiguredList() throws {
        let configuration = try load(file: "mpd_listen = [\"127.0.0.1:6600\"]", flags: ["localhost:7700", "/tmp/x/mpd.sock"])
        #expect(configuration.mpdListen == [.tcp(host: "localhost", port: 7700), .unix("/tmp/x/mpd.sock")])
    }

    @Test(arguments: [
        ("mpd_listen = \"127.0.0.1:6600\"", "expected an array of addresses"),
        ("mpd_listen = [6600]", "expected addresses as strings"),
        ("mpd_listen = [\"127.0.0.1\"]", "has no port"),
        ("mpd_listen = [\"127.0.0.1:70000\"]", "port 70000 is out of range 1...65535"),
        ("mpd_listen = [\"127.0.0.1:0\"]", "port 0 is out of range"),
        ("mpd_listen = [\"127.0.0.1:http\"]", "the port 'http' is not a number"),
        ("mpd_listen = [\"::1:6600\"]", "in brackets"),
        ("mpd_listen = [\":6600\"]", "no usable host"),
        ("mpd_listen = [\"\"]", "the address is empty"),
        ("mpd_password = \"\"", "the password is empty"),
        ("mpd_password = \"a\\nb\"", "control character"),
    ])
    func aBadAddressOrPasswordNamesItsKey(line: String, reason: String) throws {
        let error = try #require(throws: ConfigurationError.self) { try load(file: line) }
        #expect(error.key == (line.hasPrefix("mpd_listen") ? "mpd_listen" : "mpd_password"))
        #expect(error.reason.contains(reason), "\(error)")
    }

    @Test func aBadFlagNamesTheFlag() throws {
        let error = try #require(throws: ConfigurationError.self) { try load(file: nil, flags: ["localhost:99999"]) }
        #expect(error.origin == "--mpd")
        #expect(error.reason.contains("out of range"))
    }

    @Test(arguments: ["127.0.0.1:6600", "127.1.2.3:6600", "localhost:6600", "LOCALHOST:6600", "[::1]:6600", "/tmp/mpd.sock"])
    func loopbackAddressesNeedNoPassword(address: String) throws {
        #expect(try load(file: nil, flags: [address]).mpdListen.count == 1)
    }

    @Test(arguments: ["0.0.0.0:6600", "192.168.1.5:6600", "[::]:6600", "myhost:6600", "127.0.0.1.example.com:6600"])
    func anExposedAddressWithoutAPasswordIsRefused(address: String) throws {
        let error = try #require(throws: ConfigurationError.self) {
            try load(file: nil, flags: ["127.0.0.1:6600", address])
        }
        #expect(error.key == "mpd_password")
        #expect(error.description.contains("mpd_password"))
        #expect(error.reason.contains("reachable from other machines"))
        #expect(try load(file: "mpd_password = \"pw\"", flags: [address]).mpdListen.count == 1)
    }
}
