import AVFoundation
import CBenchmarkSupport
import Foundation
import Synchronization

/// The engine's render thread in steady state, running in real time: a player looping a buffer
/// and one reading a 48 kHz stereo file, a source node's tone, a mixer, volume and pan, and a tap,
/// first alone and then with an equaliser and a reverb (FFmpeg's filters) after the looping
/// player. A source node marks the render thread, whose heap allocations and pthread lock calls
/// are counted by the benchmark's stand-ins for the C allocator and pthread's locks; its CPU time
/// per cycle is set against the cycle's length.
enum RenderThreadBenchmark {
    static func run() throws {
        print("")
        print("The engine's render thread in steady state (real time, 512-frame cycles at 48 kHz, no sound server: the host clock paces it):")
        try BenchmarkMusic.with(seconds: 30, name: "render-thread") { _, source in
            try measure(source, effects: false)
            try measure(source, effects: true)
        }
    }

    /// What the render thread does once its source node has marked it.
    private final class Marks: @unchecked Sendable {
        let cycles = Atomic(0)
        let cpuNanoseconds = Atomic(0)
    }

    private static func measure(_ source: URL, effects: Bool) throws {
        let file = try AVAudioFile(forReading: source)
        let engine = AVAudioEngine()
        let format = AVAudioFormat(standardFormatWithSampleRate: 48_000, channels: 2)!
        let looping = AVAudioPlayerNode(), reading = AVAudioPlayerNode()
        let marks = Marks()
        var phase: Float = 0
        let tone = AVAudioSourceNode(format: AVAudioFormat(standardFormatWithSampleRate: 48_000, channels: 1)!) { _, _, frames, list in
            if marks.cycles.add(1, ordering: .relaxed).newValue == 1 { avbench_mark_current_thread() }
            var spent = timespec()
            clock_gettime(CLOCK_THREAD_CPUTIME_ID, &spent)
            marks.cpuNanoseconds.store(spent.tv_sec * 1_000_000_000 + spent.tv_nsec, ordering: .relaxed)
            let samples = UnsafeMutableAudioBufferListPointer(list)[0].mData!.assumingMemoryBound(to: Float.self)
            for frame in 0..<Int(frames) {
                samples[frame] = 0.1 * sin(phase)
                phase += 0.05
            }
            return 0
        }
        for node in [looping, reading, tone] as [AVAudioNode] { engine.attach(node) }
        if effects {
            let eq = AVAudioUnitEQ(numberOfBands: 1), reverb = AVAudioUnitReverb()
            AudioEngineBenchmark.configure(eq)
            AudioEngineBenchmark.configure(reverb)
            engine.attach(eq)
            engine.attach(reverb)
            engine.connect(looping, to: eq, format: format)
            engine.connect(eq, to: reverb, format: format)
            engine.connect(reverb, to: engine.mainMixerNode, format: format)
        } else {
            engine.connect(looping, to: engine.mainMixerNode, format: format)
        }
        engine.connect(reading, to: engine.mainMixerNode, format: file.processingFormat)
        engine.connect(tone, to: engine.mainMixerNode, format: nil)
        looping.volume = 0.5
        tone.pan = -0.5
        engine.mainMixerNode.installTap(onBus: 0, bufferSize: 4096, format: nil) { _, _ in }
        let loop = AVAudioPCMBuffer(pcmFormat: format, frameCapacity: 12_000)!
        try file.read(into: loop)
        file.framePosition = 0
        looping.scheduleBuffer(loop, at: nil, options: .loops)
        reading.scheduleFile(file, at: nil)
        try engine.start()
        looping.play()
        reading.play()
        // A second to settle, then five counted.
        Thread.sleep(forTimeInterval: 1)
        let (cycles0, cpu0) = (marks.cycles.load(ordering: .relaxed), marks.cpuNanoseconds.load(ordering: .relaxed))
        let (allocations0, locks0) = (avbench_marked_thread_allocation_count(), avbench_marked_thread_lock_count())
        Thread.sleep(forTimeInterval: 5)
        let (cycles1, cpu1) = (marks.cycles.load(ordering: .relaxed), marks.cpuNanoseconds.load(ordering: .relaxed))
        let (allocations1, locks1) = (avbench_marked_thread_allocation_count(), avbench_marked_thread_lock_count())
        engine.stop()
        let cycles = max(1, cycles1 - cycles0)
        let budget = 512.0 / 48_000 * 1e6
        let cpu = Double(cpu1 - cpu0) / 1e3 / Double(cycles)
        print(
            String(
                format: "  %@: %d cycles, %.2f allocations and %.2f lock calls a cycle on the render thread, CPU %.0f µs a cycle (%.1f %% of its %.0f µs)",
                effects ? "with an equaliser and a reverb (FFmpeg)" : "players, source, mixer, tap", cycles,
                Double(allocations1 - allocations0) / Double(cycles),
                Double(locks1 - locks0) / Double(cycles), cpu, 100 * cpu / budget, budget))
    }
}
