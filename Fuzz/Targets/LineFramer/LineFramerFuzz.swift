import QPlayFuzzSupport
import QPlayProtocol

/// Feeds a byte stream to `LineFramer` in chunks whose sizes the input chooses, taking
/// every frame after each chunk as the server does, and compares the frames with a
/// model: split at `\n`, a line over the limit is `.tooLong` (once), the rest verbatim.
/// Between chunks the framer holds at most `limit` bytes.
///
/// Input: a selector byte (small limits 0…31, or the 64 KiB request limit with the
/// stream repeated to pass it by up to 15 KiB), a count of chunk-size bytes, those
/// bytes, the stream.
@main
enum LineFramerFuzz {
    static func main() { FuzzDriver.run(check) }

    static func check(_ bytes: [UInt8]) {
        var input = FuzzInput(bytes)
        let selector = input.byte()
        let sizes = Array(input.take(Int(input.byte() % 16)))
        let payload = input.rest()
        let limit: Int
        var stream: [UInt8]
        // Mostly small limits: a run at the real one costs its 64 KiB stream, a thousand
        // times a small one.
        if selector < 0xF0 {
            limit = Int(selector % 32)
            stream = Array(payload)
        } else {
            // Fuzz inputs are a few KB: repeat them to cross the real limit (and not much
            // further: each run of the framer costs its stream's length).
            limit = LineFramer.requestLimit
            let copies = payload.isEmpty ? 0 : (limit + Int(selector & 0x0F) * 1024) / payload.count + 1
            // Copied by doubling: appending a 1-byte payload 80,000 times cost more than
            // the framing under test.
            stream = Array(payload)
            while stream.count < payload.count * copies {
                stream.append(contentsOf: stream[..<min(stream.count, payload.count * copies - stream.count)])
            }
        }
        let scale = limit > 1024 ? 1021 : 1

        var framer = LineFramer(limit: limit)
        var frames: [LineFramer.Frame] = []
        var offset = 0
        var chunk = 0
        while offset < stream.count {
            let size = sizes.isEmpty ? stream.count : (Int(sizes[chunk % sizes.count]) + 1) * scale
            chunk += 1
            let end = min(stream.count, offset + size)
            framer.append(stream[offset..<end])
            offset = end
            while let frame = framer.next() { frames.append(frame) }
            fuzzCheck(framer.pendingCount <= limit, "holds \(framer.pendingCount) bytes, limit \(limit)")
        }

        let expected = model(stream, limit: limit)
        fuzzCheck(frames.count == expected.frames.count, "\(frames.count) frames, the model has \(expected.frames.count)")
        for (index, (frame, wanted)) in zip(frames, expected.frames).enumerated() {
            fuzzCheck(frame == wanted, "frame \(index) is \(describe(frame)), the model's \(describe(wanted))")
            if case .line(let line) = frame {
                fuzzCheck(line.count <= limit && !line.contains(UInt8(ascii: "\n")), "frame \(index) is no line")
            }
        }
        if expected.unfinished <= limit {
            fuzzCheck(framer.pendingCount == expected.unfinished,
                "holds \(framer.pendingCount) bytes of the unfinished line of \(expected.unfinished)")
        }
    }

    /// The frames the whole stream must give, and the length of its unfinished tail.
    static func model(_ stream: [UInt8], limit: Int) -> (frames: [LineFramer.Frame], unfinished: Int) {
        var frames: [LineFramer.Frame] = []
        var start = 0
        while let newline = stream[start...].firstIndex(of: UInt8(ascii: "\n")) {
            let line = stream[start..<newline]
            frames.append(line.count > limit ? .tooLong : .line(Array(line)))
            start = newline + 1
        }
        let unfinished = stream.count - start
        if unfinished > limit { frames.append(.tooLong) }
        return (frames, unfinished)
    }

    static func describe(_ frame: LineFramer.Frame) -> String {
        switch frame {
        case .line(let line): "a line of \(line.count) bytes"
        case .tooLong: "too long"
        }
    }
}
