import Combine
import Harvest

// A door lock driven by a Harvest-style operator table (dialect D1).
enum LockState {
    case locked, unlocking, unlocked, locking
    case jammed      // declared, but no rule ever enters it
    case servicing   // entered, but nothing leaves it
}

enum LockInput {
    case unlock, unlockDone, lock, lockDone
    case emergencyLock
    case service
}

enum LockQueue: EffectQueueProtocol {
    case `default`
    case motor

    var flattenStrategy: FlattenStrategy {
        switch self {
        case .default: return .merge
        case .motor: return .latest
        }
    }

    static var defaultEffectQueue: LockQueue { .default }
}

typealias LockMachine = Harvester<LockInput, LockState>
typealias LockMapping = LockMachine.EffectMapping<LockQueue, Never>
typealias LockEffect = LockMachine.Effect<LockInput, LockQueue, Never>

let unlockMotor = Just(LockInput.unlockDone).delay(for: 1, scheduler: DispatchQueue.main)
let lockMotor = Just(LockInput.lockDone).delay(for: 1, scheduler: DispatchQueue.main)

let canEmergencyLock: (LockState) -> Bool = [.unlocking, .unlocked].contains

let lockMappings: [LockMapping] = [
    .unlock        | .locked     => .unlocking | LockEffect(unlockMotor, queue: .motor),
    .unlockDone    | .unlocking  => .unlocked  | .empty,
    .lock          | .unlocked   => .locking   | LockEffect(lockMotor, queue: .motor),
    .lockDone      | .locking    => .locked    | .empty,
    .emergencyLock | canEmergencyLock => .locking | LockEffect(lockMotor, queue: .motor),
    .service       | .locked     => .servicing | .empty,
]

let lock = LockMachine(
    state: .locked,
    input: PassthroughSubject<LockInput, Never>(),
    mapping: .reduce(.first, lockMappings),
    scheduler: DispatchQueue.main
)
