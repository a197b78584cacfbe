// AVFAudio's API that is not implemented yet, so that parity is visible at a glance. Everything
// else in Apple's AVFAudio that capture, recording and playback code reaches for is here.

// MARK: Effects and processing units

// AVAudioUnitSampler, AVAudioUnitMIDIInstrument, AVAudioUnitComponentManager; AVAudioEnvironmentNode (3D mixing);
//     AVAudioUnit.instantiate(with:options:completionHandler:) and init(audioComponentDescription:) (no Audio Unit
//     components exist here: the effects are FFmpeg's filters); AVAudioUnitDelay's negative feedback (its sign is not kept);
//     AVAudioUnitTimePitch.overlap (Rubber Band chooses its own windows); the distortion presets are FFmpeg's
//     crushers, clippers and filters chosen to sound alike, not Apple's processing; an effect's parameters
//     change by rebuilding its filter graph at the next block (a reverb's tail restarts)
// extension AVAudioNode: var auAudioUnit: AUAudioUnit (no Audio Unit host exists here)
// extension AVAudioIONode: voice processing's ducking of other audio (voiceProcessingOtherAudioDuckingConfiguration),
//     setMutedSpeechActivityEventListener(_:); the echo delay is taken as 20 ms, not measured

// MARK: The engine

// extension AVAudioEngine: musicSequence, connectMIDI(...), isAutoShutdownEnabled; AVAudioEngineConfigurationChange is posted when a
//     microphone comes or goes while the engine records (the audio session's route changes, with AVFoundation), not
//     when the sound server goes away (the engine goes on by the host clock instead); the input node keeps the
//     format of the microphone it was made with
// extension AVAudioMixerNode: per-connection mixing destinations (destination(forMixer:bus:), AVAudioMixingDestination),
//     renderingAlgorithm, obstruction and occlusion (3D mixing)
// extension AVAudioPlayerNode: .dataRendered and .dataPlayedBack completions are called when the data is consumed;
//     in real time a file's frames that the read-ahead queue has not read in time are silence (offline rendering waits)
// extension AVAudioUnit: in real time an effect runs a cycle behind the render thread (FFmpeg's filters on a worker,
//     latency one cycle); Apple's units run within the cycle

// MARK: Conversion and compressed audio

// extension AVAudioConverter: encoding to formats other than AAC; a compressed side at another rate or channel
//     count than the PCM side (init(from:to:) returns nil); applicableEncodeBitRates, availableEncodeSampleRates,
//     applicableEncodeSampleRates, availableEncodeChannelLayouts; the encoder's priming frames are not trimmed on decoding
// extension AVAudioFile: reading into or writing from AVAudioCompressedBuffer; MP3 writing (Apple cannot either)

// MARK: Speech, sessions and applications

// AVSpeechUtterance(ssmlRepresentation:), AVSpeechSynthesizer's personal voices and markers
//     (write(_:toBufferCallback:toMarkerCallback:)), AVSpeechSynthesisVoice's enhanced and premium voices
// extension AVAudioApplication: setInputMuteStateChangeHandler(_:); muting silences AVFAudio's recorders and engines,
//     not a capture session's microphone (AVCaptureAudioDataOutput and movie files hear it)
// AVAudioSession: its missing parts are listed in RemainingAVFoundationInterface.swift (it is AVFAudio's, as on
//     Apple's platforms; `import AVFAudio` gives it).
// class AVMIDIPlayer, AVAudioSequencer, AVMusicTrack

// MARK: Classes and protocols not here
// (A name followed by a star stands for every name that starts so; `scripts/parity.py` counts them, Parity/AVFAudio.md.)

// Not built yet: 3D and stereo mixing (AVAudio3DMixing, AVAudioStereoMixing, AVAudioEnvironmentDistanceAttenuationParameters,
//     AVAudioEnvironmentReverbParameters), generator units (AVAudioUnitGenerator), music sequences' events (AVMusicEvent,
//     AVMusicUserEvent, AVMIDI*Event, AVExtendedNoteOnEvent, AVExtendedTempoEvent, AVParameterEvent, AVAUPresetEvent),
//     speech markers (AVSpeechSynthesisMarker), the session's capabilities (AVAudioSessionCapability,
//     AVAudioSessionPortExtensionBluetoothMicrophone)
// What Linux cannot have: Audio Unit components from other vendors (AVAudioUnitComponent), speech synthesis providers
//     (AVSpeechSynthesisProvider*, system speech extensions), macOS's routing arbitration (AVAudioRoutingArbiter), the old
//     session delegate (AVAudioSessionDelegate, gone from Apple's SDKs' Swift interface)
