// Measures the frame path and compares it with GStreamer doing the same work in the same run.
//
//     swift run -c release avbench [case ...] [seconds-per-case]
import AVFoundation
import CBenchmarkSupport
import Foundation

let arguments = Array(CommandLine.arguments.dropFirst())
/// Whether this process is the frame case's child that measures the session on one core.
let isOneCoreChild = arguments.first == "one-core"
if isOneCoreChild {
    // The frame case's child: every thread started from here on inherits the main thread's core.
    guard avbench_pin_current_thread(0) == 0 else { fatalError("cannot hold the process on one core") }
}
// Allocations called from the media libraries' code (FFmpeg's, x264's, libyuv's) are counted apart from the rest.
avbench_find_codec_libraries()
let secondsPerCase = arguments.compactMap(Double.init).first ?? 4
let chosen = Set(arguments.filter { Double($0) == nil })
func runs(_ name: String) -> Bool { chosen.isEmpty || chosen.contains(name) }

/// The virtual back camera and microphone, which the frame path and recording cases measure whatever hardware exists.
let virtualCamera = AVCaptureDevice(uniqueID: "virtual:camera:back")!
let virtualMicrophone = AVCaptureDevice(uniqueID: "virtual:microphone")!

func cpuSeconds() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6 + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
}

func now() -> Double { Double(CMClock.hostTimeNanoseconds()) / 1e9 }

if isOneCoreChild {
    try FrameBenchmark.runOnOneCore()
    exit(0)
}
if arguments.first == "cameras-child" {
    try ManyCamerasBenchmark.runChild(arguments: arguments)
    exit(0)
}
if arguments.first == "facestart-child", arguments.count > 1 {
    try FaceStartBenchmark.runChild(picture: arguments[1])
    exit(0)
}
if runs("frames") { try FrameBenchmark.run() }
if runs("encode") { try EncodeBenchmark.run() }
if runs("vtcodec") { try CodecSessionBenchmark.run() }
if chosen.contains("v4l2") { try V4L2Benchmark.run(seconds: secondsPerCase) }
if runs("pipewire") { try PipeWireBenchmark.run(seconds: secondsPerCase) }
if runs("mjpeg") { try MJPEGBenchmark.run(seconds: secondsPerCase) }
if runs("rotate") { try RotateBenchmark.run(seconds: secondsPerCase) }
if runs("images") { try ImageBenchmark.run(seconds: secondsPerCase) }
if runs("heics") { try HEIFSequenceBenchmark.run() }
if runs("coreimage") { try CoreImageBenchmark.run() }
if runs("coreimagechain") { try CoreImageChainBenchmark.run() }
if runs("photopanel") { try CoreImagePhotoPanelBenchmark.run() }
// Thumbnails make a 10-minute movie the first time: only when asked for.
if chosen.contains("thumbnails") { try ThumbnailBenchmark.run() }
// Timed metadata makes a 10-minute stream the first time: only when asked for.
if chosen.contains("timedmetadata") { try TimedMetadataBenchmark.run() }
if runs("liveview-jpeg") { try LiveViewJPEGBenchmark.run(seconds: secondsPerCase) }
if runs("photo") { try PhotoBenchmark.run(seconds: secondsPerCase) }
if runs("livephoto") { try LivePhotoBenchmark.run(seconds: secondsPerCase) }
if runs("scan") { try ScanBenchmark.run(seconds: secondsPerCase) }
if runs("faces") { try FaceRecallBenchmark.run() }
if runs("facestart") { try FaceStartBenchmark.run() }
if runs("scancorpus") { try ScanCorpusBenchmark.run() }
if runs("startup") { try StartupBenchmark.run() }
if runs("stream") { try StreamLatencyBenchmark.run() }
if runs("export") { try ExportBenchmark.run() }
if runs("composition") { try CompositionBenchmark.run() }
if runs("reader") { try ReaderBenchmark.run() }
if runs("screen") { try ScreenBenchmark.run() }
if runs("hls") { try SegmentBenchmark.run() }
if runs("clap") { try CleanApertureBenchmark.run() }
if runs("pixeltransfer") { PixelTransferBenchmark.run(seconds: secondsPerCase) }
if runs("liveview") { LiveViewBrowserBenchmark.run(seconds: secondsPerCase) }
if runs("stretch") { try StretchBenchmark.run() }
if runs("audiofile") { try AudioFileBenchmark.run() }
if runs("engine") { try AudioEngineBenchmark.run() }
if runs("renderthread") { try RenderThreadBenchmark.run() }
// Input latency starts a private PulseAudio server: only when asked for.
if chosen.contains("inputlatency") { try InputLatencyBenchmark.run() }
if runs("play") { try PlayBenchmark.run() }
if runs("window") { try WindowBenchmark.run() }
// Also part of "window"; on its own when named.
if chosen.contains("window-allocations") { try WindowBenchmark.runAllocations() }
// Many cameras at once takes a minute or more and both cores: only when asked for.
if chosen.contains("cameras") { try ManyCamerasBenchmark.run(seconds: secondsPerCase != 4 ? secondsPerCase : 10) }
if runs("record") { try RecordBenchmark.run(seconds: chosen.contains("record") && secondsPerCase != 4 ? secondsPerCase : 60) }
