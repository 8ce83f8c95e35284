import Foundation
import SystemPackage

#if canImport(Glibc)
import Glibc
#endif

/// The parts of the process environment the configuration depends on, captured once so
/// tests can supply their own.
public struct ConfigurationEnvironment: Sendable {
    public var variables: [String: String]
    public var userID: UInt32
    /// Absolute; relative command-line paths are resolved against it.
    public var currentDirectory: FilePath
    /// `$HOME`, else the passwd entry's home; nil when neither exists.
    public var homeDirectory: FilePath?

    public init(
        variables: [String: String], userID: UInt32, currentDirectory: FilePath, homeDirectory: FilePath?
    ) {
        self.variables = variables
        self.userID = userID
        self.currentDirectory = currentDirectory
        self.homeDirectory = homeDirectory
    }

    /// This process's environment.
    public static func current() -> ConfigurationEnvironment {
        let variables = ProcessInfo.processInfo.environment
        let uid = getuid()
        let cwd = FilePath(FileManager.default.currentDirectoryPath)
        var home: FilePath? = variables["HOME"].flatMap { $0.hasPrefix("/") ? FilePath($0) : nil }
        if home == nil, let entry = getpwuid(uid), let directory = entry.pointee.pw_dir {
            home = FilePath(platformString: directory)
        }
        return ConfigurationEnvironment(
            variables: variables, userID: uid, currentDirectory: cwd, homeDirectory: home)
    }

    /// An XDG base directory variable, ignored when empty or relative (as the XDG spec says).
    func xdgDirectory(_ name: String) -> FilePath? {
        guard let value = variables[name], value.hasPrefix("/") else { return nil }
        return FilePath(value).lexicallyNormalized()
    }

    /// `$XDG_CONFIG_HOME`, else `~/.config`.
    var configHome: FilePath? {
        xdgDirectory("XDG_CONFIG_HOME") ?? homeDirectory?.appending(".config")
    }

    /// `$XDG_DATA_HOME`, else `~/.local/share`.
    var dataHome: FilePath? {
        xdgDirectory("XDG_DATA_HOME") ?? homeDirectory?.appending(".local/share")
    }

    /// The user's music folder: `$XDG_MUSIC_DIR`, else `XDG_MUSIC_DIR` from
    /// `$XDG_CONFIG_HOME/user-dirs.dirs` (what `xdg-user-dir MUSIC` answers), else `~/Music`.
    var musicDirectory: FilePath? {
        if let direct = xdgDirectory("XDG_MUSIC_DIR") { return direct }
        if let fromUserDirs = userDirsMusicDirectory() { return fromUserDirs }
        return homeDirectory?.appending("Music")
    }

    /// Parses the `XDG_MUSIC_DIR="$HOME/Music"` line of user-dirs.dirs. Per the
    /// xdg-user-dirs format a value is `"$HOME/..."` or an absolute path; a value equal to
    /// `$HOME` means "disabled" and is ignored.
    private func userDirsMusicDirectory() -> FilePath? {
        guard let file = configHome?.appending("user-dirs.dirs"),
            let bytes = try? ConfigurationFile.readBytes(file),
            let text = String(validating: bytes, as: UTF8.self)
        else { return nil }
        for rawLine in text.split(separator: "\n") {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            guard line.hasPrefix("XDG_MUSIC_DIR=") else { continue }
            var value = line.dropFirst("XDG_MUSIC_DIR=".count)
            guard value.count >= 2, value.first == "\"", value.last == "\"" else { return nil }
            value = value.dropFirst().dropLast()
            if value.hasPrefix("$HOME") {
                guard let home = homeDirectory else { return nil }
                let rest = value.dropFirst("$HOME".count).drop(while: { $0 == "/" })
                return rest.isEmpty ? nil : home.appending(String(rest)).lexicallyNormalized()
            }
            return value.hasPrefix("/") ? FilePath(String(value)).lexicallyNormalized() : nil
        }
        return nil
    }
}
