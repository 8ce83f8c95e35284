import QPlayDaemon
import QPlayFuzzSupport
import SystemPackage

/// The daemon's configuration loader on arbitrary config files: the input is written to
/// a file that `DaemonConfiguration.load` reads as `--config`, the way qplayd does. It
/// must give a configuration or a `ConfigurationError` that says where and why, never
/// crash;
/// a configuration it gives holds values within the documented ranges.
@main
enum ConfigFuzz {
    static func main() { FuzzDriver.run(check) }

    static let file = ScratchFile(suffix: "toml")
    static let environment = ConfigurationEnvironment(
        variables: [:], userID: 1000, currentDirectory: "/srv/cwd", homeDirectory: "/home/fuzz")

    static func check(_ bytes: [UInt8]) {
        file.write(bytes)
        let configuration: DaemonConfiguration
        do {
            configuration = try DaemonConfiguration.load(
                overrides: .init(configFile: file.path), environment: environment)
        } catch {
            fuzzCheck(!error.reason.isEmpty && !error.origin.isEmpty, "an error without a reason or origin: \(error)")
            return
        }
        fuzzCheck(configuration.configFile == FilePath(file.path), "loaded \(String(describing: configuration.configFile))")
        fuzzCheck((1.5...64).contains(configuration.scanRate), "scan rate \(configuration.scanRate)")
        fuzzCheck((0...60).contains(configuration.restartAfter), "restart after \(configuration.restartAfter)")
        fuzzCheck((1...8).contains(configuration.rawOutputFormat.channels), "\(configuration.rawOutputFormat.channels) channels")
        for path in [configuration.musicDirectory, configuration.socketPath, configuration.dataDirectory] {
            fuzzCheck(path.isAbsolute, "a relative path \(path)")
        }
    }
}
