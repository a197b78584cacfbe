import CaptureTestSupport
import XCTest
@testable import AVFoundation
import TestSupport

/// Timed metadata: the ID3 tags of an MPEG-TS stream (as HLS carries them) as an asset's metadata
/// track, and as AVTimedMetadataGroups a player item's metadata output gives its delegate as
/// playback reaches them, on a manual clock the tests move.
final class TimedMetadataTests: CaptureTestCase {
    override func setUpWithError() throws {
        try XCTSkipUnless(MediaProbe.isAvailable, "ffmpeg is needed: apt-get install ffmpeg")
        unsetenv("PULSE_SERVER")
    }

    /// Tags at 0 s, 1 s, 2 s (not a tag) and 2.5 s of a 4-second movie.
    private static let tags: [TimedID3Movies.Tag] = [
        .init(seconds: 0, title: "Opening"),
        .init(seconds: 1, title: "Second song", userText: ("chapter", "two"), privateData: ("com.example.ad", [0, 1, 2, 0xFF])),
        .init(seconds: 2, raw: Array("not an ID3 tag at all".utf8)),
        .init(seconds: 2.5, title: "Última canción", privateData: ("com.example.ad", [9, 8, 7])),
    ]

    private func movie(_ name: String = #function) throws -> URL {
        let url = makeScratchFolder(name).appendingPathComponent("stream.ts")
        try TimedID3Movies.movie(url, seconds: 4, tags: Self.tags)
        return url
    }

    /// Receives what a metadata output delivers, in order.
    final class Listener: NSObject, AVPlayerItemMetadataOutputPushDelegate, @unchecked Sendable {
        enum Event { case groups([AVTimedMetadataGroup], AVPlayerItemTrack?), flushed }
        let events = Recorder<Event>()
        func metadataOutput(_ output: AVPlayerItemMetadataOutput, didOutputTimedMetadataGroups groups: [AVTimedMetadataGroup], from track: AVPlayerItemTrack?) {
            events.append(.groups(groups, track))
        }
        func outputSequenceWasFlushed(_ output: AVPlayerItemOutput) { events.append(.flushed) }
        /// The titles of the groups delivered so far, "|" for a flush.
        var titles: [String] {
            events.values.flatMap { event -> [String] in
                switch event {
                case .flushed: return ["|"]
                case .groups(let groups, _):
                    return groups.map { group in group.items.first { $0.identifier == .id3MetadataTitleDescription }?.stringValue ?? "?" }
                }
            }
        }
    }

    /// A ready player of `url` on a manual clock, with a metadata output whose delegate listens on `queue`.
    private func player(
        _ url: URL, identifiers: [String]? = nil, advance: TimeInterval = 0, queue: DispatchQueue
    ) throws -> (AVPlayer, AVPlayerItem, CMClock, AVPlayerItemMetadataOutput, Listener) {
        let item = AVPlayerItem(url: url)
        let output = AVPlayerItemMetadataOutput(identifiers: identifiers)
        let listener = Listener()
        output.setDelegate(listener, queue: queue)
        output.advanceIntervalForDelegateInvocation = advance
        let player = AVPlayer(playerItem: item)
        XCTAssertTrue(waitUntil { item.status == .readyToPlay }, "the stream loads: \(String(describing: item.error))")
        let clock = CMClock.manual()
        player.sourceClock = clock
        item.add(output)
        // The tags are read on the output's own thread: the clock moves once they all are.
        XCTAssertTrue(waitUntil { output.hasReadEveryTag }, "the stream's tags are read")
        return (player, item, clock, output, listener)
    }

    /// Moves `clock` on by `seconds` in 5 ms steps, letting the player's engine and `queue` run after each.
    private func pass(_ seconds: Double, clock: CMClock, player: AVPlayer, queue: DispatchQueue) {
        for _ in 0..<Int((seconds / 0.005).rounded()) {
            clock.advance(by: CMTime(value: 5_000_000, timescale: 1_000_000_000))
            player.engine.sync {}
            queue.sync {}
        }
    }

    func testTheStreamsID3TagsAreATimedMetadataTrackAndNotPlayableMedia() async throws {
        let url = try movie()
        let asset = AVURLAsset(url: url)
        let tracks = try await asset.loadTracks(withMediaType: .metadata)
        XCTAssertEqual(tracks.count, 1, "one timed metadata track beside the video")
        let format = try XCTUnwrap(tracks.first?.formatDescriptions.first as! CMFormatDescription?)
        XCTAssertEqual(format.mediaType, .metadata)
        XCTAssertEqual(format.mediaSubType.rawValue, kCMMetadataFormatType_ID3)
        let video = try await asset.loadTracks(withMediaType: .video), playable = try await asset.load(.isPlayable)
        XCTAssertEqual(video.count, 1)
        XCTAssertTrue(playable)
        // Tags alone are no playable media.
        let tagsOnly = url.deletingLastPathComponent().appendingPathComponent("tags.ts")
        try TimedID3Movies.tagsOnly(tagsOnly, tags: Self.tags)
        let bare = AVURLAsset(url: tagsOnly)
        let bareTracks = try await bare.loadTracks(withMediaType: .metadata), barePlayable = try await bare.load(.isPlayable)
        XCTAssertEqual(bareTracks.count, 1)
        XCTAssertFalse(barePlayable)
    }

    func testGroupsArriveAsPlaybackReachesThemWithTheirFramesAsID3Items() throws {
        let queue = DispatchQueue(label: "metadata")
        let (player, item, clock, _, listener) = try player(try movie(), queue: queue)
        // The tags are read on the output's own thread; the group current at 0 s comes first.
        XCTAssertTrue(waitUntil { !listener.titles.isEmpty }, "the group current where playback stands")
        XCTAssertEqual(listener.titles, ["Opening"])
        player.rate = 1
        pass(0.95, clock: clock, player: player, queue: queue)
        XCTAssertEqual(listener.titles, ["Opening"], "nothing before 1 s")
        pass(0.1, clock: clock, player: player, queue: queue)
        XCTAssertEqual(listener.titles, ["Opening", "Second song"], "delivered as 1 s is crossed")
        guard case .groups(let groups, let track)? = listener.events.values.last, let group = groups.first else { return XCTFail("a group") }
        XCTAssertIdentical(track, item.tracks.first { $0.assetTrack?.mediaType == .metadata }, "from the item's metadata track")
        XCTAssertEqual(group.timeRange.start.seconds, 1, accuracy: 1e-6)
        XCTAssertEqual(group.timeRange.duration.seconds, 1, accuracy: 1e-6, "until the next tag of the track, even one that cannot be read")
        XCTAssertEqual(group.items.map { $0.identifier?.rawValue }, ["id3/TIT2", "id3/TXXX", "id3/PRIV"])
        let title = group.items[0], text = group.items[1], data = group.items[2]
        XCTAssertEqual(title.keySpace, .id3)
        XCTAssertEqual(title.key as? NSString, "TIT2")
        XCTAssertEqual(title.stringValue, "Second song")
        XCTAssertEqual(title.dataType, kCMMetadataBaseDataType_UTF8 as String)
        XCTAssertEqual(title.time.seconds, 1, accuracy: 1e-6)
        XCTAssertEqual(text.stringValue, "two")
        XCTAssertEqual(text.extraAttributes?[.info] as? String, "chapter")
        XCTAssertEqual(data.dataValue, Data([0, 1, 2, 0xFF]))
        XCTAssertNil(data.stringValue)
        XCTAssertEqual(data.dataType, kCMMetadataBaseDataType_RawData as String)
        XCTAssertEqual(data.extraAttributes?[.info] as? String, "com.example.ad", "the PRIV frame's owner")
        XCTAssertEqual(group.copyFormatDescription()?.mediaSubType.rawValue, kCMMetadataFormatType_ID3)
        // The damaged tag at 2 s is passed over; the one at 2.5 s arrives in its UTF-8.
        pass(1.5, clock: clock, player: player, queue: queue)
        XCTAssertEqual(listener.titles, ["Opening", "Second song", "Última canción"])
        player.pause()
    }

    func testASeekFlushesAndGivesTheGroupCurrentWhereItLands() throws {
        let queue = DispatchQueue(label: "metadata")
        let (player, _, clock, _, listener) = try player(try movie(), queue: queue)
        XCTAssertTrue(waitUntil { listener.titles == ["Opening"] })
        // The player starting its media again where they are (an item becoming ready does) is no seek.
        player.update(jumped: true)
        queue.sync {}
        XCTAssertEqual(listener.titles, ["Opening"], "nothing flushed or given again")
        // Nor is it once time has moved on: the item becoming ready late, on a loaded machine, while the clock runs.
        player.rate = 1
        pass(0.2, clock: clock, player: player, queue: queue)
        // The engine, held up, has not yet followed the clock's last step when the update comes.
        let held = DispatchSemaphore(value: 0)
        player.engine.async { held.wait() }
        clock.advance(by: CMTime(value: 5_000_000, timescale: 1_000_000_000))
        player.update(jumped: true, timeJumped: false)
        held.signal()
        player.engine.sync {}
        queue.sync {}
        XCTAssertEqual(listener.titles, ["Opening"], "nothing flushed or given again where time has run to")
        player.rate = 0
        player.seek(to: CMTime(value: 3, timescale: 1), toleranceBefore: .zero, toleranceAfter: .zero)
        queue.sync {}
        XCTAssertEqual(listener.titles, ["Opening", "|", "Última canción"], "flushed, then the group holding 3 s")
        // Backwards, a group arrives as playback enters it from its end.
        player.rate = -1
        pass(0.45, clock: clock, player: player, queue: queue)
        XCTAssertEqual(listener.titles.count, 3)
        pass(0.1, clock: clock, player: player, queue: queue)
        XCTAssertEqual(listener.titles.count, 3, "the damaged tag at 2 s gives nothing")
        pass(1.0, clock: clock, player: player, queue: queue)
        XCTAssertEqual(listener.titles, ["Opening", "|", "Última canción", "Second song"], "entered at its end, 2 s")
        player.pause()
    }

    func testIdentifiersChooseTheItemsAndTheAdvanceIntervalDeliversEarly() throws {
        let queue = DispatchQueue(label: "metadata")
        let (player, _, clock, output, listener) = try player(try movie(), identifiers: ["id3/PRIV"], advance: 0.25, queue: queue)
        XCTAssertEqual(output.advanceIntervalForDelegateInvocation, 0.25)
        player.rate = 1
        XCTAssertTrue(waitUntil { output.delegate === listener })
        pass(0.7, clock: clock, player: player, queue: queue)
        XCTAssertTrue(listener.events.values.isEmpty, "the tag at 0 s has no PRIV frame: no group")
        pass(0.1, clock: clock, player: player, queue: queue)
        guard case .groups(let groups, _)? = listener.events.values.last else { return XCTFail("the group at 1 s, a quarter second early") }
        XCTAssertEqual(groups.flatMap(\.items).map { $0.identifier }, [.id3MetadataPrivate])
        output.advanceIntervalForDelegateInvocation = .nan
        XCTAssertEqual(output.advanceIntervalForDelegateInvocation, 0, "NaN is no interval")
        player.pause()
    }

    func testAGroupIsMadeFromASampleBufferOfATagAndCopied() throws {
        let tag = try TimedID3Movies.bytes(of: .init(seconds: 0, title: "From a buffer"))
        let buffer = try Self.sampleBuffer(tag, format: CMFormatDescription(metadata: kCMMetadataFormatType_ID3))
        let group = try XCTUnwrap(AVTimedMetadataGroup(sampleBuffer: buffer))
        XCTAssertEqual(group.timeRange, CMTimeRange(start: CMTime(value: 5, timescale: 1), duration: CMTime(value: 2, timescale: 1)))
        XCTAssertEqual(group.items.first?.stringValue, "From a buffer")
        let mutable = try XCTUnwrap(group.mutableCopy() as? AVMutableTimedMetadataGroup)
        mutable.items = []
        XCTAssertEqual(group.items.count, 1, "the copy is its own")
        XCTAssertEqual(mutable.timeRange, group.timeRange)
        // A buffer of something else makes no group.
        let video = CMFormatDescription(video: kCMVideoCodecType_H264, width: 2, height: 2)
        XCTAssertNil(AVTimedMetadataGroup(sampleBuffer: try Self.sampleBuffer(tag, format: video)))
    }

    func testDamagedTagsMakeNoGroupAndATagWithoutItsFirstFiveBytesIsRepaired() throws {
        let format = CMFormatDescription(metadata: kCMMetadataFormatType_ID3)
        let tag = try TimedID3Movies.bytes(
            of: .init(seconds: 0, title: "Whole", userText: ("k", "v"), privateData: ("com.example", Array(repeating: 7, count: 300))))
        XCTAssertEqual(AVTimedMetadataGroup(sampleBuffer: try Self.sampleBuffer(tag, format: format))?.items.count, 3)
        // FFmpeg 5.1's demuxer hands timed ID3 over without "ID3" and the version: put back.
        let repaired = AVTimedMetadataGroup(sampleBuffer: try Self.sampleBuffer(Array(tag.dropFirst(5)), format: format))
        XCTAssertEqual(repaired?.items.map { $0.stringValue ?? "<data>" }, ["Whole", "v", "<data>"])
        XCTAssertEqual(repaired?.items.last?.dataValue?.count, 300, "a frame longer than 127 bytes keeps its length")
        // An attached picture gives its bytes, its description the info attribute.
        let cover = try TimedID3Movies.bytes(of: .init(seconds: 0, title: "Cover", picture: ("front", [0x89, 0x50, 0x4E, 0x47, 1, 2, 3])))
        let pictured = try XCTUnwrap(AVTimedMetadataGroup(sampleBuffer: try Self.sampleBuffer(cover, format: format)))
        let picture = try XCTUnwrap(pictured.items.first { $0.identifier == .id3MetadataAttachedPicture })
        XCTAssertEqual(picture.dataValue, Data([0x89, 0x50, 0x4E, 0x47, 1, 2, 3]))
        XCTAssertEqual(picture.extraAttributes?[.info] as? String, "front")
        XCTAssertEqual(picture.dataType, kCMMetadataBaseDataType_RawData as String)
        // Not a tag, a tag cut short, an empty payload: no group, nothing else.
        for bytes in [Array("not an ID3 tag".utf8), Array(tag.prefix(tag.count / 2)), Array(tag.dropFirst(7)), [], [0x49, 0x44, 0x33]] {
            XCTAssertNil(AVTimedMetadataGroup(sampleBuffer: try Self.sampleBuffer(bytes, format: format)))
        }
        // Bytes changed at random give a group or none, never a crash.
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            var bytes = tag
            for _ in 0..<Int.random(in: 1...8, using: &generator) {
                bytes[Int.random(in: 0..<bytes.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
            }
            _ = AVTimedMetadataGroup(sampleBuffer: try Self.sampleBuffer(bytes, format: format))
        }
    }

    /// A sample buffer of one sample of `bytes` at 5 s lasting 2 s.
    private static func sampleBuffer(_ bytes: [UInt8], format: CMFormatDescription) throws -> CMSampleBuffer {
        var block: CMBlockBuffer?
        XCTAssertEqual(
            CMBlockBufferCreateWithMemoryBlock(
                allocator: nil, memoryBlock: nil, blockLength: bytes.count, blockAllocator: nil, customBlockSource: nil, offsetToData: 0,
                dataLength: bytes.count, flags: 0, blockBufferOut: &block), noErr)
        let data = try XCTUnwrap(block)
        if !bytes.isEmpty {
            XCTAssertEqual(CMBlockBufferReplaceDataBytes(with: bytes, blockBuffer: data, offsetIntoDestination: 0, dataLength: bytes.count), noErr)
        }
        var timing = CMSampleTimingInfo(
            duration: CMTime(value: 2, timescale: 1), presentationTimeStamp: CMTime(value: 5, timescale: 1), decodeTimeStamp: .invalid)
        var size = bytes.count
        var buffer: CMSampleBuffer?
        XCTAssertEqual(
            CMSampleBufferCreate(
                allocator: nil, dataBuffer: data, dataReady: true, makeDataReadyCallback: nil, refcon: nil, formatDescription: format,
                sampleCount: 1, sampleTimingEntryCount: 1, sampleTimingArray: &timing, sampleSizeEntryCount: 1, sampleSizeArray: &size,
                sampleBufferOut: &buffer), noErr)
        return try XCTUnwrap(buffer)
    }
}

extension TimedMetadataTests {
    func testAReaderGivesTheTracksGroupsThroughTheMetadataAdaptor() throws {
        let asset = AVURLAsset(url: try movie())
        let track = try XCTUnwrap(asset.tracks(withMediaType: .metadata).first)
        let reader = try AVAssetReader(asset: asset)
        let output = AVAssetReaderTrackOutput(track: track, outputSettings: nil)
        reader.add(output)
        let adaptor = AVAssetReaderOutputMetadataAdaptor(assetReaderTrackOutput: output)
        XCTAssertIdentical(adaptor.assetReaderTrackOutput, output)
        XCTAssertTrue(reader.startReading())
        var groups: [AVTimedMetadataGroup] = []
        while let group = adaptor.nextTimedMetadataGroup() { groups.append(group) }
        XCTAssertEqual(reader.status, .completed)
        // The damaged tag at 2 s is passed over.
        XCTAssertEqual(groups.map { $0.items.first?.stringValue }, ["Opening", "Second song", "Última canción"])
        XCTAssertEqual(groups.map { $0.timeRange.start.seconds }, [0, 1, 2.5])
        XCTAssertEqual(groups[1].items.map(\.identifier), [.id3MetadataTitleDescription, .id3MetadataUserText, .id3MetadataPrivate])
    }

    func testAnItemKeepsAtMostItsLimitOfGroupsAndReadsNoFurther() throws {
        let url = makeScratchFolder().appendingPathComponent("many.ts")
        try TimedID3Movies.movie(url, seconds: 4, tags: (0..<40).map { .init(seconds: Double($0) * 0.1, title: "Tag \($0)") })
        let item = AVPlayerItem(url: url)
        let player = AVPlayer(playerItem: item)
        XCTAssertTrue(waitUntil { item.status == .readyToPlay })
        let clock = CMClock.manual()
        player.sourceClock = clock
        let output = AVPlayerItemMetadataOutput(identifiers: nil)
        output.maximumGroups.withLock { $0 = 5 }
        let listener = Listener(), queue = DispatchQueue(label: "metadata")
        output.setDelegate(listener, queue: queue)
        item.add(output)
        XCTAssertTrue(waitUntil { output.hasStoppedReading })
        player.rate = 1
        pass(4, clock: clock, player: player, queue: queue)
        XCTAssertEqual(listener.titles, (0..<5).map { "Tag \($0)" }, "the first five, and no more")
        XCTAssertFalse(output.hasReadEveryTag, "reading stopped at the limit")
        player.pause()
    }
}
