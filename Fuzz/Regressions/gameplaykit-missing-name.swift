// Found by the fuzz target (a crash, SIGILL, in the command line too): a states array holding a name
// the parser found missing (`Broken:::State()`), whose path came out as an empty string; the GameplayKit
// recogniser took the last dot-separated part of it and trapped. Made-up identifiers.
import GameplayKit

class Idle: GKState {}
class Busy: GKState {}

final class Owner {
    lazy var machine = GKStateMachine(states: [Idle(), Busy(), Broken:::State()])
    func start() { machine.enter(Idle.self) }
    func work() { machine.enter(Busy.self) }
}
