import CaptureDevices
import CoreVideo
import Foundation

/// Information about an audio input or output port.
open class AVAudioSessionPortDescription: NSObject, @unchecked Sendable {
    /// The kind of port: built-in microphone, USB audio, line in, ...
    public let portType: AVAudioSession.Port
    /// A name for the port, for display.
    public let portName: String
    /// A unique identifier for the port: the unique ID of the capture device it stands for.
    public let uid: String
    /// The port's data sources, such as a phone's several microphones; Linux describes none.
    public var dataSources: [AVAudioSessionDataSourceDescription]? { nil }
    /// The data source the port uses; nil where it has none.
    public var selectedDataSource: AVAudioSessionDataSourceDescription? { nil }
    /// The data source the application prefers; nil where it has none.
    public var preferredDataSource: AVAudioSessionDataSourceDescription? { nil }

    /// Chooses the port's data source: nil (none) is taken; any other is refused, since the port has none.
    open func setPreferredDataSource(_ dataSource: AVAudioSessionDataSourceDescription?) throws {
        guard dataSource == nil else { throw AVAudioSession.error(.badParam) }
    }
    /// The port's channels.
    public let channels: [AVAudioSessionChannelDescription]?

    package init(backend: CaptureDeviceBackend) {
        let (uniqueID, name) = (backend.descriptor.uniqueID, backend.descriptor.localizedName)
        uid = uniqueID
        portName = name
        portType = Self.inputPortType(uniqueID: uniqueID, name: name)
        let count = Int(backend.audioFormat?.mChannelsPerFrame ?? 1)
        channels = (0..<count).map {
            AVAudioSessionChannelDescription(channelName: "\(name) \($0 + 1)", channelNumber: $0 + 1, owningPortUID: uniqueID)
        }
    }

    package init(output: SoundOutputPort) {
        uid = output.name
        portName = output.description
        portType = Self.outputPortType(output)
        channels = (0..<output.channels).map {
            AVAudioSessionChannelDescription(channelName: "\(output.description) \($0 + 1)", channelNumber: $0 + 1, owningPortUID: output.name)
        }
    }

    /// The port type of the output a sink plays to, from the kind the sound server's facts make it.
    package static func outputPortType(_ output: SoundOutputPort) -> AVAudioSession.Port {
        switch output.kind {
        case .bluetoothA2DP: .bluetoothA2DP
        case .bluetoothLE: .bluetoothLE
        case .bluetoothHFP: .bluetoothHFP
        case .airPlay: .airPlay
        case .virtual: .virtual
        case .usbAudio: .usbAudio
        case .builtInSpeaker: .builtInSpeaker
        case .headphones: .headphones
        case .builtInReceiver: .builtInReceiver
        case .HDMI: .HDMI
        case .displayPort: .displayPort
        case .carAudio: .carAudio
        case .lineOut: .lineOut
        }
    }

    /// The kind of input a microphone is, from the names sound servers and ALSA give devices
    /// (`bluez_input.…handsfree_head_unit`, `alsa_input.usb-…`, `…analog-input-headset-mic`,
    /// `…hdmi…`): Bluetooth, USB, a headset's microphone, line in, HDMI, or else built in.
    package static func inputPortType(uniqueID: String, name: String) -> AVAudioSession.Port {
        let names = (uniqueID + " " + name).lowercased()
        if names.contains("bluez") || names.contains("bluetooth") {
            return names.contains("a2dp") ? .bluetoothA2DP : names.contains("le_audio") || names.contains("bap") ? .bluetoothLE : .bluetoothHFP
        }
        if names.contains("usb") { return .usbAudio }
        if names.contains("hdmi") { return .HDMI }
        if names.contains("displayport") { return .displayPort }
        if names.contains("headset") { return .headsetMic }
        if names.contains("line") { return .lineIn }
        return .builtInMic
    }

    /// Whether two descriptions name the same port.
    open override func isEqual(_ object: Any?) -> Bool { (object as? AVAudioSessionPortDescription)?.uid == uid }
    /// A hash of the port's identity.
    open override var hash: Int { uid.hashValue }
}

/// One channel of an audio port.
open class AVAudioSessionChannelDescription: NSObject, @unchecked Sendable {
    /// The channel's name.
    public let channelName: String
    /// The channel's number within its port, from 1.
    public let channelNumber: Int
    /// The unique identifier of the port the channel belongs to.
    public let owningPortUID: String

    init(channelName: String, channelNumber: Int, owningPortUID: String) {
        self.channelName = channelName
        self.channelNumber = channelNumber
        self.owningPortUID = owningPortUID
    }
}

/// A data source of an audio port, such as one of a phone's microphones.
open class AVAudioSessionDataSourceDescription: NSObject, @unchecked Sendable {
    /// The data source's identifier.
    public let dataSourceID: NSNumber
    /// The data source's name.
    public let dataSourceName: String

    /// Where on the device the data source is; nil when not known.
    public let location: AVAudioSession.Location?
    /// Which way the data source faces; nil when not known.
    public let orientation: AVAudioSession.Orientation?
    /// The polar patterns the data source can take; nil when it cannot be directed.
    public let supportedPolarPatterns: [AVAudioSession.PolarPattern]?
    /// The polar pattern the data source uses; nil when it cannot be directed.
    public private(set) var selectedPolarPattern: AVAudioSession.PolarPattern?
    /// The polar pattern the application prefers; nil when it prefers none.
    public private(set) var preferredPolarPattern: AVAudioSession.PolarPattern?

    init(
        dataSourceID: NSNumber, dataSourceName: String, location: AVAudioSession.Location? = nil, orientation: AVAudioSession.Orientation? = nil,
        supportedPolarPatterns: [AVAudioSession.PolarPattern]? = nil
    ) {
        self.dataSourceID = dataSourceID
        self.dataSourceName = dataSourceName
        self.location = location
        self.orientation = orientation
        self.supportedPolarPatterns = supportedPolarPatterns
        selectedPolarPattern = supportedPolarPatterns?.first
    }

    /// Chooses a polar pattern among the supported ones (nil: the default); others are refused.
    open func setPreferredPolarPattern(_ pattern: AVAudioSession.PolarPattern?) throws {
        guard let pattern else {
            preferredPolarPattern = nil
            selectedPolarPattern = supportedPolarPatterns?.first
            return
        }
        guard supportedPolarPatterns?.contains(pattern) == true else { throw AVAudioSession.error(.badParam) }
        preferredPolarPattern = pattern
        selectedPolarPattern = pattern
    }
}

extension AVAudioSession {
    /// Where a data source is on a device.
    public struct Location: RawRepresentable, Hashable, Sendable {
        /// The value's raw representation.
        public let rawValue: String
        /// Creates a value from its raw representation.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The lower part of the device.
        public static let lower = Location(rawValue: "Lower")
        /// The upper part of the device.
        public static let upper = Location(rawValue: "Upper")
    }

    /// Which way a data source faces.
    public struct Orientation: RawRepresentable, Hashable, Sendable {
        /// The value's raw representation.
        public let rawValue: String
        /// Creates a value from its raw representation.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// Up, from the top of the device.
        public static let top = Orientation(rawValue: "Top")
        /// Down, from the bottom of the device.
        public static let bottom = Orientation(rawValue: "Bottom")
        /// Out of the front of the device.
        public static let front = Orientation(rawValue: "Front")
        /// Out of the back of the device.
        public static let back = Orientation(rawValue: "Back")
        /// To the left of the device.
        public static let left = Orientation(rawValue: "Left")
        /// To the right of the device.
        public static let right = Orientation(rawValue: "Right")
    }

    /// A data source's polar pattern: the directions it hears from.
    public struct PolarPattern: RawRepresentable, Hashable, Sendable {
        /// The value's raw representation.
        public let rawValue: String
        /// Creates a value from its raw representation.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// Every direction alike.
        public static let omnidirectional = PolarPattern(rawValue: "Omnidirectional")
        /// Mostly from the front.
        public static let cardioid = PolarPattern(rawValue: "Cardioid")
        /// Mostly from the front, less narrowly than cardioid.
        public static let subcardioid = PolarPattern(rawValue: "Subcardioid")
        /// A stereo image.
        public static let stereo = PolarPattern(rawValue: "Stereo")
    }
}

/// The ports audio flows through now.
open class AVAudioSessionRouteDescription: NSObject, @unchecked Sendable {
    /// The input ports.
    public let inputs: [AVAudioSessionPortDescription]
    /// The output ports: the sound server's sink that the application's sound plays to.
    public let outputs: [AVAudioSessionPortDescription]

    init(inputs: [AVAudioSessionPortDescription], outputs: [AVAudioSessionPortDescription]) {
        self.inputs = inputs
        self.outputs = outputs
    }
}

extension AVAudioSession {
    /// A kind of audio port.
    public struct Port: RawRepresentable, Hashable, Sendable {
        /// The value's raw representation.
        public let rawValue: String
        /// Creates a value from its raw representation.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// A built-in microphone.
        public static let builtInMic = Port(rawValue: "MicrophoneBuiltIn")
        /// A microphone on a wired headset.
        public static let headsetMic = Port(rawValue: "MicrophoneWired")
        /// A line-level input.
        public static let lineIn = Port(rawValue: "LineIn")
        /// A USB audio device.
        public static let usbAudio = Port(rawValue: "USBAudio")
        /// A Bluetooth hands-free device.
        public static let bluetoothHFP = Port(rawValue: "BluetoothHFP")
        /// A line-level output.
        public static let lineOut = Port(rawValue: "LineOut")
        /// Headphones.
        public static let headphones = Port(rawValue: "Headphones")
        /// A Bluetooth device playing stereo sound (A2DP).
        public static let bluetoothA2DP = Port(rawValue: "BluetoothA2DPOutput")
        /// A phone's receiver, held to the ear.
        public static let builtInReceiver = Port(rawValue: "Receiver")
        /// A built-in speaker.
        public static let builtInSpeaker = Port(rawValue: "Speaker")
        /// HDMI.
        public static let HDMI = Port(rawValue: "HDMIOutput")
        /// AirPlay.
        public static let airPlay = Port(rawValue: "AirPlay")
        /// A Bluetooth Low Energy device.
        public static let bluetoothLE = Port(rawValue: "BluetoothLE")
        /// A car's audio system.
        public static let carAudio = Port(rawValue: "CarAudio")
        /// A virtual device, such as an app's.
        public static let virtual = Port(rawValue: "Virtual")
        /// A PCI device.
        public static let PCI = Port(rawValue: "PCI")
        /// A FireWire device.
        public static let fireWire = Port(rawValue: "FireWire")
        /// A DisplayPort device.
        public static let displayPort = Port(rawValue: "DisplayPort")
        /// An Audio Video Bridging device.
        public static let AVB = Port(rawValue: "AVB")
        /// A Thunderbolt device.
        public static let thunderbolt = Port(rawValue: "Thunderbolt")
        /// A microphone of another device nearby (Continuity).
        public static let continuityMicrophone = Port(rawValue: "MicrophoneContinuity")
    }

    /// Where output goes instead of the category's usual route.
    public enum PortOverride: UInt, Sendable {
        /// The category's usual route.
        case none = 0
        /// The built-in speaker: 'spkr'.
        case speaker = 0x7370_6B72
    }
}
