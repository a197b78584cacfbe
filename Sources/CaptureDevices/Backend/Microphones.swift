/// The microphone recording uses: the audio session's preferred input while it is connected,
/// otherwise the first microphone, in the order capture devices are offered (sound servers,
/// sound cards, then the virtual microphone).
package enum Microphones {
    /// The microphone to record from now, or nil when there is none.
    package static func current() -> CaptureDeviceBackend? {
        let microphones = DeviceRegistry.backends(of: .audio).filter(\.isConnected)
        if let preferred = AudioPreferences.preferredInputUID, let device = microphones.first(where: { $0.descriptor.uniqueID == preferred }) {
            return device
        }
        return microphones.first
    }
}
