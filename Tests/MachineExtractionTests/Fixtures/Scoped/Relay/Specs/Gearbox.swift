// SwiftState shape: routes registered on the parameter of `machine.configure { … }`.
import SwiftState

enum Gear: StateType { case low, high, neutral }
enum Shift: EventType { case up, down }

final class GearboxTests {
    func testShift() {
        let gearbox = StateMachine<Gear, Shift>(state: .low)
        gearbox.configure {
            $0.addRoutes(event: .up, transitions: [.low => .high])
            $0.addRoutes(event: .down, transitions: [.high => .low])
        }
    }
}
