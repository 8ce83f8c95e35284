import QPlayStreams
import Testing

@Suite struct ICYDemultiplexerTests {
    /// A stream as a server with `icy-metaint: interval` sends it: audio bytes counting
    /// up, and after every `interval` of them a length byte and that block (or 0).
    struct Stream {
        var bytes: [UInt8] = []
        var audio: [UInt8] = []
        var titles: [String] = []

        init(interval: Int, blocks: [String?]) {
            var counter: UInt8 = 0
            for block in blocks {
                for _ in 0..<interval {
                    bytes.append(counter)
                    audio.append(counter)
                    counter &+= 1
                }
                guard let block else {
                    bytes.append(0)
                    continue
                }
                let text = ICYMetadataTests.block(Array("StreamTitle='\(block)';".utf8))
                bytes.append(UInt8(text.count / 16))
                bytes += text
                titles.append(block)
            }
            // A partial interval at the end.
            for _ in 0..<(interval / 2) {
                bytes.append(counter)
                audio.append(counter)
                counter &+= 1
            }
        }
    }

    struct Split: Equatable {
        var audio: [UInt8] = []
        var titles: [String?] = []

        mutating func add(_ pieces: [ICYDemultiplexer.Piece]) {
            for piece in pieces {
                switch piece {
                case .audio(let bytes): audio += bytes
                case .metadata(let metadata): titles.append(metadata.title)
                }
            }
        }
    }

    func split(_ bytes: [UInt8], interval: Int, cuts: [Int]) -> Split {
        var demultiplexer = ICYDemultiplexer(interval: interval)!
        var split = Split()
        var start = 0
        for cut in cuts + [bytes.count] where cut >= start {
            split.add(demultiplexer.feed(bytes[start..<cut]))
            start = cut
        }
        return split
    }

    static let stream = Stream(
        interval: 37, blocks: ["First - Song", nil, "Second's - Song';x", nil, nil, "Third", String(repeating: "L", count: 4000)])

    @Test func splitsAudioFromMetadataInOneChunk() {
        let result = split(Self.stream.bytes, interval: 37, cuts: [])
        #expect(result.audio == Self.stream.audio)
        #expect(result.titles == Self.stream.titles.map { $0 })
    }

    /// Two chunks, cut at every offset: inside audio, at a length byte, inside a block.
    @Test func everyCutGivesTheSameSplit() {
        let whole = split(Self.stream.bytes, interval: 37, cuts: [])
        for cut in 0...Self.stream.bytes.count {
            #expect(split(Self.stream.bytes, interval: 37, cuts: [cut]) == whole, "cut at \(cut)")
        }
    }

    @Test func byteByByteAndInRandomChunks() {
        let whole = split(Self.stream.bytes, interval: 37, cuts: [])
        #expect(split(Self.stream.bytes, interval: 37, cuts: Array(0..<Self.stream.bytes.count)) == whole)
        var random = SystemRandomNumberGenerator()
        for _ in 0..<50 {
            let cuts = (0..<6).map { _ in Int.random(in: 0...Self.stream.bytes.count, using: &random) }.sorted()
            #expect(split(Self.stream.bytes, interval: 37, cuts: cuts) == whole, "cuts \(cuts)")
        }
    }

    @Test func audioPiecesAreSlicesOfTheChunk() {
        var demultiplexer = ICYDemultiplexer(interval: 4)!
        let chunk: [UInt8] = [1, 2, 3, 4, 0, 5, 6]
        let pieces = demultiplexer.feed(chunk)
        #expect(pieces == [.audio(chunk[0..<4]), .audio(chunk[5..<7])])
        if case .audio(let slice) = pieces[1] { #expect(slice.startIndex == 5) }
    }

    @Test func zeroLengthAndAllNULBlocksAreNotReported() {
        var demultiplexer = ICYDemultiplexer(interval: 2)!
        let pieces = demultiplexer.feed([9, 9, 0, 8, 8, 1] + [UInt8](repeating: 0, count: 16) + [7])
        #expect(pieces == [.audio([9, 9][...]), .audio([8, 8][...]), .audio([7][...])])
    }

    @Test func intervalsNoServerSendsAreRefused() {
        #expect(ICYDemultiplexer(interval: 0) == nil)
        #expect(ICYDemultiplexer(interval: -1) == nil)
        #expect(ICYDemultiplexer(interval: ICYDemultiplexer.maximumInterval + 1) == nil)
        #expect(ICYDemultiplexer(interval: 16000)?.interval == 16000)
    }
}
