import Foundation
import StateMachine

@StateMachineHashable
enum UploadState {
    case idle
    case preparing(fileURL: URL)
    case uploading(progress: Double)
    case paused(resumeData: Data)
    case finished(remoteID: String)
    case failed(reason: String)
}

@StateMachineHashable
enum UploadEvent {
    case select(URL)
    case prepared
    case progress(Double)
    case pause
    case resume
    case completed(String)
    case networkError(Error)
    case cancel
}

enum UploadSideEffect {
    case compress
    case startTransfer
    case suspendTransfer
    case showThumbnail
    case scheduleRetry
    case discardTemporaryFiles
}

typealias UploadMachine = StateMachine<UploadState, UploadEvent, UploadSideEffect>

func makeUploadMachine(initial: UploadState = .idle, maxRetries: Int = 3) -> UploadMachine {
    UploadMachine {
        initialState(initial)

        state(.idle) {
            on(.select) { _, event in
                transition(to: .preparing(fileURL: try event.select()), emit: .compress)
            }
        }

        state(.preparing) {
            on(.prepared) { transition(to: .uploading(progress: 0), emit: .startTransfer) }
            on(.cancel) { transition(to: .idle, emit: .discardTemporaryFiles) }
        }

        state(.uploading) {
            on(.progress) { dontTransition() }
            on(.pause) { transition(to: .paused(resumeData: Data()), emit: .suspendTransfer) }
            on(.completed) { _, event in
                transition(to: .finished(remoteID: try event.completed()), emit: .showThumbnail)
            }
            on(.networkError) { _, event in
                let error = try event.networkError()
                if (error as? URLError)?.code == .notConnectedToInternet {
                    return transition(to: .paused(resumeData: Data()), emit: .scheduleRetry)
                } else {
                    return transition(to: .failed(reason: error.localizedDescription))
                }
            }
            on(.cancel) { transition(to: .idle, emit: .discardTemporaryFiles) }
        }

        state(.paused) {
            on(.resume) { transition(to: .uploading(progress: 0), emit: .startTransfer) }
            on(.cancel) { transition(to: .idle, emit: .discardTemporaryFiles) }
        }

        state(.failed) {
            on(.select) { _, event in
                transition(to: .preparing(fileURL: try event.select()), emit: .compress)
            }
        }

        onTransition { result in
            guard case let .success(transition) = result, let effect = transition.sideEffect else { return }
            UploadEffects.shared.perform(effect)
        }
    }
}
