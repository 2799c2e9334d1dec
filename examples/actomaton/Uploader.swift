import Actomaton
import Foundation

// An Actomaton uploader: `switch action` with guards on the state, an effect id for the upload,
// a newest-wins queue for progress polling, and explicit cancellation.
enum UploadState: Equatable, Sendable {
    case idle
    case preparing
    case uploading(progress: Double)
    case finished(URL)
    case failed(reason: String)
}

enum UploadAction: Sendable {
    case pick(URL)
    case prepared
    case progress(Double)
    case done(URL)
    case fail(String)
    case cancel
    case retry
}

struct UploadEnvironment: Sendable {
    var compress: @Sendable (URL) async throws -> Data
    var upload: @Sendable (Data) async throws -> URL
}

struct UploadID: EffectIDProtocol {}
struct ProgressQueue: Newest1EffectQueueProtocol {}

let uploadReducer = Reducer<UploadAction, UploadState, UploadEnvironment> { action, state, env in
    switch action {
    case let .pick(file):
        guard state == .idle else { return .empty }
        state = .preparing
        return Effect(id: UploadID()) {
            _ = try await env.compress(file)
            return .prepared
        }

    case .prepared:
        guard case .preparing = state else { return .empty }
        state = .uploading(progress: 0)
        return Effect(id: UploadID()) {
            .done(URL(fileURLWithPath: "/uploaded"))
        } + Effect(queue: ProgressQueue()) {
            .progress(0.5)
        }

    case let .progress(value):
        guard case .uploading = state else { return .empty }
        state = .uploading(progress: value)
        return .empty

    case let .done(url):
        guard case .uploading = state else { return .empty }
        state = .finished(url)
        return .empty

    case let .fail(reason):
        state = .failed(reason: reason)
        return Effect.cancel(id: UploadID())

    case .cancel:
        switch state {
        case .preparing, .uploading:
            state = .idle
            return Effect.cancel(id: UploadID())
        default:
            return .empty
        }

    case .retry:
        guard case .failed = state else { return .empty }
        state = .idle
        return .empty
    }
}

let uploader = Actomaton<UploadAction, UploadState>(
    state: .idle,
    reducer: uploadReducer,
    environment: UploadEnvironment(compress: { _ in Data() }, upload: { _ in URL(fileURLWithPath: "/") })
)
