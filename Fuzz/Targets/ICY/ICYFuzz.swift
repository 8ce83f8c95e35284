import QPlayFuzzSupport
import QPlayStreams

/// Feeds an ICY stream to `ICYDemultiplexer` in chunks whose sizes the input chooses and
/// compares the split with a model that walks the stream a byte at a time: the same
/// audio bytes, the same metadata blocks, whatever the cuts. Each block, and the payload
/// itself, goes through `ICYMetadata.parse`, and a title that holds no `';` comes back
/// whole from a block built around it.
///
/// Input: the interval (1…256), a count of chunk-size bytes, those bytes (0 reads as 1),
/// the stream.
@main
enum ICYFuzz {
    static func main() { FuzzDriver.run(check) }

    static func check(_ bytes: [UInt8]) {
        var input = FuzzInput(bytes)
        let interval = Int(input.byte()) + 1
        let sizes = Array(input.take(Int(input.byte() % 16)))
        let stream = Array(input.rest())

        var demultiplexer = ICYDemultiplexer(interval: interval)!
        var audio: [UInt8] = []
        var blocks: [ICYMetadata] = []
        var start = 0
        var next = 0
        while start < stream.count {
            let size = sizes.isEmpty ? stream.count : max(1, Int(sizes[next % sizes.count]))
            next += 1
            let end = min(stream.count, start + size)
            for piece in demultiplexer.feed(stream[start..<end]) {
                switch piece {
                case .audio(let slice):
                    fuzzCheck(!slice.isEmpty, "an empty audio piece")
                    audio += slice
                case .metadata(let metadata):
                    fuzzCheck(!metadata.fields.isEmpty, "a metadata piece without fields")
                    blocks.append(metadata)
                }
            }
            start = end
        }
        let model = modelSplit(stream, interval: interval)
        fuzzCheck(audio == model.audio, "audio differs from the model (interval \(interval), sizes \(sizes))")
        fuzzCheck(blocks == model.blocks, "metadata differs from the model (interval \(interval), sizes \(sizes))")

        checkParse(stream)
        checkTitleRoundTrip(stream)
    }

    /// The pattern read a byte at a time: `interval` audio bytes, a length byte, a block.
    static func modelSplit(_ stream: [UInt8], interval: Int) -> (audio: [UInt8], blocks: [ICYMetadata]) {
        var audio: [UInt8] = []
        var blocks: [ICYMetadata] = []
        var index = 0
        while index < stream.count {
            let audioEnd = min(stream.count, index + interval)
            audio += stream[index..<audioEnd]
            index = audioEnd
            guard index < stream.count else { break }
            let length = Int(stream[index]) * 16
            index += 1
            let blockEnd = index + length
            if length > 0, blockEnd <= stream.count {
                let metadata = ICYMetadata.parse(stream[index..<blockEnd])
                if !metadata.fields.isEmpty { blocks.append(metadata) }
            }
            index = min(stream.count, blockEnd)
        }
        return (audio, blocks)
    }

    static func checkParse(_ block: [UInt8]) {
        let metadata = ICYMetadata.parse(block)
        for field in metadata.fields {
            fuzzCheck(!field.key.isEmpty, "an empty key")
            fuzzCheck(!field.key.unicodeScalars.contains("\0") && !field.value.unicodeScalars.contains("\0"),
                "a NUL in \(field)")
        }
    }

    /// Printable ASCII without `';`, `&` (numeric references are decoded) and spaces at
    /// its ends, as a title.
    static func checkTitleRoundTrip(_ stream: [UInt8]) {
        var title = stream.filter { ((0x21...0x7E).contains($0) && $0 != 0x26) || $0 == 0x20 }
        while let quote = title.indices.first(where: { $0 + 1 < title.count && title[$0] == 0x27 && title[$0 + 1] == 0x3B })
        {
            title.remove(at: quote + 1)
        }
        while title.first == 0x20 { title.removeFirst() }
        while title.last == 0x20 { title.removeLast() }
        let text = String(decoding: title, as: UTF8.self)
        let block = Array("StreamTitle='".utf8) + title + Array("';StreamUrl='';".utf8)
        let parsed = ICYMetadata.parse(block + [0, 0, 0])
        fuzzCheck(parsed.title == text, "title \(text) parsed as \(String(describing: parsed.title))")
        fuzzCheck(parsed.url == "", "StreamUrl after \(text) parsed as \(String(describing: parsed.url))")
    }
}
