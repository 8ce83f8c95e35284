import SystemPackage
import Testing

@testable import QPlayLibrary

/// Paths built directly are the paths `FilePath(platformString:)` makes.
@Suite struct FilePathBuilderTests {
    func publicPath(_ bytes: [UInt8]) -> FilePath {
        (bytes + [0]).withUnsafeBufferPointer {
            $0.withMemoryRebound(to: CChar.self) { FilePath(platformString: $0.baseAddress!) }
        }
    }

    func built(_ bytes: [UInt8]) -> FilePath {
        FilePathBuilder.path(length: bytes.count) { destination in
            bytes.withUnsafeBufferPointer { destination.update(from: $0.baseAddress!, count: bytes.count) }
        }
    }

    @Test func theSwiftSystemLayoutIsTheOneExpected() {
        // If this fails, paths still come out right (through the public initializer),
        // only slower: FilePathBuilder's fast path needs a look at the new swift-system.
        #expect(FilePathBuilder.layoutMatches)
    }

    @Test func builtPathsEqualPublicOnes() {
        let samples: [[UInt8]] = [
            Array("x".utf8), Array("Artist/Album/01 Song.mp3".utf8), Array("/abs/path".utf8),
            Array("Odd/caf".utf8) + [0xE9, 0xFF, 0x80] + Array(".mp3".utf8), Array("夜の歌/01 東京.flac".utf8),
        ]
        for sample in samples {
            let path = built(sample)
            #expect(path == publicPath(sample))
            #expect(PathBytes.bytes(path) == sample)
            #expect(path.string == publicPath(sample).string)
            #expect(Set([path, publicPath(sample)]).count == 1)
        }
    }

    @Test func whatNeedsNormalizingIsRecognized() {
        func normalized(_ text: String) -> Bool {
            Array(text.utf8).withUnsafeBytes { FilePathBuilder.isNormalized($0) }
        }
        for text in ["a", "a/b", "/a/b", "/", "", "a/b.mp3", "a b/c"] {
            #expect(normalized(text), "\(text)")
            #expect(PathBytes.bytes(publicPath(Array(text.utf8))) == Array(text.utf8), "\(text)")
        }
        for text in ["a//b", "a/", "//a", "a/b/", "a\u{0}b"] {
            #expect(!normalized(text), "\(text)")
        }
    }
}
