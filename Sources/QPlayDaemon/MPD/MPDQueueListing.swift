import QPlayEngine
import QPlayMPD
import QPlayModel
import Synchronization

/// The queue's songs as `playlistinfo` writes them, kept for the queue version they were
/// written for. Clients ask for the whole list again and again (ncmpcpp after every
/// change, status bars on every poll) while it rarely changes; an entry's track never
/// changes while it stands in the queue, and every edit moves the version, so the bytes
/// stay right until then. One listing is kept (the latest), about 300 bytes an entry.
final class MPDQueueListing: Sendable {
    private struct Key: Equatable {
        var version: UInt64
        var count: Int
        var first: EntryID?
        var last: EntryID?
        var tags: MPDTagMask
    }

    private struct Listing {
        var key: Key
        var bytes: [UInt8]
        /// Where each entry starts in `bytes`, and the end: `count + 1` offsets.
        var offsets: [Int]
    }

    private let latest = Mutex<Listing?>(nil)

    /// The songs at `positions` (with `Pos` and `Id`) into `response`.
    func write(_ queue: QueueSnapshot, _ positions: Range<Int>, tags: MPDTagMask, into response: inout MPDResponse) {
        guard !positions.isEmpty else { return }
        let key = Key(
            version: queue.version, count: queue.entries.count, first: queue.entries.first?.id,
            last: queue.entries.last?.id, tags: tags)
        let listing: Listing
        if let cached = latest.withLock({ $0 }), cached.key == key {
            listing = cached
        } else {
            listing = Self.make(queue, key: key)
            latest.withLock { $0 = listing }
        }
        let start = listing.offsets[positions.lowerBound]
        let end = listing.offsets[positions.upperBound]
        listing.bytes.withUnsafeBufferPointer { buffer in
            response.append(UnsafeBufferPointer(rebasing: buffer[start..<end]))
        }
    }

    private static func make(_ queue: QueueSnapshot, key: Key) -> Listing {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(queue.entries.count * 320)
        var offsets: [Int] = []
        offsets.reserveCapacity(queue.entries.count + 1)
        for (position, entry) in queue.entries.enumerated() {
            offsets.append(bytes.count)
            MPDSongWriter.write(entry.track, position: position, id: entry.id, tags: key.tags, into: &bytes)
        }
        offsets.append(bytes.count)
        return Listing(key: key, bytes: bytes, offsets: offsets)
    }
}
