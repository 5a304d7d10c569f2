// swift-tools-version: 6.1
// Benchmarks live in their own package so that package-benchmark stays out of the library's
// build and out of its users' dependency graphs. Run from this folder: `swift package benchmark`.
import PackageDescription

let package = Package(
    name: "StickerkitBenchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "Stickerkit", path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        .executableTarget(
            name: "StickerBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "StickerKit", package: "Stickerkit"),
            ],
            path: "Benchmarks/StickerBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ]
)
