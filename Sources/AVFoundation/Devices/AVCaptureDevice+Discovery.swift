import CaptureDevices
import Foundation

/// Every device the process knows, one object per device.
///
/// A kind of device (cameras, microphones) is looked for the first time it is asked for, so a
/// program that only uses a camera never loads a sound library, nor one that only records sound a
/// camera library.
package enum DeviceDirectory {
    private struct State {
        var cache: [String: DeviceCore] = [:]
        /// The kinds whose backends have been asked and are followed as devices come and go.
        var listening: Set<CaptureMediaKind> = []
        /// Devices whose arrival is known: those present at the first look, and those announced since.
        var announced: Set<String> = []

        /// The devices of a kind (of every kind for nil), one object per device, made the first time each is seen.
        mutating func devices(of kind: CaptureMediaKind?) -> [AVCaptureDevice] {
            DeviceRegistry.backends(of: kind).map { backend in
                if let core = cache[backend.descriptor.uniqueID] { return core.device }
                let core = DeviceCore(backend: backend)
                cache[backend.descriptor.uniqueID] = core
                return core.device
            }
        }

        /// Starts following the kinds `kind` names that are not followed yet.
        mutating func listen(to kind: CaptureMediaKind?) {
            for kind in kind.map({ [$0] }) ?? [.video, .audio] where !listening.contains(kind) {
                listening.insert(kind)
                announced.formUnion(devices(of: kind).map(\.uniqueID))
                DeviceRegistry.addHotplugListener(for: kind) { DeviceDirectory.announceNewDevices(of: kind) }
            }
        }
    }
    private static let state = LockedValue(State())

    /// The devices, hardware first, in the order defaults prefer them.
    package static var all: [AVCaptureDevice] { devices(of: nil) }

    /// The devices of a kind (of every kind for nil), hardware first, in the order defaults prefer them.
    package static func devices(of kind: CaptureMediaKind?) -> [AVCaptureDevice] {
        state.withLock { state in
            state.listen(to: kind)
            return state.devices(of: kind)
        }
    }

    /// The devices that may capture a media type: cameras for video, microphones for audio, every device otherwise.
    package static func devices(for mediaType: AVMediaType?) -> [AVCaptureDevice] {
        devices(of: mediaType.flatMap(CaptureMediaKind.init(mediaType:)))
    }

    /// The device with a unique identifier: cameras are looked through first, then microphones.
    package static func device(uniqueID: String) -> AVCaptureDevice? {
        for kind in [CaptureMediaKind.video, .audio] {
            if let device = devices(of: kind).first(where: { $0.uniqueID == uniqueID }) { return device }
        }
        return nil
    }

    /// Posts AVCaptureDeviceWasConnected for devices of a kind that arrived since the first look,
    /// once each; a device that leaves and returns is announced by its own reconnection.
    private static func announceNewDevices(of kind: CaptureMediaKind) {
        let arrived = state.withLock { state in
            let arrived = state.devices(of: kind).filter { $0.isConnected && !state.announced.contains($0.uniqueID) }
            state.announced.formUnion(arrived.map(\.uniqueID))
            return arrived
        }
        for device in arrived { MainThreadPoster.post(.AVCaptureDeviceWasConnected, object: device) }
        if arrived.contains(where: { $0.mediaType == .audio }) { AVAudioSession.audioDeviceArrived() }
        if arrived.contains(where: { $0.mediaType == .video }) { AVCaptureDevice.camerasDidChange() }
    }
}

extension CaptureMediaKind {
    /// The kind of device that captures a media type; nil for media no one kind of device captures.
    init?(mediaType: AVMediaType) {
        switch mediaType {
        case .video: self = .video
        case .audio: self = .audio
        default: return nil
        }
    }
}

extension AVCaptureDevice {
    /// The default device for a media type: the first camera for video, the first microphone for audio.
    public class func `default`(for mediaType: AVMediaType) -> AVCaptureDevice? {
        let devices = DeviceDirectory.devices(for: mediaType)
        // The audio session's preferred input, while it is there, is the microphone.
        if mediaType == .audio, let uid = AVAudioSession.sharedInstance().preferredInputUID,
            let preferred = devices.first(where: { $0.uniqueID == uid && $0.isConnected })
        {
            return preferred
        }
        return devices.first { $0.hasMediaType(mediaType) && $0.isConnected }
    }

    /// The default device of a type, for a media type, at a position.
    public class func `default`(_ deviceType: DeviceType, for mediaType: AVMediaType?, position: Position) -> AVCaptureDevice? {
        DiscoverySession(deviceTypes: [deviceType], mediaType: mediaType, position: position).devices.first
    }

    /// Every connected device.
    public class func devices() -> [AVCaptureDevice] {
        DeviceDirectory.all.filter(\.isConnected)
    }

    /// Every connected device that provides a media type.
    public class func devices(for mediaType: AVMediaType) -> [AVCaptureDevice] {
        DeviceDirectory.devices(for: mediaType).filter { $0.isConnected && $0.hasMediaType(mediaType) }
    }

    /// The device with a unique identifier, if it exists.
    public convenience init?(uniqueID deviceUniqueID: String) {
        guard let device = DeviceDirectory.device(uniqueID: deviceUniqueID) else { return nil }
        self.init(core: device.core)
    }

    /// Finds devices by type, media type and position.
    public final class DiscoverySession: NSObject, @unchecked Sendable {
        private let deviceTypes: [DeviceType]
        private let mediaType: AVMediaType?
        private let position: Position

        /// Creates a discovery session for devices of the given types, media type and position.
        public init(deviceTypes: [DeviceType], mediaType: AVMediaType?, position: Position) {
            self.deviceTypes = deviceTypes
            self.mediaType = mediaType
            self.position = position
        }

        /// The matching devices that are connected now, in the order of `deviceTypes`.
        public var devices: [AVCaptureDevice] {
            let types = deviceTypes.map { $0 == .microphone ? DeviceType.builtInMicrophone : $0 }
            let all = DeviceDirectory.devices(of: mediaType.flatMap(CaptureMediaKind.init(mediaType:)) ?? Self.kind(of: types)).filter(\.isConnected)
            var result: [AVCaptureDevice] = []
            for type in types {
                for device in all
                where device.deviceType == type
                    && (mediaType == nil || device.hasMediaType(mediaType!))
                    && (position == .unspecified || device.position == position) && !result.contains(device)
                {
                    result.append(device)
                }
            }
            return result
        }

        /// The one kind of device all of `types` are, if they are one kind: external devices may be either.
        private static func kind(of types: [DeviceType]) -> CaptureMediaKind? {
            if !types.isEmpty, types.allSatisfy({ $0 == .builtInMicrophone }) { return .audio }
            if !types.contains(.builtInMicrophone), !types.contains(.external) { return .video }
            return nil
        }

        /// Sets of capture devices that you can use simultaneously in a multi-camera session: every
        /// set of two or more of the session's cameras whose smallest multi-camera formats the
        /// machine can take at once (`AVCaptureMultiCamSession.hardwareCost` at most 1.0).
        public var supportedMultiCamDeviceSets: [Set<AVCaptureDevice>] {
            // Each camera's cheapest format, at its highest frame rate.
            let cameras = devices.filter { $0.hasMediaType(.video) }.prefix(12).compactMap { device -> (AVCaptureDevice, Double)? in
                device.formats.filter(\.isMultiCamSupported).map { MultiCamBudget.pixelsPerSecond(of: $0) }.min().map { (device, $0) }
            }
            guard cameras.count >= 2 else { return [] }
            var sets: [Set<AVCaptureDevice>] = []
            for mask in 1..<(1 << cameras.count) where mask.nonzeroBitCount >= 2 {
                let members = cameras.indices.filter { mask & (1 << $0) != 0 }
                guard members.reduce(0, { $0 + cameras[$1].1 }) <= MultiCamBudget.pixelsPerSecond else { continue }
                sets.append(Set(members.map { cameras[$0].0 }))
            }
            return sets
        }
    }

    /// Whether the application may capture a media type.
    public class func authorizationStatus(for mediaType: AVMediaType) -> AVAuthorizationStatus {
        let devices = DeviceDirectory.devices(for: mediaType).filter { $0.hasMediaType(mediaType) }
        guard !devices.isEmpty else { return .authorized }
        return devices.contains(where: { !$0.backend.isAuthorized }) ? .denied : .authorized
    }

    /// Asks for permission to capture a media type; the handler runs on an arbitrary queue.
    public class func requestAccess(for mediaType: AVMediaType, completionHandler handler: @escaping @Sendable (Bool) -> Void) {
        let granted = authorizationStatus(for: mediaType) == .authorized
        DispatchQueue.global().async { handler(granted) }
    }

    /// Asks for permission to capture a media type.
    public class func requestAccess(for mediaType: AVMediaType) async -> Bool {
        authorizationStatus(for: mediaType) == .authorized
    }
}
