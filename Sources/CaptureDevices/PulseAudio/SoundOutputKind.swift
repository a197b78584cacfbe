/// The kinds of output a sound server's sink can play to, as an audio session's route names them.
package enum SoundOutputKind: Sendable {
    /// A Bluetooth device playing high-quality stereo (A2DP).
    case bluetoothA2DP
    /// A Bluetooth Low Energy audio device.
    case bluetoothLE
    /// A Bluetooth hands-free headset.
    case bluetoothHFP
    /// An AirPlay receiver.
    case airPlay
    /// A sink with no device behind it, or a network tunnel.
    case virtual
    /// A USB audio device.
    case usbAudio
    /// The built-in speaker.
    case builtInSpeaker
    /// Headphones or a headset in the jack.
    case headphones
    /// The receiver held to the ear.
    case builtInReceiver
    /// An HDMI output.
    case HDMI
    /// A DisplayPort output.
    case displayPort
    /// A car's audio system.
    case carAudio
    /// A line out.
    case lineOut
}

extension SoundOutputPort {
    /// The kind of output the sink plays to, from what the sound server says of it: Bluetooth by
    /// profile, network (AirPlay for RAOP), USB, then the active port's type (speaker,
    /// headphones, HDMI, ...), the device's form factor and the port's name; a sink with no
    /// device behind it (a null or remapped sink) is virtual, any other a line out.
    package var kind: SoundOutputKind {
        let names = (name + " " + port + " " + profile).lowercased()
        if bus == "bluetooth" || names.contains("bluez") || portType == 15 {
            if names.contains("a2dp") { return .bluetoothA2DP }
            if names.contains("bap") || names.contains("le_audio") || names.contains("le-audio") { return .bluetoothLE }
            if names.contains("headset") || names.contains("handsfree") || names.contains("hfp") || names.contains("hsp") { return .bluetoothHFP }
            return .bluetoothA2DP
        }
        if isNetwork { return names.contains("raop") || names.contains("airplay") ? .airPlay : .virtual }
        if bus == "usb" { return .usbAudio }
        switch portType {
        case 2: return .builtInSpeaker
        case 3, 6: return .headphones
        case 7, 8: return .builtInReceiver
        case 10, 11: return .HDMI
        case 14: return .usbAudio
        case 18: return .carAudio
        case 1, 4, 9, 19, 22: return .lineOut
        default: break
        }
        switch formFactor {
        case "headphone", "headset": return .headphones
        case "speaker", "internal": return .builtInSpeaker
        case "handset": return .builtInReceiver
        case "car": return .carAudio
        case "tv": return .HDMI
        default: break
        }
        let activePort = port.lowercased()
        if activePort.contains("headphone") { return .headphones }
        if activePort.contains("speaker") { return .builtInSpeaker }
        if activePort.contains("hdmi") { return .HDMI }
        if activePort.contains("displayport") { return .displayPort }
        if !isHardware { return .virtual }
        return .lineOut
    }

}

extension PulseSinks {
    /// The sink an application's playback goes to among `sinks`: the speaker while the audio
    /// session routes to it (and a sink is one), otherwise the server's default.
    package static func routeSink(in sinks: [SoundOutputPort], toSpeaker: Bool = AudioPreferences.routesToSpeaker) -> SoundOutputPort? {
        if toSpeaker, let speaker = sinks.first(where: { $0.kind == .builtInSpeaker }) { return speaker }
        return sinks.first(where: \.isDefault) ?? sinks.first
    }

    /// The sink new playback streams are opened on, where it is not the server's default (nil:
    /// the default, which the server follows when it changes).
    package static var routedSinkName: String? {
        guard let sink = routeSink(in: current()), !sink.isDefault else { return nil }
        return sink.name
    }
}
