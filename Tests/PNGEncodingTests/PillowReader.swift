import Foundation
import ImageCore
import XCTest

/// Reads an (A)PNG with Pillow through python3: a second, independent reader. Tests that use it
/// skip with a clear message when python3 or Pillow is missing.
enum PillowReader {
    struct Decoded {
        var frames: [Image]
        /// `info['duration']` per frame, in milliseconds.
        var durations: [Double]
        var loop: Int?
    }

    static let script = """
    import sys, json
    from PIL import Image
    im = Image.open(sys.argv[1])
    n = getattr(im, 'n_frames', 1)
    durations = []
    with open(sys.argv[2], 'wb') as f:
        for i in range(n):
            im.seek(i)
            f.write(im.convert('RGBA').tobytes())
            durations.append(float(im.info.get('duration', 0)))
    print(json.dumps({'w': im.size[0], 'h': im.size[1], 'n': n, 'durations': durations, 'loop': im.info.get('loop')}))
    """

    static func read(_ bytes: [UInt8]) throws -> Decoded {
        // python3 as found on PATH, like the setup script's pip installs it.
        let python = "/usr/bin/env"
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("pngenc-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = dir.appendingPathComponent("in.png"), raw = dir.appendingPathComponent("frames.rgba")
        try Data(bytes).write(to: input)

        let probe = Process()
        probe.executableURL = URL(fileURLWithPath: python)
        probe.arguments = ["python3", "-c", "import PIL"]
        probe.standardError = FileHandle.nullDevice
        try probe.run(); probe.waitUntilExit()
        guard probe.terminationStatus == 0 else {
            throw XCTSkip("python3 with Pillow is not on PATH: run the project's setup script (it installs python3 and Pillow)")
        }

        let p = Process()
        p.executableURL = URL(fileURLWithPath: python)
        p.arguments = ["python3", "-c", script, input.path, raw.path]
        let out = Pipe(), err = Pipe()
        p.standardOutput = out; p.standardError = err
        try p.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        guard p.terminationStatus == 0 else {
            throw LibPNGDecoder.Failure(description: "Pillow failed: \(String(decoding: stderr, as: UTF8.self))")
        }
        struct Info: Decodable { let w: Int; let h: Int; let n: Int; let durations: [Double]; let loop: Int? }
        let info = try JSONDecoder().decode(Info.self, from: stdout)
        let data = [UInt8](try Data(contentsOf: raw))
        let frameBytes = info.w * info.h * 4
        guard data.count == frameBytes * info.n else { throw LibPNGDecoder.Failure(description: "Pillow wrote \(data.count) bytes") }
        let frames = (0..<info.n).map { Image(width: info.w, height: info.h, pixels: Array(data[($0 * frameBytes)..<(($0 + 1) * frameBytes)])) }
        return Decoded(frames: frames, durations: info.durations, loop: info.loop)
    }
}
