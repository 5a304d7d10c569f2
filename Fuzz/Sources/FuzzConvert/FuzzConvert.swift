import FuzzSupport
import ImageDecoding
import StickerKit

/// Small enough that one run of the whole pipeline stays in the tens of milliseconds.
let convertLimits = Limits(maxWidth: 1024, maxHeight: 1024, maxPixels: 250_000, maxFrames: 24, maxTotalBytes: 24 << 20)

/// libFuzzer entry point: the whole pipeline (decode → fit → quantize → encode → budget search)
/// on arbitrary bytes, leniently so that damaged data reaches the later stages. Every sticker
/// written must be a 300×300 PNG within the budget that our own decoder reads back.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let options = ConversionOptions(sizes: [.small], effort: .fast, limits: convertLimits, lenient: true)
    for sticker in FuzzHarness.stickers(FuzzHarness.bytes(data, size), options: options) ?? [] {
        if sticker.bytes.count > options.maxBytes { fatalError("sticker of \(sticker.bytes.count) bytes over the budget") }
        do {
            let back = try ImageDecoder.decode(sticker.bytes, options: DecodeOptions(limits: .default))
            if back.animation.width != 300 || back.animation.height != 300 {
                fatalError("sticker is \(back.animation.width)×\(back.animation.height), not 300×300")
            }
        } catch {
            fatalError("our own sticker does not decode: \(error)")
        }
    }
    return 0
}

/// The process entry point SwiftPM links as `main`; runs libFuzzer's driver on `fuzz`.
@_cdecl("FuzzConvert_main")
func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzerDriver(argc, argv, fuzz)
}
