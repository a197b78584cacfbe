/// How a camera's lens is focused: held, focused once and then held, or kept in focus.
package enum FocusControl: Sendable, Hashable { case locked, once, continuous }

/// How a camera's exposure is set: held, measured once, kept measured, or the client's duration and ISO.
package enum ExposureControl: Sendable, Hashable { case locked, once, continuous, custom }

/// How a camera's white balance gains are set: held, measured once, or kept measured.
package enum WhiteBalanceControl: Sendable, Hashable { case locked, once, continuous }

/// When a flash fires or a torch is lit: never, always, or when the scene is dark.
package enum LightControl: Sendable, Hashable { case off, on, auto }

/// The distances automatic focus searches: all of them, near ones only, or far ones only.
package enum FocusRange: Sendable, Hashable { case unrestricted, near, far }

extension LightControl {
    /// Whether the light is on in a scene of a luminance (1 is a normally lit room).
    package func isLit(sceneLuminance: Double) -> Bool { self == .on || (self == .auto && sceneLuminance < 0.3) }
}

extension FocusControl {
    /// Whether the camera adjusts focus on its own in this mode.
    package var adjusts: Bool { self != .locked }
}

extension ExposureControl {
    /// Whether the camera measures and adjusts exposure on its own in this mode.
    package var adjusts: Bool { self == .once || self == .continuous }
}

extension WhiteBalanceControl {
    /// Whether the camera measures and adjusts white balance on its own in this mode.
    package var adjusts: Bool { self != .locked }
}
