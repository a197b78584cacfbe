import AVFAudio
import TestSupport
import XCTest

/// Speech from espeak-ng: written to buffers (as fast as it is made), and spoken where no sound
/// server runs (in real time: a sentence of about a second, waited for up to ten).
final class SpeechSynthesizerTests: XCTestCase {
    private final class Listener: NSObject, AVSpeechSynthesizerDelegate, @unchecked Sendable {
        private let lock = NSLock()
        private var log: [String] = []
        private var words: [String] = []
        var events: [String] { lock.withLock { log } }
        var spoken: [String] { lock.withLock { words } }
        func speechSynthesizer(_ synthesizer: AVSpeechSynthesizer, didStart utterance: AVSpeechUtterance) { lock.withLock { log.append("start") } }
        func speechSynthesizer(_ synthesizer: AVSpeechSynthesizer, didFinish utterance: AVSpeechUtterance) { lock.withLock { log.append("finish") } }
        func speechSynthesizer(_ synthesizer: AVSpeechSynthesizer, didCancel utterance: AVSpeechUtterance) { lock.withLock { log.append("cancel") } }
        func speechSynthesizer(_ synthesizer: AVSpeechSynthesizer, didPause utterance: AVSpeechUtterance) { lock.withLock { log.append("pause") } }
        func speechSynthesizer(_ synthesizer: AVSpeechSynthesizer, didContinue utterance: AVSpeechUtterance) { lock.withLock { log.append("continue") } }
        func speechSynthesizer(_ synthesizer: AVSpeechSynthesizer, willSpeakRangeOfSpeechString characterRange: NSRange, utterance: AVSpeechUtterance) {
            let word = (utterance.speechString as NSString).substring(with: characterRange)
            lock.withLock { words.append(word) }
        }
    }

    override func setUpWithError() throws {
        try XCTSkipIf(AVSpeechSynthesizer.speechProblem != nil, "espeak-ng is not installed: scripts/install-deps.sh")
        setenv("PULSE_SERVER", "unix:/nonexistent/pulse", 1)
    }

    override func tearDown() { unsetenv("PULSE_SERVER") }

    /// The samples an utterance is written as, and the buffers' format.
    private func write(_ utterance: AVSpeechUtterance, with synthesizer: AVSpeechSynthesizer = AVSpeechSynthesizer()) -> (
        samples: [Float], format: AVAudioFormat?
    ) {
        let lock = NSLock()
        var samples: [Float] = []
        var format: AVAudioFormat?
        var ended = false
        synthesizer.write(utterance) { buffer in
            guard let pcm = buffer as? AVAudioPCMBuffer else { return }
            lock.withLock {
                format = pcm.format
                if pcm.frameLength == 0 { ended = true }
                samples += (0..<Int(pcm.frameLength)).map { pcm.floatChannelData![0][$0] }
            }
        }
        XCTAssertTrue(waitUntil(timeout: 10) { lock.withLock { ended } }, "an empty buffer ends the utterance")
        return lock.withLock { (samples, format) }
    }

    func testVoicesAreFoundByLanguage() throws {
        XCTAssertFalse(AVSpeechSynthesisVoice.speechVoices().isEmpty)
        let english = try XCTUnwrap(AVSpeechSynthesisVoice(language: "en-US"))
        XCTAssertTrue(english.language.hasPrefix("en"), english.language)
        XCTAssertEqual(AVSpeechSynthesisVoice(identifier: english.identifier)?.name, english.name)
        XCTAssertNotNil(AVSpeechSynthesisVoice(language: "fr-FR"), "French by its language")
        XCTAssertNil(AVSpeechSynthesisVoice(language: "xx-XX"))
        XCTAssertNil(AVSpeechSynthesisVoice(identifier: "no such voice"))
    }

    func testAnUtteranceIsWrittenToBuffersAndTheRateSetsItsLength() throws {
        let utterance = AVSpeechUtterance(string: "The quick brown fox jumps over the lazy dog.")
        utterance.voice = AVSpeechSynthesisVoice(language: "en-US")
        let normal = write(utterance)
        let format = try XCTUnwrap(normal.format)
        XCTAssertEqual(format.sampleRate, 22_050, "espeak-ng's rate")
        XCTAssertEqual(format.channelCount, 1)
        let seconds = Double(normal.samples.count) / format.sampleRate
        XCTAssertGreaterThan(seconds, 1.5, "nine words take a while to say")
        XCTAssertLessThan(seconds, 6)
        XCTAssertGreaterThan(Tones.rms(normal.samples), 0.02, "speech, not silence")
        let fast = AVSpeechUtterance(string: utterance.speechString)
        fast.voice = utterance.voice
        fast.rate = AVSpeechUtteranceMaximumSpeechRate
        XCTAssertLessThan(Double(write(fast).samples.count), Double(normal.samples.count) * 0.6, "the fastest rate says it in well under the time")
        let quiet = AVSpeechUtterance(string: utterance.speechString)
        quiet.voice = utterance.voice
        quiet.volume = 0.5
        XCTAssertEqual(Tones.rms(write(quiet).samples) / Tones.rms(normal.samples), 0.5, accuracy: 0.01, "half the volume")
        let delayed = AVSpeechUtterance(string: "Hello.")
        delayed.preUtteranceDelay = 0.5
        let withDelay = write(delayed).samples
        XCTAssertEqual(Tones.rms(Array(withDelay.prefix(11_000))), 0, "half a second of silence first")
    }

    func testSpeakingTellsTheDelegateEachWordAndTheEnd() throws {
        let synthesizer = AVSpeechSynthesizer()
        let listener = Listener()
        synthesizer.delegate = listener
        let utterance = AVSpeechUtterance(string: "Hello brave new world")
        utterance.rate = 0.7
        synthesizer.speak(utterance)
        XCTAssertTrue(synthesizer.isSpeaking)
        XCTAssertTrue(waitUntil(timeout: 10) { listener.events.contains("finish") }, "\(listener.events)")
        XCTAssertEqual(listener.events, ["start", "finish"])
        XCTAssertEqual(listener.spoken, ["Hello", "brave", "new", "world"], "each word's range in the text")
        XCTAssertFalse(synthesizer.isSpeaking)
    }

    func testStoppingCancelsWhatIsSpokenAndQueued() throws {
        let synthesizer = AVSpeechSynthesizer()
        let listener = Listener()
        synthesizer.delegate = listener
        synthesizer.speak(AVSpeechUtterance(string: "This sentence is long enough to be stopped before it ends, many words from now."))
        synthesizer.speak(AVSpeechUtterance(string: "And this one never starts."))
        XCTAssertTrue(waitUntil(timeout: 10) { listener.spoken.count >= 2 })
        XCTAssertTrue(synthesizer.pauseSpeaking(at: .word))
        XCTAssertTrue(waitUntil(timeout: 10) { listener.events.contains("pause") })
        XCTAssertTrue(synthesizer.isPaused)
        let heard = listener.spoken.count
        Thread.sleep(forTimeInterval: 0.3)
        XCTAssertEqual(listener.spoken.count, heard, "no word while paused")
        XCTAssertTrue(synthesizer.continueSpeaking())
        XCTAssertTrue(synthesizer.stopSpeaking(at: .immediate))
        XCTAssertTrue(waitUntil(timeout: 10) { !synthesizer.isSpeaking })
        XCTAssertTrue(drainMainQueue())
        XCTAssertEqual(listener.events.filter { $0 == "cancel" }.count, 2, "both utterances cancelled: \(listener.events)")
        XCTAssertFalse(listener.events.contains("finish"))
        XCTAssertFalse(synthesizer.stopSpeaking(at: .immediate), "nothing left to stop")
    }
}
