/// Reads a fuzz input as a stream of choices: libFuzzer mutates bytes, so a target
/// that draws its parameters (sizes, selectors) from the front of the input lets the
/// fuzzer steer them. Reading past the end gives zeros, so every input is usable.
public struct FuzzInput {
    public let bytes: [UInt8]
    public private(set) var position = 0

    public init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    public var isAtEnd: Bool { position >= bytes.count }

    public mutating func byte() -> UInt8 {
        guard position < bytes.count else { return 0 }
        defer { position += 1 }
        return bytes[position]
    }

    /// A number in `0..<count` (count > 0) from one or two bytes.
    public mutating func choose(_ count: Int) -> Int {
        count <= 256 ? Int(byte()) % count : (Int(byte()) << 8 | Int(byte())) % count
    }

    /// The next `count` bytes (fewer at the end).
    public mutating func take(_ count: Int) -> ArraySlice<UInt8> {
        let end = min(bytes.count, position + max(0, count))
        defer { position = max(position, end) }
        return bytes[min(position, bytes.count)..<end]
    }

    /// Everything not read yet.
    public mutating func rest() -> ArraySlice<UInt8> {
        take(bytes.count - position)
    }
}
