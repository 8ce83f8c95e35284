import QPlayLibrary
import QPlayTestSupport
import SystemPackage
import Testing

#if canImport(Glibc)
import Glibc
#endif

@Suite struct MusicFileWalkerTests {
    let walker = MusicFileWalker(extensions: ["mp3"])

    @Test func findsEverySample() {
        var found: [String] = []
        let problems = walker.walk(SampleCatalog.directory) { entry in
            found.append(String(entry.path.string.dropFirst(SampleCatalog.directory.string.count + 1)))
            #expect(entry.size > 0 && entry.modificationTime > 0)
        }
        #expect(problems.isEmpty)
        #expect(found.sorted() == SampleCatalog.all.map(\.file).sorted())
    }

    @Test func followsSymlinkedFoldersOnceAndSurvivesLoops() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let albums = dir.appending("albums")
        #expect(mkdir(albums.string, 0o755) == 0)
        try dir.copy(SampleCatalog.all[0].path, to: albums.appending("a.mp3"))
        try dir.write([], to: albums.appending("cover.jpg"))
        #expect(symlink(dir.path.string, albums.appending("loop").string) == 0)
        #expect(symlink("/nonexistent/target", dir.appending("dangling").string) == 0)
        var found: [FilePath] = []
        let problems = walker.walk(dir.path) { found.append($0.path) }
        #expect(found == [albums.appending("a.mp3")])
        #expect(problems.map(\.path) == [dir.appending("dangling")])
    }

    @Test func keepsNamesByteExact() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let raw: [UInt8] = [0x66, 0xFF, 0xFE, 0x2E, 0x6D, 0x70, 0x33]
        let odd = dir.appending(rawName: raw)
        try dir.copy(SampleCatalog.all[0].path, to: odd)
        var found: [FilePath] = []
        _ = walker.walk(dir.path) { found.append($0.path) }
        #expect(found == [odd])
        let bytes = found[0].lastComponent!.withPlatformString { Array(UnsafeBufferPointer(start: $0, count: strlen($0))) }
        #expect(bytes.map { UInt8(bitPattern: $0) } == raw)
    }

    @Test func missingDirectoryIsAProblemNotACrash() {
        let problems = walker.walk(FilePath("/nonexistent/music")) { _ in }
        #expect(problems.count == 1)
    }
}
