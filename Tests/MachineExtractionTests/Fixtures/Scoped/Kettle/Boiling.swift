// The same top-level names as Kiln, other cases: a different machine.
import Actomaton

enum Action { case fill, boil, pour }
enum State { case empty, full, boiling }

var kilnReducer: Reducer<Action, State, Void> {
    Reducer { action, state, _ in
        switch (action, state) {
        case (.fill, .empty): state = .full
        case (.boil, .full): state = .boiling
        case (.pour, .boiling): state = .empty
        default: break
        }
        return .empty
    }
}
