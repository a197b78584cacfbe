// The parts of Apple's MediaToolbox that LinuxAVFoundation does not offer yet, and why.
//
// `import MediaToolbox` gives audio processing taps (MTAudioProcessingTap), which audio mixes
// carry to exports, asset reader mix outputs and players. A name followed by a star stands for
// every name that starts so.

// The localized names of media types and subtypes (the system's localized strings):
//     MTCopyLocalizedNameForMediaType, MTCopyLocalizedNameForMediaSubType
// Format readers and video codec extensions registered with the system (Apple's plug-in model):
//     MTRegisterProfessionalVideoWorkflowFormatReaders, MTRegisterProfessionalVideoWorkflowVideoDecoders,
//     MTPluginFormatReader*, MTPluginByteSource*, MTPluginTrackReader*, MTPluginSampleCursor*, kMTPlugin*
// The tap's type identifier: MTAudioProcessingTapGetTypeID
