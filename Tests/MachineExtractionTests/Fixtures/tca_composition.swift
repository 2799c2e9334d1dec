import ComposableArchitecture
import Foundation

// A parent list with child rows composed by `.forEach`, a child feature scoped with `Scope`,
// `.concatenate`, and a `.run` whose `catch:` handler sends a failure back.
@Reducer
struct SyncRow {
    @ObservableState
    struct State: Equatable, Identifiable {
        let id: UUID
        var status: Status = .pending
    }
    enum Status: Equatable { case pending, syncing, synced, failed }
    enum Action { case syncTapped, finished, failed, retry }
    @Dependency(\.api) var api

    var body: some ReducerOf<Self> {
        Reduce { state, action in
            switch action {
            case .syncTapped, .retry:
                guard state.status != .syncing else { return .none }
                state.status = .syncing
                return .run { send in
                    try await api.sync()
                    await send(.finished)
                } catch: { _, send in
                    await send(.failed)
                }
            case .finished:
                state.status = .synced
                return .none
            case .failed:
                state.status = .failed
                return .none
            }
        }
    }
}

@Reducer
struct SyncList {
    @ObservableState
    struct State: Equatable {
        var rows: IdentifiedArrayOf<SyncRow.State> = []
        var isSyncingAll = false
    }
    enum Action {
        case rows(IdentifiedActionOf<SyncRow>)
        case syncAllTapped
        case allDone
    }

    var body: some ReducerOf<Self> {
        Reduce { state, action in
            switch action {
            case .syncAllTapped:
                state.isSyncingAll = true
                return .concatenate(
                    .merge(state.rows.ids.map { .send(.rows(.element(id: $0, action: .syncTapped))) }),
                    .send(.allDone)
                )
            case .allDone:
                state.isSyncingAll = false
                return .none
            case .rows:
                return .none
            }
        }
        .forEach(\.rows, action: \.rows) {
            SyncRow()
        }
    }
}
