/// The Matroska/WebM element IDs the muxer writes (RFC 9559 and the WebM profile), with their
/// marker bits, as they appear in the file.
enum MatroskaID: UInt32 {
    case ebml = 0x1A45_DFA3
    case ebmlVersion = 0x4286
    case ebmlReadVersion = 0x42F7
    case ebmlMaxIDLength = 0x42F2
    case ebmlMaxSizeLength = 0x42F3
    case docType = 0x4282
    case docTypeVersion = 0x4287
    case docTypeReadVersion = 0x4285

    case segment = 0x1853_8067
    case seekHead = 0x114D_9B74
    case seek = 0x4DBB
    case seekID = 0x53AB
    case seekPosition = 0x53AC

    case info = 0x1549_A966
    case timestampScale = 0x2A_D7B1
    case duration = 0x4489
    case muxingApp = 0x4D80
    case writingApp = 0x5741

    case tracks = 0x1654_AE6B
    case trackEntry = 0xAE
    case trackNumber = 0xD7
    case trackUID = 0x73C5
    case trackType = 0x83
    case flagLacing = 0x9C
    case codecID = 0x86
    case defaultDuration = 0x23_E383
    case maxBlockAdditionID = 0x55EE
    case video = 0xE0
    case pixelWidth = 0xB0
    case pixelHeight = 0xBA
    case alphaMode = 0x53C0

    case cluster = 0x1F43_B675
    case timestamp = 0xE7
    case simpleBlock = 0xA3
    case blockGroup = 0xA0
    case block = 0xA1
    case blockDuration = 0x9B
    case referenceBlock = 0xFB
    case blockAdditions = 0x75A1
    case blockMore = 0xA6
    case blockAddID = 0xEE
    case blockAdditional = 0xA5

    case cues = 0x1C53_BB6B
    case cuePoint = 0xBB
    case cueTime = 0xB3
    case cueTrackPositions = 0xB7
    case cueTrack = 0xF7
    case cueClusterPosition = 0xF1

    /// The ID as written: its 1–4 bytes, big-endian.
    var bytes: [UInt8] {
        let v = rawValue
        let count = v > 0xFF_FFFF ? 4 : v > 0xFFFF ? 3 : v > 0xFF ? 2 : 1
        return (0..<count).reversed().map { UInt8(truncatingIfNeeded: v >> (8 * $0)) }
    }
}
