// Test-suite shape: file-private Action/State per file, the types given by the store's type
// arguments (the reducer closure has none), the framework imported by another file of the module.
import XCTest

final class KettleTests: XCTestCase {
    func test_boil() {
        let store = Actomaton<Action, State, Void>(
            state: .cold,
            reducer: Reducer { action, state, _ in
                switch (action, state) {
                case (.heat, .cold): state = .warm
                case (.heat, .warm): state = .boiling
                default: break
                }
                return .empty
            }
        )
        _ = store
    }

    func test_cool() {
        let store = Actomaton<Action, State, Void>(
            state: .boiling,
            reducer: Reducer { action, state, _ in
                switch (action, state) {
                case (.cool, .boiling): state = .cold
                default: break
                }
                return .empty
            }
        )
        _ = store
    }
}

private enum Action { case heat, cool }
private enum State { case cold, warm, boiling }
