// Spec shape: function-local typealiases through a module-qualified generic type, a table bound to a
// local constant, and the machine stored by assignment in a closure.
import Lib

enum Coil { case open, closing, closed, welded }
enum Pulse { case energize, settle, release }

final class RelaySpec {
    func spec() {
        typealias Machine = Lib.Automaton<Pulse, Coil>
        typealias Mapping = Machine.Mapping

        var relay: Machine?
        let setUp = {
            let rows: [Mapping] = [
                .energize | .open => .closing,
                .settle | .closing => .closed,
                .release | .closed => .open,
            ]
            relay = Machine(state: .open, mapping: reduce(rows))
        }
        setUp()
    }
}
