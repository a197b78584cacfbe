import CoreMedia
import CPulse
import XCTest
@testable import CaptureDevices

/// How a hardware device tells its owner it went away: alone, or with its media server, which a
/// stream it was running hears of first (as the stream itself would have said, had it noticed first).
final class DeviceLossTests: XCTestCase {
    private final class Events: CaptureDeviceEventSink, @unchecked Sendable {
        private let lock = NSLock()
        private var said: [String] = []
        func device(_ uniqueID: String, didReport event: CaptureDeviceEvent) { lock.withLock { said.append("\(event)") } }
        var list: [String] { lock.withLock { said } }
    }

    private final class Sink: CaptureSampleSink, @unchecked Sendable {
        func deviceDidProduce(_ sampleBuffer: CMSampleBuffer, generation: Int) {}
        func deviceDidDrop(at presentationTime: CMTime, duration: CMTime, reason: FrameDropReason, generation: Int) {}
    }

    private func microphone() -> PulseMicrophone {
        var source = cpulse_source()
        source.rate = 48_000
        source.channels = 1
        withUnsafeMutableBytes(of: &source.name) { $0.copyBytes(from: Array("mic".utf8)) }
        return PulseMicrophone(source: source)
    }

    func testAStreamingDeviceGoneWithItsServerEndsWithTheServersLossThenGoes() {
        let device = microphone(), events = Events()
        device.setEventSink(events)
        _ = device.beginStream(sink: Sink())
        device.setConnected(false, serverLost: true)
        XCTAssertEqual(events.list, ["runtimeError(code: -11819)", "disconnected"])
        XCTAssertFalse(device.isConnected)
    }

    func testADeviceGoneAloneOrNotStreamingIsOnlyDisconnected() {
        let streaming = microphone(), idle = microphone(), streamingEvents = Events(), idleEvents = Events()
        streaming.setEventSink(streamingEvents)
        idle.setEventSink(idleEvents)
        _ = streaming.beginStream(sink: Sink())
        streaming.setConnected(false)
        idle.setConnected(false, serverLost: true)
        XCTAssertEqual(streamingEvents.list, ["disconnected"], "the server is still there: only the device went")
        XCTAssertEqual(idleEvents.list, ["disconnected"], "no stream to end")
    }
}
