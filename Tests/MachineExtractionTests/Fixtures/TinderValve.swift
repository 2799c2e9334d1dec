import StateMachine

@StateMachineHashable
enum ValveState { case closed, opened, metered(level: Int), jammed }
@StateMachineHashable
enum ValveEvent { case open, close, feed(amount: Int), probe, kick }
enum ValveEffect { case chime, logProbe, callService }

typealias Valve = StateMachine<ValveState, ValveEvent, ValveEffect>

final class ValveController {
    let valve: Valve

    init(start: ValveState = .closed) {
        valve = Valve {
            initialState(start)
            state(.closed) {
                on(.open) { transition(to: .opened, emit: .chime) }
                on(.probe) { dontTransition(emit: .logProbe) }
                on(.feed) { transition(to: .metered(level: 0)) }
            }
            state(.metered) {
                on(.feed) { metered, feed in
                    let total = try metered.level() + feed.amount()
                    if total >= 10 {
                        return transition(to: .opened)
                    } else {
                        return transition(to: .metered(level: total))
                    }
                }
                on(.close) { transition(to: .closed) }
            }
            state(.opened) {
                on(.close) { _, _ in
                    isPressureHigh() ? transition(to: .jammed, emit: .callService) : transition(to: .closed)
                }
                on(.kick) { state, event in
                    try nextAfterKick(state, event)
                }
            }
            state(.jammed) {
                on(.kick) { transition(to: .jammed) }
            }
            onTransition { result in
                print(result)
            }
        }
    }
}
