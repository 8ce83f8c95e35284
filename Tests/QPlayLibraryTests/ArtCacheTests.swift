import Foundation
import QPlayLibrary
import QPlayTestSupport
import SystemPackage
import Testing

/// The folder of embedded pictures written out for MPRIS: each picture once, named by
/// its content, the folder within its bound, the least recently used out first.
@Suite struct ArtCacheTests {
    let directory = TemporaryDirectory("art-cache")

    /// What the folder holds on disk: names and bytes together.
    func onDisk(_ folder: FilePath) throws -> (names: Set<String>, bytes: Int) {
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.string)
        var total = 0
        for name in names {
            total += (try FileManager.default.attributesOfItem(atPath: folder.appending(name).string)[.size] as? Int) ?? 0
        }
        return (Set(names), total)
    }

    @Test func eachPictureIsWrittenOnceUnderItsContent() throws {
        let folder = directory.appending("cache/qplay/art")
        let cache = ArtCache(directory: folder, bound: 1 << 20)
        let png = GeneratedPictures.png(width: 16, height: 16, seed: 3)
        let first = try #require(cache.file(for: png, mime: "image/png"))
        #expect(try TemporaryDirectory.read(first) == png)
        #expect(first.string.hasSuffix(".png"))
        #expect(cache.file(for: png, mime: "image/png") == first)
        let other = try #require(cache.file(for: GeneratedPictures.png(width: 16, height: 16, seed: 4), mime: "image/png"))
        #expect(other != first)
        #expect(try onDisk(folder).names.count == 2)
        // A picture larger than the whole bound is not cached.
        #expect(ArtCache(directory: folder, bound: 100).file(for: png, mime: "image/png") == nil)
    }

    @Test func athousandCoversStayWithinASmallBoundLeastRecentlyUsedFirst() throws {
        let folder = directory.appending("small")
        let bound = 20_000
        let cache = ArtCache(directory: folder, bound: bound)
        let kept = GeneratedPictures.jpegLike(count: 1000, seed: 1)
        let keptFile = try #require(cache.file(for: kept, mime: "image/jpeg"))
        var written: [FilePath] = []
        for seed in 0..<1000 {
            let cover = GeneratedPictures.jpegLike(count: 500 + seed % 700, seed: UInt64(100 + seed))
            written.append(try #require(cache.file(for: cover, mime: "image/jpeg")))
            // The first picture is used again all along: it stays.
            if seed % 10 == 0 { #expect(cache.file(for: kept, mime: "image/jpeg") == keptFile) }
            #expect(cache.totalBytes <= bound)
        }
        let disk = try onDisk(folder)
        #expect(disk.bytes <= bound)
        #expect(disk.bytes == cache.totalBytes)
        #expect(disk.names.contains(keptFile.lastComponent!.string))
        #expect(disk.names.contains(written.last!.lastComponent!.string))
        #expect(!disk.names.contains(written.first!.lastComponent!.string))
        // A new cache over the same folder (a restart) sees the same pictures.
        #expect(ArtCache(directory: folder, bound: bound).totalBytes == disk.bytes)
    }

    @Test func athousandRealSizedCoversStayUnder64MiB() throws {
        let folder = directory.appending("real")
        let cache = ArtCache(directory: folder)
        #expect(cache.bound == 64 << 20)
        for seed in 0..<1000 {
            // 80–120 KB: a 500×500 JPEG cover.
            let cover = GeneratedPictures.jpegLike(count: 80_000 + (seed * 37) % 40_000, seed: UInt64(seed))
            _ = try #require(cache.file(for: cover, mime: "image/jpeg"))
        }
        let disk = try onDisk(folder)
        #expect(disk.bytes <= 64 << 20)
        #expect(disk.bytes > 60 << 20)
        #expect(disk.names.count < 1000)
        directory.remove()
    }
}
