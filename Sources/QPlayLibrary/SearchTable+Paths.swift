import Foundation
import QPlayModel
import SystemPackage

extension SearchTable {
    /// Calls `body` with a function giving a rank's path bytes, exactly as the index holds
    /// them (valid until that function's next call).
    func withPaths<R>(_ body: ((Int) -> UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        let titleBuffer = UnsafeMutablePointer<UInt8>.allocate(capacity: max(longestTitle, 1))
        var scratch = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: 512)
        defer {
            titleBuffer.deallocate()
            scratch.deallocate()
        }
        func room(_ length: Int) {
            guard length > scratch.count else { return }
            scratch.deallocate()
            scratch = .allocate(capacity: max(length, scratch.count * 2))
        }
        return try rows.withUnsafeBufferPointer { rows in
            try groups.withUnsafeBufferPointer { groups in
                try directories.withUnsafeBufferPointer { directories in
                    try texts.withView { texts in
                        try body { rank in
                            if !exceptions.isEmpty, let track = exceptions[Int32(rank)] {
                                let bytes = PathBytes.bytes(track.path)
                                room(bytes.count)
                                _ = scratch.initialize(from: bytes)
                                return UnsafeBufferPointer(start: scratch.baseAddress, count: bytes.count)
                            }
                            let group = groups[Int(rows[rank].group)]
                            let (title, name) = texts.title(texts.locate(rank), into: titleBuffer)
                            let start = Int(group.directoryOffset)
                            let directoryLength = Int(group.directoryLength)
                            let length = directoryLength + RowTexts.nameLength(name, titleLength: title.count)
                            room(length)
                            let destination = scratch.baseAddress!
                            if let base = directories.baseAddress {
                                destination.update(from: base + start, count: directoryLength)
                            }
                            RowTexts.writeName(name, title: title, to: destination + directoryLength)
                            return UnsafeBufferPointer(start: destination, count: length)
                        }
                    }
                }
            }
        }
    }

    /// The rank of each path (nil: the table holds no such path), its bytes read where
    /// the path keeps them; a long list in two halves on two threads (see
    /// `tracks(atRanks:)`).
    func ranks(of paths: [FilePath]) -> [Int?] {
        let lookup = pathLookup
        func find(_ paths: ArraySlice<FilePath>, into result: UnsafeMutableBufferPointer<Int?>) {
            withPaths { pathOf in
                for (slot, path) in zip(result.indices, paths) {
                    let rank = path.withPlatformString { pointer in
                        pointer.withMemoryRebound(to: UInt8.self, capacity: 1) { bytes in
                            lookup.rank(of: UnsafeBufferPointer(start: bytes, count: strlen(pointer)), pathOf: pathOf)
                        }
                    }
                    result.initializeElement(at: slot, to: rank)
                }
            }
        }
        let count = paths.count
        return [Int?](unsafeUninitializedCapacity: count) { result, built in
            let result = result
            TwoHalves.run(count, from: Self.parallelBuild) { half in
                find(paths[half], into: UnsafeMutableBufferPointer(rebasing: result[half]))
            }
            built = count
        }
    }
}
