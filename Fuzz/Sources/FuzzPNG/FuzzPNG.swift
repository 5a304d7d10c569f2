import FuzzSupport
import ImageDecoding
import StickerKit

/// libFuzzer entry point: bytes straight into PNGDecoder, past the sniffer (chunk reader, IHDR checks, inflate, unfilter, APNG fcTL/fdAT composition).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    FuzzHarness.run(FuzzHarness.bytes(data, size)) { try ImageDecoder.decode($0, as: .png, options: $1) }
    return 0
}

/// The process entry point SwiftPM links as `main`; runs libFuzzer's driver on `fuzz`.
@_cdecl("FuzzPNG_main")
func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzerDriver(argc, argv, fuzz)
}
