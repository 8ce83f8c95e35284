import NIOPosix
import QPlayLibrary
import QPlayModel
import QPlayMPD
import SystemPackage

#if canImport(Glibc)
import Glibc
#endif

/// `albumart` and `readpicture` as MPD 0.23 answers them (src/command/FileCommands.cxx):
/// `size: N`, for readpicture the picture's `type:`, then one `binary: n` chunk of at
/// most the connection's binary limit from OFFSET, the client asking again for the rest.
///
/// The files are opened and read on NIO's blocking-I/O thread pool, never on the
/// connection's event loop: every MPD client shares that loop, and a picture on a slow
/// disk (or network mount) must not hold their answers.
enum MPDArtworkCommands {
    static let all: [MPDCommand] = [
        MPDCommand("albumart", arguments: 2...2) { call in try await albumArt(&call) },
        MPDCommand("readpicture", arguments: 2...2) { call in try await readPicture(&call) },
    ]

    /// The image files `albumart` looks for in the song's folder, in MPD 0.23's order
    /// and case: only these, unlike the names `art` and MPRIS take.
    static let albumArtNames = ["cover.png", "cover.jpg", "cover.webp"]

    /// MPD's default `binarylimit`.
    static let defaultBinaryLimit = 8192
    /// The largest `binarylimit` MPD 0.23 takes (its client's output limit, 8 MiB and
    /// 16 KiB, less 4 KiB): measured against MPD, 8,400,897 is "Number too large".
    static let maximumBinaryLimit = 8 * 1024 * 1024 + 16 * 1024 - 4096

    /// `albumart URI OFFSET`: the folder of URI is looked in whether or not the song is
    /// in the library, as by MPD.
    private static func albumArt(_ call: inout MPDCall) async throws {
        let offset = try MPDArgument.unsigned(call[1])
        guard let directory = try folder(of: call[0], in: call.context) else {
            throw MPDError(.noExist, "No file exists")
        }
        let limit = call.settings.binaryLimit
        let (size, chunk) = try await NIOThreadPool.singleton.runIfActive {
            try readCover(in: directory, from: offset, limit: limit)
        }
        call.response.field("size", size)
        binary(chunk, into: &call.response)
    }

    /// The size of the folder's cover image and up to `limit` of its bytes from `offset`.
    private static func readCover(in directory: FilePath, from offset: Int, limit: Int) throws -> (Int, [UInt8]) {
        guard let descriptor = openFirst(albumArtNames, in: directory) else {
            throw MPDError(.noExist, "No file exists")
        }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw MPDError(.noExist, "Cannot get size for stream") }
        let size = Int(info.st_size)
        guard offset <= size else { throw MPDError(.argument, "Offset too large") }
        var chunk = [UInt8](repeating: 0, count: min(size - offset, limit))
        var done = 0
        while done < chunk.count {
            let got = chunk.withUnsafeMutableBytes {
                pread(descriptor, $0.baseAddress! + done, $0.count - done, off_t(offset + done))
            }
            if got < 0, errno == EINTR { continue }
            guard got > 0 else { break }
            done += got
        }
        return (size, Array(chunk.prefix(done)))
    }

    /// `readpicture URI OFFSET`: the first picture embedded in the song (whatever its
    /// type, as MPD), nothing at all when it has none.
    private static func readPicture(_ call: inout MPDCall) async throws {
        let offset = try MPDArgument.unsigned(call[1])
        let uri = call[0]
        if uri.hasPrefix("/") { throw MPDError(.permission, "Access denied") }
        let path = MPDLibraryPaths.normalized(uri)
        guard !path.isEmpty else { throw MPDError(.noExist, "No such song") }
        let tracks = try MPDLibraryPaths.unordered(under: uri, in: call.context)
        guard let track = tracks.first(where: { $0.path.string == path }) else {
            throw MPDError(.noExist, "No such song")
        }
        let file = call.context.library.musicDirectory.pushing(track.path)
        let artwork = call.context.library.artwork
        // A file that cannot be read now answers as one without a picture.
        let found = try await NIOThreadPool.singleton.runIfActive { try? artwork.embedded(file, choice: .first) }
        guard let picture = found else { return }
        guard offset <= picture.bytes.count else { throw MPDError(.argument, "Bad file offset") }
        call.response.field("size", picture.bytes.count)
        if let mime = picture.mime { call.response.field("type", mime) }
        let end = offset + min(picture.bytes.count - offset, call.settings.binaryLimit)
        binary(Array(picture.bytes[offset..<end]), into: &call.response)
    }

    /// The folder of the song at `uri` in the music directory; nil for a URI that leaves
    /// it. An absolute path is refused as MPD refuses it to a client that is not local.
    private static func folder(of uri: String, in context: MPDCommandContext) throws(MPDError) -> FilePath? {
        if uri.hasPrefix("/") { throw MPDError(.permission, "Access denied") }
        let components = MPDLibraryPaths.normalized(uri).split(separator: "/")
        guard !components.isEmpty, !components.contains(where: { $0 == ".." || $0 == "." }) else { return nil }
        var folder = context.library.musicDirectory
        for name in components.dropLast() { folder.append(String(name)) }
        return folder
    }

    /// The descriptor of the first of `names` in `folder` that opens as a regular file.
    private static func openFirst(_ names: [String], in folder: FilePath) -> Int32? {
        for name in names {
            let path = folder.appending(name)
            let descriptor = path.withPlatformString { open($0, O_RDONLY | O_CLOEXEC | O_NONBLOCK) }
            guard descriptor >= 0 else { continue }
            var info = stat()
            if fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG { return descriptor }
            close(descriptor)
        }
        return nil
    }

    /// One `binary: n` chunk: the line, the bytes, a newline.
    private static func binary(_ bytes: [UInt8], into response: inout MPDResponse) {
        response.field("binary", bytes.count)
        response.append(bytes)
        response.append([0x0A])
    }
}
