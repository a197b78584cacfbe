import CaptureDevices
import Foundation
import FrameProcessing
import Synchronization

/// The metadata output's detector: a thread of its own that searches the newest frame the
/// camera left in its one-frame mailbox for codes, follows faces in it (found by a search worker
/// of the follower's own), and hands what it found to the output.
///
/// Thread ownership: `offer` runs on the camera's thread and only stores the frame and wakes
/// the detector (no allocation, no waiting); the detector thread owns the reader; `configure`
/// and `clear` run on any thread.
final class MetadataDetection: @unchecked Sendable {
    /// What one frame held.
    struct Result: @unchecked Sendable {
        let objects: [AVMetadataObject]
        let connection: AVCaptureConnection
    }

    private struct Mailbox {
        var frame: CMSampleBuffer?
        var connection: AVCaptureConnection?
        var symbologies: Set<CodeSymbology> = []
        var detectsFaces = false
        var rectOfInterest = CGRect(x: 0, y: 0, width: 1, height: 1)
        var maximumCodes = 4
        var framesSearched = 0
        var framesSkipped = 0
        var nanosecondsSearching: Int64 = 0
        var threadStarted = false
        var searching = false
        var stopped = false
        /// The face follower, made off the detector's thread as soon as faces are asked for.
        var follower: FaceFollower?
        var makingFollower = false
        var followerUnavailable = false
    }
    private let mailbox = LockedValue(Mailbox())
    private let wake = DispatchSemaphore(value: 0)
    private let delivering = Atomic<Bool>(false)
    /// Called on the detector's thread with each frame's objects (and once with none when they are
    /// gone); returns whether they were delivered.
    var deliver: (@Sendable (Result) -> Bool)?

    /// Ends the detector's thread.
    func stop() {
        mailbox.withLock { box in
            box.stopped = true
            box.frame = nil
            box.connection = nil
        }
        wake.signal()
    }

    /// Sets what to look for and where; no symbologies and no faces means no detection. Asking
    /// for faces the first time starts making the follower (dlib's detector and landmark model,
    /// about a second the first time in a process) on a thread of its own, so that frames are
    /// searched for faces as soon as it is ready and the detector's thread never waits for it.
    func configure(symbologies: Set<CodeSymbology>, faces: Bool, rectOfInterest: CGRect, maximumCodes: Int) {
        let makeFollower = mailbox.withLock { box -> Bool in
            box.symbologies = symbologies
            box.detectsFaces = faces
            box.rectOfInterest = rectOfInterest
            box.maximumCodes = maximumCodes
            if symbologies.isEmpty && !faces { box.frame = nil }
            guard faces, box.follower == nil, !box.makingFollower, !box.followerUnavailable else { return false }
            box.makingFollower = true
            return true
        }
        guard makeFollower else { return }
        DispatchQueue.global(qos: .userInitiated).async { [mailbox] in
            let follower = FaceFollower()
            mailbox.withLock { box in
                box.follower = follower
                box.makingFollower = false
                box.followerUnavailable = follower == nil
            }
        }
    }

    /// Leaves a frame for the detector, replacing one it has not started on (which is skipped).
    func offer(_ frame: CMSampleBuffer, from connection: AVCaptureConnection) {
        let start = mailbox.withLock { box -> Bool in
            guard !box.symbologies.isEmpty || box.detectsFaces else { return false }
            if box.frame != nil { box.framesSkipped += 1 }
            box.frame = frame
            box.connection = connection
            defer { box.threadStarted = true }
            return !box.threadStarted
        }
        if start {
            let thread = Thread { [self] in run() }
            thread.name = "AVCaptureMetadataOutput detection"
            thread.qualityOfService = .userInitiated
            thread.start()
        }
        wake.signal()
    }

    /// Lets go of a waiting frame, so its buffer returns to the camera.
    func clear() {
        mailbox.withLock { box in
            box.frame = nil
            box.connection = nil
        }
    }

    /// Frames searched, frames skipped, and seconds spent searching.
    var statistics: (framesSearched: Int, framesSkipped: Int, secondsSearching: Double) {
        mailbox.withLock { ($0.framesSearched, $0.framesSkipped, Double($0.nanosecondsSearching) / 1e9) }
    }

    /// Whether a frame waits for the detector, the detector is searching one, the face follower is
    /// being made, loading its landmarks or searching, or objects are being delivered.
    var hasWorkInFlight: Bool {
        mailbox.withLock { box in
            box.frame != nil || box.searching || box.makingFollower || (box.follower.map { $0.isPreparing || $0.isSearching } ?? false)
        } || delivering.load(ordering: .acquiring)
    }

    /// Marks a delivery under way; false when the last one has not finished.
    func beginDelivery() -> Bool { delivering.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged }
    /// Marks the delivery under way finished.
    func endDelivery() { delivering.store(false, ordering: .releasing) }

    // MARK: The detector's thread

    private func run() {
        var reader: CodeReader?
        var lastHadObjects = false
        while true {
            wake.wait()
            let job = mailbox.withLock { box -> Job?? in
                if box.stopped { return .some(nil) }
                guard let frame = box.frame, let connection = box.connection else { return nil }
                box.frame = nil
                box.searching = true
                return Job(
                    frame: frame, connection: connection, symbologies: box.symbologies, faces: box.detectsFaces,
                    follower: box.follower, rectOfInterest: box.rectOfInterest, maximumCodes: box.maximumCodes)
            }
            guard let job else { continue }
            guard let job else { return }
            // Searched and handed on (or passed over): no longer in flight, whichever way the pass ends.
            defer { mailbox.withLock { $0.searching = false } }
            guard let image = job.frame.imageBufferStorage else { continue }
            let width = CGFloat(image.width), height = CGFloat(image.height)
            let rect = job.rectOfInterest
            let region =
                rect == CGRect(x: 0, y: 0, width: 1, height: 1)
                ? nil
                : CGRect(x: rect.minX * width, y: rect.minY * height, width: rect.width * width, height: rect.height * height)
            let start = CMClock.hostTimeNanoseconds()
            var codes: [DetectedCode] = []
            if !job.symbologies.isEmpty {
                if reader == nil || reader!.symbologies != job.symbologies || reader!.maximumCodes != job.maximumCodes {
                    reader = CodeReader(symbologies: job.symbologies, maximumCodes: job.maximumCodes)
                }
                codes = reader!.read(image, region: region)
            }
            var faces: [FollowedFace] = []
            let time = job.frame.presentationTimeStamp, duration = job.frame.duration
            if job.faces {
                // No faces until the follower is made (configure began making it).
                faces = job.follower?.follow(image, region: region, time: time.seconds) ?? []
            } else {
                job.follower?.forget()
            }
            let elapsed = CMClock.hostTimeNanoseconds() - start
            mailbox.withLock { box in
                box.framesSearched += 1
                box.nanosecondsSearching += elapsed
            }
            let faceBounds = faces.map {
                CGRect(x: $0.bounds.minX / width, y: $0.bounds.minY / height, width: $0.bounds.width / width, height: $0.bounds.height / height)
            }
            guard !codes.isEmpty || !faces.isEmpty || lastHadObjects else { continue }
            var objects: [AVMetadataObject] = codes.map { code in
                AVMetadataMachineReadableCodeObject(code, in: CGSize(width: width, height: height), time: time, duration: duration)
            }
            for (index, face) in faces.enumerated() {
                objects.append(
                    AVMetadataFaceObject(
                        faceID: face.id, time: time, duration: duration, bounds: faceBounds[index],
                        rollAngle: face.roll.map { CGFloat($0) }, yawAngle: face.yaw.map { CGFloat($0) }))
            }
            if deliver?(Result(objects: objects, connection: job.connection)) == true { lastHadObjects = !objects.isEmpty }
        }
    }

    /// One frame to search and what to search it for.
    private struct Job {
        let frame: CMSampleBuffer
        let connection: AVCaptureConnection
        let symbologies: Set<CodeSymbology>
        let faces: Bool
        /// Followed on this thread only.
        let follower: FaceFollower?
        let rectOfInterest: CGRect
        let maximumCodes: Int
    }
}
