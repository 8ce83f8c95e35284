/// Splits an ICY stream (`Icy-MetaData: 1` answered with `icy-metaint: N`) into its
/// audio bytes and metadata blocks: after every N audio bytes comes one length byte L
/// and then L × 16 bytes of metadata (L = 0: none this time). Bytes arrive in chunks
/// of any size, cut anywhere — inside a block or at its length byte — so the position
/// in that pattern is kept from one chunk to the next.
public struct ICYDemultiplexer: Sendable {
    public enum Piece: Equatable, Sendable {
        /// Audio bytes, a slice of the chunk fed (no copy).
        case audio(ArraySlice<UInt8>)
        /// A block with at least one field; empty and all-NUL blocks are not reported.
        case metadata(ICYMetadata)
    }

    enum Position: Equatable, Sendable {
        case audio(left: Int)
        case lengthByte
        case metadata(left: Int)
    }

    public let interval: Int
    var position: Position
    var block: [UInt8] = []

    /// The largest `icy-metaint` taken; servers send 8192 or 16000.
    public static let maximumInterval = 1 << 24

    /// nil for an interval no server sends (0, negative, or absurdly large).
    public init?(interval: Int) {
        guard (1...Self.maximumInterval).contains(interval) else { return nil }
        self.interval = interval
        position = .audio(left: interval)
    }

    public mutating func feed(_ chunk: [UInt8]) -> [Piece] { feed(chunk[...]) }

    public mutating func feed(_ chunk: ArraySlice<UInt8>) -> [Piece] {
        var pieces: [Piece] = []
        var index = chunk.startIndex
        while index < chunk.endIndex {
            switch position {
            case .audio(let left):
                let end = min(chunk.endIndex, index + left)
                pieces.append(.audio(chunk[index..<end]))
                position = end - index == left ? .lengthByte : .audio(left: left - (end - index))
                index = end
            case .lengthByte:
                let length = Int(chunk[index]) * 16
                index += 1
                position = length == 0 ? .audio(left: interval) : .metadata(left: length)
            case .metadata(let left):
                let end = min(chunk.endIndex, index + left)
                block.append(contentsOf: chunk[index..<end])
                let taken = end - index
                index = end
                guard taken == left else {
                    position = .metadata(left: left - taken)
                    continue
                }
                let metadata = ICYMetadata.parse(block)
                if !metadata.fields.isEmpty { pieces.append(.metadata(metadata)) }
                block.removeAll(keepingCapacity: true)
                position = .audio(left: interval)
            }
        }
        return pieces
    }
}
