import MachineModel
import XCTest

/// Shapes of objects the world drives (delegate callbacks, handlers called on each change) and of game
/// code (actions run later, observers of counters, shared managers, enums toggling themselves, GameplayKit
/// moves guarded by the current state). Made-up identifiers.
final class CallbackAndGameShapeTests: XCTestCase {
    /// A manager whose delegate callbacks only assign its state is a machine of those events, each named
    /// in full (several share the delegating object's name).
    func testDelegateCallbacksAreEventsNamedInFull() throws {
        let a = Analysed.source("""
        import CoreBluetooth
        final class PulseMonitor: NSObject, CBCentralManagerDelegate {
            enum LinkState { case idle, scanning, linked, lost }
            private(set) var linkState: LinkState = .idle
            func startScan() { linkState = .scanning }
            func centralManager(_ central: CBCentralManager, didConnect peripheral: CBPeripheral) { linkState = .linked }
            func centralManager(_ central: CBCentralManager, didDisconnectPeripheral peripheral: CBPeripheral, error: Error?) {
                linkState = .lost
            }
            func centralManagerDidUpdateState(_ central: CBCentralManager) {}
        }
        """)
        let monitor = try a.machine("PulseMonitor.linkState")
        XCTAssertEqual(Set(monitor.inputs), ["startScan()", "centralManager(_:didConnect:)", "centralManager(_:didDisconnectPeripheral:error:)"])
        XCTAssertNotNil(monitor.edge("scanning", "centralManager(_:didConnect:)", "linked"), "\(monitor.allEdges)")
    }

    /// A name an earlier condition of the same `if` binds is a local there (no note that nothing declares it).
    func testAnEarlierConditionsBindingIsALocal() throws {
        let a = Analysed.source("""
        import Foundation
        final class Fetcher: NSObject {
            enum Phase { case idle, loading, failed, cancelled }
            var phase: Phase = .idle
            func load() { guard phase == .idle else { return }; phase = .loading }
            func finished(with error: Error) {
                if let urlError = error as? URLError, urlError.code == .cancelled { phase = .cancelled } else { phase = .failed }
            }
        }
        """)
        XCTAssertFalse(a.diagnosticLines.contains { $0.contains("`urlError`") }, "\(a.diagnosticLines)")
    }

    /// A handler kept to be called on each change (`stateUpdateHandler`), and a repeating timer, arrive in
    /// whatever state the machine is by then, not only the one that installed them.
    func testHandlersCalledOnEachChangeArriveInEveryState() throws {
        let a = Analysed.source("""
        import Network
        final class Channel {
            enum State { case idle, opening, open, stalled }
            var state: State = .idle
            let link = NWConnection(host: "h", port: 1, using: .tcp)
            func open() {
                guard state == .idle else { return }
                state = .opening
                link.stateUpdateHandler = { [weak self] update in
                    switch update {
                    case .ready: self?.state = .open
                    case .waiting: self?.state = .stalled
                    default: break
                    }
                }
            }
            func close() { state = .idle }
        }
        """)
        let channel = try a.machine("Channel.state")
        XCTAssertNotNil(channel.edge("open", "open() stateUpdateHandler", "stalled"), "\(channel.allEdges)")
        XCTAssertNotNil(channel.edge("stalled", "open() stateUpdateHandler", "open"), "\(channel.allEdges)")
    }

    /// A callback handing its work to the main queue with `OperationQueue.main.addOperation` is followed
    /// there, as with `DispatchQueue.main.async` (no note that its writes are not, no partial machine).
    func testAnOperationQueueHopIsFollowed() throws {
        let a = Analysed.source("""
        import Speech
        final class Dictation {
            enum Phase { case idle, asking, ready, refused }
            private(set) var phase: Phase = .idle
            func ask() {
                guard phase == .idle else { return }
                phase = .asking
                SFSpeechRecognizer.requestAuthorization { [weak self] status in
                    OperationQueue.main.addOperation {
                        self?.phase = status == .authorized ? .ready : .refused
                    }
                }
            }
            func reset() { phase = .idle }
        }
        """)
        let dictation = try a.machine("Dictation.phase")
        XCTAssertFalse(dictation.partial, "\(a.diagnosticLines)")
        XCTAssertNotNil(dictation.edge("asking", "ask() callback", "refused"), "\(dictation.allEdges)")
    }

    /// `lives -= 1` runs the `didSet` of `lives`, as `lives = lives - 1` does; an enum toggling itself
    /// makes its holder's property a machine whatever it is called; a write through a shared instance is
    /// an input.
    func testCountersObserversTogglesAndSharedManagers() throws {
        let a = Analysed.source([
            "Match.swift": """
            enum Side {
                case white, black
                mutating func flip() { self = self == .white ? .black : .white }
            }
            final class Match {
                enum Phase { case playing, lost }
                static let shared = Match()
                var phase: Phase = .playing
                var lives = 3 { didSet { if lives <= 0 { phase = .lost } } }
                var side: Side = .white
                func hit() { lives -= 1 }
                func restart() { guard phase == .lost else { return }; phase = .playing }
                func pass() { side.flip() }
                func reset() { side = .white }
            }
            """,
            "Arena.swift": """
            final class Arena {
                func forfeit() { Match.shared.phase = .lost }
            }
            """,
        ])
        let match = try a.machine("Match.phase")
        XCTAssertNotNil(match.edge("playing", "hit()", "lost"), "\(match.allEdges)")
        XCTAssertNotNil(match.edge("playing", "Arena.forfeit()", "lost"), "\(match.allEdges)")
        let side = try a.machine("Match.side")
        XCTAssertEqual(side.moves, ["white -pass()-> black", "black -pass()-> white", "black -reset()-> white"])
    }

    /// `SKAction.run { … }` written in the array of a sequence is work that runs later, as one held in a
    /// constant is.
    func testAnActionRunInASequenceRunsLater() throws {
        let a = Analysed.source("""
        import SpriteKit
        final class Duel: SKScene {
            enum Phase { case title, countdown, fighting }
            var phase: Phase = .title
            func begin() {
                guard phase == .title else { return }
                phase = .countdown
                run(SKAction.sequence([SKAction.wait(forDuration: 3), SKAction.run { [weak self] in self?.phase = .fighting }]))
            }
            func quit() { phase = .title }
        }
        """)
        let duel = try a.machine("Duel.phase")
        XCTAssertNotNil(duel.edge("countdown", "begin() callback", "fighting"), "\(duel.allEdges)")
    }

    /// GameplayKit: an `enter` inside `if machine.currentState is X` is made from `X` only (its `else`
    /// side from the other states).
    func testGameplayKitEntersGuardedByTheCurrentState() throws {
        let a = Analysed.source("""
        import GameplayKit
        final class Walk: GKState {}
        final class Crouch: GKState {}
        final class Roll: GKState {}
        final class Runner {
            let machine = GKStateMachine(states: [Walk(), Crouch(), Roll()])
            init() { machine.enter(Walk.self) }
            func down() {
                if machine.currentState is Walk {
                    machine.enter(Crouch.self)
                } else if machine.currentState is Crouch {
                    machine.enter(Roll.self)
                }
            }
            func up() {
                if !(machine.currentState is Walk) { machine.enter(Walk.self) }
            }
        }
        """)
        let runner = try a.machine("machine")
        XCTAssertEqual(runner.moves, ["Walk -*-> Crouch", "Crouch -*-> Roll", "Crouch -*-> Walk", "Roll -*-> Walk"])
    }
}
