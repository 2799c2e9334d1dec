import ComposableArchitecture
import Foundation

// A voice-memo recorder written the way TCA apps are: view/delegate action groups, a presented
// alert, a dependency-driven permission check, a timer effect with cancellation.
@Reducer
struct RecordingFeature {
    @ObservableState
    struct State: Equatable {
        var phase: Phase = .idle
        var isMuted = false
        var duration: TimeInterval = 0
        @Presents var alert: AlertState<Action.Alert>?

        enum Phase: Equatable {
            case idle
            case askingPermission
            case recording(startedAt: Date)
            case paused
            case finishing
            case failed(message: String)
        }

        mutating func resetSession() {
            phase = .idle
            duration = 0
        }
    }

    enum Action: Equatable {
        case view(View)
        case permissionResponse(Bool)
        case tick
        case finished(Result<URL, RecorderError>)
        case alert(PresentationAction<Alert>)
        case delegate(Delegate)

        enum View: Equatable {
            case recordButtonTapped
            case pauseButtonTapped
            case stopButtonTapped
            case muteToggled
        }

        enum Alert: Equatable {
            case retry
        }

        enum Delegate: Equatable {
            case didFinish(URL)
        }
    }

    @Dependency(\.audioRecorder) var audioRecorder
    @Dependency(\.continuousClock) var clock

    private enum CancelID { case timer, recording }

    var body: some ReducerOf<Self> {
        Reduce { state, action in
            switch action {
            case .view(.recordButtonTapped):
                switch state.phase {
                case .idle, .failed:
                    state.phase = .askingPermission
                    return .run { send in
                        await send(.permissionResponse(await audioRecorder.requestPermission()))
                    }
                case .paused:
                    state.phase = .recording(startedAt: Date())
                    return startTimer()
                case .askingPermission, .recording, .finishing:
                    return .none
                }

            case let .permissionResponse(granted):
                guard case .askingPermission = state.phase else { return .none }
                if granted {
                    state.phase = .recording(startedAt: Date())
                    return .merge(
                        startTimer(),
                        .run { send in
                            await send(.finished(Result { try await audioRecorder.record() }.mapError { _ in .io }))
                        }
                        .cancellable(id: CancelID.recording)
                    )
                } else {
                    state.phase = .failed(message: "Microphone access denied")
                    state.alert = AlertState { TextState("Permission needed") }
                    return .none
                }

            case .view(.pauseButtonTapped):
                guard case .recording = state.phase else { return .none }
                state.phase = .paused
                return .cancel(id: CancelID.timer)

            case .view(.stopButtonTapped):
                switch state.phase {
                case .recording, .paused:
                    state.phase = .finishing
                    return .merge(
                        .cancel(id: CancelID.timer),
                        .run { _ in await audioRecorder.stop() }
                    )
                default:
                    return .none
                }

            case .view(.muteToggled):
                state.isMuted.toggle()
                return .none

            case .tick:
                state.duration += 1
                return .none

            case let .finished(.success(url)):
                state.resetSession()
                return .send(.delegate(.didFinish(url)))

            case .finished(.failure):
                state.phase = .failed(message: "Recording failed")
                state.alert = AlertState { TextState("Recording failed") } actions: {
                    ButtonState(action: .retry) { TextState("Retry") }
                }
                return .cancel(id: CancelID.timer)

            case .alert(.presented(.retry)):
                state.phase = .idle
                return .send(.view(.recordButtonTapped))

            case .alert, .delegate:
                return .none
            }
        }
        .ifLet(\.$alert, action: \.alert)
    }

    private func startTimer() -> Effect<Action> {
        .run { send in
            for await _ in clock.timer(interval: .seconds(1)) {
                await send(.tick)
            }
        }
        .cancellable(id: CancelID.timer, cancelInFlight: true)
    }
}

enum RecorderError: Error, Equatable { case io }

// A second feature in the same file: a settings sheet with an enum-valued mode and a sync flag.
@Reducer
struct SyncSettings {
    @ObservableState
    struct State: Equatable {
        var sync: SyncState = .off
        var isSaving = false
    }

    enum SyncState: Equatable { case off, connecting, on, error }

    enum Action {
        case toggleSync
        case connectResponse(Result<Void, Error>)
        case save
        case saved
    }

    private enum CancelID { case connect }

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .toggleSync:
            if state.sync == .off || state.sync == .error {
                state.sync = .connecting
                return .run { send in await send(.connectResponse(.success(()))) }
                    .cancellable(id: CancelID.connect, cancelInFlight: true)
            }
            state.sync = .off
            return .cancel(id: CancelID.connect)

        case .connectResponse(.success):
            state.sync = .on
            return .none

        case .connectResponse(.failure):
            state.sync = .error
            return .none

        case .save:
            guard !state.isSaving else { return .none }
            state.isSaving = true
            return .run { send in await send(.saved) }

        case .saved:
            state.isSaving = false
            return .none
        }
    }
}
