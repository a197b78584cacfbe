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
    /// The port's channels.
    public let channels: [AVAudioSessionChannelDescription]?

    package init(backend: CaptureDeviceBackend) {
        let (uniqueID, name) = (backend.descriptor.uniqueID, backend.descriptor.localizedName)
        uid = uniqueID
        portName = name
        // Sound servers and ALSA name USB devices as such; every other input counts as built in.
        let names = (uniqueID + " " + name).lowercased()
        portType = names.contains("usb") ? .usbAudio : .builtInMic
        let count = Int(backend.audioFormat?.mChannelsPerFrame ?? 1)
        channels = (0..<count).map {
            AVAudioSessionChannelDescription(channelName: "\(name) \($0 + 1)", channelNumber: $0 + 1, owningPortUID: uniqueID)
        }
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

    init(dataSourceID: NSNumber, dataSourceName: String) {
        self.dataSourceID = dataSourceID
        self.dataSourceName = dataSourceName
    }
}

/// The ports audio flows through now.
open class AVAudioSessionRouteDescription: NSObject, @unchecked Sendable {
    /// The input ports.
    public let inputs: [AVAudioSessionPortDescription]
    /// The output ports; capture on Linux routes no output.
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
    }
}
