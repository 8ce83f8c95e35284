import Foundation
import QPlayTestSupport

#if canImport(Glibc)
import Glibc
#endif

/// What the stress test does to a music file behind the daemon's back.
enum FileFault: String, CaseIterable, Sendable {
    /// Overwritten in place (a decoder that has it open reads the text too).
    case text
    /// Cut to a few KB in place: a fraction of a second of audio that may just end.
    case truncate
    case delete
    /// A FIFO nobody writes to: opening it for reading blocks.
    case fifo
    /// A new file of 1–2 MB of zeros.
    case zeros
    /// A new 2 GB file with no data (ftruncate): reads as zeros for a long time.
    case sparse
    /// A symlink to /dev/zero: a character device, endless.
    case devZero

    /// No decoder can play a single sample of it, so reaching it must end in an error
    /// event. A truncated file still starts with audio: it may play and end or fail.
    var mustFail: Bool { self != .truncate }

    /// The order draws pick from.
    static let drawOrder: [FileFault] = [.text, .truncate, .delete, .fifo, .zeros, .sparse, .devZero]
}

/// The fixture files of one run: the good bytes of each, and the faults applied to them.
struct FixtureFiles {
    let directory: String
    let fixtures: [ToneFixture]
    private let good: [[UInt8]]

    init(directory: String, fixtures: [ToneFixture], goodCopiesIn source: String) throws {
        self.directory = directory
        self.fixtures = fixtures
        good = try fixtures.map { try TemporaryDirectory.read(.init("\(source)/\($0.file)")) }
        for index in fixtures.indices { try restore(index, inPlace: false) }
    }

    func path(_ index: Int) -> String { "\(directory)/\(fixtures[index].file)" }

    /// Applies `fault` to fixture `index`; `size` draws the sizes that vary.
    func apply(_ fault: FileFault, to index: Int, size: Double) throws {
        let path = self.path(index)
        switch fault {
        case .text:
            removeUnlessRegular(path)
            let text = String(repeating: "not audio at all\n", count: 2000)
            try write(Array(text.utf8), to: path, truncating: true)
        case .truncate:
            // The good file's first 2–8 KB, whatever the file holds now.
            removeUnlessRegular(path)
            let keep = min(good[index].count, 2048 + Int(size * 6144))
            try write(Array(good[index][..<keep]), to: path, truncating: false)
            try check(truncate(path, off_t(keep)), "truncate", path)
        case .delete:
            unlink(path)
        case .fifo:
            unlink(path)
            try check(mkfifo(path, 0o644), "mkfifo", path)
        case .zeros:
            unlink(path)
            try write([UInt8](repeating: 0, count: 1_048_576 + Int(size * 1_048_576)), to: path, truncating: true)
        case .sparse:
            unlink(path)
            let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
            try check(fd, "open", path)
            defer { close(fd) }
            try check(ftruncate(fd, 2 << 30), "ftruncate", path)
        case .devZero:
            unlink(path)
            try check(symlink("/dev/zero", path), "symlink", path)
        }
    }

    /// Puts the good bytes back: in place (as `cp` does, a decoder that has the file open
    /// reads them) or as a new file (an open decoder keeps reading the old one).
    func restore(_ index: Int, inPlace: Bool) throws {
        let path = self.path(index)
        if inPlace {
            removeUnlessRegular(path)
        } else {
            unlink(path)
        }
        try write(good[index], to: path, truncating: true)
    }

    /// Opening a FIFO for writing would block: anything that is not a regular file goes.
    private func removeUnlessRegular(_ path: String) {
        var info = stat()
        if lstat(path, &info) == 0, info.st_mode & S_IFMT != S_IFREG { unlink(path) }
    }

    private func write(_ bytes: [UInt8], to path: String, truncating: Bool) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC | (truncating ? O_TRUNC : 0), 0o644)
        try check(fd, "open", path)
        defer { close(fd) }
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            try check(n < 0 ? -1 : 0, "write", path)
            offset += n
        }
    }

    private func check(_ result: some BinaryInteger, _ what: String, _ path: String) throws {
        if result < 0 {
            throw LineSocketClient.Failure(description: "\(what) \(path): \(String(cString: strerror(errno)))")
        }
    }
}
