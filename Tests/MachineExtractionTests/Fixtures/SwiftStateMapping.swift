import SwiftState

enum Vault: StateType { case locked, unlocked, alarm, open }
enum VaultEvent: EventType { case code(Int), turn, panic }

let vault = StateMachine<Vault, VaultEvent>(state: .locked) { m in
    m.addRoutes(event: .turn, transitions: [.unlocked => .open])
    m.addRouteMapping { event, fromState, userInfo in
        guard case let .code(n)? = event else { return nil }
        return fromState == .locked && n == 1234 ? .unlocked : nil
    }
    m.addRouteMapping { event, fromState, _ in
        switch event {
        case .panic?:
            return fromState == .open ? .alarm : nil
        default:
            return nil
        }
    }
    m.addStateRouteMapping { fromState, _ in
        fromState == .alarm ? [.locked, .unlocked] : nil
    }
}

enum Phase: StateType { case draft, review, published, archived }

final class Editor {
    let workflow = StateMachine<Phase, NoEvent>(state: .draft)
    var reviewRoute: Disposable?

    func configure(allowed: [Phase]) {
        workflow.addRoute(.draft => .review)
        reviewRoute = workflow.addRoute(.review => .published)
        workflow.addRoute(.review => .draft)
        workflow.addRoute(.any => .archived, condition: { context in context.userInfo as? Bool == true })
        workflow.addRoute(allowed.first! => .draft)
    }

    func lockReviews() {
        reviewRoute?.dispose()
    }
}

final class TicketMachine: StateMachine<Ticket, NoEvent> {
    init() {
        super.init(state: .open)
        addRoute(.open => .assigned)
        addRoute(.assigned => .closed)
    }
}

enum Ticket: StateType { case open, assigned, closed }
