import Combine
import Foundation
import Harvest

// The classic Harvest README machine: login/logout with a force-logout predicate and a request
// queue whose `.latest` strategy cancels the request in flight when a new one starts.
enum AuthState {
    case loggedOut
    case loggingIn
    case loggedIn
    case loggingOut
}

enum AuthInput {
    case login
    case loginOK
    case logout
    case logoutOK
    case forceLogout
}

enum RequestEffectQueue: EffectQueueProtocol {
    case `default`
    case request

    var flattenStrategy: FlattenStrategy {
        switch self {
        case .default: return .merge
        case .request: return .latest
        }
    }

    static var defaultEffectQueue: RequestEffectQueue { .default }
}

typealias Auth = Harvester<AuthInput, AuthState>
typealias AuthMapping = Auth.EffectMapping<RequestEffectQueue, Never>
typealias AuthEffect = Auth.Effect<AuthInput, RequestEffectQueue, Never>

/// The states from which a forced logout is possible.
let canForceLogout: (AuthState) -> Bool = [.loggingIn, .loggedIn].contains

let loginOKPublisher = Just(AuthInput.loginOK).delay(for: 1, scheduler: DispatchQueue.main)
let logoutOKPublisher = Just(AuthInput.logoutOK).delay(for: 1, scheduler: DispatchQueue.main)
let forceLogoutOKPublisher = Just(AuthInput.logoutOK).delay(for: 0.5, scheduler: DispatchQueue.main)

let authMappings: [AuthMapping] = [
    .login       | .loggedOut     => .loggingIn  | AuthEffect(loginOKPublisher, queue: .request),
    .loginOK     | .loggingIn     => .loggedIn   | .empty,
    .logout      | .loggedIn      => .loggingOut | AuthEffect(logoutOKPublisher, queue: .request),
    .logoutOK    | .loggingOut    => .loggedOut  | .empty,
    .forceLogout | canForceLogout => .loggingOut | AuthEffect(forceLogoutOKPublisher, queue: .request),
]

let authInputs = PassthroughSubject<AuthInput, Never>()
let auth = Auth(state: .loggedOut, inputs: authInputs, mapping: .reduce(.first, authMappings), scheduler: DispatchQueue.main)
