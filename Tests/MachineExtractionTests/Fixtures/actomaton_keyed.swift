import Actomaton

enum DownloadStatus: Equatable, Sendable { case queued, running, paused, done, failed }

struct Downloads: Equatable, Sendable {
    var items: [Int: DownloadStatus] = [:]
    var tasks: [DownloadTask] = []
}

struct DownloadTask: Equatable, Sendable {
    var id: Int
    var phase: DownloadStatus
    var title: String
}

enum DownloadAction: Sendable { case add(Int), start(Int), pause(Int), finish(Int), fail(Int) }

let downloadsReducer = Reducer<DownloadAction, Downloads, Void> { action, state, _ in
    switch action {
    case let .add(id):
        state.items[id] = .queued
        return .empty
    case let .start(id):
        guard state.items[id] == .queued || state.items[id] == .paused else { return .empty }
        state.items[id] = .running
        return Effect(id: DownloadID(id)) { .finish(id) }
    case let .pause(id):
        guard case .running = state.items[id] else { return .empty }
        state.items[id] = .paused
        return .cancel(id: DownloadID(id))
    case let .finish(id):
        state.items[id] = .done
        state.tasks[id].phase = .done
        return .empty
    case let .fail(id):
        state.items[id] = .failed
        return .empty
    }
}
