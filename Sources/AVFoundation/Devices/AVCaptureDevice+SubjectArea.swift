import CaptureDevices
import Foundation

extension AVCaptureDevice {
    /// Whether the device watches its picture and posts `subjectAreaDidChangeNotification` when
    /// it changes substantially (a new scene, a pan, the light going out), as AVCam uses to
    /// return to continuous focus. Set it with the configuration lock held.
    public var isSubjectAreaChangeMonitoringEnabled: Bool {
        get { core.subjectAreaMonitoring.load(ordering: .relaxed) }
        set {
            ProgrammingError.requireConfigurationLock(self, "SubjectAreaChangeMonitoringEnabled:")
            // The picture when monitoring starts is the reference the next change is measured from.
            core.subjectArea.withLock { $0.reset() }
            core.subjectAreaMonitoring.store(newValue, ordering: .relaxed)
        }
    }
}
