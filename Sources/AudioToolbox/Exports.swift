// `import AudioToolbox` gives the system sound services camera apps call
// (`AudioServicesPlaySystemSound`), which live with AVFAudio here, as `import AVFoundation` gives
// them on Apple's platforms.
@_exported import AVFAudio
