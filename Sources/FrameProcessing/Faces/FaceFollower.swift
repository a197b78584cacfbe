import CFaceDetection
import CoreVideo
import Foundation
import Synchronization

/// A face followed from frame to frame, with an identity that lasts while it stays in view.
package struct FollowedFace: Sendable, Equatable {
    /// The face's identity: the same while it is followed, never reused.
    package var id: Int
    /// The face's box in the frame's pixels.
    package var bounds: CGRect
    /// The line through the eyes, degrees clockwise in the picture, when the landmark model is installed.
    package var roll: Double?
    /// How far the face is turned, degrees (positive to the picture's right), when the landmark model is installed.
    package var yaw: Double?
}

/// Finds faces in every frame at the camera's rate: the detector searches whole frames at full
/// size on a worker of its own, as often as it manages (but not more often than
/// `detectionInterval`), and between its searches each face it found is followed by dlib's
/// correlation tracker, which costs about a millisecond a face; roll and yaw are measured on the
/// box followed every `anglesEvery` frames.
///
/// While no face is followed, each search begins with a coarse one (`FaceDetector.coarseSearchWidth`
/// wide, an eighth of the time): a face an eighth of the frame wide or more is found within a
/// frame or two of appearing, smaller ones by the full search that follows at once. The landmark
/// model loads on a thread of its own (`isPreparing`): faces are followed from the first frame,
/// their angles given once it has loaded.
///
/// A search's faces are matched with the faces followed when the search began: a face it finds
/// again is set back on the detector's box (moved on by what the tracker saw since), a new one
/// gets a new identity, and one it misses `missesAllowed` times in a row is let go, as is one the
/// tracker loses (its confidence below `lostConfidence` for a few frames).
///
/// Thread ownership: `follow` is called on one thread (the metadata output's detector thread); the
/// search worker is a thread of its own, handed a picture and handing back faces under a lock.
package final class FaceFollower: @unchecked Sendable {
    /// The least time between the starts of two searches, in seconds of the frames' clock.
    package var detectionInterval = 0.2
    /// The tracker's peak to side-lobe ratio below which a face counts as lost for that frame.
    package var lostConfidence = 6.0
    /// Frames in a row a face may be lost by the tracker before it is let go.
    package var lostFramesAllowed = 5
    /// Searches in a row that may miss a face before it is let go.
    package var missesAllowed = 2
    /// How often each face's roll and yaw are measured, in frames.
    package var anglesEvery = 3

    private final class Track {
        let id: Int
        let tracker: OpaquePointer
        var bounds: CGRect
        var lostFrames = 0
        var misses = 0
        var angles: (roll: Double, yaw: Double)?
        init?(id: Int, bounds: CGRect, plane: GreyPlane) {
            guard let tracker = cfd_tracker_new() else { return nil }
            self.id = id
            self.tracker = tracker
            self.bounds = bounds
            guard restart(at: bounds, plane: plane) else { return nil }
        }
        deinit { cfd_tracker_free(tracker) }
        func restart(at box: CGRect, plane: GreyPlane) -> Bool {
            bounds = box
            lostFrames = 0
            return cfd_tracker_start(
                tracker, plane.base, Int32(plane.width), Int32(plane.height), Int32(plane.bytesPerRow),
                box.minX, box.minY, box.width, box.height) == 0
        }
        /// Follows the face into `plane`; returns the tracker's confidence.
        func update(plane: GreyPlane) -> Double {
            var x = 0.0, y = 0.0, width = 0.0, height = 0.0
            let confidence = cfd_tracker_update(
                tracker, plane.base, Int32(plane.width), Int32(plane.height), Int32(plane.bytesPerRow),
                &x, &y, &width, &height)
            if confidence >= 0, x.isFinite, y.isFinite, width.isFinite, height.isFinite { bounds = CGRect(x: x, y: y, width: width, height: height) }
            return confidence
        }
    }

    /// The detector measuring angles, once its landmark model has loaded; then taken by `measurer`.
    private let loadedMeasurer = Mutex<FaceDetector?>(nil)
    private let loadingLandmarks = Atomic<Bool>(false)
    private var measurer: FaceDetector?
    private let worker: FaceSearchWorker
    /// Whether the search under way is a coarse one.
    private var searchIsCoarse = false
    /// Whether a full search is due as soon as the worker is free: a coarse one found nothing.
    private var fullSearchDue = false
    private let luma = LumaReader()
    private var tracks: [Track] = []
    private var nextID = 1
    private var lastSearch = -Double.infinity
    private var frameNumber = 0
    /// Where each face was when the search under way began.
    private var boundsAtSearch: [Int: CGRect] = [:]
    /// The size of the frame the search under way was given; nil when its faces are to be dropped.
    private var sizeAtSearch: CGSize?
    /// The size of the last frame followed.
    private var frameSize = CGSize.zero

    /// A follower measuring roll and yaw with the landmark model at `landmarkModelPath` (nil for
    /// none; it loads on a thread of its own, the first time in a process in about half a second,
    /// through `loadingLandmarks`); nil when dlib cannot make a detector.
    package init?(
        landmarkModelPath: String? = FaceDetector.landmarkModelPath,
        loadingLandmarks load: @escaping @Sendable (String) -> FaceDetector? = { FaceDetector(landmarkModelPath: $0) }
    ) {
        guard let worker = FaceSearchWorker() else { return nil }
        self.worker = worker
        guard let landmarkModelPath else { return }
        loadingLandmarks.store(true, ordering: .releasing)
        let thread = Thread { [self] in
            let measurer = load(landmarkModelPath)
            loadedMeasurer.withLock { $0 = measurer?.hasLandmarks == true ? measurer : nil }
            loadingLandmarks.store(false, ordering: .releasing)
        }
        thread.name = "Face landmarks"
        thread.qualityOfService = .utility
        thread.start()
    }

    deinit { worker.stop() }

    /// Whether the landmark model is still loading: until it has, faces come without angles.
    package var isPreparing: Bool { loadingLandmarks.load(ordering: .acquiring) }

    /// Coarse searches begun since the follower was made.
    package private(set) var coarseSearches = 0
    /// Searches finished since the follower was made.
    package var searchesFinished: Int { worker.searchesFinished }
    /// Whether a search is under way.
    package var isSearching: Bool { worker.isBusy }
    /// Seconds the worker has spent searching.
    package var secondsSearching: Double { worker.secondsSearching }

    /// The faces in `image` (any pixel format cameras deliver) at `time` seconds, those whose
    /// centres are inside `region` (pixels; the whole frame when nil), in the order they were found.
    package func follow(_ image: CVPixelBuffer, region: CGRect? = nil, time: Double) -> [FollowedFace] {
        CVPixelBufferLockBaseAddress(image, .readOnly)
        defer { CVPixelBufferUnlockBaseAddress(image, .readOnly) }
        guard let plane = luma.plane(of: image) else { return [] }
        let frame = CGRect(x: 0, y: 0, width: plane.width, height: plane.height)
        if frame.size != frameSize {
            forget()
            frameSize = frame.size
        }
        for track in tracks {
            let confidence = track.update(plane: plane)
            track.lostFrames = confidence >= lostConfidence ? 0 : track.lostFrames + 1
        }
        tracks.removeAll { track in
            track.lostFrames > lostFramesAllowed || !frame.contains(CGPoint(x: track.bounds.midX, y: track.bounds.midY))
        }
        if let found = worker.takeFaces(), sizeAtSearch == frame.size {
            reconcile(found, plane: plane)
            fullSearchDue = searchIsCoarse && tracks.isEmpty
        }
        if !worker.isBusy, fullSearchDue || time - lastSearch >= detectionInterval || time < lastSearch {
            // Nothing followed: a coarse look first, so that a face in view is found at once.
            let coarse = !fullSearchDue && tracks.isEmpty
            let width = coarse ? FaceDetector.coarseSearchWidth : FaceDetector.searchWidth
            if worker.search(plane, region: region, searchWidth: width) {
                if !fullSearchDue { lastSearch = time }
                fullSearchDue = false
                searchIsCoarse = coarse
                if coarse { coarseSearches += 1 }
                sizeAtSearch = frame.size
                boundsAtSearch = Dictionary(uniqueKeysWithValues: tracks.map { ($0.id, $0.bounds) })
            }
        }
        if measurer == nil, !tracks.isEmpty { measurer = loadedMeasurer.withLock { $0 } }
        let area = region ?? frame
        frameNumber &+= 1
        return tracks.compactMap { track in
            guard area.contains(CGPoint(x: track.bounds.midX, y: track.bounds.midY)) else { return nil }
            // The landmarks cost about as much as the tracker: each face's angles are measured every few frames.
            if track.angles == nil || (frameNumber &+ track.id) % anglesEvery == 0 {
                track.angles = measurer?.angles(of: track.bounds, in: plane) ?? track.angles
            }
            return FollowedFace(id: track.id, bounds: track.bounds, roll: track.angles?.roll, yaw: track.angles?.yaw)
        }
    }

    /// Lets every face go, so faces found next are new.
    package func forget() {
        tracks.removeAll()
        boundsAtSearch.removeAll()
        sizeAtSearch = nil
        fullSearchDue = false
    }

    /// Matches a finished search's faces with the faces followed when it began.
    private func reconcile(_ found: [DetectedFace], plane: GreyPlane) {
        var unmatched = Set(boundsAtSearch.keys)
        for face in found {
            var best: (track: Track, then: CGRect, overlap: Double)?
            for track in tracks where unmatched.contains(track.id) {
                guard let then = boundsAtSearch[track.id] else { continue }
                let overlap = Self.overlap(face.bounds, then)
                if overlap >= 0.3, overlap > (best?.overlap ?? 0) { best = (track, then, overlap) }
            }
            if let best {
                unmatched.remove(best.track.id)
                // The face has moved on since the frame searched: move the detector's box as far.
                let moved = face.bounds.offsetBy(dx: best.track.bounds.midX - best.then.midX, dy: best.track.bounds.midY - best.then.midY)
                best.track.misses = 0
                if !best.track.restart(at: moved, plane: plane) { tracks.removeAll { $0 === best.track } }
            } else if !tracks.contains(where: { Self.overlap($0.bounds, face.bounds) >= 0.3 }), let track = Track(id: nextID, bounds: face.bounds, plane: plane)
            {
                nextID += 1
                tracks.append(track)
            }
        }
        for track in tracks where unmatched.contains(track.id) { track.misses += 1 }
        tracks.removeAll { $0.misses >= missesAllowed }
        boundsAtSearch.removeAll()
    }

    /// The boxes' intersection over their union: 0 apart, 1 the same.
    package static func overlap(_ a: CGRect, _ b: CGRect) -> Double {
        let common = a.intersection(b)
        guard !common.isNull, common.width > 0, common.height > 0 else { return 0 }
        let shared = Double(common.width * common.height)
        return shared / (Double(a.width * a.height) + Double(b.width * b.height) - shared)
    }
}

/// The follower's search worker: a thread that runs dlib's detector over one picture at a time.
///
/// Thread ownership: `search`, `takeFaces` and the counters are called on the follower's thread;
/// the picture buffer is written there only while the worker is idle, and read by the worker only
/// while it is busy, the lock handing it over each way.
final class FaceSearchWorker: @unchecked Sendable {
    private struct State {
        var busy = false
        var stopped = false
        var started = false
        var job: FaceSearchPicture?
        var faces: [DetectedFace]?
        var finished = 0
        var nanoseconds: UInt64 = 0
    }
    private let state = Mutex(State())
    private let wake = DispatchSemaphore(value: 0)
    private let detector: FaceDetector
    /// The pictures searched, by search width: reused, so that searches make none once warm.
    private var buffers: [Int: CVPixelBuffer] = [:]

    init?() {
        guard let detector = FaceDetector(landmarkModelPath: nil) else { return nil }
        self.detector = detector
    }

    var isBusy: Bool { state.withLock { $0.busy } }
    var searchesFinished: Int { state.withLock { $0.finished } }
    var secondsSearching: Double { state.withLock { Double($0.nanoseconds) / 1e9 } }

    /// Starts a search of `plane`'s `region` at `searchWidth`; false when one is under way or the region is too small.
    func search(_ plane: GreyPlane, region: CGRect?, searchWidth: Int) -> Bool {
        guard !isBusy, let picture = FaceSearchPicture(plane, region: region, searchWidth: searchWidth, reusing: buffers[searchWidth]) else {
            return false
        }
        buffers[searchWidth] = picture.buffer
        let start = state.withLock { state -> Bool in
            state.job = picture
            state.busy = true
            defer { state.started = true }
            return !state.started
        }
        if start {
            let thread = Thread { [self] in run() }
            thread.name = "Face search"
            thread.qualityOfService = .utility
            thread.start()
        }
        wake.signal()
        return true
    }

    /// The faces of the last search finished, once.
    func takeFaces() -> [DetectedFace]? {
        state.withLock { state in
            defer { state.faces = nil }
            return state.faces
        }
    }

    /// Ends the worker's thread after the search under way.
    func stop() {
        state.withLock { $0.stopped = true }
        wake.signal()
    }

    private func run() {
        while true {
            wake.wait()
            let job = state.withLock { state -> FaceSearchPicture?? in
                state.stopped ? .some(nil) : state.job
            }
            guard let job else { continue }
            guard let job else { return }
            let start = DispatchTime.now().uptimeNanoseconds
            let faces = detector.detect(in: job)
            let elapsed = DispatchTime.now().uptimeNanoseconds - start
            state.withLock { state in
                state.job = nil
                state.faces = faces
                state.busy = false
                state.finished += 1
                state.nanoseconds += elapsed
            }
        }
    }
}
