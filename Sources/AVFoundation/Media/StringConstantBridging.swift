import CoreVideo
import Foundation

// Apple's string-backed constant types bridge to NSString.
extension AVMediaType: _StringConstantBridging {}
extension AVFileType: _StringConstantBridging {}
extension AVVideoCodecType: _StringConstantBridging {}
extension AVMetadataKey: _StringConstantBridging {}
extension AVMetadataKeySpace: _StringConstantBridging {}
extension AVMetadataIdentifier: _StringConstantBridging {}
extension AVOutputSettingsPreset: _StringConstantBridging {}
extension AVCaptureSession.Preset: _StringConstantBridging {}
extension AVCaptureDevice.DeviceType: _StringConstantBridging {}
extension AVAudioSession.Category: _StringConstantBridging {}
extension AVAudioSession.Mode: _StringConstantBridging {}
extension AVAudioSession.Port: _StringConstantBridging {}
