/// Writes a WebM file (Matroska, WebM profile) of one VP9 video track.
///
/// Layout: EBML header; a Segment of known size holding a SeekHead (to Info, Tracks and Cues),
/// Info (1 ms timestamp scale, duration), Tracks, the Clusters and Cues. Frames with alpha are
/// BlockGroups whose BlockAdditional (BlockAddID 1) carries the alpha stream's frame, the track
/// says `AlphaMode` 1 — how Chromium, Firefox and Telegram find the alpha. Without alpha, frames
/// are SimpleBlocks. When every frame lasts as long, the track has a `DefaultDuration`;
/// otherwise each frame is a BlockGroup with its own `BlockDuration`. Non-key frames in
/// BlockGroups name the frame before them in a `ReferenceBlock`. A cluster starts at every
/// keyframe (each gets a cue) and whenever the 16-bit relative timestamp would overflow.
///
/// No date, no random UIDs: the bytes depend on the frames alone.
struct WebMMuxer {
    var width: Int
    var height: Int
    var hasAlpha: Bool
    /// Nanoseconds every frame lasts, when all last the same; nil for variable durations.
    var defaultDuration: UInt64?
    /// The application named in MuxingApp and WritingApp.
    var application = "Stickerkit"

    /// The timestamp scale: timestamps count milliseconds.
    static let timestampScale: UInt64 = 1_000_000

    func file(_ frames: [WebMFrame], totalMilliseconds: Int) -> [UInt8] {
        var header = EBMLWriter()
        header.master(.ebml) { e in
            e.unsigned(.ebmlVersion, 1)
            e.unsigned(.ebmlReadVersion, 1)
            e.unsigned(.ebmlMaxIDLength, 4)
            e.unsigned(.ebmlMaxSizeLength, 8)
            e.string(.docType, "webm")
            e.unsigned(.docTypeVersion, 4)
            e.unsigned(.docTypeReadVersion, 2)
        }

        var info = EBMLWriter()
        info.master(.info) { e in
            e.unsigned(.timestampScale, WebMMuxer.timestampScale)
            e.float(.duration, Double(totalMilliseconds))
            e.string(.muxingApp, application)
            e.string(.writingApp, application)
        }
        var tracks = EBMLWriter()
        tracks.master(.tracks) { e in
            e.master(.trackEntry) { t in
                t.unsigned(.trackNumber, 1)
                t.unsigned(.trackUID, 1)
                t.unsigned(.trackType, 1)
                t.unsigned(.flagLacing, 0)
                t.string(.codecID, "V_VP9")
                if let d = defaultDuration { t.unsigned(.defaultDuration, d) }
                if hasAlpha { t.unsigned(.maxBlockAdditionID, 1) }
                t.master(.video) { v in
                    v.unsigned(.pixelWidth, UInt64(width))
                    v.unsigned(.pixelHeight, UInt64(height))
                    if hasAlpha { v.unsigned(.alphaMode, 1) }
                }
            }
        }
        let clusters = self.clusters(frames)

        // Positions are relative to the start of the Segment's body; the SeekHead's are written
        // with a fixed width so its size is known before they are.
        let seekHeadSize = seekHead(info: 0, tracks: 0, cues: 0).count
        let infoAt = seekHeadSize
        let tracksAt = infoAt + info.bytes.count
        var clusterAt = tracksAt + tracks.bytes.count
        var cues = EBMLWriter()
        var cuePoints: [(time: Int, position: Int)] = []
        for cluster in clusters {
            if cluster.startsWithKeyframe { cuePoints.append((cluster.start, clusterAt)) }
            clusterAt += cluster.bytes.count
        }
        cues.master(.cues) { e in
            for point in cuePoints {
                e.master(.cuePoint) { c in
                    c.unsigned(.cueTime, UInt64(point.time))
                    c.master(.cueTrackPositions) { p in
                        p.unsigned(.cueTrack, 1)
                        p.unsigned(.cueClusterPosition, UInt64(point.position))
                    }
                }
            }
        }
        var body = seekHead(info: infoAt, tracks: tracksAt, cues: clusterAt)
        body += info.bytes
        body += tracks.bytes
        for cluster in clusters { body += cluster.bytes }
        body += cues.bytes

        var segment = EBMLWriter()
        segment.binary(.segment, body)
        return header.bytes + segment.bytes
    }

    private func seekHead(info: Int, tracks: Int, cues: Int) -> [UInt8] {
        var w = EBMLWriter()
        w.master(.seekHead) { e in
            for (id, position) in [(MatroskaID.info, info), (.tracks, tracks), (.cues, cues)] {
                e.master(.seek) { s in
                    s.binary(.seekID, id.bytes)
                    s.unsigned(.seekPosition, UInt64(position), width: 4)
                }
            }
        }
        return w.bytes
    }

    private struct Cluster {
        var start: Int
        var startsWithKeyframe: Bool
        var bytes: [UInt8]
    }

    private func clusters(_ frames: [WebMFrame]) -> [Cluster] {
        var clusters: [Cluster] = []
        var i = 0
        while i < frames.count {
            let start = frames[i].start
            var end = i + 1
            while end < frames.count && !frames[end].keyframe && frames[end].start - start <= Int(Int16.max) { end += 1 }
            var w = EBMLWriter()
            w.master(.cluster) { c in
                c.unsigned(.timestamp, UInt64(start))
                for k in i..<end {
                    block(frames[k], previous: k > 0 ? frames[k - 1] : nil, clusterStart: start, into: &c)
                }
            }
            clusters.append(Cluster(start: start, startsWithKeyframe: frames[i].keyframe, bytes: w.bytes))
            i = end
        }
        return clusters
    }

    private func block(_ frame: WebMFrame, previous: WebMFrame?, clusterStart: Int, into c: inout EBMLWriter) {
        let relative = Int16(frame.start - clusterStart)
        let header: [UInt8] = [0x81, UInt8(truncatingIfNeeded: UInt16(bitPattern: relative) >> 8),
                               UInt8(truncatingIfNeeded: UInt16(bitPattern: relative))]
        if !hasAlpha, defaultDuration != nil {
            c.binary(.simpleBlock, header + [frame.keyframe ? 0x80 : 0x00] + frame.color)
            return
        }
        c.master(.blockGroup) { g in
            g.binary(.block, header + [0x00] + frame.color)
            if let alpha = frame.alpha {
                g.master(.blockAdditions) { a in
                    a.master(.blockMore) { m in
                        m.unsigned(.blockAddID, 1)
                        m.binary(.blockAdditional, alpha)
                    }
                }
            }
            if defaultDuration == nil { g.unsigned(.blockDuration, UInt64(frame.duration)) }
            if !frame.keyframe, let previous { g.signed(.referenceBlock, Int64(previous.start - frame.start)) }
        }
    }
}
