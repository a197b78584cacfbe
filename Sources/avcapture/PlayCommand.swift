import ArgumentParser
import AVFoundation
import Foundation
import LinuxAVFoundationWindow
import LiveView

/// `avcapture play`: plays a movie through AVPlayer, its sound to the sound server.
struct Play: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "play",
        abstract: "Play a movie: its pictures in a window (where there is a display), its sound to the sound server.",
        discussion: """
            --rate plays faster or slower (0.5 is half speed, 2 twice as fast; negative plays backwards). \
            --pitch says how sound at other rates is played (the AV Foundation Programming Guide's table): spectral (1/32x to 32x, pitch kept, \
            Rubber Band), timeDomain (0.5x to 2x, pitch kept, SoundTouch), varispeed (1/32x to 32x, pitch follows \
            the speed) or lowQualityZeroLatency (snaps to 0.5, 0.667, 0.8, 1, 1.25, 1.5 or 2). Outside an \
            algorithm's range, and backwards, the sound is silent. With no sound server the movie plays silently \
            on the host clock. Where there is a display (DISPLAY or WAYLAND_DISPLAY), the pictures are shown in a \
            window: space plays and pauses, the left and right arrows seek 5 s, the up and down arrows set the volume, f fills \
            the screen, q, escape or closing the window stops. --no-window, or no display, decodes the pictures in time and \
            counts them without showing them. Ctrl-C stops. With --preview, the pictures are shown on a page in any browser, which \
            plays, pauses, seeks and sets the rate, pitch algorithm, volume and gravity; it serves until Ctrl-C or --seconds.
            """)

    @Argument(help: "The movie to play.") var file: String
    @Option(parsing: .unconditional, help: "The playback rate, such as 0.5 or 2; negative plays backwards from the end.") var rate: Float = 1
    @Option(help: "How sound is played at other rates: spectral, timeDomain, varispeed or lowQualityZeroLatency.") var pitch = "spectral"
    @Option(help: "Where to start, in seconds.", transform: DurationOption.seconds) var start: Double?
    @Option(help: "The volume, from 0 to 1.") var volume: Float = 1
    @Option(help: "Stop after this many seconds; by default at the movie's end (with --preview, at Ctrl-C).", transform: DurationOption.positiveSeconds)
    var seconds: Double?
    @Flag(help: "Show the pictures on a page in a browser: open the printed address.") var preview = false
    @Flag(name: .customLong("no-window"), help: "Do not show the pictures in a window, even where there is a display.") var noWindow = false
    @OptionGroup var view: LiveViewOptions

    static let algorithms: [String: AVAudioTimePitchAlgorithm] = [
        "spectral": .spectral, "timedomain": .timeDomain, "varispeed": .varispeed, "lowqualityzerolatency": .snapping,
    ]

    func validate() throws {
        guard rate.isFinite, rate != 0, abs(rate) <= 64 else { throw ValidationError("--rate is a speed from -64 to 64 other than 0, not \(rate).") }
        guard Self.algorithms[pitch.lowercased()] != nil else {
            throw ValidationError("--pitch is spectral, timeDomain, varispeed or lowQualityZeroLatency, not \(pitch).")
        }
        if let start, !(start >= 0 && start.isFinite) { throw ValidationError("--start is a time in seconds, not \(start).") }
        guard volume >= 0, volume <= 1 else { throw ValidationError("--volume is from 0 to 1, not \(volume).") }
        if let seconds, !(seconds > 0 && seconds.isFinite) { throw ValidationError("--seconds is a time in seconds, not \(seconds).") }
        try view.check()
    }

    func run() throws {
        let url = URL(fileURLWithPath: file)
        try InputFile.check(file)
        let item = AVPlayerItem(url: url)
        item.audioTimePitchAlgorithm = Self.algorithms[pitch.lowercased()]!
        let output = AVPlayerItemVideoOutput(pixelBufferAttributes: nil)
        if !preview { item.add(output) }
        let player = AVPlayer(playerItem: item)
        player.volume = volume

        let ready = DispatchSemaphore(value: 0)
        let observation = item.observe(\.status, options: [.initial]) { item, _ in if item.status != .unknown { ready.signal() } }
        ready.wait()
        observation.invalidate()
        guard item.status == .readyToPlay else { throw CommandFailure("\(file) cannot be played: \(item.error?.localizedDescription ?? "unknown error").") }
        let tracks = item.asset.tracks(withMediaType: .video) + item.asset.tracks(withMediaType: .audio)
        guard !tracks.isEmpty, item.asset.isPlayable else { throw CommandFailure("\(file) has no pictures or sound that can be played.") }
        let duration = item.duration.seconds

        let startTime = start ?? (rate < 0 ? duration : 0)
        guard startTime <= duration else { throw CommandFailure(String(format: "--start %g is past the movie's end at %.3f s.", startTime, duration)) }
        let seeked = DispatchSemaphore(value: 0)
        player.seek(to: CMTime(seconds: startTime, preferredTimescale: 600), toleranceBefore: .zero, toleranceAfter: .zero) { _ in seeked.signal() }
        seeked.wait()
        if preview { return try show(player, item: item, startTime: startTime) }

        let ended = DispatchSemaphore(value: 0)
        let endObserver = NotificationCenter.default.addObserver(forName: AVPlayerItem.didPlayToEndTimeNotification, object: item, queue: nil) { _ in
            ended.signal()
        }
        defer { NotificationCenter.default.removeObserver(endObserver) }
        let stopSignals = StopSignals.handle(on: .global()) { ended.signal() }
        defer { withExtendedLifetime(stopSignals) {} }

        // The pictures in a window where there is a display; closing it ends the playing.
        var window: LinuxPlayerWindow?
        if !noWindow {
            if !LinuxVideoWindow.hasDisplay {
                say("No display (DISPLAY and WAYLAND_DISPLAY are not set): playing without a window.")
            } else {
                do {
                    let size = Self.windowSize(for: item)
                    window = try LinuxPlayerWindow(player: player, title: url.lastPathComponent, width: size.width, height: size.height)
                    window?.setCloseHandler { ended.signal() }
                } catch {
                    say("\(error) Playing without a window.")
                }
            }
        }
        defer { window?.close() }

        let began = Date()
        player.rate = rate
        // Pictures are asked for as a 60 Hz display would ask: the ones due are shown, the ones passed over dropped.
        var pictures = 0
        let terminal = isatty(STDERR_FILENO) != 0
        var lastLine = Date.distantPast
        let deadline = seconds.map { Date(timeIntervalSinceNow: $0) } ?? .distantFuture
        while ended.wait(timeout: .now() + .milliseconds(16)) == .timedOut, Date() < deadline {
            let now = output.itemTime(forHostTime: CACurrentMediaTime())
            if output.hasNewPixelBuffer(forItemTime: now), output.copyPixelBuffer(forItemTime: now, itemTimeForDisplay: nil) != nil { pictures += 1 }
            if terminal, Date().timeIntervalSince(lastLine) > 0.25 {
                lastLine = Date()
                let line = String(format: "Playing %@: %6.2f / %.2f s at %gx  %d pictures", url.lastPathComponent, now.seconds, duration, rate, pictures)
                StandardStreams.err("\r\(line)")
            }
        }
        let finished = player.currentTime().seconds
        player.pause()
        let shown = window?.window.statistics
        if terminal { StandardStreams.err("\r\u{1B}[K") }
        // A movie whose pictures cannot be decoded shows none however long it plays.
        if pictures == 0, !item.asset.tracks(withMediaType: .video).isEmpty, abs(finished - startTime) >= 0.5 {
            throw CommandFailure(String(format: "%@ played %.2f s without one picture: its pictures cannot be decoded.", file, abs(finished - startTime)))
        }
        let sound: String
        if item.asset.tracks(withMediaType: .audio).isEmpty {
            sound = "no sound track"
        } else if !AVPlayer.playsSound(atRate: rate, algorithm: item.audioTimePitchAlgorithm) {
            sound = "silent at \(rate)x with \(item.audioTimePitchAlgorithm.rawValue)"
        } else if let problem = AVPlayer.soundProblem {
            sound = "silent: \(problem)"
        } else {
            sound = "played to the sound server"
        }
        let windowed = shown.map { String(format: " (%d shown in the window, %d dropped)", $0.shown, $0.dropped) } ?? ""
        print(
            String(
                format: "Played %@ from %.2f to %.2f s in %.2f s at %gx; %d pictures%@; sound %@.",
                file, startTime, finished, Date().timeIntervalSince(began), rate, pictures, windowed, sound))
    }

    /// A window's size for a movie: its pictures as the track's preferred transform shows them, no
    /// larger than the screen's area for windows (keeping their shape; 1280 x 720 when that is not
    /// known), 640 x 360 for a movie of sound only.
    static func windowSize(for item: AVPlayerItem) -> (width: Int, height: Int) {
        guard let track = item.asset.tracks(withMediaType: .video).first else { return (640, 360) }
        let shown = CGRect(origin: .zero, size: track.naturalSize).applying(track.preferredTransform)
        let (width, height) = (abs(shown.width), abs(shown.height))
        guard width >= 1, height >= 1, width.isFinite, height.isFinite else { return (640, 360) }
        let screen = (try? LinuxVideoWindow.usableScreenSize()).flatMap { $0.width >= 64 && $0.height >= 64 ? $0 : nil } ?? CGSize(width: 1280, height: 720)
        let scale = min(1, screen.width / width, screen.height / height)
        return (max(1, Int((width * scale).rounded())), max(1, Int((height * scale).rounded())))
    }

    /// Plays on the live view's page through an AVPlayerLayer until Ctrl-C or `--seconds`.
    private func show(_ player: AVPlayer, item: AVPlayerItem, startTime: Double) throws {
        let layer = AVPlayerLayer(player: player)
        layer.videoGravity = try view.videoGravity()
        // The picture as the track's preferred transform shows it, unless --size says otherwise.
        var natural = CGSize(width: 640, height: 360)
        if let track = item.asset.tracks(withMediaType: .video).first {
            let shown = CGRect(origin: .zero, size: track.naturalSize).applying(track.preferredTransform)
            natural = CGSize(width: abs(shown.width), height: abs(shown.height))
        }
        layer.frame = CGRect(origin: .zero, size: try view.layerSize(default: natural))
        let server = LiveViewServer(
            player: player, playerLayer: layer, title: URL(fileURLWithPath: file).lastPathComponent,
            configuration: view.configuration())
        say(String(format: "Playing %@ from %.2f s at %gx.", file, startTime, rate))
        player.rate = rate
        try LiveViewOptions.runBlocking { [seconds] in try await LiveViewOptions.serve(server, seconds: seconds) }
        player.pause()
        withExtendedLifetime(layer) {}
    }
}
