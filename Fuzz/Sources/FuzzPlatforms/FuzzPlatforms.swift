import FuzzSupport
import ImageCore
import StickerKit
import StickerPackaging

/// Small enough that one conversion for a platform stays well under a second.
let platformLimits = Limits(maxWidth: 1024, maxHeight: 1024, maxPixels: 250_000, maxFrames: 24, maxTotalBytes: 24 << 20)

/// libFuzzer entry point: the pipeline for another platform than Messages (Signal, WhatsApp,
/// Telegram, Discord, LINE; chosen by the input's bytes, so each input always meets the same one)
/// on arbitrary bytes, leniently so that damaged data reaches the later stages. Every sticker
/// written must pass the platform's own check (`PlatformChecker`: container, canvas, byte cap,
/// duration, frame rate and loops) without an error.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = FuzzHarness.bytes(data, size)
    let platforms = StickerTarget.all.filter { !$0.isMessages }
    let target = platforms[bytes.reduce(0) { ($0 &* 31 &+ Int($1)) & 0xFFFF } % platforms.count]
    var options = ConversionOptions(effort: .fast, limits: platformLimits, lenient: true)
    options.target = target
    for sticker in FuzzHarness.stickers(bytes, options: options) ?? [] {
        let report = PlatformChecker.check(sticker.bytes, path: "sticker", target: target)
        let errors = report.findings.filter { $0.severity == .error }
        if !errors.isEmpty {
            fatalError("\(target.displayName) sticker of \(sticker.bytes.count) bytes fails its check: \(errors)")
        }
    }
    return 0
}

/// The process entry point SwiftPM links as `main`; runs libFuzzer's driver on `fuzz`.
@_cdecl("FuzzPlatforms_main")
func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzerDriver(argc, argv, fuzz)
}
