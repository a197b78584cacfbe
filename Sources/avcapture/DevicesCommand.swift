import ArgumentParser
import AVFoundation
import Foundation

/// `avcapture devices`: every device with its formats and controls, like `v4l2-ctl --list-formats-ext`.
struct Devices: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "devices",
        abstract: "List capture devices with their formats, frame rates and controls.")

    func run() throws {
        let devices = AVCaptureDevice.devices()
        if devices.isEmpty { print("No capture devices.") }
        for device in devices {
            print(DeviceListing.describe(device))
        }
    }
}

enum DeviceListing {
    static func fourCC(_ code: OSType) -> String {
        let bytes = [24, 16, 8, 0].map { UInt8((code >> $0) & 0xFF) }
        return bytes.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) ? String(decoding: bytes, as: UTF8.self) : String(code)
    }

    static func describe(_ device: AVCaptureDevice) -> String {
        var lines: [String] = []
        let media = device.hasMediaType(.video) ? "video" : "audio"
        let position = ["unspecified", "back", "front"][device.position.rawValue]
        lines.append("\(device.localizedName) (\(device.uniqueID))")
        lines.append(
            "    Type: \(device.deviceType.rawValue.replacingOccurrences(of: "AVCaptureDeviceType", with: "")), position: \(position), media: \(media), model: \(device.modelID)"
        )
        if media == "audio" {
            // Ports belong to their input: keep the input while reading its port.
            if let input = try? AVCaptureDeviceInput(device: device), let asbd = input.ports.first?.formatDescription?.audioStreamBasicDescription {
                let channels = asbd.mChannelsPerFrame == 1 ? "mono" : asbd.mChannelsPerFrame == 2 ? "stereo" : "\(asbd.mChannelsPerFrame) channels"
                lines.append("    Format: \(asbd.mBitsPerChannel)-bit signed interleaved PCM, \(Int(asbd.mSampleRate)) Hz, \(channels)")
            }
            return lines.joined(separator: "\n") + "\n"
        }
        lines.append("    Formats (session presets choose among these; * marks the active one):")
        for (index, format) in device.formats.enumerated() {
            let dims = format.formatDescription.dimensions
            let active = format == device.activeFormat ? "*" : " "
            lines.append("       \(active)[\(index)]: '\(fourCC(format.formatDescription.mediaSubType.rawValue))' \(dims.width)x\(dims.height)")
            for range in format.videoSupportedFrameRateRanges {
                lines.append(
                    String(
                        format: "            Frame rates: %.3f-%.3f fps (interval %.3fs-%.3fs)", range.minFrameRate, range.maxFrameRate,
                        range.minFrameDuration.seconds, range.maxFrameDuration.seconds))
            }
            lines.append(
                String(
                    format: "            Field of view: %.2f deg%@%@, zoom up to %.1fx (upscaling above %.2fx), ISO %.0f-%.0f",
                    format.videoFieldOfView, format.isVideoBinned ? ", binned" : "",
                    format.isVideoStabilizationSupported ? ", stabilization" : "",
                    Double(format.videoMaxZoomFactor), Double(format.videoZoomFactorUpscaleThreshold), format.minISO, format.maxISO))
        }
        let presets = AVCaptureSession.Preset.allKnown.filter { $0 != .inputPriority && device.supportsSessionPreset($0) }
        lines.append("    Presets: " + presets.map { $0.rawValue.replacingOccurrences(of: "AVCaptureSessionPreset", with: "") }.joined(separator: " "))
        lines.append("    Controls:")
        let focus = [("locked", AVCaptureDevice.FocusMode.locked), ("autoFocus", .autoFocus), ("continuousAutoFocus", .continuousAutoFocus)]
            .filter { device.isFocusModeSupported($0.1) }.map(\.0)
        lines.append(
            "        focus: \(focus.joined(separator: " ")) [now \(device.focusMode)]\(device.isFocusPointOfInterestSupported ? ", point of interest" : "")\(device.isSmoothAutoFocusSupported ? ", smooth" : "")\(device.isAutoFocusRangeRestrictionSupported ? ", range restriction" : "")"
        )
        let exposure = [
            ("locked", AVCaptureDevice.ExposureMode.locked), ("autoExpose", .autoExpose), ("continuousAutoExposure", .continuousAutoExposure),
            ("custom", .custom),
        ]
        .filter { device.isExposureModeSupported($0.1) }.map(\.0)
        lines.append(
            "        exposure: \(exposure.joined(separator: " ")) [now \(device.exposureMode)], bias \(device.minExposureTargetBias)...\(device.maxExposureTargetBias) EV"
        )
        let balance = [
            ("locked", AVCaptureDevice.WhiteBalanceMode.locked), ("autoWhiteBalance", .autoWhiteBalance),
            ("continuousAutoWhiteBalance", .continuousAutoWhiteBalance),
        ]
        .filter { device.isWhiteBalanceModeSupported($0.1) }.map(\.0)
        lines.append("        white balance: \(balance.joined(separator: " ")) [now \(device.whiteBalanceMode)], gains up to \(device.maxWhiteBalanceGain)")
        lines.append("        flash: \(device.hasFlash ? "off on auto" : "none"); torch: \(device.hasTorch ? "off on auto, levels to 1.0" : "none")")
        lines.append(String(format: "        zoom: 1.0-%.1fx, ramps in powers of two per second", Double(device.activeFormat.videoMaxZoomFactor)))
        return lines.joined(separator: "\n") + "\n"
    }
}
