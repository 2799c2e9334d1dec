import Actomaton

// Guards written as computed properties of the state enum.
enum Job: Equatable, Sendable {
    case queued, running(progress: Double), paused, done, cancelled

    var canPause: Bool {
        if case .running = self { return true }
        return false
    }

    var canCancel: Bool {
        switch self {
        case .queued, .running, .paused: return true
        case .done, .cancelled: return false
        }
    }

    var isFinished: Bool { self == .done || self == .cancelled }
}

enum JobAction: Sendable { case start, pause, resume, cancel, finish }

let jobReducer = Reducer<JobAction, Job, Void> { action, state, _ in
    switch action {
    case .start where state == .queued:
        state = .running(progress: 0)
        return .empty
    case .pause:
        guard state.canPause else { return .empty }
        state = .paused
        return .empty
    case .resume:
        if state == .paused { state = .running(progress: 0) }
        return .empty
    case .cancel where state.canCancel:
        state = .cancelled
        return .empty
    case .finish:
        guard !state.isFinished else { return .empty }
        state = .done
        return .empty
    default:
        return .empty
    }
}
