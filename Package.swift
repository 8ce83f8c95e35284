// swift-tools-version: 6.0
import PackageDescription

// Dependency direction (see docs/ARCHITECTURE.md):
//   C bindings → QPlayAudio, QPlayLibrary → (engine, protocol, daemon) → executables
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
    ],
    targets: [
        // C bindings
        .systemLibrary(
            name: "CMPG123", path: "Sources/CMPG123", pkgConfig: "libmpg123",
            providers: [.apt(["libmpg123-dev"])]),
        .systemLibrary(
            name: "CALSA", path: "Sources/CALSA", pkgConfig: "alsa",
            providers: [.apt(["libasound2-dev"])]),
        .target(
            name: "CTagLib", path: "Sources/CTagLib",
            linkerSettings: [.linkedLibrary("tag")]),

        // Audio: decoders and outputs
        .target(
            name: "QPlayAudio",
            dependencies: [
                "CMPG123", "CALSA",
                .product(name: "SystemPackage", package: "swift-system"),
            ]),
        // Library: tags, directory walking (scanner, index, queries to come)
        .target(
            name: "QPlayLibrary",
            dependencies: [
                "CTagLib",
                .product(name: "SystemPackage", package: "swift-system"),
            ]),

        // Executables
        .executableTarget(
            name: "qplayd",
            dependencies: [
                "QPlayAudio", "QPlayLibrary",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]),
        .executableTarget(
            name: "qplay",
            dependencies: [
                "QPlayLibrary",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
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
            dependencies: ["QPlayLibrary", "QPlayTestSupport"]),
    ],
    cxxLanguageStandard: .cxx17
)
