import CaptureDevices
import Foundation

/// The object that coordinates the flow of media from capture inputs to capture outputs.
///
/// Changes made between `beginConfiguration()` and the outermost `commitConfiguration()`
/// are applied together, even while the session runs: every frame goes either to the graph
/// before the commit or to the graph after it. `startRunning()` and `stopRunning()` are
/// synchronous and may take a while, so call them on a queue of your own, as on Apple
/// platforms. Notifications are posted on the main thread.
open class AVCaptureSession: NSObject, _KeyValueObservable, @unchecked Sendable {
    /// The registry of the session's key-value observations.
    @_spi(Plumbing) public let _observations = KeyValueObservationRegistry()

    struct Model {
        var inputs: [AVCaptureInput] = []
        var outputs: [AVCaptureOutput] = []
        var connections: [AVCaptureConnection] = []
        var preset: Preset = .high
        var configurationDepth = 0
        var isRunning = false
        var isInterrupted = false
        var isApplying = false
    }
    let model = LockedValue(Model())
    /// Serialises applying the graph, starting and stopping; recursive because devices report back while it is held.
    private let graphLock = NSRecursiveLock()
    /// The routes of the devices in the graph; guarded by `graphLock`.
    private var routes: [String: (route: DeviceRoute, configuration: VideoStreamConfiguration?, generation: Int)] = [:]
    /// Whether cameras produce frames as fast as they can rather than in real time, for benchmarks.
    package var deliversFramesUnpaced = false

    /// Creates a session with no inputs or outputs and the `.high` preset.
    public override init() { super.init() }

    // MARK: Preset

    /// The preset that sets the quality and resolution of the session's outputs.
    open var sessionPreset: Preset {
        get { model.withLock { $0.preset } }
        set {
            guard canSetSessionPreset(newValue) else {
                ProgrammingError.invalidArgument(
                    "-[AVCaptureSession setSessionPreset:] Unsupported session preset \(newValue.rawValue) for the session's inputs")
            }
            mutate { $0.preset = newValue }
            _observations.didChange([\AVCaptureSession.sessionPreset])
        }
    }

    /// Sets the preset, or throws a clear error when the session's inputs cannot honour it.
    public func setSessionPreset(_ preset: Preset) throws(AVError) {
        guard canSetSessionPreset(preset) else {
            throw AVError(.unknown, userInfo: [NSLocalizedDescriptionKey: "The session's inputs do not support the preset \(preset.rawValue)."])
        }
        sessionPreset = preset
    }

    /// Whether every device input of the session supports a preset.
    open func canSetSessionPreset(_ preset: Preset) -> Bool {
        guard Preset.allKnown.contains(preset) else { return false }
        let devices = model.withLock { $0.inputs.compactMap { $0.capturedDevice } }
        if devices.isEmpty { return true }
        return devices.allSatisfy { $0.supportsSessionPreset(preset) }
    }

    // MARK: Graph

    /// The session's inputs.
    open var inputs: [AVCaptureInput] { model.withLock { $0.inputs } }
    /// The session's outputs (a preview layer's connection point is not one).
    open var outputs: [AVCaptureOutput] { model.withLock { $0.outputs.filter { !($0 is PreviewLayerOutput) } } }

    /// Whether any of the session's outputs is still working on samples it was given.
    package var outputsHaveWorkInFlight: Bool { outputs.contains { $0.hasWorkInFlight } }
    /// The session's connections.
    open var connections: [AVCaptureConnection] { model.withLock { $0.connections } }

    /// Whether an input can be added: it belongs to no session, its device is not already an input, and the device supports the preset.
    open func canAddInput(_ input: AVCaptureInput) -> Bool {
        model.withLock { canAdd(input, to: $0) }
    }

    private func canAdd(_ input: AVCaptureInput, to model: Model) -> Bool {
        guard input.session == nil, !model.inputs.contains(where: { $0 === input }) else { return false }
        if let device = input.capturedDevice {
            if model.inputs.contains(where: { $0.capturedDevice == device }) { return false }
            if model.preset != .inputPriority, !device.supportsSessionPreset(model.preset) { return false }
        }
        return true
    }

    /// Adds an input and connects its ports to every compatible output.
    open func addInput(_ input: AVCaptureInput) { add(input, connecting: true) }

    /// Adds an input without connecting it; connect it with `addConnection(_:)`.
    open func addInputWithNoConnections(_ input: AVCaptureInput) { add(input, connecting: false) }

    private func add(_ input: AVCaptureInput, connecting: Bool) {
        mutate { model in
            guard canAdd(input, to: model) else {
                ProgrammingError.invalidArgument("-[AVCaptureSession addInput:] Cannot add \(input) to the session; check canAddInput(_:) first")
            }
            model.inputs.append(input)
            input.session = self
            input.capturedDevice?.attach(to: self)
            if connecting {
                for port in input.ports { formConnections(from: port, to: model.outputs, in: &model) }
            }
        }
        _observations.didChange([\AVCaptureSession.inputs])
    }

    /// Removes an input and its connections.
    open func removeInput(_ input: AVCaptureInput) {
        mutate { model in
            guard model.inputs.contains(where: { $0 === input }) else { return }
            model.inputs.removeAll { $0 === input }
            model.connections.removeAll { connection in connection.inputPorts.contains { $0.input === input } }
            input.session = nil
            if let device = input.capturedDevice, !model.inputs.contains(where: { $0.capturedDevice == device }) {
                device.detach(from: self)
            }
        }
        _observations.didChange([\AVCaptureSession.inputs])
    }

    /// Whether an output can be added: it belongs to no session.
    open func canAddOutput(_ output: AVCaptureOutput) -> Bool {
        model.withLock { _ in output.session == nil }
    }

    /// Adds an output and connects every compatible input port to it.
    open func addOutput(_ output: AVCaptureOutput) { add(output, connecting: true) }

    /// Adds an output without connecting it.
    open func addOutputWithNoConnections(_ output: AVCaptureOutput) { add(output, connecting: false) }

    private func add(_ output: AVCaptureOutput, connecting: Bool) {
        mutate { model in
            guard output.session == nil else {
                ProgrammingError.invalidArgument("-[AVCaptureSession addOutput:] Cannot add \(output) to the session; check canAddOutput(_:) first")
            }
            model.outputs.append(output)
            output.session = self
            if connecting {
                for input in model.inputs {
                    for port in input.ports { formConnections(from: port, to: [output], in: &model) }
                }
            }
        }
        _observations.didChange([\AVCaptureSession.outputs])
    }

    /// Removes an output and its connections.
    open func removeOutput(_ output: AVCaptureOutput) {
        mutate { model in
            guard model.outputs.contains(where: { $0 === output }) else { return }
            model.outputs.removeAll { $0 === output }
            model.connections.removeAll { $0.output === output }
            output.session = nil
        }
        output.setConnections([])
        _observations.didChange([\AVCaptureSession.outputs])
    }

    /// Whether a connection can be added: its ports and output are in the session and the output has room for it.
    open func canAddConnection(_ connection: AVCaptureConnection) -> Bool {
        model.withLock { canAdd(connection, to: $0) }
    }

    private func canAdd(_ connection: AVCaptureConnection, to model: Model) -> Bool {
        guard let output = connection.output, model.outputs.contains(where: { $0 === output }),
            !model.connections.contains(where: { $0 === connection }), !connection.inputPorts.isEmpty
        else { return false }
        for port in connection.inputPorts {
            let demand = output.demand
            guard model.inputs.contains(where: { $0 === port.input }), demand.accepts(port.mediaType) else { return false }
            let used = model.connections.filter { $0.output === output && $0.mediaType == port.mediaType }.count
            if used >= demand.maximumConnections(for: port.mediaType) { return false }
        }
        return true
    }

    /// Adds a connection made with `AVCaptureConnection(inputPorts:output:)`.
    open func addConnection(_ connection: AVCaptureConnection) {
        mutate { model in
            guard canAdd(connection, to: model) else {
                ProgrammingError.invalidArgument("-[AVCaptureSession addConnection:] Cannot add \(connection); check canAddConnection(_:) first")
            }
            model.connections.append(connection)
        }
    }

    /// Removes a connection.
    open func removeConnection(_ connection: AVCaptureConnection) {
        mutate { model in model.connections.removeAll { $0 === connection } }
    }

    /// Connects a port to every output that takes its media and has room: the session is greedy.
    private func formConnections(from port: AVCaptureInput.Port, to outputs: [AVCaptureOutput], in model: inout Model) {
        for output in outputs {
            let demand = output.demand
            let used = model.connections.filter { $0.output === output && $0.mediaType == port.mediaType }.count
            guard used < demand.maximumConnections(for: port.mediaType) else { continue }
            model.connections.append(AVCaptureConnection(inputPorts: [port], output: output))
        }
    }

    // MARK: Transactions

    /// Starts a group of changes that the outermost `commitConfiguration()` applies together.
    open func beginConfiguration() {
        model.withLock { $0.configurationDepth += 1 }
    }

    /// Ends a group of changes; the outermost commit applies them all at once.
    open func commitConfiguration() {
        let outermost = model.withLock { model -> Bool in
            guard model.configurationDepth > 0 else {
                ProgrammingError.invalidState("-[AVCaptureSession commitConfiguration] called without a matching beginConfiguration")
            }
            model.configurationDepth -= 1
            return model.configurationDepth == 0
        }
        if outermost { applyAndReport() }
    }

    /// Changes the model, then applies it unless a configuration group is open.
    private func mutate(_ body: (inout Model) -> Void) {
        let apply = model.withLock { model -> Bool in
            body(&model)
            return model.configurationDepth == 0
        }
        refreshOutputConnections()
        if apply { applyAndReport() }
    }

    private func refreshOutputConnections() {
        let (outputs, connections) = model.withLock { ($0.outputs, $0.connections) }
        for output in outputs { output.setConnections(connections.filter { $0.output === output }) }
    }

    // MARK: Running

    /// Whether the session is running.
    open var isRunning: Bool { model.withLock { $0.isRunning } }
    /// Whether the session is interrupted.
    open var isInterrupted: Bool { model.withLock { $0.isInterrupted } }

    /// Starts the flow of media; returns once every device streams.
    open func startRunning() {
        graphLock.lock()
        let start = model.withLock { model -> Bool in
            if model.configurationDepth > 0 {
                ProgrammingError.invalidState(
                    "-[AVCaptureSession startRunning] startRunning may not be called between calls to beginConfiguration and commitConfiguration")
            }
            guard !model.isRunning else { return false }
            model.isRunning = true
            return true
        }
        guard start else { graphLock.unlock(); return }
        let errors = applyGraph()
        let outputs = self.outputs
        graphLock.unlock()
        let busy = errors.filter { $0.code == .deviceInUseByAnotherApplication }
        if let error = errors.first(where: { $0.code != .deviceInUseByAnotherApplication }) {
            // The session never started: stop what did start, and say why.
            _ = stopStreams()
            MainThreadPoster.post(.AVCaptureSessionRuntimeError, object: self, userInfo: [AVCaptureSessionErrorKey: error])
            return
        }
        for output in outputs { output.sessionRunningDidChange(true) }
        _observations.didChange([\AVCaptureSession.isRunning])
        MainThreadPoster.post(.AVCaptureSessionDidStartRunning, object: self)
        if let error = busy.first {
            // Another application has the device: the session runs, interrupted, until the device is free.
            let video = (error.userInfo[AVErrorDeviceKey] as? AVCaptureDevice)?.hasMediaType(.video) ?? true
            interruptWhileBusy(reason: video ? .videoDeviceInUseByAnotherClient : .audioDeviceInUseByAnotherClient)
        }
    }

    /// How often a session interrupted by a busy device tries the device again.
    static let busyRetryInterval: DispatchTimeInterval = .milliseconds(250)

    /// Marks the session interrupted because a device is busy, and tries the device again until it is free.
    private func interruptWhileBusy(reason: InterruptionReason) {
        if beginInterruption(reason: reason.rawValue) { retryBusyDevices() }
    }

    /// Marks a running session interrupted and says so; whether it was not interrupted already.
    private func beginInterruption(reason: Int) -> Bool {
        let changed = model.withLock { model -> Bool in
            guard model.isRunning, !model.isInterrupted else { return false }
            model.isInterrupted = true
            return true
        }
        guard changed else { return false }
        for output in outputs { output.sessionWasInterrupted() }
        _observations.didChange([\AVCaptureSession.isInterrupted])
        MainThreadPoster.post(.AVCaptureSessionWasInterrupted, object: self, userInfo: [AVCaptureSessionInterruptionReasonKey: NSNumber(value: reason)])
        return true
    }

    /// Ends an interruption and says so, if the session was interrupted.
    private func endInterruption() {
        let changed = model.withLock { model -> Bool in
            guard model.isInterrupted else { return false }
            model.isInterrupted = false
            return true
        }
        guard changed else { return }
        _observations.didChange([\AVCaptureSession.isInterrupted])
        MainThreadPoster.post(.AVCaptureSessionInterruptionEnded, object: self)
    }

    private func retryBusyDevices() {
        DispatchQueue.global().asyncAfter(deadline: .now() + Self.busyRetryInterval) { [weak self] in
            guard let self, self.model.withLock({ $0.isRunning && $0.isInterrupted }) else { return }
            self.graphLock.lock()
            let errors = self.applyGraph()
            self.graphLock.unlock()
            if errors.contains(where: { $0.code == .deviceInUseByAnotherApplication }) { return self.retryBusyDevices() }
            if let error = errors.first { return self.stopAfterRuntimeError(error) }
            self.endInterruption()
        }
    }

    /// Stops the flow of media; returns once every device has stopped.
    open func stopRunning() {
        if isRunning { for output in outputs { output.sessionWillStop(because: nil) } }
        guard stopStreams() else { return }
        for output in outputs { output.sessionRunningDidChange(false) }
        _observations.didChange([\AVCaptureSession.isRunning])
        MainThreadPoster.post(.AVCaptureSessionDidStopRunning, object: self)
    }

    private func stopStreams() -> Bool {
        graphLock.lock()
        defer { graphLock.unlock() }
        let wasRunning = model.withLock { model -> Bool in
            defer { model.isRunning = false; model.isInterrupted = false }
            return model.isRunning
        }
        guard wasRunning else { return false }
        for (key, entry) in routes {
            entry.route.device.backend.stop()
            entry.route.setTargets(.none)
            routes[key] = (entry.route, nil, -1)
        }
        return true
    }

    private func stopAfterRuntimeError(_ error: AVError) {
        if isRunning { for output in outputs { output.sessionWillStop(because: error) } }
        // The session has stopped by the time its observers hear of the error.
        let stopped = stopStreams()
        MainThreadPoster.post(.AVCaptureSessionRuntimeError, object: self, userInfo: [AVCaptureSessionErrorKey: error])
        if stopped {
            for output in outputs { output.sessionRunningDidChange(false) }
            _observations.didChange([\AVCaptureSession.isRunning])
            MainThreadPoster.post(.AVCaptureSessionDidStopRunning, object: self)
        }
    }

    private func applyAndReport() {
        graphLock.lock()
        let errors = applyGraph()
        graphLock.unlock()
        if let error = errors.first { stopAfterRuntimeError(error) }
    }

    /// Makes the devices and routes match the model: the one place the graph is applied.
    private func applyGraph() -> [AVError] {
        let snapshot = model.withLock { model -> Model in
            model.isApplying = true
            return model
        }
        defer { model.withLock { $0.isApplying = false } }
        // A configuration the session cannot run (a multi-camera session over its budget) stops it.
        if snapshot.isRunning, let refusal = configurationRefusal() { return [refusal] }
        var live: [String: (route: DeviceRoute, configuration: VideoStreamConfiguration?, generation: Int)] = [:]
        var errors: [AVError] = []
        for input in snapshot.inputs {
            guard let device = input.capturedDevice else { continue }
            let key = device.uniqueID
            guard live[key] == nil else { continue }
            let connections = snapshot.connections.filter { connection in
                connection.output != nil && connection.inputPorts.contains { $0.input === input }
            }
            // A multi-camera session's camera with no enabled connection stops, and the others go on.
            if stopsCamerasWithoutEnabledConnections, device.mediaType == .video, !connections.contains(where: Self.carriesMedia) { continue }
            let previous = routes[key]
            let route = previous?.route ?? DeviceRoute(device: device)
            device.attach(to: self)
            var configuration: VideoStreamConfiguration?
            var targets: [DeviceRoute.Target]
            var conversions: [DeviceRoute.Conversion] = []
            if device.mediaType == .video {
                let plan = VideoRoutePlan.plan(
                    device: device, connections: connections, preset: snapshot.preset, paced: !deliversFramesUnpaced,
                    frameDurationOverride: (input as? AVCaptureDeviceInput)?.videoMinFrameDurationOverride ?? .invalid)
                (configuration, targets, conversions) = (plan.configuration, plan.targets, plan.conversions)
            } else {
                targets = connections.map { .init(connection: $0, output: $0.output!, conversion: -1) }
            }
            var generation = -1
            if snapshot.isRunning {
                if let previous, previous.generation >= 0, previous.configuration == configuration {
                    generation = previous.generation
                } else {
                    do {
                        generation = try device.backend.start(configuration, sink: route)
                    } catch {
                        errors.append(Self.avError(for: error, device: device))
                        route.setTargets(.none)
                        live[key] = (route, nil, -1)
                        continue
                    }
                }
            }
            route.setTargets(DeviceRoute.Targets(generation: generation, list: targets, conversions: conversions))
            live[key] = (route, configuration, generation)
        }
        for (key, entry) in routes where live[key] == nil {
            if entry.generation >= 0 { entry.route.device.backend.stop() }
            entry.route.setTargets(.none)
            entry.route.device.detach(from: self)
        }
        routes = live
        return errors
    }

    /// The AVFoundation error for a backend's failure.
    static func avError(for error: CaptureBackendError, device: AVCaptureDevice) -> AVError {
        switch error {
        case .notConnected: return AVError(.deviceNotConnected, userInfo: [AVErrorDeviceKey: device])
        case .inUse: return AVError(.deviceInUseByAnotherApplication, userInfo: [AVErrorDeviceKey: device])
        case .notAuthorized: return AVError(.applicationIsNotAuthorizedToUseDevice, userInfo: [AVErrorDeviceKey: device])
        case .serverUnavailable: return AVError(.mediaServicesWereReset, userInfo: [AVErrorDeviceKey: device])
        case .unsupportedConfiguration(let what):
            return AVError(.unknown, userInfo: [AVErrorDeviceKey: device, NSLocalizedDescriptionKey: "The device cannot stream \(what)."])
        }
    }

    /// Why the session cannot run its configuration, if it cannot; checked whenever a running session applies its graph.
    func configurationRefusal() -> AVError? { nil }

    /// Whether a camera none of whose connections is enabled stops streaming (a multi-camera session's rule).
    var stopsCamerasWithoutEnabledConnections: Bool { false }

    /// Whether a connection carries media: it and all its input ports are enabled.
    static func carriesMedia(_ connection: AVCaptureConnection) -> Bool {
        connection.isEnabled && connection.inputPorts.allSatisfy(\.isEnabled)
    }

    /// A connection or an input port was enabled or disabled: a multi-camera session starts or stops its cameras to match.
    func connectionEnablingDidChange() {
        guard stopsCamerasWithoutEnabledConnections else { return }
        outputConfigurationDidChange()
    }

    // MARK: Devices reporting back

    /// An output's settings changed in a way that may change what its devices stream.
    func outputConfigurationDidChange() {
        let depth = model.withLock { $0.configurationDepth }
        if depth == 0 { applyAndReport() }
    }

    /// A device's format or frame rate changed.
    func deviceConfigurationDidChange(_ device: AVCaptureDevice, formatChangedByClient: Bool) {
        let (applying, inSession, depth, running) = model.withLock { model in
            (model.isApplying, model.inputs.contains { $0.capturedDevice == device }, model.configurationDepth, model.isRunning)
        }
        guard !applying, inSession else { return }
        if formatChangedByClient {
            // Choosing a format by hand takes the session out of presets, as on Apple platforms.
            model.withLock { $0.preset = .inputPriority }
            _observations.didChange([\AVCaptureSession.sessionPreset])
        }
        // A stopped session leaves the device alone: re-applying its preset would take the format
        // back from the session that changed it (two sessions sharing a camera would fight over it).
        if depth == 0, running || formatChangedByClient { applyAndReport() }
    }

    /// A device reported an event.
    func device(_ device: AVCaptureDevice, didReport event: CaptureDeviceEvent) {
        let uses = model.withLock { model in model.inputs.contains { $0.capturedDevice == device } }
        guard uses else { return }
        switch event {
        case .interrupted(let reason):
            _ = beginInterruption(reason: reason)
        case .interruptionEnded:
            endInterruption()
        case .disconnected:
            guard isRunning else { return }
            stopAfterRuntimeError(AVError(.deviceWasDisconnected, userInfo: [AVErrorDeviceKey: device]))
        case .runtimeError(let code):
            guard isRunning else { return }
            stopAfterRuntimeError(AVError(AVError.Code(rawValue: code) ?? .unknown, userInfo: [AVErrorDeviceKey: device]))
        case .reconnected:
            break
        }
    }

    /// Whether the session picks the color space of its cameras: sRGB here, the only one they deliver.
    open var automaticallyConfiguresCaptureDeviceForWideColor = true

    // MARK: Audio session and clock

    /// Whether the session configures the application's audio for capture.
    open var automaticallyConfiguresApplicationAudioSession = true
    /// Whether the session uses the application's audio configuration.
    open var usesApplicationAudioSession = true
    /// The clock the session's timestamps are on: the host clock.
    open var synchronizationClock: CMClock? { CMClockGetHostTimeClock() }
    /// The clock the session's timestamps are on, by its older name.
    open var masterClock: CMClock? { synchronizationClock }
}

extension AVCaptureSession {
    /// Why a session was interrupted.
    public enum InterruptionReason: Int, Sendable {
        /// The camera is not available while the application is in the background.
        case videoDeviceNotAvailableInBackground = 1
        /// Another client uses the audio device.
        case audioDeviceInUseByAnotherClient = 2
        /// Another client uses the video device.
        case videoDeviceInUseByAnotherClient = 3
        /// The camera is not available with several foreground applications.
        case videoDeviceNotAvailableWithMultipleForegroundApps = 4
        /// The camera is not available because of system pressure.
        case videoDeviceNotAvailableDueToSystemPressure = 5
    }

    /// Posted when a runtime error stops the session; the error is under `AVCaptureSessionErrorKey`.
    public static let runtimeErrorNotification = NSNotification.Name.AVCaptureSessionRuntimeError
    /// Posted when the session starts running.
    public static let didStartRunningNotification = NSNotification.Name.AVCaptureSessionDidStartRunning
    /// Posted when the session stops running, by request or because of an error.
    public static let didStopRunningNotification = NSNotification.Name.AVCaptureSessionDidStopRunning
    /// Posted when the session is interrupted; the reason is under `AVCaptureSessionInterruptionReasonKey`.
    public static let wasInterruptedNotification = NSNotification.Name.AVCaptureSessionWasInterrupted
    /// Posted when an interruption ends.
    public static let interruptionEndedNotification = NSNotification.Name.AVCaptureSessionInterruptionEnded
}

extension NSNotification.Name {
    /// Posted when a runtime error stops a session.
    public static let AVCaptureSessionRuntimeError = NSNotification.Name("AVCaptureSessionRuntimeErrorNotification")
    /// Posted when a session starts running.
    public static let AVCaptureSessionDidStartRunning = NSNotification.Name("AVCaptureSessionDidStartRunningNotification")
    /// Posted when a session stops running.
    public static let AVCaptureSessionDidStopRunning = NSNotification.Name("AVCaptureSessionDidStopRunningNotification")
    /// Posted when a session is interrupted.
    public static let AVCaptureSessionWasInterrupted = NSNotification.Name("AVCaptureSessionWasInterruptedNotification")
    /// Posted when a session's interruption ends.
    public static let AVCaptureSessionInterruptionEnded = NSNotification.Name("AVCaptureSessionInterruptionEndedNotification")
}

/// The user-info key for the error of a runtime error notification.
public let AVCaptureSessionErrorKey = "AVCaptureSessionErrorKey"
/// The user-info key for the reason of an interruption notification.
public let AVCaptureSessionInterruptionReasonKey = "AVCaptureSessionInterruptionReasonKey"
