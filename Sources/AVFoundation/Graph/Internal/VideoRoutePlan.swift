import CaptureDevices
import CoreMedia

/// What a camera's route is set to for the outputs connected to it: the stream the device starts
/// with, the conversions made from it, and which of them each connection takes (`StreamPlan`'s
/// rules, turned into the route's and the backend's terms).
struct VideoRoutePlan {
    /// The stream the device is asked for.
    var configuration: VideoStreamConfiguration
    /// One target a connection, in the connections' order.
    var targets: [DeviceRoute.Target]
    /// The conversions the targets refer to by index.
    var conversions: [DeviceRoute.Conversion]

    /// Plans `device`'s route for `connections` (each with an output): the preset's format is made
    /// active first, unless the preset is `.inputPriority`; `paced` streams at the frame rate, the
    /// device's own or `frameDurationOverride` when that is a positive time.
    static func plan(
        device: AVCaptureDevice, connections: [AVCaptureConnection], preset: AVCaptureSession.Preset, paced: Bool,
        frameDurationOverride: CMTime = .invalid
    ) -> VideoRoutePlan {
        if preset != .inputPriority, let index = preset.formatIndex(for: device) {
            device.setActiveFormat(index: index, byClient: false)
        }
        let format = device.activeFormat
        let plan = StreamPlan.video(
            format: .init(width: Int(format.dimensions.width), height: Int(format.dimensions.height)),
            nativePixelFormat: format.backing.pixelFormat, photoPreset: preset == .photo,
            connections: connections.map { .init(demand: $0.output!.demand, orientation: $0.pixelOrientation) })
        let conversions = plan.conversions.map { planned in
            let conversion = DeviceRoute.Conversion(
                pixelFormat: planned.pixelFormat, orientation: planned.orientation, size: planned.size.map { ($0.width, $0.height) })
            conversion.capacity = planned.capacity
            return conversion
        }
        let targets = zip(connections, plan.conversionIndices).map { DeviceRoute.Target(connection: $0, output: $0.output!, conversion: $1) }
        let exact = frameDurationOverride.isNumeric && frameDurationOverride.seconds > 0 ? frameDurationOverride : device.activeVideoMinFrameDuration
        let duration = exact.convertScale(1_000_000_000, method: .default).value
        var configuration = VideoStreamConfiguration(
            width: plan.size.width, height: plan.size.height, pixelFormat: plan.pixelFormat,
            frameDurationNanoseconds: duration, bufferCount: plan.bufferCount, isPaced: paced)
        configuration.sourceCode = format.backing.sourceCode
        if exact.isNumeric { configuration.frameDurationFraction = (exact.value, exact.timescale) }
        return VideoRoutePlan(configuration: configuration, targets: targets, conversions: conversions)
    }
}
