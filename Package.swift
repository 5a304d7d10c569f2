// swift-tools-version: 6.1
// Stickerkit: folders of artwork in, iMessage stickers out.
// Modules: the four stages — ImageDecoding, ImageResize, ImageQuantize, PNGEncoding — are siblings that
// each depend only on ImageCore (plus their system-library shims), never on one another. StickerKit
// composes them: decode → frames → fit and resize → quantize → encode → budget search. The CLI (module
// StickerkitCLI, product `stickerkit`) sits on StickerKit.
import PackageDescription


let package = Package(
    name: "Stickerkit",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "StickerKit", targets: ["StickerKit"]),
        .executable(name: "stickerkit", targets: ["StickerkitCLI"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    ],
    targets: [
        // Value types shared by every stage: Image, Frame, Animation, Delay, Limits, errors. No dependencies.
        .target(name: "ImageCore"),

        // Thin system-library shims (module map + shim.h), one per C library.
        .systemLibrary(name: "CPNG", pkgConfig: "libpng16", providers: [.apt(["libpng-dev"]), .brew(["libpng"])]),
        .systemLibrary(name: "CGIF", providers: [.apt(["libgif-dev"]), .brew(["giflib"])]),
        .systemLibrary(name: "CJPEG", pkgConfig: "libjpeg", providers: [.apt(["libjpeg62-turbo-dev"]), .brew(["jpeg-turbo"])]),
        .systemLibrary(name: "CWebP", pkgConfig: "libwebpdemux", providers: [.apt(["libwebp-dev"]), .brew(["webp"])]),
        .systemLibrary(name: "CDeflate", pkgConfig: "libdeflate", providers: [.apt(["libdeflate-dev"]), .brew(["libdeflate"])]),
        .systemLibrary(name: "CLCMS2", pkgConfig: "lcms2", providers: [.apt(["liblcms2-dev"]), .brew(["little-cms2"])]),
        // setjmp-based error handling for libjpeg, which Swift cannot call directly.
        .target(name: "CJPEGShim", dependencies: ["CJPEG"]),

        .target(name: "ImageDecoding", dependencies: ["ImageCore", "CDeflate", "CGIF", "CJPEGShim", "CWebP", "CLCMS2"],
                exclude: ["NOTES.md"]),
        .target(name: "ImageResize", dependencies: ["ImageCore"], exclude: ["NOTES.md"]),
        .target(name: "ImageQuantize", dependencies: ["ImageCore"], exclude: ["NOTES.md"]),
        .target(name: "PNGEncoding", dependencies: ["ImageCore", "CDeflate"], exclude: ["NOTES.md"]),
        .target(name: "StickerKit", dependencies: ["ImageCore", "ImageDecoding", "ImageResize", "ImageQuantize", "PNGEncoding", "CDeflate"],
                exclude: ["NOTES.md"]),
        // The `stickerkit` command. Its folder and module differ from StickerKit by more than letter case,
        // so a clone on a case-insensitive file system (macOS's default) keeps the two apart.
        .executableTarget(name: "StickerkitCLI", dependencies: [
            "StickerKit", .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),

        // Test helpers shared by the test targets (not a product; never linked into the library).
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(name: "ImageCoreTests", dependencies: ["ImageCore"]),
        .testTarget(name: "ImageDecodingTests", dependencies: ["ImageDecoding", "CPNG", "TestSupport"]),
        .testTarget(name: "ImageResizeTests", dependencies: ["ImageResize", "TestSupport"]),
        .testTarget(name: "ImageQuantizeTests", dependencies: ["ImageQuantize", "TestSupport"]),
        .testTarget(name: "PNGEncodingTests", dependencies: ["PNGEncoding", "ImageDecoding", "CPNG", "TestSupport"]),
        .testTarget(name: "StickerKitTests", dependencies: ["StickerKit", "ImageDecoding", "ImageResize", "PNGEncoding", "TestSupport"]),
        .testTarget(name: "StickerkitCLITests", dependencies: ["StickerkitCLI", "StickerKit"]),
    ],
    swiftLanguageModes: [.v6]
)
