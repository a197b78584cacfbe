import AVFoundation
import CBenchmarkSupport
import CaptureDevices
import Foundation
import FrameProcessing
import Synchronization

/// What waking another thread once a frame costs on this machine, measured under the same load as
/// the frame path: a loop renders the virtual scene into frames of the size and format measured
/// and, once a frame, hands off to a thread that sleeps in between and does nothing but count.
/// Each figure is the sender's time in the hand-off call plus the CPU every other thread of the
/// process spent per frame (the receiver's wake-up, switch and sleep), so rendering, whose cost
/// varies from run to run here, is not part of it.
enum HandoffFloor {
    struct Cost {
        /// Time the sending thread spent in the call that wakes the receiver, per frame.
        var sender: Double
        /// CPU the receiving side spent per frame.
        var receiver: Double
        var total: Double { sender + receiver }
    }

    struct Figures {
        /// A dispatch source merge waking a serial queue, as frame delivery does; the scheduler places both threads.
        var dispatchQueue: Cost
        /// A semaphore waking a thread held on the other core than the renderer.
        var otherCore: Cost?
        /// A semaphore waking a thread held on the renderer's own core.
        var sameCore: Cost?
    }

    static func measure(width: Int, height: Int, format: OSType, frames: Int = 3000) -> Figures {
        let renderer = SceneRenderer(width: width, height: height, pixelFormat: format)!
        let buffers = (0..<2).map { _ in CVPixelBuffer(width: width, height: height, pixelFormatType: format)! }
        let state = ImagingState()
        var frameNumber: Int64 = 0
        func render() {
            renderer.render(
                into: buffers[Int(frameNumber & 1)],
                SceneFrameParameters(
                    frameNumber: frameNumber, seconds: Double(frameNumber) / 30, zoom: 1,
                    brightness: state.renderedBrightness, colourGains: (1, 1, 1), defocus: 0, image: nil))
            frameNumber += 1
        }

        let counter = Counter()
        let source = DispatchSource.makeUserDataAddSource(queue: DispatchQueue(label: "avbench.floor"))
        source.setEventHandler { counter.increment() }
        source.activate()
        defer { source.cancel() }
        let dispatchQueue = cost(frames: frames, render: render) { source.add(data: 1) }

        var figures = Figures(dispatchQueue: dispatchQueue)
        guard ProcessInfo.processInfo.activeProcessorCount >= 2 else { return figures }
        figures.otherCore = pinnedSemaphoreFloor(frames: frames, receiverCore: 1, render: render)
        figures.sameCore = pinnedSemaphoreFloor(frames: frames, receiverCore: 0, render: render)
        return figures
    }

    /// The hand-off's cost over `frames` rendered frames.
    private static func cost(frames: Int, render: () -> Void, handOff: () -> Void) -> Cost {
        let process0 = cpuClock(CLOCK_PROCESS_CPUTIME_ID), thread0 = cpuClock(CLOCK_THREAD_CPUTIME_ID)
        var sending: Int64 = 0
        for _ in 0..<frames {
            render()
            let start = CMClock.hostTimeNanoseconds()
            handOff()
            sending += CMClock.hostTimeNanoseconds() - start
        }
        Thread.sleep(forTimeInterval: 0.01)
        let others = (cpuClock(CLOCK_PROCESS_CPUTIME_ID) - process0) - (cpuClock(CLOCK_THREAD_CPUTIME_ID) - thread0)
        return Cost(sender: Double(sending) / 1e9 / Double(frames), receiver: Double(others) / 1e9 / Double(frames))
    }

    private static func cpuClock(_ clock: clockid_t) -> Int64 {
        var now = timespec()
        clock_gettime(clock, &now)
        return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
    }

    /// The semaphore hand-off with the renderer held on core 0 and the receiver on `receiverCore`.
    private static func pinnedSemaphoreFloor(frames: Int, receiverCore: Int, render: @escaping () -> Void) -> Cost? {
        final class Box: @unchecked Sendable {
            let render: () -> Void
            var result: Cost?
            init(render: @escaping () -> Void) { self.render = render }
        }
        let box = Box(render: render)
        let wake = DispatchSemaphore(value: 0)
        let stop = Atomic(false)
        let counter = Counter()
        let receiverDone = DispatchSemaphore(value: 0)
        let receiver = Thread {
            _ = avbench_pin_current_thread(Int32(receiverCore))
            while true {
                wake.wait()
                if stop.load(ordering: .acquiring) { break }
                counter.increment()
            }
            receiverDone.signal()
        }
        receiver.start()
        let rendererDone = DispatchSemaphore(value: 0)
        let renderer = Thread {
            if avbench_pin_current_thread(0) == 0 {
                box.result = cost(frames: frames, render: box.render) { wake.signal() }
            }
            rendererDone.signal()
        }
        renderer.start()
        rendererDone.wait()
        stop.store(true, ordering: .releasing)
        wake.signal()
        receiverDone.wait()
        return box.result
    }

    private final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var value = 0
        func increment() { lock.lock(); value += 1; lock.unlock() }
    }
}
