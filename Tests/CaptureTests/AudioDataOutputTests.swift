import CaptureTestSupport
import XCTest
@testable import AVFoundation
import TestSupport

/// WWDC 2010 session 409: "The emitted sample buffers for an audio data output are always, always, always
/// interleaved 16-bit signed integer PCM ... By default, you get 44.1 kilohertz sample rate."
final class AudioDataOutputTests: CaptureTestCase {
    private func makeAudioSession(collector: FrameCollector) throws -> (AVCaptureSession, AVCaptureAudioDataOutput) {
        let (session, output) = try makeAudioSession(microphone: microphone, collector: collector)
        return (session, output)
    }

    func testAudioIsInterleaved16BitPCMAt44100HzContiguousAndInOrder() throws {
        let collector = FrameCollector()
        let (session, _) = try makeAudioSession(collector: collector)
        useManualClock()
        session.startRunning()
        XCTAssertTrue(advanceUntil { collector.audioBuffers.count >= 20 })
        session.stopRunning()
        let buffers = collector.audioBuffers
        let asbd = try XCTUnwrap(CMAudioFormatDescriptionGetStreamBasicDescription(buffers[0].formatDescription!)?.pointee)
        XCTAssertEqual(asbd.mFormatID, kAudioFormatLinearPCM)
        XCTAssertEqual(asbd.mSampleRate, 44_100)
        XCTAssertEqual(asbd.mBitsPerChannel, 16)
        XCTAssertNotEqual(asbd.mFormatFlags & kAudioFormatFlagIsSignedInteger, 0)
        XCTAssertEqual(asbd.mFormatFlags & kAudioFormatFlagIsNonInterleaved, 0)
        XCTAssertEqual(asbd.mFormatFlags & kAudioFormatFlagIsFloat, 0)
        for (earlier, later) in zip(buffers, buffers.dropFirst()) {
            XCTAssertEqual(
                earlier.presentationTimeStamp + CMSampleBufferGetDuration(earlier), later.presentationTimeStamp,
                "samples are contiguous and never reordered")
        }
        let block = try XCTUnwrap(CMSampleBufferGetDataBuffer(buffers[0]))
        XCTAssertEqual(CMBlockBufferGetDataLength(block), CMSampleBufferGetNumSamples(buffers[0]) * Int(asbd.mBytesPerFrame))
        var pointer: UnsafeMutablePointer<CChar>?
        var length = 0
        XCTAssertEqual(
            CMBlockBufferGetDataPointer(block, atOffset: 0, lengthAtOffsetOut: nil, totalLengthOut: &length, dataPointerOut: &pointer), kCMBlockBufferNoErr)
        let samples = UnsafeRawPointer(pointer!).assumingMemoryBound(to: Int16.self)
        let peak = (0..<(length / 2)).map { abs(Int(samples[$0])) }.max() ?? 0
        XCTAssertGreaterThan(peak, 1000, "the virtual microphone hears its tone")
    }

    func testAudioAndVideoShareOneClock() throws {
        let collector = FrameCollector()
        let (session, _) = try makeAudioSession(collector: collector)
        let video = AVCaptureVideoDataOutput()
        video.setSampleBufferDelegate(collector, queue: collector.queue)
        session.beginConfiguration()
        session.sessionPreset = .low
        session.addInput(try AVCaptureDeviceInput(device: backCamera))
        session.addOutput(video)
        session.commitConfiguration()
        useManualClock()
        session.startRunning()
        XCTAssertTrue(advanceUntil { collector.audioBuffers.count >= 5 && collector.frames.count >= 5 })
        session.stopRunning()
        let audioStart = collector.audioBuffers[0].presentationTimeStamp, videoStart = collector.frames[0].presentationTime
        XCTAssertLessThan(abs((audioStart - videoStart).seconds), 0.1, "streams started together are stamped on one clock")
    }

    func testChannelLevelsFollowTheSignal() throws {
        // The AV Foundation Programming Guide, "Showing Audio Levels": poll averagePowerLevel and peakHoldLevel.
        let collector = FrameCollector()
        collector.keepsAudio = false  // holding every buffer would starve the microphone's pool
        let (session, output) = try makeAudioSession(collector: collector)
        let channel = try XCTUnwrap(output.connections.first?.audioChannels.first)
        microphone.virtualScene!.toneAmplitude = 0.5
        useManualClock()
        session.startRunning()
        XCTAssertTrue(advanceUntil { collector.audioBufferCount >= 10 })
        XCTAssertLessThan(channel.averagePowerLevel, 0)
        XCTAssertGreaterThan(channel.averagePowerLevel, -20, "a tone at half scale averages a few dB below -6 dBFS")
        XCTAssertEqual(channel.peakHoldLevel, -6, accuracy: 1.5, "its peaks reach half scale")
        microphone.virtualScene!.toneAmplitude = 0
        passTime(1.3)
        XCTAssertTrue(waitUntil { !session.outputsHaveWorkInFlight })
        XCTAssertLessThan(channel.averagePowerLevel, -100, "silence")
        XCTAssertLessThan(channel.peakHoldLevel, -100, "the peak is held about a second, then falls")
        XCTAssertGreaterThan(collector.audioBufferCount, 60, "audio kept flowing")
        session.stopRunning()
    }

    func testASlowDelegateGetsEveryBufferFromABoundedQueue() throws {
        // WWDC 2010 session 409: "there is no affordance for dropping samples".
        final class Slow: NSObject, AVCaptureAudioDataOutputSampleBufferDelegate, @unchecked Sendable {
            let lock = NSLock()
            var times: [CMTime] = []
            var discontinuities = 0
            func captureOutput(_ output: AVCaptureOutput, didOutput sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection) {
                Thread.sleep(forTimeInterval: 0.03)  // a little slower than the 23 ms a buffer lasts
                let marked = CMGetAttachment(sampleBuffer, key: kCMSampleBufferAttachmentKey_DroppedFrameReason, attachmentModeOut: nil) != nil
                lock.lock(); times.append(sampleBuffer.presentationTimeStamp); if marked { discontinuities += 1 }; lock.unlock()
            }
        }
        // A delegate slower than real time: this test keeps the host clock.
        let slow = Slow()
        let session = AVCaptureSession()
        sessions.append(session)
        session.addInput(try AVCaptureDeviceInput(device: microphone))
        let output = AVCaptureAudioDataOutput()
        output.setSampleBufferDelegate(slow, queue: DispatchQueue(label: "slow"))
        session.addOutput(output)
        session.startRunning()
        spin(1.0)
        session.stopRunning()
        spin(0.6)
        slow.lock.lock(); defer { slow.lock.unlock() }
        XCTAssertGreaterThan(slow.times.count, 30)
        XCTAssertEqual(slow.discontinuities, 0, "a short stall is absorbed by the queue, with nothing lost")
        for (a, b) in zip(slow.times, slow.times.dropFirst()) {
            XCTAssertEqual((b - a).seconds, 1024.0 / 44_100, accuracy: 1e-6)
        }
    }
}
