// Top-level `Action` and `State` in a module of their own (Actomaton style).
import Actomaton

enum Action { case ignite, peak, cool }
enum State { case cold, heating, glowing }

var kilnReducer: Reducer<Action, State, Void> {
    Reducer { action, state, _ in
        switch (action, state) {
        case (.ignite, .cold): state = .heating
        case (.peak, .heating): state = .glowing
        case (.cool, .glowing): state = .cold
        default: break
        }
        return .empty
    }
}
