final class Player {
    enum State { case idle, loading, playing, failed }
    enum Event { case play, loaded, error, stop }
    private(set) var state: State = .idle

    func handle(_ event: Event) {
        switch event {
        case .play:
            guard state == .idle || state == .failed else { return }
            transition(to: .loading)
        case .loaded:
            if state == .loading { transition(to: .playing) }
        case .error:
            transition(to: .failed)
        case .stop:
            transition(to: .idle)
        }
    }

    private func transition(to newState: State) {
        print("\(state) -> \(newState)")
        state = newState
    }
}
