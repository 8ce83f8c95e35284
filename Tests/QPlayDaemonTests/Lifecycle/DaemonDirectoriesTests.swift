import QPlayTestSupport
import SystemPackage
import Testing

@testable import QPlayDaemon

#if canImport(Glibc)
import Glibc
#endif

@Suite struct DaemonDirectoriesTests {
    func mode(_ path: FilePath) -> mode_t {
        var info = stat()
        stat(path.string, &info)
        return info.st_mode & 0o7777
    }

    @Test func createsEveryMissingFolderPrivate() throws {
        let dir = TemporaryDirectory("qplay-dirs")
        defer { dir.remove() }
        let previous = umask(0o022)
        defer { umask(previous) }
        let configuration = DaemonConfiguration(
            musicDirectory: dir.appending("music"), socketPath: dir.appending("run/qplay/qplay.sock"),
            dataDirectory: dir.appending("share/qplay"), socketDirectoryIsDedicated: true)
        try DaemonDirectories.prepare(for: configuration)
        for folder in ["run", "run/qplay", "share", "share/qplay"] {
            #expect(mode(dir.appending(folder)) == 0o700, "\(folder)")
        }
        // Idempotent.
        try DaemonDirectories.prepare(for: configuration)
    }

    @Test func aDedicatedSocketFolderIsTightenedASharedOneLeftAlone() throws {
        let dir = TemporaryDirectory("qplay-dirs")
        defer { dir.remove() }
        let dedicated = dir.appending("qplay")
        let shared = dir.appending("shared")
        #expect(mkdir(dedicated.string, 0o755) == 0 && chmod(dedicated.string, 0o755) == 0)
        #expect(mkdir(shared.string, 0o755) == 0 && chmod(shared.string, 0o755) == 0)
        try DaemonDirectories.prepareSocketDirectory(dedicated, dedicated: true)
        try DaemonDirectories.prepareSocketDirectory(shared, dedicated: false)
        #expect(mode(dedicated) == 0o700)
        #expect(mode(shared) == 0o755)
    }

    @Test(.enabled(if: getuid() == 0, "needs root to give a folder away"))
    func aDedicatedSocketFolderOwnedBySomeoneElseIsRefused() throws {
        let dir = TemporaryDirectory("qplay-dirs")
        defer { dir.remove() }
        let planted = dir.appending("qplay-planted")
        #expect(mkdir(planted.string, 0o777) == 0)
        #expect(chown(planted.string, 65534, 65534) == 0)
        let error = try #require(throws: DaemonDirectories.Failure.self) {
            try DaemonDirectories.prepareSocketDirectory(planted, dedicated: true)
        }
        #expect(error.reason.contains("belongs to uid 65534"))
    }

    @Test func aFileInTheWayIsAnError() throws {
        let dir = TemporaryDirectory("qplay-dirs")
        defer { dir.remove() }
        try dir.write([1], to: dir.appending("file"))
        let error = try #require(throws: DaemonDirectories.Failure.self) {
            try DaemonDirectories.createDirectory(dir.appending("file"))
        }
        #expect(error.reason == "it exists and is not a directory")
        #expect(throws: DaemonDirectories.Failure.self) {
            try DaemonDirectories.createDirectory(dir.appending("file/below"))
        }
    }

    @Test func aLooserDataFolderIsTightenedAndReported() throws {
        let dir = TemporaryDirectory("qplay-dirs")
        defer { dir.remove() }
        let data = dir.appending("data")
        #expect(mkdir(data.string, 0o755) == 0 && chmod(data.string, 0o755) == 0)
        #expect(try DaemonDirectories.preparePrivateDirectory(data))
        #expect(mode(data) == 0o700)
        #expect(try DaemonDirectories.preparePrivateDirectory(data) == false)
    }

    @Test func aSymlinkedPrivateFolderIsRefused() throws {
        let dir = TemporaryDirectory("qplay-dirs")
        defer { dir.remove() }
        let target = dir.appending("target")
        let link = dir.appending("qplay")
        #expect(mkdir(target.string, 0o700) == 0)
        #expect(symlink(target.string, link.string) == 0)
        let error = try #require(throws: DaemonDirectories.Failure.self) {
            try DaemonDirectories.prepareSocketDirectory(link, dedicated: true)
        }
        #expect(error.reason.contains("symbolic link"))
        #expect(throws: DaemonDirectories.Failure.self) { try DaemonDirectories.preparePrivateDirectory(link) }
    }

    @Test(.enabled(if: getuid() == 0, "needs root to give a folder away"))
    func aDataFolderOwnedBySomeoneElseIsRefused() throws {
        let dir = TemporaryDirectory("qplay-dirs")
        defer { dir.remove() }
        let data = dir.appending("data")
        #expect(mkdir(data.string, 0o700) == 0)
        #expect(chown(data.string, 65534, 65534) == 0)
        let error = try #require(throws: DaemonDirectories.Failure.self) {
            try DaemonDirectories.preparePrivateDirectory(data)
        }
        #expect(error.reason.contains("belongs to uid 65534"))
        #expect(mode(data) == 0o700)
    }
}
