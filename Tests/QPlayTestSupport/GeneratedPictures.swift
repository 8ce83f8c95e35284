import Foundation
import SystemPackage

/// Pictures and music files carrying them, made for a test: a PNG written here, embedded
/// as the tools users tag with would (metaflac, vorbiscomment, opusenc, ffmpeg) or as
/// ID3v2.3 APIC frames written byte by byte (to choose their order and types).
public enum GeneratedPictures {
    /// A `width`×`height` RGB PNG of seeded noise: noise does not compress, so the file
    /// is about 3 bytes a pixel (64×64: 12 KB, more than one 8 KiB MPD chunk).
    public static func png(width: Int = 64, height: Int = 64, seed: UInt64 = 1) -> [UInt8] {
        var raw: [UInt8] = []
        let noise = pseudoRandomBytes(count: width * height * 3, seed: seed)
        for row in 0..<height {
            raw.append(0)  // filter: none
            raw += noise[(row * width * 3)..<((row + 1) * width * 3)]
        }
        var header: [UInt8] = []
        header += bigEndian32(UInt32(width)) + bigEndian32(UInt32(height))
        header += [8, 2, 0, 0, 0]  // 8 bits, RGB, deflate, no filter method, no interlace
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", header)
            + chunk("IDAT", storedZlib(raw)) + chunk("IEND", [])
    }

    /// Bytes that start as a JPEG does, then seeded noise: TagLib and MPD hand pictures
    /// out without decoding them.
    public static func jpegLike(count: Int, seed: UInt64 = 2) -> [UInt8] {
        [0xFF, 0xD8, 0xFF, 0xE0] + pseudoRandomBytes(count: count - 4, seed: seed)
    }

    /// One APIC frame of an ID3v2.3 tag.
    public struct APIC {
        public var mime: String
        public var type: UInt8
        public var description: String
        public var data: [UInt8]

        public init(mime: String, type: UInt8, description: String = "", data: [UInt8]) {
            self.mime = mime
            self.type = type
            self.description = description
            self.data = data
        }
    }

    /// An ID3v2.3 tag holding `pictures` in that order (and a title).
    public static func id3v2Tag(_ pictures: [APIC], title: String = "Pictured") -> [UInt8] {
        var frames: [UInt8] = []
        frames += frame("TIT2", [0] + Array(title.utf8))
        for picture in pictures {
            frames += frame(
                "APIC", [0] + Array(picture.mime.utf8) + [0, picture.type] + Array(picture.description.utf8) + [0]
                    + picture.data)
        }
        let size = frames.count
        let syncsafe: [UInt8] = [
            UInt8((size >> 21) & 0x7F), UInt8((size >> 14) & 0x7F), UInt8((size >> 7) & 0x7F), UInt8(size & 0x7F),
        ]
        return Array("ID3".utf8) + [3, 0, 0] + syncsafe + frames
    }

    /// An MP3 (lame, no tag of its own) with `pictures` in an ID3v2.3 tag before it.
    public static func mp3(
        in directory: TemporaryDirectory, name: String, pictures: [APIC], seconds: Int = 2
    ) throws -> FilePath {
        let plain = try GeneratedAudio.sweep(in: directory, name: "\(name).plain.mp3", seconds: seconds, vbr: false)
        let path = directory.appending(name)
        try directory.write(id3v2Tag(pictures) + TemporaryDirectory.read(plain), to: path)
        try? FileManager.default.removeItem(atPath: plain.string)
        return path
    }

    /// A FLAC file (sox) with `picture` imported by metaflac as a PICTURE block of `type`.
    public static func flac(
        in directory: TemporaryDirectory, name: String, picture: [UInt8]?, mime: String = "image/png",
        type: Int = 3, seconds: Int = 2
    ) throws -> FilePath {
        let path = directory.appending(name)
        try GeneratedAudio.run(
            "sox", "-R", "-n", "-r", "44100", "-c", "2", "-b", "16", path.string, "synth", "\(seconds)", "sine", "440",
            "vol", "0.3")
        if let picture {
            let image = directory.appending("\(name).picture")
            try directory.write(picture, to: image)
            // Dimensions given, so metaflac does not need to understand the image.
            try GeneratedAudio.run(
                "metaflac", "--import-picture-from=\(type)|\(mime)|cover|64x64x24|\(image.string)", path.string)
            try? FileManager.default.removeItem(atPath: image.string)
        }
        return path
    }

    /// A FLAC picture block (the METADATA_BLOCK_PICTURE of Vorbis comments), base64.
    public static func metadataBlockPicture(_ picture: [UInt8], mime: String, type: UInt32 = 3) -> String {
        var block = bigEndian32(type)
        block += bigEndian32(UInt32(mime.utf8.count)) + Array(mime.utf8)
        block += bigEndian32(5) + Array("cover".utf8)
        block += bigEndian32(64) + bigEndian32(64) + bigEndian32(24) + bigEndian32(0)
        block += bigEndian32(UInt32(picture.count)) + picture
        return Data(block).base64EncodedString()
    }

    /// An Ogg Vorbis (oggenc) or Opus (opusenc) file whose comments hold `picture` as
    /// METADATA_BLOCK_PICTURE.
    public static func ogg(
        in directory: TemporaryDirectory, name: String, opus: Bool, picture: [UInt8], mime: String = "image/png"
    ) throws -> FilePath {
        let wav = directory.appending("\(name).wav")
        let path = directory.appending(name)
        try GeneratedAudio.run(
            "sox", "-R", "-n", "-r", "48000", "-c", "2", "-b", "16", wav.string,
            "synth", "2", "sine", "440", "vol", "0.3")
        let comment = "METADATA_BLOCK_PICTURE=" + metadataBlockPicture(picture, mime: mime)
        if opus {
            try GeneratedAudio.run("opusenc", "--quiet", "--comment", comment, wav.string, path.string)
        } else {
            try GeneratedAudio.run("oggenc", "--quiet", "-c", comment, "-o", path.string, wav.string)
        }
        try? FileManager.default.removeItem(atPath: wav.string)
        return path
    }

    /// An AAC `.m4a` (ffmpeg) with `picture` attached as its `covr` atom.
    public static func m4a(in directory: TemporaryDirectory, name: String, picture: [UInt8]) throws -> FilePath {
        let image = directory.appending("\(name).png")
        try directory.write(picture, to: image)
        let path = directory.appending(name)
        try GeneratedAudio.run(
            "ffmpeg", "-nostdin", "-loglevel", "error", "-y", "-f", "lavfi", "-i", "sine=frequency=440:duration=2",
            "-i", image.string, "-map", "0", "-map", "1", "-c:a", "aac", "-c:v", "copy", "-disposition:v",
            "attached_pic", "-movflags", "+faststart", path.string)
        try? FileManager.default.removeItem(atPath: image.string)
        return path
    }

    // MARK: Bytes

    static func bigEndian32(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }

    static func frame(_ id: String, _ body: [UInt8]) -> [UInt8] {
        Array(id.utf8) + bigEndian32(UInt32(body.count)) + [0, 0] + body
    }

    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let typed = Array(type.utf8) + data
        return bigEndian32(UInt32(data.count)) + typed + bigEndian32(crc32(typed))
    }

    /// zlib of `data` in stored (uncompressed) deflate blocks.
    static func storedZlib(_ data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]
        var offset = 0
        repeat {
            let length = min(65535, data.count - offset)
            let final: UInt8 = offset + length == data.count ? 1 : 0
            out += [final, UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF), UInt8((~length >> 8) & 0xFF)]
            out += data[offset..<(offset + length)]
            offset += length
        } while offset < data.count
        var a: UInt32 = 1
        var b: UInt32 = 0
        for byte in data {
            a = (a + UInt32(byte)) % 65521
            b = (b + a) % 65521
        }
        return out + bigEndian32(b << 16 | a)
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }
}
