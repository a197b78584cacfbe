import CaptureTestSupport
import XCTest
@testable import AVFoundation
import TestSupport

/// An asset whose URL has a custom scheme, read through its resource loader's delegate (the
/// AVAssetResourceLoader reference): content information first, then ranges wherever the demuxer
/// reads; the whole resource at once when ranges are not served; failures, refusals and silence.
final class ResourceLoaderTests: XCTestCase {
    /// A delegate serving a movie from memory, on its own queue, recording what it was asked.
    private final class Server: NSObject, AVAssetResourceLoaderDelegate, @unchecked Sendable {
        enum Mode { case ranges, whole, declines, silent }
        let bytes: Data
        let mode: Mode
        let queue = DispatchQueue(label: "resource-loader-tests")
        private let lock = NSLock()
        private var asked: [(offset: Int64, length: Int, toEnd: Bool)] = []
        private var cancelledCount = 0

        init(_ bytes: Data, mode: Mode) {
            self.bytes = bytes
            self.mode = mode
        }

        var requests: [(offset: Int64, length: Int, toEnd: Bool)] { lock.withLock { asked } }
        var cancellations: Int { lock.withLock { cancelledCount } }

        func resourceLoader(
            _ resourceLoader: AVAssetResourceLoader, shouldWaitForLoadingOfRequestedResource loadingRequest: AVAssetResourceLoadingRequest
        ) -> Bool {
            if mode == .declines { return false }
            let data = loadingRequest.dataRequest!
            lock.withLock { asked.append((data.requestedOffset, data.requestedLength, data.requestsAllDataToEndOfResource)) }
            if mode == .silent { return true }
            if let information = loadingRequest.contentInformationRequest {
                information.contentType = "public.mpeg-4"
                information.contentLength = Int64(bytes.count)
                information.isByteRangeAccessSupported = mode == .ranges
            }
            let start = Int(data.requestedOffset)
            let end = data.requestsAllDataToEndOfResource ? bytes.count : min(bytes.count, start + data.requestedLength)
            // Answered later, from another turn of the queue, as a download would be.
            queue.async { [self] in
                data.respond(with: bytes.subdata(in: start..<end))
                XCTAssertEqual(data.currentOffset, Int64(end))
                loadingRequest.finishLoading()
            }
            return true
        }

        func resourceLoader(_ resourceLoader: AVAssetResourceLoader, didCancel loadingRequest: AVAssetResourceLoadingRequest) {
            lock.withLock { cancelledCount += 1 }
        }
    }

    private var movie: URL!

    override func setUpWithError() throws {
        try XCTSkipUnless(MediaProbe.isAvailable, "ffmpeg is needed: apt-get install ffmpeg")
        movie = makeScratchFolder().appendingPathComponent("served.mp4")
        // Four seconds at a high rate: several of the loader's 256 KiB chunks.
        try TestMovies.picturesAndTone(movie, seconds: 4, extra: ["-b:v", "3M"])
    }

    private func asset(_ server: Server) -> AVURLAsset {
        let asset = AVURLAsset(url: URL(string: "served://movies/served.mp4")!)
        asset.resourceLoader.setDelegate(server, queue: server.queue)
        return asset
    }

    /// The presentation times of the video frames read from `asset` over `range`.
    private func frameTimes(_ asset: AVAsset, from start: Double) throws -> [Double] {
        let reader = try AVAssetReader(asset: asset)
        reader.timeRange = CMTimeRange(start: CMTime(seconds: start, preferredTimescale: 600), end: .positiveInfinity)
        let output = AVAssetReaderTrackOutput(track: try XCTUnwrap(asset.tracks(withMediaType: .video).first), outputSettings: nil)
        reader.add(output)
        XCTAssertTrue(reader.startReading(), String(describing: reader.error))
        var times: [Double] = []
        while let sample = output.copyNextSampleBuffer() { times.append(sample.presentationTimeStamp.seconds) }
        XCTAssertEqual(reader.status, .completed, String(describing: reader.error))
        return times
    }

    func testRangesAreAskedForWhereTheDemuxerReadsAndGiveWhatTheFileGives() throws {
        let bytes = try Data(contentsOf: movie)
        XCTAssertGreaterThan(bytes.count, 3 * ResourceLoaderSource.chunkSize, "a movie of several chunks")
        let server = Server(bytes, mode: .ranges)
        let served = asset(server)
        XCTAssertEqual(served.duration.seconds, AVURLAsset(url: movie).duration.seconds, accuracy: 1e-6)
        XCTAssertEqual(served.tracks.map(\.mediaType), AVURLAsset(url: movie).tracks.map(\.mediaType))
        // From the start, and from the middle (a seek), the same frames as the file's.
        XCTAssertEqual(try frameTimes(served, from: 0), try frameTimes(AVURLAsset(url: movie), from: 0))
        XCTAssertEqual(try frameTimes(served, from: 2.5), try frameTimes(AVURLAsset(url: movie), from: 2.5))
        let requests = server.requests
        XCTAssertTrue(requests.allSatisfy { !$0.toEnd && $0.length <= ResourceLoaderSource.chunkSize }, "ranges of at most a chunk")
        XCTAssertTrue(requests.allSatisfy { $0.offset + Int64($0.length) <= Int64(bytes.count) }, "never past the end")
        XCTAssertTrue(requests.contains { $0.offset > Int64(bytes.count / 2) }, "ranges from the middle on: the movie is read where it is needed")
    }

    func testWithoutRangesTheWholeResourceIsAskedForOnceForEachOpening() throws {
        let bytes = try Data(contentsOf: movie)
        let server = Server(bytes, mode: .whole)
        let served = asset(server)
        XCTAssertEqual(try frameTimes(served, from: 0).count, try frameTimes(AVURLAsset(url: movie), from: 0).count)
        let whole = server.requests.filter(\.toEnd)
        XCTAssertEqual(whole.count, 2, "the asset's opening and the reader's: \(server.requests)")
        XCTAssertTrue(whole.allSatisfy { $0.offset == 0 })
        XCTAssertEqual(server.requests.count, 4, "after the content information, nothing more is asked for: \(server.requests)")
    }

    func testADelegateThatDeclinesOrNeverAnswersFailsTheAssetWithAReason() async throws {
        let bytes = try Data(contentsOf: movie)
        let declining = Server(bytes, mode: .declines)
        do {
            _ = try await asset(declining).load(.tracks)
            XCTFail("a declined request fails the asset")
        } catch {
            XCTAssertEqual((error as? AVError)?.code, .failedToLoadMediaData)
            XCTAssertTrue(error.localizedDescription.contains("does not load served://movies/served.mp4"), error.localizedDescription)
        }
        let saved = AVAssetResourceLoader.requestTimeout.withLock { $0 }
        AVAssetResourceLoader.requestTimeout.withLock { $0 = 0.3 }
        defer { AVAssetResourceLoader.requestTimeout.withLock { $0 = saved } }
        let silent = Server(bytes, mode: .silent)
        do {
            _ = try await asset(silent).load(.tracks)
            XCTFail("a request never finished fails the asset")
        } catch {
            XCTAssertTrue(error.localizedDescription.contains("did not finish a request"), error.localizedDescription)
        }
        // The delegate hears that the request it never finished was cancelled.
        let deadline = Date().addingTimeInterval(5)
        while silent.cancellations == 0, Date() < deadline { try await Task.sleep(nanoseconds: 10_000_000) }
        XCTAssertEqual(silent.cancellations, 1)
    }

    func testTheDelegateIsHeldWeaklyAndTheRequestsSayWhatIsAsked() throws {
        let asset = AVURLAsset(url: URL(string: "served://movies/served.mp4")!)
        var server: Server? = Server(Data(), mode: .ranges)
        let queue = DispatchQueue(label: "delegate")
        asset.resourceLoader.setDelegate(server, queue: queue)
        XCTAssertTrue(asset.resourceLoader.delegate === server)
        XCTAssertTrue(asset.resourceLoader.delegateQueue === queue)
        server = nil
        XCTAssertNil(asset.resourceLoader.delegate, "held weakly, as Apple's loader holds it")
        let request = AVAssetResourceLoadingRequest(url: asset.url, contentInformation: true, offset: 100, length: 50, toEnd: false)
        XCTAssertEqual(request.request.value(forHTTPHeaderField: "Range"), "bytes=100-149")
        XCTAssertEqual(request.dataRequest?.requestedOffset, 100)
        request.dataRequest?.respond(with: Data(count: 80))
        XCTAssertEqual(request.dataRequest?.currentOffset, 150, "bytes beyond the range asked for are not kept")
        XCTAssertFalse(request.isFinished)
        request.finishLoading()
        XCTAssertTrue(request.isFinished)
        request.finishLoading(with: URLError(.cancelled))
        XCTAssertNotNil(request.wait(seconds: 0).map { $0 == nil }, "the first finish counts")
    }
}
