import MediaToolbox
import XCTest

/// The tap object itself: its creation as Apple's checks it, the initialization callback and the
/// storage it sets, the finalize callback at release, and source audio refused outside a process call.
final class AudioProcessingTapTests: XCTestCase {
    private final class Events: @unchecked Sendable {
        private let lock = NSLock()
        private var list: [String] = []
        func add(_ event: String) { lock.withLock { list.append(event) } }
        var all: [String] { lock.withLock { list } }
    }

    private func callbacks(_ events: Events) -> MTAudioProcessingTapCallbacks {
        MTAudioProcessingTapCallbacks(
            version: kMTAudioProcessingTapCallbacksVersion_0, clientInfo: Unmanaged.passUnretained(events).toOpaque(),
            init: { _, clientInfo, storage in
                storage.pointee = clientInfo
                Unmanaged<Events>.fromOpaque(clientInfo!).takeUnretainedValue().add("init")
            },
            finalize: { tap in Unmanaged<Events>.fromOpaque(MTAudioProcessingTapGetStorage(tap)).takeUnretainedValue().add("finalize") },
            prepare: nil, unprepare: nil,
            process: { tap, frames, _, list, framesOut, flagsOut in
                _ = MTAudioProcessingTapGetSourceAudio(tap, frames, list, flagsOut, nil, framesOut)
            })
    }

    func testCreationCallsInitAndReleaseCallsFinalize() throws {
        let events = Events()
        var callbacks = callbacks(events)
        var tap: MTAudioProcessingTap?
        XCTAssertEqual(MTAudioProcessingTapCreate(nil, &callbacks, kMTAudioProcessingTapCreationFlag_PreEffects, &tap), noErr)
        XCTAssertEqual(events.all, ["init"])
        XCTAssertEqual(MTAudioProcessingTapGetStorage(try XCTUnwrap(tap)), Unmanaged.passUnretained(events).toOpaque())
        tap = nil
        XCTAssertEqual(events.all, ["init", "finalize"])
    }

    func testOlderCodeGetsTheTapRetained() throws {
        let events = Events()
        var callbacks = callbacks(events)
        var tap: Unmanaged<MTAudioProcessingTap>?
        XCTAssertEqual(MTAudioProcessingTapCreate(kCFAllocatorDefault, &callbacks, kMTAudioProcessingTapCreationFlag_PostEffects, &tap), noErr)
        XCTAssertNotNil(tap)
        tap?.release()
        XCTAssertEqual(events.all, ["init", "finalize"])
    }

    func testFlagsAndVersionAreChecked() {
        let events = Events()
        var callbacks = callbacks(events)
        var tap: MTAudioProcessingTap?
        let both = kMTAudioProcessingTapCreationFlag_PreEffects | kMTAudioProcessingTapCreationFlag_PostEffects
        XCTAssertEqual(MTAudioProcessingTapCreate(nil, &callbacks, both, &tap), kMTAudioProcessingTapError_InvalidArgument)
        XCTAssertEqual(MTAudioProcessingTapCreate(nil, &callbacks, 0, &tap), kMTAudioProcessingTapError_InvalidArgument)
        callbacks.version = 7
        XCTAssertEqual(
            MTAudioProcessingTapCreate(nil, &callbacks, kMTAudioProcessingTapCreationFlag_PreEffects, &tap), kMTAudioProcessingTapError_InvalidArgument)
        XCTAssertNil(tap)
        XCTAssertEqual(events.all, [], "no tap was made, so no callback ran")
    }

    func testSourceAudioOutsideAProcessCallIsRefused() throws {
        let events = Events()
        var callbacks = callbacks(events)
        var made: MTAudioProcessingTap?
        XCTAssertEqual(MTAudioProcessingTapCreate(nil, &callbacks, kMTAudioProcessingTapCreationFlag_PreEffects, &made), noErr)
        let tap = try XCTUnwrap(made)
        let list = AudioBufferList.allocate(maximumBuffers: 1)
        defer { free(list.unsafeMutablePointer) }
        var frames: CMItemCount = 0
        XCTAssertEqual(MTAudioProcessingTapGetSourceAudio(tap, 16, list.unsafeMutablePointer, nil, nil, &frames), kMTAudioProcessingTapError_NotInProcess)
    }
}
