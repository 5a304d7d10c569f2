import CFuzzDriver
#if canImport(Glibc)
import Glibc
#endif
import ImageDecoding
import StickerKit

/// Shared body of every fuzz entry point: decode the bytes strictly and leniently under small
/// limits. Any `ImageError` is a fine outcome; a crash, a trap, a sanitizer report, an error of
/// another type or a malformed result is a finding.
public enum FuzzHarness {
    /// Small enough that a fuzzer-made header cannot make one run allocate more than ~64 MiB, large
    /// enough that every seed in Tests/Fixtures and samples/ still decodes.
    /// `FUZZ_DEFAULT_LIMITS=1` uses the CLI's default limits instead: for replaying real files
    /// (e.g. a truncation sweep over a corpus with `-runs=0`), not for fuzzing.
    public static let limits = getenv("FUZZ_DEFAULT_LIMITS") != nil ? Limits.default
        : Limits(maxWidth: 4096, maxHeight: 4096, maxPixels: 4_000_000, maxFrames: 200, maxTotalBytes: 64 << 20)

    /// Copies the fuzzer's buffer (it must not be kept past the call; nil for an empty input).
    public static func bytes(_ data: UnsafePointer<UInt8>?, _ size: Int) -> [UInt8] {
        guard let data, size > 0 else { return [] }
        return Array(UnsafeBufferPointer(start: data, count: size))
    }

    /// The stickers `StickerConverter.convert` makes of `bytes` (sizes that failed left out), or
    /// nil when it refuses the file with an `ImageError`; an error of another type is a finding.
    public static func stickers(_ bytes: [UInt8], options: ConversionOptions) -> [StickerOutput]? {
        do {
            return try StickerConverter.convert(bytes, options: options).outputs.compactMap { try? $0.result.get() }
        } catch is ImageError {
            return nil
        } catch {
            fatalError("untyped error: \(error)")
        }
    }

    /// Runs `decode` once strict and once lenient and checks what comes back.
    public static func run(_ bytes: [UInt8], _ decode: ([UInt8], DecodeOptions) throws -> DecodedImage) {
        for lenient in [false, true] {
            let options = DecodeOptions(limits: limits, lenient: lenient)
            do {
                let decoded = try decode(bytes, options)
                check(decoded.animation)
            } catch let error as ImageError {
                // The message must name something: an empty one is a bug too.
                if error.message.isEmpty { fatalError("empty ImageError message (\(error.kind))") }
            } catch {
                fatalError("untyped error: \(error)")
            }
        }
    }

    /// A decoded animation must respect the limits it was decoded under and have whole frames.
    static func check(_ animation: Animation) {
        let a = animation
        guard a.width > 0, a.height > 0, a.width <= limits.maxWidth, a.height <= limits.maxHeight,
              !a.frames.isEmpty, a.frames.count <= limits.maxFrames else {
            fatalError("decoded \(a.width)×\(a.height) with \(a.frames.count) frames, outside the limits")
        }
        for frame in a.frames where frame.image.width != a.width || frame.image.height != a.height
            || frame.image.pixels.count != a.width * a.height * 4 {
            fatalError("frame \(frame.image.width)×\(frame.image.height) on a \(a.width)×\(a.height) canvas")
        }
        // Later stages sum and compare the delays: they must not trap either.
        let total = a.duration
        if a.frames.contains(where: { total < $0.delay.displayed }) { fatalError("a frame outlasts the whole animation") }
    }
}

/// Hands the process to libFuzzer's driver with `callback` as the test function. Each target's
/// `<Target>_main` calls this (see CFuzzDriver.h for why libFuzzer's own `main` is not used).
public func runFuzzerDriver(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?,
                            _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> CInt {
    var argc = argc
    var argv = argv
    return LLVMFuzzerRunDriver(&argc, &argv, callback)
}
