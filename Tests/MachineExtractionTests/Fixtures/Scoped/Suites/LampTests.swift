import XCTest

final class LampTests: XCTestCase {
    func test_toggle() {
        let store = Actomaton<Action, State, Void>(
            state: .dark,
            reducer: Reducer { action, state, _ in
                switch (action, state) {
                case (.flip, .dark): state = .bright
                case (.flip, .bright): state = .dark
                default: break
                }
                return .empty
            }
        )
        _ = store
    }
}

private enum Action { case flip }
private enum State { case dark, bright }
