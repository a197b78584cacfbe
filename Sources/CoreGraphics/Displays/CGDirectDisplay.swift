/// A unique identifier for an attached display.
///
/// Here the main display is the screen of the X11 display `$DISPLAY` names; it is the only one.
public typealias CGDirectDisplayID = UInt32

/// Returns the display identifier of the main display.
public func CGMainDisplayID() -> CGDirectDisplayID { 1 }
