import Foundation
import MachineModel
import XCTest

/// Shapes app and library authors write that were read wrongly, or not at all (made-up identifiers):
/// guarded setters, predicates of the state's enum or of a TCA State, helpers returning their action
/// implicitly, `where` on one pattern of several, GameplayKit states entering the next one themselves,
/// legacy TCA composition and bindings, and effects spelt as ternaries, id lists and concatenations.
final class ProbedShapeTests: XCTestCase {
    /// A guard's `else` returning one action and the path after it another: each edge carries its own
    /// branch's effect in the JSON document (the rule's `effect` joins both); `.doNothing` is no effect.
    func testEachEdgeCarriesItsOwnBranchesEffectInJSON() throws {
        let a = Analysed.source("""
        struct Valve {
            enum State { case shut, open, broken }
            enum Order { case doNothing, vent, alarm }
            private var state: State = .shut
            mutating func turn() -> Order {
                guard state == .shut else { state = .broken; return .alarm }
                state = .open
                return .vent
            }
            mutating func fix() -> Order {
                guard state == .broken else { return .doNothing }
                state = .shut
                return .doNothing
            }
        }
        """)
        let valve = try a.machine("Valve.state")
        XCTAssertEqual(valve.effectLabel("shut", "turn()", "open"), "vent")
        XCTAssertEqual(valve.effectLabel("open", "turn()", "broken"), "alarm")
        let json = try JSONSerialization.jsonObject(with: JSONEncoder().encode(valve)) as? [String: Any]
        let edges = try XCTUnwrap(json?["edges"] as? [[String: Any]])
        func label(_ from: String, _ to: String) -> String? {
            (edges.first { $0["from"] as? String == from && $0["to"] as? String == to }?["effect"] as? [String: Any])?["label"] as? String
        }
        XCTAssertEqual(label("shut", "open"), "vent")
        XCTAssertEqual(label("open", "broken"), "alarm")
        XCTAssertNil(edges.first { $0["from"] as? String == "broken" && $0["to"] as? String == "shut" }?["effect"])
        // (`.doNothing` starts nothing: a rejected `fix()` is no self-loop)
        XCTAssertEqual(valve.edge("open", "fix()", "open")?.noop, true)
    }

    /// `case .dark, .dim where boost:`: the `where` binds to `.dim` only.
    func testWhereBindsToItsOwnPatternOnly() throws {
        let a = Analysed.source("""
        enum Glow { case dark, dim, bright }
        final class Torch {
            var glow: Glow = .dark
            var boost = false
            func click() {
                switch glow {
                case .dark, .dim where boost: glow = .bright
                case .bright: glow = .dark
                default: break
                }
            }
            func lower() { if glow == .bright { glow = .dim } }
        }
        """)
        let torch = try a.machine("Torch.glow")
        XCTAssertTrue(torch.moves.isSuperset(of: ["dark -click()-> bright", "dim -click()-> bright"]), "\(torch.moves)")
        let fromDark = try XCTUnwrap(torch.rules(from: "dark", input: "click()").first)
        let fromDim = try XCTUnwrap(torch.rules(from: "dim", input: "click()").first)
        XCTAssertNil(fromDark.branches(behind: try XCTUnwrap(torch.edge("dark", "click()", "bright"))).guardText)
        XCTAssertEqual(fromDim.branches(behind: try XCTUnwrap(torch.edge("dim", "click()", "bright"))).guardText, "boost")
    }

    /// `return cond ? .send(.finish) : .none` in TCA: `.send` is handled at once on its side only, so no
    /// effect is in flight; a helper returning its action implicitly (`func x() -> Action { fail() }`)
    /// returns the case the helper returns.
    func testATernaryOfEffectsAndAnImplicitlyReturnedHelper() throws {
        let a = Analysed.source("""
        import ComposableArchitecture
        @Reducer struct Quiz {
          @ObservableState struct State: Equatable { var step: Step = .ask
            enum Step: Equatable { case ask, check, over } }
          enum Action { case answered, graded, again }
          var body: some ReducerOf<Self> {
            Reduce { state, action in
              switch action {
              case .answered:
                guard state.step == .ask else { return .none }
                state.step = .check
                return state.step == .check ? .send(.graded) : .none
              case .graded: state.step = .over; return .none
              case .again: state.step = .ask; return .none
              }
            }
          }
        }
        struct Link {
            enum State { case up, down }
            enum Signal { case none, drop }
            private var state: State = .up
            mutating func lose() -> Signal { cut() }
            mutating func mend() -> Signal { guard state == .down else { return .none }; state = .up; return .none }
            private mutating func cut() -> Signal { state = .down; return .drop }
        }
        """)
        let quiz = try a.machine("Quiz.step")
        XCTAssertEqual(quiz.effectLabel("ask", "answered", "check"), "send")
        XCTAssertFalse(quiz.findings.contains { $0.check == "stale_effect_output" }, "\(quiz.findingSet)")
        let link = try a.machine("Link.state")
        XCTAssertEqual(link.effectLabel("up", "lose()", "down"), "drop")
        XCTAssertEqual(link.effectLabel("down", "lose()", "down"), "drop")
    }

    /// `.cancel(ids: [A.self, B.self])` cancels each; `.merge(CancelID.allCases.map { .cancel(id: $0) })`
    /// cancels every case; `.concatenate(a, b)` runs one after the other (no late output of the first).
    func testCancelListsAllCasesAndConcatenation() throws {
        let a = Analysed.source("""
        import ComposableArchitecture
        @Reducer struct Mirror {
          @ObservableState struct State: Equatable { var phase: Phase = .still
            enum Phase: Equatable { case still, uploading, downloading } }
          enum Action { case sync, uploaded, downloaded, halt }
          enum CancelID: CaseIterable { case up, down }
          var body: some ReducerOf<Self> {
            Reduce { state, action in
              switch action {
              case .sync:
                guard state.phase == .still else { return .none }
                state.phase = .uploading
                return .concatenate(.run { send in await send(.uploaded) }, .run { send in await send(.downloaded) })
                  .cancellable(id: CancelID.up)
              case .uploaded: state.phase = .downloading; return .none
              case .downloaded: state.phase = .still; return .none
              case .halt:
                state.phase = .still
                return .merge(CancelID.allCases.map { .cancel(id: $0) })
              }
            }
          }
        }
        struct TapState: Equatable { var busy: Busy = .no; enum Busy: Equatable { case no, yes } }
        enum TapAction: Equatable { case go, done, stop }
        let tapReducer = Reducer<TapState, TapAction, Void> { state, action, _ in
          enum PollA {}
          enum PollB {}
          switch action {
          case .go: state.busy = .yes; return Effect(value: .done).cancellable(id: PollA.self)
          case .done: state.busy = .no; return .none
          case .stop: state.busy = .no; return .cancel(ids: [PollA.self, PollB.self])
          }
        }
        """)
        let mirror = try a.machine("Mirror.phase")
        XCTAssertTrue(mirror.cancels.isSuperset(of: ["halt>CancelID.up", "halt>CancelID.down"]), "\(mirror.cancels)")
        XCTAssertFalse(mirror.findings.contains { $0.check == "stale_effect_output" }, "\(mirror.findingSet)")
        let tap = try a.machine("TapState.busy")
        XCTAssertTrue(tap.cancels.isSuperset(of: ["stop>PollA", "stop>PollB"]), "\(tap.cancels)")
    }

    /// The state tested only through a `Bool` of its enum (`guard !job.isActive`), or only in the
    /// predicate a setter asks (`canMove(to:)`, `canMove(from:to:)`): the callers are the inputs.
    func testGuardedSettersAndEnumPredicatesMakeTheMachine() throws {
        let a = Analysed.source("""
        enum Print {
            case waiting, printing, jammed
            var isActive: Bool { if case .printing = self { return true } else { return false } }
        }
        final class Printer {
            var job: Print = .waiting
            func run() { guard !job.isActive else { return }; job = .printing }
            func jam() { if job.isActive { job = .jammed } }
            func finish() { if job.isActive { job = .waiting } }
        }
        enum Leave { case asked, granted, taken }
        final class Request {
            private(set) var stage: Leave = .asked
            private func canMove(to next: Leave) -> Bool {
                switch (stage, next) {
                case (.asked, .granted), (.granted, .taken): return true
                default: return false
                }
            }
            private func move(to next: Leave) { guard canMove(to: next) else { return }; stage = next }
            func grant() { move(to: .granted) }
            func take() { move(to: .taken) }
        }
        enum Glow { case dark, faint, full }
        final class Dimmer {
            var glow: Glow = .dark
            func canMove(to next: Glow) -> Bool {
                switch (glow, next) {
                case (.dark, .faint), (.faint, .full), (.full, .faint), (.faint, .dark): return true
                default: return false
                }
            }
            private func move(to next: Glow) { guard canMove(to: next) else { return }; glow = next }
            func brighten() { move(to: .faint) }
            func dim() { move(to: .dark) }
        }
        enum Dock { case away, docking, docked }
        final class Boat {
            private(set) var dockState: Dock = .away
            private func allowed(from: Dock, to: Dock) -> Bool {
                switch (from, to) {
                case (.away, .docking), (.docking, .docked): return true
                default: return false
                }
            }
            func approach() { guard allowed(from: dockState, to: .docking) else { return }; dockState = .docking }
            func tieUp() { guard allowed(from: dockState, to: .docked) else { return }; dockState = .docked }
        }
        """)
        let printer = try a.machine("Printer.job")
        XCTAssertEqual(printer.moves, ["waiting -run()-> printing", "jammed -run()-> printing", "printing -jam()-> jammed",
                                       "printing -finish()-> waiting"])
        let request = try a.machine("Request.stage")
        XCTAssertEqual(request.moves, ["asked -grant()-> granted", "granted -take()-> taken"])
        let dimmer = try a.machine("Dimmer.glow")
        XCTAssertEqual(dimmer.moves, ["dark -brighten()-> faint", "full -brighten()-> faint", "faint -dim()-> dark"])
        let boat = try a.machine("Boat.dockState")
        XCTAssertEqual(boat.moves, ["away -approach()-> docking", "docking -tieUp()-> docked"])
    }

    /// The enum's static predicate given the state (`Tide.canTransition(from: tide, to: next)`); a TCA State's
    /// `Bool` reading another (`canSend { isDraft && !text.isEmpty }`); `BindingReducer().onChange(of:)`,
    /// whose reducer runs on `binding` alone.
    func testStaticPredicatesNestedStateBoolsAndBindingChanges() throws {
        let a = Analysed.source("""
        import ComposableArchitecture
        enum Tide {
            case low, rising, high
            static func canTransition(from: Tide, to: Tide) -> Bool {
                switch (from, to) {
                case (.low, .rising), (.rising, .high), (.high, .low): return true
                default: return false
                }
            }
        }
        final class Harbour {
            private(set) var tide: Tide = .low
            private func turn(to next: Tide) { guard Tide.canTransition(from: tide, to: next) else { return }; tide = next }
            func flood() { turn(to: .rising) }
            func peak() { turn(to: .high) }
            func ebb() { turn(to: .low) }
        }
        @Reducer struct Memo {
          @ObservableState struct State: Equatable {
            var post: Post = .draft
            var text = ""
            var query = ""
            var find: Find = .idle
            var isDraft: Bool { post == .draft }
            var canSend: Bool { isDraft && !text.isEmpty }
          }
          enum Post: Equatable { case draft, sending, sent }
          enum Find: Equatable { case idle, searching, found }
          enum Action: BindableAction { case binding(BindingAction<State>), send, sent, hits, clear }
          var body: some ReducerOf<Self> {
            BindingReducer()
              .onChange(of: \\.query) { _, query in
                Reduce { state, _ in
                  state.find = query.isEmpty ? .idle : .searching
                  return .none
                }
              }
            Reduce { state, action in
              switch action {
              case .send:
                guard state.canSend else { return .none }
                state.post = .sending
                return .none
              case .sent: state.post = .sent; return .none
              case .hits: state.find = .found; return .none
              case .clear: state.find = .idle; return .none
              case .binding: return .none
              }
            }
          }
        }
        """)
        let harbour = try a.machine("Harbour.tide")
        XCTAssertEqual(harbour.moves, ["low -flood()-> rising", "rising -peak()-> high", "high -ebb()-> low"])
        let post = try a.machine("Memo.post")
        XCTAssertFalse(post.moves.contains("sent -send-> sending"), "\(post.moves)")
        let find = try a.machine("Memo.find")
        XCTAssertFalse(find.moves.contains("found -clear-> searching"), "\(find.moves)")
        XCTAssertFalse(find.moves.contains("idle -hits-> searching"), "\(find.moves)")
        XCTAssertTrue(find.moves.isSuperset(of: ["idle -binding-> searching", "found -binding-> idle"]), "\(find.moves)")
    }

    /// GameplayKit states that enter the next state themselves, none overriding `isValidNextState`: the
    /// moves are those the `enter` calls make, not every pair.
    func testGameplayKitMovesAreTheEntersTheStatesMake() throws {
        let a = Analysed.source("""
        import GameplayKit
        final class Kiln { var hot = false }
        class KilnState: GKState { unowned let kiln: Kiln; init(kiln: Kiln) { self.kiln = kiln } }
        final class Loading: KilnState { func closeDoor() { stateMachine?.enter(Firing.self) } }
        final class Firing: KilnState { override func update(deltaTime s: TimeInterval) { if kiln.hot { stateMachine?.enter(Cooling.self) } } }
        final class Cooling: KilnState { override func update(deltaTime s: TimeInterval) { stateMachine?.enter(Loading.self) } }
        final class Workshop {
            let kiln = Kiln()
            lazy var cycle = GKStateMachine(states: [Loading(kiln: kiln), Firing(kiln: kiln), Cooling(kiln: kiln)])
            func open() { cycle.enter(Loading.self) }
        }
        """)
        let cycle = try a.machine("cycle")
        XCTAssertEqual(cycle.moves, ["Loading -*-> Firing", "Firing -*-> Cooling", "Cooling -*-> Loading"])
    }

    /// `c is Extra.Type || super.isValidNextState(c)`: the state's own moves and its ancestor's.
    func testGameplayKitSuperIsAskedWhereItIsCalled() throws {
        let a = Analysed.source("""
        import GameplayKit
        class Mood: GKState { override func isValidNextState(_ c: AnyClass) -> Bool { c is Calm.Type } }
        final class Calm: Mood {}
        final class Angry: Mood { override func isValidNextState(_ c: AnyClass) -> Bool { c is Sulking.Type || super.isValidNextState(c) } }
        final class Sulking: Mood {}
        final class Face {
            let moods = GKStateMachine(states: [Calm(), Angry(), Sulking()])
            init() { moods.enter(Angry.self) }
            func soothe() { moods.enter(Calm.self) }
            func provoke() { moods.enter(Angry.self) }
            func ignore() { moods.enter(Sulking.self) }
        }
        """)
        let moods = try a.machine("moods")
        XCTAssertEqual(moods.moves, ["Angry -*-> Calm", "Angry -*-> Sulking", "Sulking -*-> Calm"])
    }

    /// A TCA State's computed `Bool` guards the reducer (`guard state.canSend`); an optional field of
    /// data (`var lastPing: Double?`) may stay set: `some` is terminal, no dead end.
    func testATCAStatesPredicateGuardsAndADataOptionalMayStaySet() throws {
        let a = Analysed.source("""
        import ComposableArchitecture
        @Reducer struct Letter {
          @ObservableState struct State: Equatable {
            var post: Post = .draft
            var lastPing: Double?
            var canSend: Bool { post == .draft }
          }
          enum Post: Equatable { case draft, posting, posted }
          enum Action { case send, posted, ping(Double) }
          var body: some ReducerOf<Self> {
            Reduce { state, action in
              switch action {
              case .send:
                guard state.canSend else { return .none }
                state.post = .posting
                return .none
              case .posted: state.post = .posted; return .none
              case let .ping(t): state.lastPing = t; return .none
              }
            }
          }
        }
        """)
        let post = try a.machine("Letter.post")
        XCTAssertFalse(post.moves.contains("posted -send-> posting"), "\(post.moves)")
        XCTAssertTrue(post.findingSet.contains("dead_end_state posted"), "\(post.findingSet)")
        let ping = try a.machine("Letter.lastPing")
        XCTAssertEqual(ping.terminal, ["some"])
        XCTAssertFalse(ping.findings.contains { $0.check == "dead_end_state" }, "\(ping.findingSet)")
    }

    /// Legacy TCA: reducers combined as an array or as `.init { … }`, and `.binding()` with a view's
    /// `viewStore.binding(\.$field)`.
    func testLegacyCombinedArraysInitsAndBindings() throws {
        let a = Analysed.source("""
        import ComposableArchitecture
        import SwiftUI
        struct FanState: Equatable {
          var spin: Spin = .still
          @BindableState var speed: Speed = .low
          enum Spin: Equatable { case still, turning }
          enum Speed: Equatable { case low, high }
        }
        enum FanAction: BindableAction, Equatable { case binding(BindingAction<FanState>), flip }
        let fanReducer = Reducer<FanState, FanAction, Void>.combine([
          .init { state, action, _ in
            switch action {
            case .flip: state.spin = state.spin == .still ? .turning : .still; state.speed = .low; return .none
            case .binding: return .none
            }
          },
        ])
        .binding()
        struct FanView: View {
          let store: Store<FanState, FanAction>
          var body: some View { WithViewStore(store) { vs in Picker("s", selection: vs.binding(\\.$speed)) { Text("x") } } }
        }
        """)
        let spin = try a.machine("FanState.spin")
        XCTAssertEqual(spin.moves, ["still -flip-> turning", "turning -flip-> still"])
        let speed = try a.machine("FanState.speed")
        XCTAssertEqual(speed.moves, ["low -binding-> high", "high -binding-> low", "high -flip-> low"])
    }

    /// A `@Reducer` whose `body` is in an extension is no candidate left unread.
    func testAReducerBodyInAnExtensionLeavesNoNote() throws {
        let a = Analysed.source(["Chime.swift": """
        import ComposableArchitecture
        @Reducer struct Chime { enum Action { case strike, hush } }
        extension Chime {
          var body: some ReducerOf<Self> {
            Reduce { state, action in
              switch action {
              case .strike: state.tone = .ringing; return .none
              case .hush: state.tone = .silent; return .none
              }
            }
          }
        }
        """, "Chime+State.swift": """
        import ComposableArchitecture
        extension Chime {
          @ObservableState struct State: Equatable { var tone: Tone = .silent }
          enum Tone: Equatable { case silent, ringing }
        }
        """])
        _ = try a.machine("Chime.tone")
        XCTAssertFalse(a.diagnosticLines.contains { $0.contains("none was read") }, "\(a.diagnosticLines)")
    }

    /// A Harvest mapping typed by its annotation (`Harvester<In, St>.EffectMapping<…> = .makeInout { … }`):
    /// the state's cases are the written type's, its unused one unreachable.
    func testAHarvestMappingTakesItsStatesFromTheAnnotation() throws {
        let a = Analysed.source("""
        import Harvest
        enum Bulb { case off, on, fused }
        enum Flick { case up, down }
        let bulbMapping: Harvester<Flick, Bulb>.EffectMapping<Void, BasicEffectQueue, Never> = .makeInout { flick, bulb, _ in
            switch (flick, bulb) {
            case (.up, .off): bulb = .on; return .empty
            case (.down, _): bulb = .off; return .empty
            default: return nil
            }
        }
        let bulbHarvester = Harvester<Flick, Bulb>(state: .off, inputs: subject, mapping: bulbMapping, world: ())
        """)
        let bulb = try a.machine("bulbHarvester")
        XCTAssertEqual(bulb.states, ["off", "on", "fused"])
        XCTAssertEqual(bulb.moves, ["off -up-> on", "on -down-> off", "fused -down-> off"])
        XCTAssertTrue(bulb.findingSet.contains("unreachable_state fused"), "\(bulb.findingSet)")
    }

    /// Transitions registered with a trailing closure (`fsm.on(.e, from: .a, to: .b) { … }`): the rows,
    /// the closure their effect.
    func testRegistrationsWithTrailingClosures() throws {
        let a = Analysed.source("""
        final class Flow<S: Hashable, E: Hashable> { init(start: S) {}
          func on(_ e: E, from: S, to: S, run: (() -> Void)? = nil) {} }
        enum Tape { case idle, rolling, held }
        enum Key { case play, hold, eject }
        final class Deck {
            let flow = Flow<Tape, Key>(start: .idle)
            init() {
                flow.on(.play, from: .idle, to: .rolling) { print("motor") }
                flow.on(.hold, from: .rolling, to: .held)
                flow.on(.eject, from: .held, to: .idle) { print("out") }
            }
        }
        """)
        let deck = try a.machine("flow")
        XCTAssertEqual(deck.moves, ["idle -play-> rolling", "rolling -hold-> held", "held -eject-> idle"])
        XCTAssertNotNil(deck.effectLabel("idle", "play", "rolling"))
    }

    /// A SwiftNIO handler's event unwrapped from its parameter and switched over: its cases are inputs.
    func testAnUnwrappedHandlerEventGivesItsCasesAsInputs() throws {
        let a = Analysed.source("""
        import NIOCore
        import NIOHTTP1
        final class UploadHandler: ChannelInboundHandler {
            typealias InboundIn = HTTPServerRequestPart
            enum Stage { case waiting, receiving, replying }
            private var stage: Stage = .waiting
            func channelRead(context: ChannelHandlerContext, data: NIOAny) {
                let part = self.unwrapInboundIn(data)
                switch part {
                case .head(let head):
                    guard stage == .waiting else { return }
                    _ = head
                    stage = .receiving
                case .body:
                    break
                case .end:
                    if stage == .receiving { stage = .replying }
                }
            }
            func replied() { if stage == .replying { stage = .waiting } }
        }
        """)
        let upload = try a.machine("UploadHandler.stage")
        XCTAssertEqual(upload.inputs, ["head", "body", "end", "replied()"])
        XCTAssertEqual(upload.moves, ["waiting -head-> receiving", "receiving -end-> replying", "replying -replied()-> waiting"])
    }

    /// A subclass writing its superclass's state is a machine of its own, with the methods it inherits.
    func testASubclassWritingItsSuperclassesStateIsItsMachine() throws {
        let a = Analysed.source("""
        enum Brew { case cold, heating, ready }
        class Kettle {
            var brew: Brew = .cold
            func heat() { if brew == .cold { brew = .heating } }
            func empty() { brew = .cold }
        }
        final class SmartKettle: Kettle {
            func sensorHot() { if brew == .heating { brew = .ready } }
        }
        class Screen { var stage: Brew = .cold }
        final class Timer: Screen {
            func go() { guard stage == .cold else { return }; stage = .heating }
            func ring() { if stage == .heating { stage = .ready } }
        }
        """)
        let smart = try a.machine("SmartKettle.brew")
        XCTAssertEqual(smart.moves, ["cold -heat()-> heating", "heating -sensorHot()-> ready", "heating -empty()-> cold", "ready -empty()-> cold"])
        XCTAssertEqual(smart.initial, "cold")
        let timer = try a.machine("Timer.stage")
        XCTAssertEqual(timer.moves, ["cold -go()-> heating", "heating -ring()-> ready"])
    }

    /// A loop over a range that is not empty runs at least once (no path skips it); `phase == .some(.x)` on an optional
    /// state tests for `.x`.
    func testNonEmptyLoopsAndSomeComparisons() throws {
        let a = Analysed.source("""
        enum Dial { case idle, ringing, connected }
        final class Caller {
            var dial: Dial = .idle
            func call() {
                guard dial == .idle else { return }
                for _ in 1...3 { dial = .ringing }
            }
            func pickUp() { if dial == .ringing { dial = .connected } }
            func hangUp() { dial = .idle }
        }
        enum Lift { case ground, first, second }
        final class Elevator {
            var floor: Lift?
            func power() { if floor == nil { floor = .ground } }
            func up() { if floor == .ground { floor = .first } }
            func express() { if floor == .some(.first) { floor = .second } }
        }
        """)
        let caller = try a.machine("Caller.dial")
        XCTAssertTrue(caller.moves.contains("idle -call()-> ringing"), "\(caller.moves)")
        XCTAssertFalse(caller.findings.contains { $0.check == "data_dependent_target" }, "\(caller.findingSet)")
        let elevator = try a.machine("Elevator.floor")
        XCTAssertTrue(elevator.moves.contains("first -express()-> second"), "\(elevator.moves)")
        XCTAssertFalse(elevator.moves.contains("ground -express()-> second"), "\(elevator.moves)")
    }
}
