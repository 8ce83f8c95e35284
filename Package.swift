// swift-tools-version: 6.0
import PackageDescription

// Dependency direction, one way only (docs/ARCHITECTURE.md lists every target's
// dependencies; scripts/check-repository fails when that list and this file differ):
//   QPlayModel, QPlayProtocol, QPlayMPD, QPlayStreams: none of ours
//   QPlayAudio: its C bindings (CMPG123 … CSoxr), QPlayModel
//   QPlayLibrary: CTagLib, QPlayModel        QPlayEngine: QPlayModel (not the library)
//   QPlayStreamInput: QPlayStreams and CCurl (libcurl; the daemon's URL entries)
//   QPlayDaemon: all of the above, CSDBus (sd-bus, for the MPRIS frontend) and Hummingbird
//   (the web remote)
//   qplayd: QPlayDaemon (and QPlayAudio, QPlayLibrary, QPlayModel)     qplay: QPlayProtocol

// scripts/fuzz builds the fuzz targets (Fuzz/) into .build-fuzz with QPLAY_FUZZ=1: then
// qplay's own modules are compiled with libFuzzer's coverage and AddressSanitizer, and
// the fuzz executables link libFuzzer. The dependencies (NIO, GRDB) stay
// uninstrumented: the coverage that guides the fuzzer is on our code, and the build on
// two cores stays short. The normal build sees none of it.
let fuzzing = Context.environment["QPLAY_FUZZ"] == "1"
let fuzzInstrumented: [SwiftSetting] = fuzzing ? [.unsafeFlags(["-sanitize=fuzzer,address"])] : []
// The protocol code, the config file's TOML parser and the targets' own checks work
// per byte: unoptimised, the line framer target managed 20 runs a second on 64 KiB
// streams, the config target 180.
let fuzzOptimized: [SwiftSetting] = fuzzing ? [.unsafeFlags(["-O"])] : []
let fuzzInstrumentedC: [CXXSetting] = fuzzing ? [.unsafeFlags(["-fsanitize=fuzzer-no-link,address"])] : []

/// One libFuzzer target under Fuzz/Targets: without QPLAY_FUZZ its main replays inputs
/// (the regression test runs it on the committed corpus).
func fuzzTarget(_ name: String, _ directory: String, _ dependencies: [Target.Dependency]) -> Target {
    .executableTarget(
        name: "qplay-fuzz-\(name)", dependencies: ["QPlayFuzzSupport"] + dependencies,
        path: "Fuzz/Targets/\(directory)", swiftSettings: fuzzInstrumented + fuzzOptimized,
        linkerSettings: fuzzing ? [.unsafeFlags(["-sanitize=fuzzer,address"])] : [])
}

/// Generic types' metadata through accessor functions that pass the conformances along,
/// instead of mangled names the runtime demangles and checks — the first such check
/// scans every protocol conformance of the static `qplay` (4,000), a tenth of a
/// `qplay status` run's own CPU time.
let directMetadataAccess: [SwiftSetting] = [
    .unsafeFlags(["-Xfrontend", "-disable-concrete-type-metadata-mangled-name-accessors"])
]

let package = Package(
    name: "qplay",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "qplayd", targets: ["qplayd"]),
        .executable(name: "qplay", targets: ["qplay"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-system", from: "1.4.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.80.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.0.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.0.0"),
        // The web remote's HTTP server and its WebSocket (the page speaks protocol v1 at /ws).
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", from: "2.8.1"),
    ],
    targets: [
        // C bindings
        .systemLibrary(
            name: "CMPG123", path: "Sources/CMPG123", pkgConfig: "libmpg123",
            providers: [.apt(["libmpg123-dev"])]),
        .systemLibrary(
            name: "CFLAC", path: "Sources/CFLAC", pkgConfig: "flac",
            providers: [.apt(["libflac-dev"])]),
        .systemLibrary(
            name: "CVorbisFile", path: "Sources/CVorbisFile", pkgConfig: "vorbisfile",
            providers: [.apt(["libvorbis-dev"])]),
        .systemLibrary(
            name: "COpusFile", path: "Sources/COpusFile", pkgConfig: "opusfile",
            providers: [.apt(["libopusfile-dev"])]),
        // FFmpeg (libavformat, libavcodec, libavutil): the catch-all decoder's formats
        // (AAC and ALAC in MP4, ADTS AAC, WAV, AIFF, WavPack); the shim names the error
        // codes its macros build.
        .systemLibrary(
            name: "CFFmpeg", path: "Sources/CFFmpeg", pkgConfig: "libavformat",
            providers: [.apt(["libavformat-dev", "libavcodec-dev", "libavutil-dev"])]),
        .systemLibrary(
            name: "CALSA", path: "Sources/CALSA", pkgConfig: "alsa",
            providers: [.apt(["libasound2-dev"])]),
        .systemLibrary(
            name: "CSoxr", path: "Sources/CSoxr", pkgConfig: "soxr",
            providers: [.apt(["libsoxr-dev"])]),
        // The HTTP stream output's encoders: LAME (no pkg-config file) and libopusenc
        // (Ogg Opus pages; the shim types the encoder controls it uses).
        .systemLibrary(
            name: "CLame", path: "Sources/CLame",
            providers: [.apt(["libmp3lame-dev"])]),
        .systemLibrary(
            name: "COpusEnc", path: "Sources/COpusEnc", pkgConfig: "libopusenc",
            providers: [.apt(["libopusenc-dev"])]),
        // The MPRIS vtables and non-variadic message helpers over sd-bus (libsystemd):
        // its vtable macros and variadic calls do not import into Swift.
        .target(
            name: "CSDBus", path: "Sources/CSDBus",
            linkerSettings: [.linkedLibrary("systemd")]),
        // Typed calls into libcurl (curl_easy_setopt and curl_easy_getinfo are variadic)
        // and its multi loop, which another thread can wake: internet radio's reads.
        .target(
            name: "CCurl", path: "Sources/CCurl",
            linkerSettings: [.linkedLibrary("curl")]),
        .target(
            name: "CTagLib", path: "Sources/CTagLib",
            cxxSettings: fuzzInstrumentedC,
            linkerSettings: [.linkedLibrary("tag")]),

        // Model: the vocabulary the library, the engine and every frontend share (track,
        // ids, entries, modes); value types only, nothing that does I/O.
        .target(
            name: "QPlayModel",
            dependencies: [.product(name: "SystemPackage", package: "swift-system")],
            swiftSettings: fuzzInstrumented),
        // Audio: decoders, outputs, the audio thread
        .target(
            name: "QPlayAudio",
            dependencies: [
                "CMPG123", "CFLAC", "CVorbisFile", "COpusFile", "CFFmpeg", "CALSA", "CSoxr", "QPlayModel",
                .product(name: "SystemPackage", package: "swift-system"),
            ],
            swiftSettings: fuzzInstrumented),
        // The HTTP stream output: the music encoded as MP3 or Ogg Opus for the web
        // remote's listeners (an output after the first, fed like any other).
        .target(
            name: "QPlayStreamOutput",
            dependencies: ["CLame", "COpusEnc", "QPlayAudio"]),
        // Library: tags, scanner, index, queries, item collections
        .target(
            name: "QPlayLibrary",
            dependencies: [
                "CTagLib", "QPlayModel",
                .product(name: "SystemPackage", package: "swift-system"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            swiftSettings: fuzzInstrumented),
        // Engine: the pure queue and player state machine (no I/O, injectable clock)
        .target(
            name: "QPlayEngine",
            dependencies: [
                "QPlayModel",
                .product(name: "SystemPackage", package: "swift-system"),
            ]),
        // Protocol v1: wire types and JSON Lines codec, shared by daemon and CLI.
        // Kept free of NIO, GRDB and full Foundation so the CLI starts fast.
        .target(
            name: "QPlayProtocol",
            dependencies: [],
            swiftSettings: fuzzInstrumented + fuzzOptimized + directMetadataAccess),
        // MPD's text protocol: tokenizer, argument and filter parsers, response lines,
        // command lists. Pure like QPlayProtocol (no NIO, no Foundation): the fuzz
        // target drives it byte by byte.
        .target(
            name: "QPlayMPD",
            dependencies: [],
            swiftSettings: fuzzInstrumented + fuzzOptimized),
        // Streams: internet radio playlists (m3u, pls) and ICY metadata. Pure like
        // QPlayMPD (no NIO, only FoundationEssentials' URL): the fuzz targets drive it.
        .target(
            name: "QPlayStreams",
            dependencies: [],
            swiftSettings: fuzzInstrumented + fuzzOptimized),
        // Stream input: internet radio read over HTTP(S) by libcurl into a bounded
        // buffer, ICY metadata split off. A module of its own: the pure parts stay cheap
        // to fuzz, and only what reads the network links libcurl.
        .target(
            name: "QPlayStreamInput",
            dependencies: ["QPlayStreams", "CCurl"]),
        // Daemon: socket server, command dispatch, persistence, configuration
        .target(
            name: "QPlayDaemon",
            dependencies: [
                "QPlayAudio", "QPlayModel", "QPlayLibrary", "QPlayEngine", "QPlayProtocol", "QPlayMPD", "CSDBus",
                "QPlayStreams", "QPlayStreamInput", "QPlayStreamOutput",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "SystemPackage", package: "swift-system"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
            ],
            // The page's source files: scripts/gen-web-assets compiles them into WebAssets.swift.
            exclude: ["Web/Assets"],
            swiftSettings: fuzzInstrumented + fuzzOptimized),

        // Executables
        .executableTarget(
            name: "qplayd",
            dependencies: [
                "QPlayAudio", "QPlayModel", "QPlayLibrary", "QPlayDaemon",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            // The daemon runs for days, so its resident memory is what counts (the target:
            // at most half of MPD's). The Swift runtime and Foundation linked in and
            // dead-stripped map fewer pages than their shared libraries; a position-
            // dependent executable needs no run-time relocation of its own pointers
            // (2.3 MB of relocation records read at start-up and the pages they dirty);
            // and exporting no symbols spares the dynamic symbol table (1.1 MB) — nothing
            // looks symbols up in qplayd. Together 32 MB → 24 MB after start-up on
            // 20,000 tracks (docs/arch/daemon.md). The C libraries stay shared (ALSA
            // loads its plugins with dlopen).
            linkerSettings: [
                .unsafeFlags([
                    "-static-stdlib", "-Xclang-linker", "-no-pie", "-Xlinker", "--no-export-dynamic",
                ]),
                // What the static Foundation archives need but do not name themselves
                // (the modules compiled against were the shared ones).
                .linkedLibrary("CoreFoundation"), .linkedLibrary("_FoundationICU"),
                .linkedLibrary("_FoundationCollections"), .linkedLibrary("_FoundationCShims"),
                .linkedLibrary("swiftSynchronization"),
            ]),
        .executableTarget(
            name: "qplay",
            dependencies: [
                "QPlayProtocol",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            // Status bars and key bindings spawn qplay constantly: a fully static
            // executable (Swift runtime, Foundation and glibc linked in) leaves the dynamic
            // loader nothing to do — no libstdc++, libm, libgcc_s or libc to map, relocate
            // and bind — which halves the run of `qplay status`. qplay uses no NSS (getpw*,
            // getaddrinfo) nor locales, the parts of a static glibc that would need the
            // shared one at run time. The static FoundationEssentials archive does not
            // name these three itself. lld lays out first what the common invocations touch
            // (startup-order.txt, written by scripts/qplay-startup-order): `qplay status`
            // then faults in about 100 pages of the 13 MB executable, not 155; names the
            // code no longer has are skipped without a warning.
            exclude: ["startup-order.txt"],
            // As QPlayProtocol: no mangled-name metadata lookups (each ran the demangler and
            // a conformance scan at start-up); a section per function, so the order packs
            // qplay's own code as tightly as the standard library's.
            swiftSettings: directMetadataAccess + [.unsafeFlags(["-Xfrontend", "-function-sections"])],
            linkerSettings: [
                .unsafeFlags([
                    "-static-executable", "-use-ld=lld",
                    "-Xlinker", "--symbol-ordering-file=\(Context.packageDirectory)/Sources/qplay/startup-order.txt",
                    "-Xlinker", "--no-warn-symbol-ordering",
                ]),
                .linkedLibrary("_FoundationCollections"), .linkedLibrary("_FoundationCShims"),
                .linkedLibrary("swiftSynchronization"),
            ]),

        // Benchmark drivers (scripts/bench), not shipped
        .executableTarget(name: "qplay-bench", dependencies: ["QPlayLibrary"], path: "Benchmarks/LibraryBench"),
        .executableTarget(name: "qplay-bench-engine", dependencies: ["QPlayAudio"], path: "Benchmarks/EngineBench"),
        .executableTarget(name: "qplay-bench-daemon", path: "Benchmarks/DaemonBench"),

        // Fuzz targets (scripts/fuzz), not shipped
        .target(
            name: "QPlayFuzzSupport", path: "Fuzz/Support",
            swiftSettings: fuzzing ? [.define("QPLAY_FUZZ")] : []),
        fuzzTarget("request-decoder", "RequestDecoder", ["QPlayProtocol"]),
        fuzzTarget("line-framer", "LineFramer", ["QPlayProtocol"]),
        fuzzTarget("command-parsing", "CommandParsing", ["QPlayProtocol"]),
        fuzzTarget("status-format", "StatusFormat", ["QPlayProtocol"]),
        fuzzTarget("mpd-line", "MPDLine", ["QPlayMPD"]),
        fuzzTarget("icy", "ICY", ["QPlayStreams"]),
        fuzzTarget("stream-playlist", "StreamPlaylist", ["QPlayStreams"]),
        fuzzTarget("config", "Config", [
            "QPlayDaemon", .product(name: "SystemPackage", package: "swift-system"),
        ]),
        fuzzTarget("taglib", "TagLib", [
            "QPlayLibrary", .product(name: "SystemPackage", package: "swift-system"),
        ]),
        fuzzTarget("picture", "Picture", ["QPlayLibrary", .product(name: "SystemPackage", package: "swift-system")]),
        // The web remote's head and WebSocket reading, with NIO's decoders beside them.
        fuzzTarget("web-head", "WebHead", [
            "QPlayDaemon", .product(name: "NIOEmbedded", package: "swift-nio"),
            .product(name: "NIOHTTP1", package: "swift-nio"),
        ]),
        fuzzTarget("web-socket", "WebSocket", [
            "QPlayDaemon", "QPlayProtocol", .product(name: "NIOEmbedded", package: "swift-nio"),
            .product(name: "NIOWebSocket", package: "swift-nio"),
        ]),
        // What the decoder targets share: reading a decoder to its end with the checks.
        .target(
            name: "QPlayFuzzDecoderSupport", dependencies: ["QPlayAudio", "QPlayFuzzSupport"],
            path: "Fuzz/DecoderSupport", swiftSettings: fuzzInstrumented + fuzzOptimized),
        fuzzTarget("mpg123", "MPG123", [
            "QPlayAudio", "QPlayFuzzDecoderSupport", .product(name: "SystemPackage", package: "swift-system"),
        ]),
        fuzzTarget("flac", "FLAC", [
            "QPlayAudio", "QPlayFuzzDecoderSupport", .product(name: "SystemPackage", package: "swift-system"),
        ]),
        fuzzTarget("ogg", "Ogg", [
            "QPlayAudio", "QPlayFuzzDecoderSupport", .product(name: "SystemPackage", package: "swift-system"),
        ]),
        fuzzTarget("ffmpeg", "FFmpeg", [
            "QPlayAudio", "QPlayFuzzDecoderSupport", .product(name: "SystemPackage", package: "swift-system"),
        ]),

        // Tests
        .target(
            name: "QPlayTestSupport",
            dependencies: [.product(name: "SystemPackage", package: "swift-system")],
            path: "Tests/QPlayTestSupport"),
        .testTarget(
            name: "QPlayAudioTests",
            dependencies: ["QPlayAudio", "QPlayTestSupport"]),
        .testTarget(
            name: "QPlayLibraryTests",
            dependencies: ["QPlayModel", "QPlayLibrary", "QPlayTestSupport"]),
        .testTarget(
            name: "QPlayEngineTests",
            dependencies: [
                "QPlayEngine", "QPlayModel",
                .product(name: "SystemPackage", package: "swift-system"),
            ]),
        .testTarget(
            name: "QPlayFuzzTests",
            dependencies: ["QPlayTestSupport"]),
        .testTarget(
            name: "QPlayProtocolTests",
            dependencies: ["QPlayProtocol"]),
        .testTarget(
            name: "QPlayMPDTests",
            dependencies: ["QPlayMPD", "QPlayTestSupport"]),
        .testTarget(
            name: "QPlayStreamsTests",
            dependencies: ["QPlayStreams", "QPlayStreamInput", "QPlayTestSupport"]),
        .testTarget(
            name: "QPlayDaemonTests",
            dependencies: ["QPlayDaemon", "QPlayModel", "QPlayEngine", "QPlayProtocol", "QPlayTestSupport"]),
    ],
    cxxLanguageStandard: .cxx17
)
