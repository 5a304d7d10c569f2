// swift-tools-version: 6.1
// libFuzzer entry points for Stickerkit's decoders. Kept out of the root package so that normal
// builds and library users never see the sanitizer flags. Build and run with `scripts/fuzz`.
import PackageDescription

let package = Package(
    name: "StickerkitFuzz",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "Stickerkit", path: ".."),
    ],
    targets: [
        // Declares libFuzzer's LLVMFuzzerRunDriver (see the header for why).
        .target(name: "CFuzzDriver"),
        // What every entry point shares: the small limits and the checks on a successful decode.
        .target(name: "FuzzSupport", dependencies: ["CFuzzDriver", .product(name: "StickerKit", package: "Stickerkit")]),
        .executableTarget(name: "FuzzDecode", dependencies: ["FuzzSupport"]),
        .executableTarget(name: "FuzzPNG", dependencies: ["FuzzSupport"]),
        .executableTarget(name: "FuzzGIF", dependencies: ["FuzzSupport"]),
        .executableTarget(name: "FuzzJPEG", dependencies: ["FuzzSupport"]),
        .executableTarget(name: "FuzzWebP", dependencies: ["FuzzSupport"]),
        // The whole pipeline, not just decoding: a trap in resize, quantize or encode is a finding too.
        .executableTarget(name: "FuzzConvert", dependencies: ["FuzzSupport"]),
        // The least memory budget a file is converted under (rows, stores that give up) against the default: the same stickers.
        .executableTarget(name: "FuzzBudget", dependencies: ["FuzzSupport"]),
        // The other platforms' pipelines: every sticker written passes the platform's own check.
        .executableTarget(name: "FuzzPlatforms", dependencies: ["FuzzSupport", .product(name: "StickerPackaging", package: "Stickerkit")]),
        // `check` on arbitrary bytes: Messages' rules and every platform's, WebM's reader included.
        .executableTarget(name: "FuzzCheck", dependencies: ["FuzzSupport", .product(name: "StickerPackaging", package: "Stickerkit")]),
    ],
    swiftLanguageModes: [.v6]
)
