import CombineProcessor
import Combine

// A CombineProcessor feature whose status is set only through a setter action's payload.
struct DownloadProcessor {
    enum Status: Equatable { case idle, downloading, finished, failed }

    struct States: Equatable { var status: Status = .idle }

    enum Action { case start, cancel }

    enum PrivateAction {
        case begin
        case gotData(Data)
        case failure(Error)
        case setStatus(Status)
        case cancelled
    }

    struct Environment { var download: () -> AnyPublisher<Data, Error> }

    var reducer: AnyProcessorReducer<States, Action, PrivateAction, Environment> {
        AnyProcessorReducer(
            mutated: { action in
                switch action {
                case .start: return .begin
                case .cancel: return .cancelled
                }
            },
            reduce: { states, privateAction, environment -> ProcessorPublisher<PrivateAction, Never>? in
                switch privateAction {
                case .begin:
                    return .send(.setStatus(.downloading))
                        .merge(with: environment.download()
                            .catchToDeresultProcessor(onSuccess: PrivateAction.gotData, onError: PrivateAction.failure))
                case .gotData:
                    return .send(.setStatus(.finished))
                case .failure:
                    return .send(.setStatus(.failed))
                case let .setStatus(status):
                    states.status = status
                    return nil
                case .cancelled:
                    states.status = .idle
                    return nil
                }
            })
    }
}
