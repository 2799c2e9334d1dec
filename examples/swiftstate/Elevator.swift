import Foundation
import SwiftState

/// Door-and-cab controller for a small residential elevator.
enum ElevatorState: StateType {
    case idle
    case doorsOpening
    case doorsOpen
    case doorsClosing
    case movingUp
    case movingDown
    case outOfService
}

enum ElevatorEvent: EventType {
    case call(floor: Int)
    case arrived
    case doorsOpened
    case doorTimeout
    case doorsClosed
    case obstruction
    case fault
    case serviced
}

final class ElevatorController {
    private(set) var currentFloor = 0
    private var requests: [Int] = []
    private let log = Logger(subsystem: "com.example.lift", category: "elevator")

    private(set) lazy var machine = StateMachine<ElevatorState, ElevatorEvent>(state: .idle) { [unowned self] machine in
        machine.addRoutes(event: .arrived, transitions: [.movingUp => .doorsOpening, .movingDown => .doorsOpening])
        machine.addRoutes(event: .doorsOpened, transitions: [.doorsOpening => .doorsOpen])
        machine.addRoutes(event: .doorTimeout, transitions: [.doorsOpen => .doorsClosing])
        machine.addRoutes(event: .obstruction, routes: [[.doorsClosing, .doorsOpen] => .doorsOpening])
        machine.addRoutes(event: .doorsClosed, transitions: [.doorsClosing => .idle],
                          condition: { _ in self.requests.isEmpty })
        machine.addRoutes(event: .fault, transitions: [.any => .outOfService])
        machine.addRoutes(event: .serviced, transitions: [.outOfService => .idle])

        // Where to go next depends on the requested floor.
        machine.addRouteMapping { event, fromState, _ in
            guard case let .call(floor)? = event, fromState == .idle else { return nil }
            if floor > self.currentFloor { return .movingUp }
            if floor < self.currentFloor { return .movingDown }
            return .doorsOpening
        }

        // Maintenance can park the cab from the control panel: `machine <- .outOfService`.
        machine.addRoute(.idle => .outOfService)

        machine.addHandler(event: .fault) { context in
            self.log.error("fault in \(String(describing: context.fromState))")
            self.notifyService()
        }
        machine.addHandler(event: .doorsClosed) { _ in
            self.dispatchNextRequest()
        }
    }

    func request(floor: Int) {
        requests.append(floor)
        machine <-! .call(floor: floor)
    }

    private func dispatchNextRequest() {
        guard let next = requests.first else { return }
        requests.removeFirst()
        machine <-! .call(floor: next)
    }

    private func notifyService() {}
}
