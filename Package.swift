// swift-tools-version: 6.1
// Stickerkit: folders of artwork in, iMessage stickers out.
// Modules: the stages — ImageDecoding, ImageResize, ImageQuantize and the encoders PNGEncoding,
// WebPEncoding, WebMEncoding — are siblings that each depend only on ImageCore (plus their
// system-library shims), never on one another. StickerEncoding is the one seam over the encoders.
// StickerKit composes them: decode → frames → fit and resize → quantize → encode → budget search.
// StickerPackaging (Xcode sticker catalogs, check, icon sets, preview) sits on StickerKit, and the CLI
// (module StickerkitCLI, product `stickerkit`) on both.
import PackageDescription


let package = Package(
    name: "Stickerkit",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "StickerKit", targets: ["StickerKit"]),
        .library(name: "StickerPackaging", targets: ["StickerPackaging"]),
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
        // zlib: the one inflater on the system that streams (a still decoded row by row).
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]),
        .systemLibrary(name: "CDeflate", pkgConfig: "libdeflate", providers: [.apt(["libdeflate-dev"]), .brew(["libdeflate"])]),
        .systemLibrary(name: "CLCMS2", pkgConfig: "lcms2", providers: [.apt(["liblcms2-dev"]), .brew(["little-cms2"])]),
        // libwebp's encoder and libwebpmux's WebPAnimEncoder (the decoder side is CWebP).
        .systemLibrary(name: "CWebPEncode", pkgConfig: "libwebpmux", providers: [.apt(["libwebp-dev"]), .brew(["webp"])]),
        // libvpx: the VP9 encoder (and the decoder, for the tests).
        .systemLibrary(name: "CVPX", pkgConfig: "vpx", providers: [.apt(["libvpx-dev"]), .brew(["libvpx"])]),
        // libcrypto (OpenSSL) for SHA-256 on Linux; macOS has CommonCrypto in its SDK.
        .systemLibrary(name: "CCrypto", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        // setjmp-based error handling for libjpeg, which Swift cannot call directly.
        .target(name: "CJPEGShim", dependencies: ["CJPEG"]),

        .target(name: "ImageDecoding", dependencies: ["ImageCore", "CDeflate", "CZlib", "CGIF", "CJPEGShim", "CWebP", "CLCMS2"],
                exclude: ["NOTES.md"]),
        .target(name: "ImageResize", dependencies: ["ImageCore"], exclude: ["NOTES.md"]),
        .target(name: "ImageQuantize", dependencies: ["ImageCore"], exclude: ["NOTES.md"]),
        .target(name: "PNGEncoding", dependencies: ["ImageCore", "CDeflate"], exclude: ["NOTES.md"]),
        .target(name: "WebPEncoding", dependencies: ["ImageCore", "CWebPEncode"], exclude: ["NOTES.md"]),
        .target(name: "WebMEncoding", dependencies: ["ImageCore", "CVPX"], exclude: ["NOTES.md"]),
        // The one seam the budget search calls: frames + a quality setting in, a file out, for
        // every container (PNG/APNG, WebP, WebM).
        .target(name: "StickerEncoding", dependencies: ["ImageCore", "PNGEncoding", "WebPEncoding", "WebMEncoding"],
                exclude: ["NOTES.md"]),
        .target(name: "StickerKit", dependencies: ["ImageCore", "ImageDecoding", "ImageResize", "ImageQuantize", "PNGEncoding", "CDeflate",
                                                 "StickerEncoding", "WebPEncoding", "WebMEncoding"],
                exclude: ["NOTES.md"]),
        // Xcode sticker catalogs (pack, update, validate), the iMessage app icon set and the preview
        // page: the file-system side of stickers, above the pipeline (StickerKit touches no files).
        .target(name: "StickerPackaging", dependencies: ["StickerKit", "ImageCore", "ImageDecoding", "ImageResize", "PNGEncoding", "CDeflate",
                                                       .target(name: "CCrypto", condition: .when(platforms: [.linux]))]),
        // The `stickerkit` command. Its folder and module differ from StickerKit by more than letter case,
        // so a clone on a case-insensitive file system (macOS's default) keeps the two apart.
        .executableTarget(name: "StickerkitCLI", dependencies: [
            "StickerKit", "StickerPackaging", .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),

        // What our decoder makes of a file, written out for scripts/test-browser to compare with Chromium's
        // (a development tool, not a product).
        .executableTarget(name: "DecodeFrames", dependencies: ["ImageCore", "ImageDecoding"], path: "Tools/DecodeFrames"),

        // Test helpers shared by the test targets (not a product; never linked into the library).
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(name: "ImageCoreTests", dependencies: ["ImageCore", "TestSupport"]),
        .testTarget(name: "ImageDecodingTests", dependencies: ["ImageDecoding", "CPNG", "TestSupport"]),
        .testTarget(name: "ImageResizeTests", dependencies: ["ImageResize", "TestSupport"]),
        .testTarget(name: "ImageQuantizeTests", dependencies: ["ImageQuantize", "TestSupport"]),
        .testTarget(name: "PNGEncodingTests", dependencies: ["PNGEncoding", "ImageDecoding", "CPNG", "TestSupport"]),
        // Readers the encoder tests check output with: a strict EBML reader, libvpx's VP9 decoder.
        .target(name: "EncodingTestSupport", dependencies: ["ImageCore", "CVPX"], path: "Tests/EncodingTestSupport"),
        .testTarget(name: "WebPEncodingTests", dependencies: ["WebPEncoding", "ImageDecoding", "EncodingTestSupport", "TestSupport"]),
        .testTarget(name: "WebMEncodingTests", dependencies: ["WebMEncoding", "EncodingTestSupport", "TestSupport"]),
        .testTarget(name: "StickerEncodingTests", dependencies: ["StickerEncoding", "ImageDecoding", "ImageResize",
                                                                "EncodingTestSupport", "TestSupport"]),
        .testTarget(name: "StickerKitTests", dependencies: ["StickerKit", "ImageDecoding", "ImageResize", "ImageQuantize", "PNGEncoding",
                                                             "StickerEncoding", "EncodingTestSupport", "TestSupport"]),
        .testTarget(name: "StickerPackagingTests", dependencies: ["StickerPackaging", "StickerKit", "ImageDecoding", "ImageResize",
                                                                 "PNGEncoding", "TestSupport"]),
        .testTarget(name: "StickerkitCLITests", dependencies: ["StickerkitCLI", "StickerKit", "StickerPackaging", "ImageCore", "ImageDecoding"]),
    ],
    swiftLanguageModes: [.v6]
)
