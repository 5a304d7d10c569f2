import CVPX
import ImageCore

/// Encodes one VP9 stream with libvpx: one or two passes over the frames, single-threaded, no
/// tiles, keyframes only where asked (so that the colour and alpha streams put theirs on the
/// same frames), no dropped frames. Each input frame comes back as exactly one packet.
enum VP9StreamEncoder {
    /// Gives every frame in order: its number and how to write it into a picture.
    typealias Walk = ((Int, (PlanarPicture) -> Void) throws -> Void) throws -> Void

    /// - Parameters:
    ///   - times: `count + 1` millisecond timestamps (`Delay.millisecondTimeline`).
    ///   - walk: calls its argument once per frame, in order, with the frame's number and a
    ///     function that writes the frame into the picture (once per pass).
    ///   - stop: asked, once at least two frames' packets are out (of the one pass, or of the
    ///     last of two), with their bytes so far; true ends the encode with `Stopped`.
    static func encode(count: Int, width: Int, height: Int, times: [Int], settings: VP9StreamSettings,
                       stop: ((Int) -> Bool)? = nil, walk: Walk) throws -> [VP9Packet] {
        guard settings.twoPass else {
            return try run(pass: VPX_RC_ONE_PASS, stats: nil, count: count, width: width, height: height, times: times,
                           settings: settings, stop: stop, walk: walk).packets
        }
        let first = try run(pass: VPX_RC_FIRST_PASS, stats: nil, count: count, width: width, height: height, times: times,
                            settings: settings, stop: nil, walk: walk)
        return try first.stats.withUnsafeBytes { stats in
            try run(pass: VPX_RC_LAST_PASS, stats: stats, count: count, width: width, height: height, times: times,
                    settings: settings, stop: stop, walk: walk).packets
        }
    }

    private static func run(pass: vpx_enc_pass, stats: UnsafeRawBufferPointer?, count: Int, width: Int, height: Int,
                            times: [Int], settings: VP9StreamSettings, stop: ((Int) -> Bool)?,
                            walk: Walk) throws -> (packets: [VP9Packet], stats: [UInt8]) {
        // libvpx keeps pointers to the context's configuration, so both live at fixed addresses.
        let cfg = UnsafeMutablePointer<vpx_codec_enc_cfg_t>.allocate(capacity: 1)
        defer { cfg.deallocate() }
        try check(vpx_codec_enc_config_default(vpx_codec_vp9_cx(), cfg, 0), nil, "vpx_codec_enc_config_default")
        cfg.pointee.g_w = UInt32(width)
        cfg.pointee.g_h = UInt32(height)
        cfg.pointee.g_profile = 0
        cfg.pointee.g_threads = 1
        cfg.pointee.g_timebase = vpx_rational(num: 1, den: 1000)
        cfg.pointee.g_pass = pass
        cfg.pointee.g_lag_in_frames = UInt32(settings.lookahead)
        cfg.pointee.g_error_resilient = 0
        cfg.pointee.rc_dropframe_thresh = 0
        cfg.pointee.rc_resize_allowed = 0
        cfg.pointee.rc_min_quantizer = 0
        cfg.pointee.rc_max_quantizer = 63
        cfg.pointee.kf_mode = VPX_KF_DISABLED
        cfg.pointee.kf_min_dist = 0
        cfg.pointee.kf_max_dist = UInt32(settings.keyframeInterval ?? 0)
        var cqLevel: Int?
        switch settings.rate {
        case .constantQuality(let level):
            cqLevel = level
            if let cap = settings.maxKilobitsPerSecond {
                cfg.pointee.rc_end_usage = VPX_CQ
                cfg.pointee.rc_target_bitrate = UInt32(cap)
            } else {
                cfg.pointee.rc_end_usage = VPX_Q
            }
        case .bitrate(let kbps):
            cfg.pointee.rc_end_usage = VPX_VBR
            cfg.pointee.rc_target_bitrate = UInt32(kbps)
        }
        if let stats {
            cfg.pointee.rc_twopass_stats_in = vpx_fixed_buf_t(buf: UnsafeMutableRawPointer(mutating: stats.baseAddress),
                                                              sz: stats.count)
        }

        let ctx = UnsafeMutablePointer<vpx_codec_ctx_t>.allocate(capacity: 1)
        ctx.initialize(to: vpx_codec_ctx_t())
        defer { ctx.deallocate() }
        try check(cvpx_encoder_init(ctx, cfg), nil, "vpx_codec_enc_init")
        defer { vpx_codec_destroy(ctx) }
        let controls: [(vp8e_enc_control_id, Int32)] = [
            (VP8E_SET_CPUUSED, Int32(settings.speed)),
            (VP8E_SET_ENABLEAUTOALTREF, settings.lookahead > 0 ? 1 : 0),
            (VP9E_SET_ROW_MT, 0),
            (VP9E_SET_TILE_COLUMNS, 0),
            (VP9E_SET_FRAME_PARALLEL_DECODING, 0),
            (VP9E_SET_COLOR_SPACE, Int32(VPX_CS_BT_601.rawValue)),
            (VP9E_SET_COLOR_RANGE, Int32((settings.fullRange ? VPX_CR_FULL_RANGE : VPX_CR_STUDIO_RANGE).rawValue)),
        ] + (cqLevel.map { [(VP8E_SET_CQ_LEVEL, Int32($0))] } ?? [])
        for (id, value) in controls {
            try check(cvpx_control(ctx, Int32(id.rawValue), value), ctx, "vpx_codec_control \(id.rawValue)")
        }

        guard let image = vpx_img_alloc(nil, VPX_IMG_FMT_I420, UInt32(width), UInt32(height), 16) else {
            throw ImageError(nil, WebMEncodingError.encoderFailed(stage: "vpx_img_alloc", code: Int(VPX_CODEC_MEM_ERROR.rawValue),
                                                                  detail: "out of memory"))
        }
        defer { vpx_img_free(image) }
        let picture = PlanarPicture(y: image.pointee.planes.0!, u: image.pointee.planes.1!, v: image.pointee.planes.2!,
                                    yStride: Int(image.pointee.stride.0), uStride: Int(image.pointee.stride.1),
                                    vStride: Int(image.pointee.stride.2), width: width, height: height)

        let deadline = settings.realtime ? CVPX_DL_REALTIME : CVPX_DL_GOOD_QUALITY
        var packets: [VP9Packet] = []
        var packetBytes = 0
        var statsOut: [UInt8] = []
        func drain() -> Bool {
            var got = false
            var iterator: vpx_codec_iter_t? = nil
            while let packet = vpx_codec_get_cx_data(ctx, &iterator) {
                got = true
                switch packet.pointee.kind {
                case VPX_CODEC_CX_FRAME_PKT:
                    let frame = packet.pointee.data.frame
                    let bytes = Array(UnsafeRawBufferPointer(start: frame.buf, count: frame.sz))
                    packets.append(VP9Packet(bytes: bytes, pts: Int(frame.pts),
                                             keyframe: frame.flags & CVPX_FRAME_IS_KEY != 0))
                    packetBytes += bytes.count
                case VPX_CODEC_STATS_PKT:
                    let s = packet.pointee.data.twopass_stats
                    statsOut += UnsafeRawBufferPointer(start: s.buf, count: s.sz)
                default:
                    break
                }
            }
            return got
        }
        var encoded = 0
        try walk { i, fill in
            guard i == encoded, i < count else {
                throw ImageError(nil, WebMEncodingError.delayCount(frames: max(i, encoded) + 1, delays: count))
            }
            fill(picture)
            var flags: vpx_enc_frame_flags_t = 0
            if i == 0 || settings.keyframeInterval.map({ i % $0 == 0 }) == true { flags |= CVPX_EFLAG_FORCE_KF }
            let status = vpx_codec_encode(ctx, image, vpx_codec_pts_t(times[i]), UInt(times[i + 1] - times[i]), flags,
                                          deadline)
            try check(status, ctx, "vpx_codec_encode (frame \(i))")
            _ = drain()
            encoded += 1
            if let stop, packets.count >= 2, stop(packetBytes) {
                throw Stopped(coded: packets.count, bytes: packetBytes, first: packets[0].bytes.count)
            }
        }
        guard encoded == count else { throw ImageError(nil, WebMEncodingError.delayCount(frames: encoded, delays: count)) }
        repeat {
            try check(vpx_codec_encode(ctx, nil, -1, 1, 0, deadline), ctx, "vpx_codec_encode (flush)")
        } while drain()
        return (packets, statsOut)
    }

    private static func check(_ status: vpx_codec_err_t, _ ctx: UnsafeMutablePointer<vpx_codec_ctx_t>?, _ stage: String) throws {
        guard status != VPX_CODEC_OK else { return }
        var detail = String(cString: vpx_codec_err_to_string(status))
        if let ctx, let more = vpx_codec_error_detail(ctx) { detail += ": " + String(cString: more) }
        throw ImageError(nil, WebMEncodingError.encoderFailed(stage: stage, code: Int(status.rawValue), detail: detail))
    }
}
