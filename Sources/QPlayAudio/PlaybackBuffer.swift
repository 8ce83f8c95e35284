/// Decoded PCM of one item, ready for the output.
struct AudioChunk {
    let token: UInt64
    let format: AudioFormat
    /// The item frame of the first sample.
    let startFrame: Int
    let samples: [Int32]
    /// The item's gain (Q15, see `SoftwareVolume`), applied with the volume.
    let gain: Int64

    var frames: Int { samples.count / format.channels }
}

/// What the decode side leaves for the write side, in stream order: audio, and marks
/// for what happens when the write side gets there (so events are sent when the
/// listener reaches them, not when the decoder ran ahead).
enum BufferEntry {
    case audio(AudioChunk)
    /// The item failed here: report it, play on with what follows.
    case failed(token: UInt64, reason: String)
    /// The item ended with no successor: report `finished`.
    case end(token: UInt64)

    var token: UInt64 {
        switch self {
        case .audio(let chunk): chunk.token
        case .failed(let token, _), .end(let token): token
        }
    }
}

/// The bounded decode-ahead queue between the decoder and the output.
struct PlaybackBuffer {
    private(set) var entries: [BufferEntry] = []
    private(set) var audioChunks = 0

    var first: BufferEntry? { entries.first }
    var isEmpty: Bool { entries.isEmpty }

    mutating func append(_ entry: BufferEntry) {
        if case .audio = entry { audioChunks += 1 }
        entries.append(entry)
    }

    mutating func removeFirst() {
        if case .audio = entries.removeFirst() { audioChunks -= 1 }
    }

    mutating func removeAll(where drop: (BufferEntry) -> Bool) {
        entries.removeAll(where: drop)
        audioChunks = entries.reduce(0) { count, entry in
            if case .audio = entry { count + 1 } else { count }
        }
    }

    mutating func clear() {
        entries.removeAll(keepingCapacity: true)
        audioChunks = 0
    }
}
