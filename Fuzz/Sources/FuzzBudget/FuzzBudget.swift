import FuzzSupport
import ImageCore
import ImageDecoding
import StickerKit

/// Small enough that a few runs of the pipeline stay in the tens of milliseconds.
let budgetLimits = Limits(maxWidth: 1024, maxHeight: 1024, maxPixels: 250_000, maxFrames: 24, maxTotalBytes: 24 << 20)

/// The conversion of `bytes` under `maxMemory`: each size's sticker bytes or error, or the error
/// that stopped it.
func convert(_ bytes: [UInt8], maxMemory: Int) -> Result<[String], ImageError> {
    var limits = budgetLimits
    limits.maxMemory = maxMemory
    var options = ConversionOptions(sizes: [.small, .large], effort: .fast, limits: limits, lenient: false)
    // The promise is about the stickers' bytes. The quality metrics (SSIM of every sticker) took
    // most of an input's time under the sanitizers' coverage callbacks: a 190-byte WebP of three
    // 16×10 frames spent 2.7–3.7 s a conversion on them, and its four conversions passed
    // libFuzzer's 10 s timeout (in the release CLI, 0.3 s with `-v`). FuzzConvert measures them.
    options.measuresQuality = false
    do {
        let result = try StickerConverter.convert(bytes, options: options)
        return .success(result.outputs.map { size, outcome in
            switch outcome {
            case .success(let sticker): "\(size) \(sticker.bytes)"
            case .failure(let error): "\(size) \(error)"
            }
        })
    } catch let error as ImageError {
        return .failure(error)
    } catch {
        fatalError("untyped error: \(error)")
    }
}

/// libFuzzer entry point: a conversion under the least memory budget it accepts gives the
/// stickers the default budget gives. Under a tight budget a still whose whole image would pass
/// it is decoded row by row into the resamplers (PNG, interlaced or not, and JPEG), and the
/// fitted frames' stores give up, so frames are decoded and fitted again on every walk; neither
/// may change a byte. The least budget is the estimate named by the refusal under a budget of
/// one byte; the file is converted at it and a little above it (where the stores have a little
/// room), strictly, and must give the same stickers as under the default, or be refused in both.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = FuzzHarness.bytes(data, size)
    guard case .failure(let refusal) = convert(bytes, maxMemory: 1),
          case .overMemory(let least, _)? = refusal.reason as? LimitsError else { return 0 }
    let reference = convert(bytes, maxMemory: Limits.defaultMemory)
    for budget in [least, least + 700_000] {
        switch (reference, convert(bytes, maxMemory: budget)) {
        case (.success(let a), .success(let b)):
            if a != b { fatalError("stickers under a budget of \(budget) bytes differ from the default budget's") }
        case (.failure, .failure):
            break
        case (.success, .failure(let e)):
            fatalError("converted under the default budget, refused under \(budget) bytes: \(e)")
        case (.failure(let e), .success):
            fatalError("refused under the default budget (\(e)), converted under \(budget) bytes")
        }
    }
    return 0
}

/// The process entry point SwiftPM links as `main`; runs libFuzzer's driver on `fuzz`.
@_cdecl("FuzzBudget_main")
func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzerDriver(argc, argv, fuzz)
}
