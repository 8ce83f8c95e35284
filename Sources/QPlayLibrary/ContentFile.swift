import QPlayModel
import SystemPackage

#if canImport(Glibc)
import Glibc
#endif

/// A file's bytes from where its content starts (after any leading ID3v2 tag), read
/// with pread on a descriptor opened on first use: what the format table's MP4
/// signature walks to the `moov` box to learn the codec — never opened for the other
/// formats, which their first bytes tell.
final class ContentFile {
    private let path: FilePath
    private var descriptor: Int32?
    private var origin = 0

    init(_ path: FilePath) {
        self.path = path
    }

    deinit {
        if let descriptor, descriptor >= 0 { close(descriptor) }
    }

    /// Up to `count` bytes at `offset` from the content's start; none when the file
    /// cannot be read.
    func read(_ offset: Int, _ count: Int) -> [UInt8] {
        let file = open()
        guard file >= 0, count > 0, offset >= 0 else { return [] }
        var bytes = [UInt8](repeating: 0, count: count)
        let got = bytes.withUnsafeMutableBytes { pread(file, $0.baseAddress!, count, off_t(origin + offset)) }
        return Array(bytes.prefix(max(0, got)))
    }

    private func open() -> Int32 {
        if let descriptor { return descriptor }
        // Non-blocking: the shim checked it is a regular file, but it may have been
        // replaced since.
        let file = path.withPlatformString { Glibc.open($0, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY) }
        descriptor = file
        guard file >= 0 else { return file }
        var header = [UInt8](repeating: 0, count: 10)
        let got = header.withUnsafeMutableBytes { pread(file, $0.baseAddress!, 10, 0) }
        // A leading ID3v2 tag: "ID3", version, flags, 4 syncsafe size bytes.
        if got == 10, header.starts(with: Array("ID3".utf8)), header[3] != 0xFF, header[4] != 0xFF,
            header[6..<10].allSatisfy({ $0 < 0x80 })
        {
            origin = 10 + header[6..<10].reduce(0) { $0 << 7 | Int($1) } + (header[5] & 0x10 != 0 ? 10 : 0)
        }
        return file
    }
}
