@testable import MachineExtraction
import MachineModel
import XCTest

final class MappingFunctionTests: XCTestCase {
    func testCheckoutExample() throws {
        let (machines, _) = Fixture.analyze([Fixture.example("mapping/Checkout.swift")])
        let m = try XCTUnwrap(machines.named("checkout"))
        XCTAssertEqual(m.dialect, .mappingFunction)
        XCTAssertEqual(m.initial, "browsing")
        XCTAssertEqual(m.transitions, [
            "browsing -openCart-> reviewingCart", "reviewingCart -closeCart-> browsing", "enteringPayment -closeCart-> browsing",
            "reviewingCart -proceed-> enteringPayment", "enteringPayment -submit-> processing",
            "processing -approved-> confirmed", "processing -rejected-> declined",
            "declined -startOver-> browsing", "confirmed -startOver-> browsing",
        ])
        XCTAssertEqual(m.selfLoops, [], "`return nil` is a failed transition, not a self-loop")
        let submit = try XCTUnwrap(m.rules.first { $0.inputs == ["submit"] })
        XCTAssertEqual(submit.displayGuard, "!card.isEmpty")
        XCTAssertEqual(m.findings, [])
    }

    func testInoutFormTupleOrderAndDefaultBreakIsASelfLoop() throws {
        let (machines, _) = try Fixture.analyze(source: """
        enum Phase { case cold, heating, boiling }
        enum Knob { case on, reached, off, descale }
        let em = Harvester<Knob, Phase>.Mapping.makeInout { knob, st in
            switch (st.phase, knob) {
            case (.cold, .on): st.phase = .heating
            case (.heating, .reached): st.phase = .boiling
            case (.heating, .off), (.boiling, .off): st.phase = .cold
            default: break
            }
        }
        """)
        let m = try XCTUnwrap(machines.first)
        XCTAssertEqual(m.transitions, ["cold -on-> heating", "heating -reached-> boiling", "heating -off-> cold", "boiling -off-> cold"])
        XCTAssertTrue(m.selfLoops.contains("cold -descale-> cold"), "Mapping.makeInout: default is a successful self-loop")
        XCTAssertTrue(m.findingKeys.contains("unused_input descale"))
    }
}

final class SwitchMethodTests: XCTestCase {
    func testTrafficLightExample() throws {
        let (machines, _) = Fixture.analyze([Fixture.example("switch/TrafficLight.swift")])
        let m = try XCTUnwrap(machines.named("Crossing.light"))
        XCTAssertEqual(m.dialect, .switchMethod)
        XCTAssertEqual(m.initial, "red")
        XCTAssertEqual(m.terminal, ["off"], "`// machine-viz: terminal` on the case")
        XCTAssertTrue(m.transitions.isSuperset(of: [
            "red -timer-> redAmber", "green -timer-> amber", "flashingAmber -repair-> red", "amber -fault-> flashingAmber",
            "off -powerCut-> off", "green -powerCut-> off",
        ].filter { !$0.hasPrefix("off") }))
        XCTAssertTrue(m.transitions.contains("flashingAmber -repair-> red"), "assignment inside a private helper method")
        XCTAssertEqual(m.findingKeys, ["shadowed_rule line:35"])
    }

    func testEventFirstSwitchWithStateGuardsAndEnumsInAnotherFile() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("mv-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("Model"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try "enum DoorState { case closed, open, locked }\nenum DoorEvent { case push, pull, lock, unlock(code: Int) }\n"
            .write(to: dir.appendingPathComponent("Model/Types.swift"), atomically: true, encoding: .utf8)
        // `Model/` is a module of its own (a top folder of the given path): Door's file imports it
        try """
        import Model

        struct Door {
            var state: DoorState = .closed
            let code = 42
            mutating func send(_ event: DoorEvent) {
                switch event {
                case .push:
                    if state == .closed { state = .open }
                case .pull:
                    guard case .open = self.state else { return }
                    self.state = .closed
                case .lock where state == .closed:
                    state = .locked
                case let .unlock(entered):
                    switch state {
                    case .locked:
                        state = entered == code ? .closed : .locked
                    default:
                        break
                    }
                default:
                    return
                }
            }
        }
        """.write(to: dir.appendingPathComponent("Door.swift"), atomically: true, encoding: .utf8)
        let (machines, _) = Fixture.analyze([dir.path])
        let m = try XCTUnwrap(machines.named("Door.state"))
        XCTAssertEqual(m.inputs, ["push", "pull", "lock", "unlock"])
        XCTAssertEqual(m.transitions, ["closed -push-> open", "open -pull-> closed", "closed -lock-> locked", "locked -unlock-> closed"])
        // `entered == code ? .closed : .locked`: two targets chosen by the payload
        XCTAssertEqual(m.findingKeys, ["data_dependent_target locked/unlock"])
        let unlock = try XCTUnwrap(m.rules.first { $0.inputs == ["unlock"] && !$0.targets.isEmpty })
        XCTAssertEqual(unlock.targets, ["closed", "locked"])
    }
}

final class SelfEnumMachineTests: XCTestCase {
    func testEnumsThatAreTheirOwnMachineAndIfConfigCases() throws {
        let (machines, _) = Fixture.analyze([Fixture.path("self_enum")])
        let traffic = try XCTUnwrap(machines.named("Traffic"))
        XCTAssertEqual(traffic.initial, "off", "`// machine-viz: initial` on the case")
        XCTAssertEqual(traffic.transitions, [
            "red -next-> green", "green -next-> yellow", "yellow -next-> red",
            "red -power-> off", "green -power-> off", "yellow -power-> off",
            "off -next-> red",   // inside `#if DEBUG`: in debug builds
        ])
        // (the `default` takes `(off, next)` in other builds: not shadowed)
        XCTAssertEqual(traffic.findingKeys, [])
        let phase = try XCTUnwrap(machines.named("Phase"))
        XCTAssertEqual(phase.transitions, ["a -go-> b"], "`e == .go ? .b : nil`: nil is a failed transition")
        XCTAssertEqual(phase.findingKeys, ["dead_end_state b"], "no initial state, but `b` is entered and never left")
    }
}

final class HelperSetterTests: XCTestCase {
    /// `transition(to: .loading)`: the helper's parameter stands for the call's argument.
    func testHelperSetterParametersAreBoundToArguments() throws {
        let (machines, _) = Fixture.analyze([Fixture.path("switch_helper_setter")])
        let m = try XCTUnwrap(machines.named("Player.state"))
        XCTAssertEqual(m.transitions, [
            "idle -play-> loading", "failed -play-> loading", "loading -loaded-> playing",
            "idle -error-> failed", "loading -error-> failed", "playing -error-> failed",
            "loading -stop-> idle", "playing -stop-> idle", "failed -stop-> idle",
        ])
        XCTAssertEqual(m.findings, [])
    }
}

/// Shapes of state machines in server code (SwiftNIO style), with made-up identifiers: the state is
/// changed by a helper whose call is the method's `return` value, or inside a closure a helper calls
/// with the state `inout` (the pattern that avoids copy-on-write of an enum's payload).
final class ReturnedHelperTests: XCTestCase {
    /// `return self.fail(…)`: the helper assigns the state and gives the action back; its call runs
    /// before the method returns, at the top of the method and inside another walked helper.
    func testAHelperCalledInAReturnChangesTheState() throws {
        let (machines, _) = try Fixture.analyze(source: """
        enum Step { case idle, waiting, done, failed }
        enum Reply { case ok, refused, garbled }
        enum Action { case none, report, hangUp }
        struct Handshake {
            private var step: Step = .idle
            mutating func receive(_ reply: Reply) -> Action {
                switch (self.step, reply) {
                case (.idle, _): self.step = .waiting; return .none
                case (.waiting, .ok): self.step = .done; return .none
                case (.waiting, .refused): return self.fail()
                case (.waiting, .garbled): return self.reject()
                case (.done, _), (.failed, _): return .none
                }
            }
            private mutating func reject() -> Action { return self.fail() }
            private mutating func fail() -> Action {
                self.step = .failed
                return .report
            }
        }
        """)
        let m = try XCTUnwrap(machines.named("Handshake.step"))
        XCTAssertTrue(m.transitions.isSuperset(of: ["idle -ok-> waiting", "waiting -ok-> done", "waiting -refused-> failed", "waiting -garbled-> failed"]),
                      "\(m.transitions)")
        XCTAssertFalse(m.transitions.contains { $0.hasPrefix("waiting -refused->") && !$0.hasSuffix("failed") })
        XCTAssertFalse(m.selfLoops.contains("waiting -refused-> waiting"))
    }

    /// `self.modify { state in state = .open(…) }` where `modify` parks the state on a placeholder and
    /// hands it `inout` to the closure: the closure's assignment is the transition, not the placeholder.
    func testAClosureGivenTheStateInoutByAHelperAssignsIt() throws {
        let (machines, _) = try Fixture.analyze(source: """
        enum Link { case closed(Int), opening(Int), open(Int), parked }
        enum Signal { case dial, answer, drop }
        struct Line {
            private var link: Link = .closed(0)
            mutating func handle(_ signal: Signal) {
                switch (self.link, signal) {
                case (.closed(let n), .dial):
                    self.modify { link in link = .opening(n + 1) }
                case (.opening(let n), .answer):
                    return self.modify { $0 = .open(n) }
                case (.open(let n), .drop), (.opening(let n), .drop):
                    self.modify { (current: inout Link) in current = .closed(n) }
                case (.parked, _):
                    preconditionFailure("left parked")
                default:
                    break
                }
            }
            private mutating func modify<R>(_ body: (inout Link) -> R) -> R {
                self.link = .parked
                return body(&self.link)
            }
        }
        """)
        let m = try XCTUnwrap(machines.named("Line.link"))
        XCTAssertTrue(m.transitions.isSuperset(of: ["closed -dial-> opening", "opening -answer-> open", "open -drop-> closed", "opening -drop-> closed"]),
                      "\(m.transitions)")
        XCTAssertFalse(m.transitions.contains { $0.hasSuffix("-> parked") }, "the placeholder is overwritten before the method returns: \(m.transitions)")
        XCTAssertFalse(m.findingKeys.contains { $0.hasPrefix("dead_end_state") }, "\(m.findingKeys)")
    }
}

final class SelfEnumMethodInputTests: XCTestCase {
    /// An enum that is its own machine, held in a stored property by a type that assigns the property
    /// itself (`gate = .removed` in `tearDown()`): that type's methods are inputs too, so a state only it
    /// leaves is no dead end. A closure parameter named like the property is not the property.
    func testTheMethodsOfATypeHoldingASelfEnumThatAssignIt() throws {
        let (machines, diagnostics) = try Fixture.analyze(source: """
        enum Knock { case slam, lift }
        enum Gate {
            case shut, open, removed
            mutating func handle(_ knock: Knock) {
                switch (self, knock) {
                case (.shut, .lift): self = .open
                case (.open, .slam): self = .shut
                default: break
                }
            }
        }
        final class Yard {
            private var gate: Gate = .shut
            func tearDown() { gate = .removed }
            func rebuild() { self.modify { gate in gate = .shut } }
            func look() -> Bool { gate == .open }
            private func modify(_ body: (inout Gate) -> Void) { body(&self.gate) }
        }
        """)
        let m = try XCTUnwrap(machines.named("Gate"))
        XCTAssertEqual(Set(m.inputs), ["slam", "lift", "Yard.tearDown()", "Yard.rebuild()"])
        XCTAssertTrue(m.transitions.isSuperset(of: ["shut -lift-> open", "open -Yard.tearDown()-> removed", "removed -Yard.rebuild()-> shut"]),
                      "\(m.transitions)")
        XCTAssertFalse(m.partial)
        XCTAssertFalse(diagnostics.contains { $0.message.contains("also written here") }, "\(diagnostics.map(\.message))")
    }

    /// An enum that is its own machine changes `self` in its event method and in mutating methods
    /// without an event (`mutating func dial()`): those are inputs of their own, as for a stored
    /// property's machine, so a state they leave is no dead end. One that never changes `self` adds nothing.
    func testOtherMutatingMethodsOfASelfEnumAreInputs() throws {
        let (machines, _) = try Fixture.analyze(source: """
        enum Cause { case timeout, refused }
        enum Channel {
            case idle, dialling, up, gone
            mutating func dropped(_ cause: Cause) {
                switch (self, cause) {
                case (.up, _), (.dialling, .refused): self = .idle
                default: break
                }
            }
            mutating func dial() {
                switch self {
                case .idle: self = .dialling
                case .dialling, .up, .gone: break
                }
            }
            mutating func connected() { if case .dialling = self { self = .up } }
            mutating func close() { self = .gone }
            mutating func describe() -> String { switch self { case .up: return "up"; default: return "down" } }
        }
        """)
        let m = try XCTUnwrap(machines.named("Channel"))
        XCTAssertEqual(Set(m.inputs), ["timeout", "refused", "dial()", "connected()", "close()"], "describe() never changes self")
        XCTAssertTrue(m.transitions.isSuperset(of: ["idle -dial()-> dialling", "dialling -connected()-> up", "up -timeout-> idle", "up -close()-> gone"]),
                      "\(m.transitions)")
        XCTAssertEqual(m.findingKeys.filter { $0.hasPrefix("dead_end_state") }, ["dead_end_state gone"], "\(m.findingKeys)")
    }
}

/// Transition functions and event methods spelt without a `switch` over the pair: the catalogue writes
/// `switch (state, event)`, real code also nests the switches, tests with `if`, or hands the pair to a
/// function returning the next state.
final class SpellingTests: XCTestCase {
    /// `(S, E) -> S?` with nested switches (event first), and an `inout` form tested with `if case`:
    /// mapping functions by their written signature.
    func testATransitionFunctionIsReadByItsSignatureWhateverItSwitchesOn() throws {
        let (machines, _) = try Fixture.analyze(source: """
        enum Stage { case intro, consent, finished }
        enum Tap { case forward, leave }
        func advance(_ stage: Stage, after tap: Tap) -> Stage? {
            switch tap {
            case .forward:
                switch stage {
                case .intro: return .consent
                case .consent: return .finished
                case .finished: return nil
                }
            case .leave:
                return .finished
            }
        }
        func settle(_ stage: inout Stage, _ tap: Tap) {
            if case .leave = tap { stage = .finished }
            else if stage == .intro { stage = .consent }
        }
        func describe(_ stage: Stage, _ tap: Tap) -> String { "\\(stage) \\(tap)" }
        enum Chime { case ding }
        func ring(_ stage: inout Stage, on tap: Tap) -> Chime? {
            switch tap {
            case .leave: stage = .finished; return .ding
            case .forward: return nil
            }
        }
        """)
        let advance = try XCTUnwrap(machines.named("advance"))
        XCTAssertEqual(advance.transitions, ["intro -forward-> consent", "consent -forward-> finished", "intro -leave-> finished",
                                             "consent -leave-> finished"])
        let settle = try XCTUnwrap(machines.named("settle"))
        XCTAssertTrue(settle.transitions.isSuperset(of: ["intro -leave-> finished", "intro -forward-> consent", "consent -leave-> finished"]),
                      "\(settle.transitions)")
        XCTAssertFalse(settle.transitions.contains("consent -forward-> finished"), "\(settle.transitions)")
        XCTAssertNil(machines.first { $0.name == "describe" }, "returns no state")
        // the inout form returning an effect
        let ring = try XCTUnwrap(machines.named("ring"))
        XCTAssertEqual(ring.transitions, ["intro -leave-> finished", "consent -leave-> finished"])
    }

    /// A closure annotated with a function type, typealiases and their generic arguments followed (`let
    /// step: Step<Gate, Push> = { gate, push in … }`, `typealias Step<S, E> = (inout S, E) -> Void`), is a
    /// transition function like a function of that signature: the parameter it assigns is the state.
    func testAClosureTypedByAFunctionAliasIsATransitionFunction() throws {
        let (machines, _) = try Fixture.analyze(source: """
        typealias Step<S, E> = (inout S, E) -> Void
        typealias Next<S, E> = (S, E) -> S
        enum Gate { case shut, ajar, wide }
        enum Push { case nudge, shove, slam }
        let swing: Step<Gate, Push> = { gate, push in
            switch push {
            case .nudge: if gate == .shut { gate = .ajar }
            case .shove: gate = .wide
            case .slam: gate = .shut
            }
        }
        let settle: Next<Gate, Push> = { gate, push in
            switch push {
            case .slam: return .shut
            case .nudge, .shove: return gate == .shut ? .ajar : gate
            }
        }
        """)
        let swing = try XCTUnwrap(machines.named("swing"))
        XCTAssertEqual(swing.states, ["shut", "ajar", "wide"])
        XCTAssertEqual(swing.inputs, ["nudge", "shove", "slam"])
        XCTAssertTrue(swing.transitions.isSuperset(of: ["shut -nudge-> ajar", "ajar -shove-> wide", "wide -slam-> shut"]), "\(swing.transitions)")
        XCTAssertFalse(swing.transitions.contains("ajar -nudge-> ajar"))
        let settle = try XCTUnwrap(machines.named("settle"))
        XCTAssertTrue(settle.transitions.isSuperset(of: ["shut -nudge-> ajar", "wide -slam-> shut"]), "\(settle.transitions)")
    }

    /// A method of the input enum taking the state `inout` (`func apply(toState state: inout State)`, as
    /// Square's Workflow actions and home-grown event enums write it) is a transition function over `self`,
    /// declared in the enum or in an extension of it; so is a method of the state enum returning the next
    /// state that switches over its event and tests `self` in the cases.
    func testAnInputEnumsOwnStepIsATransitionFunction() throws {
        let (machines, _) = try Fixture.analyze(source: """
        struct Metronome {
            enum Beat { case still, ticking, done }
            enum Knob {
                case wind, release, jam
                func apply(toBeat beat: inout Metronome.Beat) -> Int? {
                    switch self {
                    case .wind: beat = .ticking
                    case .release: if case .ticking = beat { beat = .done }
                    case .jam: break
                    }
                    return nil
                }
            }
        }
        enum Loom { case idle, weaving }
        enum Shuttle { case throwIt, catchIt }
        extension Shuttle {
            func step(_ loom: inout Loom) {
                if self == .throwIt, loom == .idle { loom = .weaving }
                if self == .catchIt { loom = .idle }
            }
            func label(_ text: inout String) { text = "shuttle" }
        }
        enum Wick {
            case dark, lit
            func after(_ move: Flint) -> Wick {
                switch move {
                case .strike: return self == .dark ? .lit : .dark
                case .snuff: return .dark
                }
            }
        }
        enum Flint { case strike, snuff }
        """)
        let knob = try XCTUnwrap(machines.named("apply"))
        XCTAssertEqual(knob.transitions, ["still -wind-> ticking", "done -wind-> ticking", "ticking -release-> done"])
        let shuttle = try XCTUnwrap(machines.named("step"))
        XCTAssertEqual(shuttle.transitions, ["idle -throwIt-> weaving", "weaving -catchIt-> idle"])
        // the state enum's own step over a `switch` on the event, testing `self` in its cases
        let wick = try XCTUnwrap(machines.named("Wick"))
        XCTAssertEqual(wick.transitions, ["dark -strike-> lit", "lit -strike-> dark", "lit -snuff-> dark"])
        XCTAssertEqual(machines.count, 3, "\(machines.map(\.name))")
    }

    /// An event method that tests its event with `if`s and `==` instead of a `switch`.
    func testAnEventMethodTestedWithIfsIsAMachine() throws {
        let (machines, _) = try Fixture.analyze(source: """
        final class Valve {
            enum Position { case shut, ajar, open }
            enum Turn { case left, right }
            private(set) var position: Position = .shut
            func turn(_ way: Turn) {
                if position == .shut && way == .left { position = .ajar }
                else if position == .ajar, way == .left { position = .open }
                else if way == .right { position = .shut }
            }
        }
        """)
        let m = try XCTUnwrap(machines.named("Valve.position"))
        XCTAssertEqual(m.initial, "shut")
        XCTAssertEqual(m.transitions, ["shut -left-> ajar", "ajar -left-> open", "ajar -right-> shut", "open -right-> shut"])
    }

    /// A parameter tested for something else than the state (an option) makes no event method.
    func testAnOptionTestedBesideTheStateIsNoEvent() throws {
        let (machines, _) = try Fixture.analyze(source: """
        final class Pipe {
            enum Phase { case fresh, live, shut }
            enum Squash { case off, on(Int) }
            private var phase: Phase = .fresh
            private var handlers: [Int] = []
            func begin(_ squash: Squash) {
                guard case .fresh = phase else { preconditionFailure("begun twice") }
                phase = .live
                if case .on(let level) = squash { handlers.append(level) }
            }
        }
        """)
        XCTAssertTrue(machines.isEmpty, "\(machines.map(\.name))")
    }

    /// `position = step(position, way)`: the property's machine walks the function that returns the next
    /// state, its parameters standing for the state and the event, and that function is no machine of its own.
    func testAnEventMethodHandingThePairToAFunctionReturningTheNextState() throws {
        let (machines, _) = try Fixture.analyze(source: """
        enum Position { case shut, ajar, open }
        enum Turn { case left, right }
        final class Valve {
            private(set) var position: Position = .shut
            func turn(_ way: Turn) { position = step(position, way) }
            private func step(_ from: Position, _ way: Turn) -> Position {
                switch way {
                case .left: switch from { case .shut: return .ajar; default: return .open }
                case .right: return from == .open ? .ajar : .shut
                }
            }
        }
        """)
        let m = try XCTUnwrap(machines.named("Valve.position"))
        XCTAssertEqual(m.initial, "shut")
        XCTAssertEqual(m.transitions, ["shut -left-> ajar", "ajar -left-> open", "open -right-> ajar", "ajar -right-> shut"])
        XCTAssertNil(machines.first { $0.name.hasSuffix("step") }, "\(machines.map(\.name))")
    }

    /// Reducers of a struct state outside any framework: a function of an `inout` state and an action, a
    /// function returning a changed copy of its state (reading the old one through its parameter), and a
    /// store's method that switches over its action and assigns its stored state's fields. Each gives a
    /// machine per field, as a TCA reducer does.
    func testPlainReducersOfAStructStateGiveAMachinePerField() throws {
        let (machines, _) = try Fixture.analyze(source: """
        struct Panel { var mode: Mode = .closed; var dirty = false }
        enum Mode { case closed, editing, saving }
        enum Gesture { case open, save, saved }
        func apply(_ panel: inout Panel, _ gesture: Gesture) {
            switch gesture {
            case .open: panel.mode = .editing
            case .save: panel.mode = .saving
            case .saved: panel.mode = .closed
            }
        }
        struct Sheet { var mode: Mode = .closed; var dirty = false }
        func step(_ sheet: Sheet, on gesture: Gesture) -> Sheet {
            var next = sheet
            switch gesture {
            case .open: next.mode = .editing; next.dirty = true
            case .save:
                guard sheet.mode == .editing else { return next }
                next.mode = .saving
            case .saved: next.mode = .closed; next.dirty = false
            }
            return next
        }
        final class Drawer {
            struct Contents { var mode: Mode = .closed }
            private(set) var contents = Contents()
            func dispatch(_ gesture: Gesture) {
                switch gesture {
                case .open: contents.mode = .editing
                case .save, .saved: contents.mode = .closed
                }
            }
        }
        func render(_ panel: inout Panel, _ gesture: Gesture) { print(panel, gesture) }
        """)
        let panel = try XCTUnwrap(machines.named("Panel.mode"))
        XCTAssertEqual(panel.initial, "closed")
        XCTAssertTrue(panel.transitions.isSuperset(of: ["closed -open-> editing", "editing -save-> saving", "saving -saved-> closed"]))
        let sheet = try XCTUnwrap(machines.named("Sheet.mode"))
        XCTAssertTrue(sheet.transitions.contains("editing -save-> saving"), "\(sheet.transitions)")
        XCTAssertFalse(sheet.transitions.contains("closed -save-> saving"), "the guard reads the state as it was: \(sheet.transitions)")
        XCTAssertTrue(sheet.rules.allSatisfy { $0.effect == nil }, "returning the copy is no effect")
        XCTAssertNotNil(machines.named("Sheet.dirty"))
        let drawer = try XCTUnwrap(machines.named("Drawer.mode"))
        XCTAssertEqual(drawer.transitions, ["closed -open-> editing", "saving -open-> editing", "editing -save-> closed", "saving -save-> closed",
                                            "editing -saved-> closed", "saving -saved-> closed"])
    }

    /// A method walked for an input that calls the event method with a case (`send(.succeeded)`, a view
    /// model's async work started by `Task`) takes only the branch of that case; a `catch` runs from the state its `do` began in.
    func testAnEventMethodCalledWithACaseTakesThatCaseAndCatchesRun() throws {
        let (machines, _) = try Fixture.analyze(source: """
        final class Uploader {
            enum Phase: Equatable { case idle, sending, sent, rejected }
            enum Event { case submit, accepted, refused }
            private(set) var phase: Phase = .idle
            func send(_ event: Event) {
                switch event {
                case .submit:
                    guard phase == .idle else { return }
                    phase = .sending
                    Task { await self.transfer() }
                case .accepted: phase = .sent
                case .refused: phase = .rejected
                }
            }
            private func transfer() async { send(.accepted) }
            func retry() {
                do {
                    try check()
                    phase = .sending
                } catch {
                    phase = .rejected
                }
            }
            private func check() throws {}
        }
        """)
        let m = try XCTUnwrap(machines.named("Uploader.phase"))
        // the task `submit` starts calls `transfer()`, which sends `.accepted`
        XCTAssertEqual(Set(m.edges.filter { $0.input == "submit task" }.map(\.to)), ["sent"], "\(m.transitions)")
        XCTAssertTrue(m.transitions.isSuperset(of: ["idle -retry()-> sending", "idle -retry()-> rejected", "sent -retry()-> rejected"]),
                      "\(m.transitions)")
    }

    /// An optional event (`_ chunk: Chunk?`, where `nil` ends the stream) is an event too: `nil` is an input
    /// of its own, taken by the `else` of `if let chunk` / `guard let chunk`.
    func testAnOptionalEventHasANilInput() throws {
        let (machines, _) = try Fixture.analyze(source: """
        final class Splitter {
            enum Stage { case waiting, inBody, done }
            enum Chunk { case head, body }
            private var stage: Stage = .waiting
            func receive(_ chunk: Chunk?) {
                switch stage {
                case .waiting:
                    if let chunk {
                        if case .head = chunk { stage = .inBody }
                    } else {
                        stage = .done
                    }
                case .inBody:
                    guard let chunk else { stage = .done; return }
                    if chunk == .head { stage = .waiting }
                case .done:
                    break
                }
            }
        }
        """)
        let m = try XCTUnwrap(machines.named("Splitter.stage"))
        XCTAssertEqual(m.inputs, ["head", "body", "nil"])
        XCTAssertEqual(m.transitions, ["waiting -head-> inBody", "waiting -nil-> done", "inBody -nil-> done", "inBody -head-> waiting"])
    }

    /// `state.page = state.following()` in a TCA reducer: the state's method that returns the next value
    /// is walked for it, with its own name for the field (`switch page`). Before, the input had no edge.
    func testAFieldAssignedWhatAMethodOfTheStateReturns() throws {
        let (machines, _) = try Fixture.analyze(source: """
        import ComposableArchitecture
        @Reducer
        struct Wizard {
            struct State: Equatable {
                var page: Page = .intro
                func following() -> Page {
                    switch page {
                    case .intro: return .details
                    case .details, .summary: return .summary
                    }
                }
            }
            enum Page: Equatable { case intro, details, summary }
            enum Action { case next, restart }
            var body: some ReducerOf<Self> {
                Reduce { state, action in
                    switch action {
                    case .next: state.page = state.following(); return .none
                    case .restart: state.page = .intro; return .none
                    }
                }
            }
        }
        """)
        let m = try XCTUnwrap(machines.named("Wizard.page"))
        XCTAssertEqual(m.transitions, ["intro -next-> details", "details -next-> summary", "details -restart-> intro", "summary -restart-> intro"])
    }

    /// `state.phase = advance(state.phase, on: action)` with a free function: the one function the callee
    /// names is walked for its value (it is also a mapping machine of its own, by its signature).
    func testAFieldAssignedWhatAFreeFunctionReturns() throws {
        let (machines, _) = try Fixture.analyze(source: """
        import ComposableArchitecture
        enum Phase: Equatable { case idle, busy, done }
        func advance(_ phase: Phase, on action: Job.Action) -> Phase {
            switch (phase, action) {
            case (.idle, .start): return .busy
            case (.busy, .finish): return .done
            default: return phase
            }
        }
        @Reducer
        struct Job {
            struct State: Equatable { var phase: Phase = .idle }
            enum Action { case start, finish }
            var body: some ReducerOf<Self> {
                Reduce { state, action in
                    state.phase = advance(state.phase, on: action)
                    return .none
                }
            }
        }
        """)
        let m = try XCTUnwrap(machines.named("Job.phase"))
        XCTAssertEqual(m.transitions, ["idle -start-> busy", "busy -finish-> done"])
        XCTAssertNotNil(machines.named("advance"))
    }

    /// A state property without a default value takes its initial state from the type's initializers when
    /// they all assign it the same case; when they differ, there is none.
    func testTheInitialStateComesFromTheInitializers() throws {
        let (machines, _) = try Fixture.analyze(source: """
        enum Ping { case send, answer }
        struct Probe {
            enum Link { case down, waiting, up }
            private var link: Link
            init() { self.link = .down }
            init(label: String) { print(label); self.link = .down }
            mutating func handle(_ ping: Ping) {
                switch (link, ping) {
                case (.down, .send): link = .waiting
                case (.waiting, .answer): link = .up
                default: break
                }
            }
        }
        struct Relay {
            enum Link { case down, waiting, up }
            private var link: Link
            init() { link = .down }
            init(warm: Bool) { link = .up }
            mutating func handle(_ ping: Ping) {
                if link == .down && ping == .send { link = .waiting }
            }
        }
        """)
        XCTAssertEqual(try XCTUnwrap(machines.named("Probe.link")).initial, "down")
        XCTAssertNil(try XCTUnwrap(machines.named("Relay.link")).initial)
    }
}

final class MethodMachineTests: XCTestCase {
    /// A state pattern whose one method takes an event (`func handle(_ signal: Signal, in crane: Crane)`):
    /// each case of the event is an input, told apart by each state's `switch` over it (`default` taking
    /// the others) or its `if signal == .x`; the rest of the method runs for every event.
    func testAStatePatternsEventCasesAreItsInputs() throws {
        let (machines, _) = try Fixture.analyze(source: """
        enum Signal { case hoist, lower, halt }
        protocol CraneState { func handle(_ signal: Signal, in crane: Crane) }
        struct Parked: CraneState {
            func handle(_ signal: Signal, in crane: Crane) {
                switch signal {
                case .hoist: crane.craneState = Lifting()
                default: break
                }
            }
        }
        struct Lifting: CraneState {
            func handle(_ signal: Signal, in crane: Crane) {
                switch signal {
                case .hoist: break
                case .lower: crane.craneState = Lowering()
                case .halt: crane.craneState = Parked()
                }
            }
        }
        struct Lowering: CraneState {
            func handle(_ s: Signal, in crane: Crane) {
                if s == .hoist { crane.craneState = Lifting() }
                else if s == .halt { crane.craneState = Parked() }
            }
        }
        final class Crane {
            var craneState: CraneState = Parked()
            func send(_ s: Signal) { craneState.handle(s, in: self) }
        }
        """)
        let crane = try XCTUnwrap(machines.named("Crane.craneState"))
        XCTAssertEqual(crane.inputs, ["hoist", "lower", "halt"])
        XCTAssertEqual(crane.transitions, ["Parked -hoist-> Lifting", "Lifting -lower-> Lowering", "Lifting -halt-> Parked",
                                           "Lowering -hoist-> Lifting", "Lowering -halt-> Parked"])
        XCTAssertEqual(crane.findingKeys, [])
    }

/// Types whose methods are the events of a state property (`mutating func channelActive()`, `func
/// play()`), with no method taking an event parameter; and the walk of what such methods do.
    /// The object-oriented state pattern (made-up names): the types conforming to the protocol a property
    /// is typed by are the states, its methods the inputs, whether they set the holder's property or
    /// return the next state the holder assigns; a protocol whose methods return new values the holder
    /// never assigns (a builder) is none.
    func testTheStatePatternsConformingTypesAreTheStates() throws {
        let a = Analysed.source("""
        protocol TurnstileState {
            func coin(_ gate: Turnstile)
            func push(_ gate: Turnstile)
        }
        final class Turnstile {
            var state: TurnstileState = Locked()
            var fares = 0
            func coin() { state.coin(self) }
            func push() { state.push(self) }
            func service() { state = Broken() }
        }
        struct Locked: TurnstileState {
            func coin(_ gate: Turnstile) { gate.fares += 1; gate.state = Unlocked() }
            func push(_ gate: Turnstile) {}
        }
        struct Unlocked: TurnstileState {
            func coin(_ gate: Turnstile) {}
            func push(_ gate: Turnstile) { gate.state = gate.fares > 9 ? Broken() : Locked() }
        }
        struct Broken: TurnstileState {
            func coin(_ gate: Turnstile) {
                guard gate.fares > 99 else { return }
                gate.state = Locked()
            }
            func push(_ gate: Turnstile) {}
        }
        protocol BulbMode { func press() -> BulbMode }
        struct Dark: BulbMode { func press() -> BulbMode { Glow() } }
        struct Glow: BulbMode { func press() -> BulbMode { Dark() } }
        final class Bulb {
            private var mode: any BulbMode = Dark()
            func tap() { mode = mode.press() }
        }
        protocol Query { func filtered(_ f: String) -> Query }
        struct Plain: Query { func filtered(_ f: String) -> Query { Filtered() } }
        struct Filtered: Query { func filtered(_ f: String) -> Query { self } }
        final class Search { var query: Query = Plain(); func run() -> [String] { [] } }
        class Stage {
            unowned let play: Play
            init(play: Play) { self.play = play }
            func cue() {}
            func cut() {}
        }
        final class Rehearsal: Stage { override func cue() { play.move(to: Show(play: play)) } }
        final class Show: Stage {
            override func cut() { play.move(to: Rehearsal(play: play)) }
            override func cue() { play.move(to: Curtain(play: play)) }
        }
        final class Curtain: Stage {}
        final class Play {
            private(set) var stage: Stage!
            init() { stage = Rehearsal(play: self) }
            func move(to next: Stage) { stage = next }
        }
        """)
        XCTAssertEqual(a.machines.map(\.name), ["Turnstile.state", "Bulb.mode", "Play.stage"], "a builder's protocol is no machine")
        let gate = try a.machine("Turnstile.state")
        XCTAssertEqual(gate.states, ["Locked", "Unlocked", "Broken"])
        XCTAssertEqual(gate.inputs, ["coin", "push", "service"])
        XCTAssertEqual(gate.initial, "Locked")
        XCTAssertEqual(gate.moves, [
            "Locked -coin-> Unlocked", "Unlocked -push-> Locked", "Unlocked -push-> Broken",
            "Locked -service-> Broken", "Unlocked -service-> Broken", "Broken -coin-> Locked",
        ])
        // a write after a `guard` may not happen: `Broken` may stay
        XCTAssertNotNil(gate.edge("Broken", "coin", "Broken"))
        XCTAssertEqual(gate.findingSet, ["data_dependent_target Unlocked/push"])
        let bulb = try a.machine("Bulb.mode")
        XCTAssertEqual(bulb.moves, ["Dark -press-> Glow", "Glow -press-> Dark"])
        XCTAssertEqual(bulb.initial, "Dark")
        // a base class's subclasses, moved by the holder's method that sets its argument; the initial state
        // from the holder's initializer
        let play = try a.machine("Play.stage")
        XCTAssertEqual(play.states, ["Rehearsal", "Show", "Curtain"])
        XCTAssertEqual(play.initial, "Rehearsal")
        XCTAssertEqual(play.moves, ["Rehearsal -cue-> Show", "Show -cut-> Rehearsal", "Show -cue-> Curtain"])
    }

    /// A method that sets the state to its argument where a `switch` over both allows it (made-up names),
    /// for an enum and for a property: the cases that set it are the moves, the first match decides.
    func testValidatedMovesToAnArgumentAreAMachineWithoutInputs() throws {
        let a = Analysed.source("""
        enum ParcelError: Error { case refused }
        enum Parcel {
            case packed, sent, arrived, returned
            mutating func advance(to next: Parcel) throws {
                switch (self, next) {
                case (.packed, .sent), (.sent, .arrived), (.sent, .returned):
                    self = next
                case (.returned, _):
                    throw ParcelError.refused
                case (_, .packed):
                    self = next
                default:
                    throw ParcelError.refused
                }
            }
        }
        final class Kettle {
            enum Heat { case cold, warming, boiling }
            private(set) var heat: Heat = .cold
            func set(_ wanted: Heat) {
                switch (wanted, heat) {
                case (.warming, .cold), (.boiling, .warming), (.cold, _): heat = wanted
                default: print("ignored")
                }
            }
        }
        """)
        let parcel = try a.machine("Parcel.advance")
        XCTAssertNil(parcel.initial, "no holder says where it starts")
        XCTAssertEqual(parcel.moves, [
            "packed -*-> sent", "sent -*-> arrived", "sent -*-> returned", "arrived -*-> packed", "sent -*-> packed",
        ])
        XCTAssertEqual(Set(parcel.rules.compactMap(\.trigger)), ["advance()"])
        let kettle = try a.machine("Kettle.heat")
        XCTAssertEqual(kettle.initial, "cold")
        XCTAssertEqual(kettle.moves, ["cold -*-> warming", "warming -*-> boiling", "warming -*-> cold", "boiling -*-> cold"])
        XCTAssertEqual(kettle.findingSet, [])
        // the readable witness names the states a machine without inputs moves to
        let b = Analysed.source("""
        enum Fuse { case intact, blown
            mutating func change(to next: Fuse) { switch (self, next) { case (.intact, .blown): self = next; default: break } } }
        final class Box { var fuse: Fuse = .intact }
        """)
        let deadEnd = try XCTUnwrap(b.machine("Fuse.change").findings.first)
        XCTAssertEqual(deadEnd.triggers, ["to blown"])
        XCTAssertEqual(deadEnd.witness, ["*"])
    }

    /// An enum's allowed moves (made-up names): a property listing each case's next cases, a predicate
    /// over two values; a member of another name, or one the reader cannot read whole, is none.
    func testAnEnumsAllowedMovesAreAMachineWithoutInputs() throws {
        let a = Analysed.source("""
        enum Hatch {
            case sealed, cracking, open
            var nextStates: Set<Hatch> {
                switch self {
                case .sealed: return [.cracking]
                case .cracking: return [.open, .sealed]
                case .open: return []
                }
            }
        }
        final class Nest { var hatch: Hatch = .sealed }
        enum Ferry: Equatable {
            case docked, crossing, moored
            static func canMove(from: Ferry, to: Ferry) -> Bool {
                switch (to, from) {
                case (.crossing, .docked), (.crossing, .moored): true
                case (.docked, .crossing): true
                case (_, .crossing): false
                case (.moored, _): true
                default: false
                }
            }
        }
        enum Compass {
            case north, east, south, west
            var neighbours: [Compass] {
                switch self {
                case .north, .south: [.east, .west]
                case .east, .west: [.north, .south]
                }
            }
        }
        enum Tide {
            case low, high
            var nextTides: [Tide] {
                switch self {
                case .low: [.high]
                case .high: Tide.allCases
                }
            }
        }
        """)
        XCTAssertEqual(a.machines.map(\.name), ["Hatch.nextStates", "Ferry.canMove"])
        let hatch = try a.machine("Hatch.nextStates")
        XCTAssertEqual(hatch.dialect, .switchMethod)
        XCTAssertEqual(hatch.initial, "sealed", "its holder's starting value")
        XCTAssertEqual(hatch.moves, ["sealed -*-> cracking", "cracking -*-> open", "cracking -*-> sealed"])
        XCTAssertEqual(hatch.terminal, ["open"], "`case .open: return []` allows no move: an end by design")
        XCTAssertEqual(hatch.findingSet, [])
        let ferry = try a.machine("Ferry.canMove")
        XCTAssertNil(ferry.initial)
        // the source is the first parameter wherever the tuple puts it; the first matching case decides
        XCTAssertEqual(ferry.moves, ["docked -*-> crossing", "moored -*-> crossing", "crossing -*-> docked", "docked -*-> moored"])
        XCTAssertEqual(Set(ferry.rules.compactMap(\.trigger)), ["canMove()"])
    }

    func testTheMethodsOfAStateNamedPropertyAreItsEvents() throws {
        let (machines, _) = try Fixture.analyze(source: """
        struct KilnStateMachine {
            enum State { case cold, firing(target: Int), glazing, cracked }
            enum Order { case igniteBurner, nothing }
            private var state: State = .cold
            mutating func lit(target: Int) -> Order {
                switch self.state {
                case .cold:
                    self.state = .firing(target: target)
                    return .igniteBurner
                case .firing, .glazing, .cracked:
                    return .nothing
                }
            }
            mutating func reachedHeat() {
                switch self.state {
                case .firing: self.state = .glazing
                case .cold, .glazing, .cracked: break
                }
            }
            mutating func dropped() { self.state = .cracked }
        }
        final class Spinner {
            enum Phase { case still, spinning, braking }
            private(set) var phase: Phase = .still
            func spin() {
                guard phase != .spinning else { return }
                phase = .spinning
            }
            func brake() { if phase == .spinning { phase = .braking } }
            func settle() {
                switch phase {
                case .braking: phase = .still
                default: break
                }
            }
        }
        struct Pouch {
            enum Storage { case empty, one(Int), many([Int]) }
            var storage: Storage = .empty
            mutating func put(_ x: Int) {
                switch storage {
                case .empty: storage = .one(x)
                case .one(let y): storage = .many([y, x])
                case .many(var xs): xs.append(x); storage = .many(xs)
                }
            }
            mutating func empty() { storage = .empty }
        }
        enum HatchState {
            case ajar, shut, bolted
            mutating func shove() {
                switch self {
                case .ajar: self = .shut
                case .shut, .bolted: break
                }
            }
            mutating func bolt() { if case .shut = self { self = .bolted } }
        }
        """)
        let kiln = try XCTUnwrap(machines.named("KilnStateMachine.state"))
        XCTAssertEqual(kiln.initial, "cold")
        XCTAssertEqual(kiln.transitions, ["cold -lit()-> firing", "firing -reachedHeat()-> glazing", "cold -dropped()-> cracked",
                                          "firing -dropped()-> cracked", "glazing -dropped()-> cracked"])
        XCTAssertEqual(kiln.findingKeys, ["dead_end_state cracked"])
        let spinner = try XCTUnwrap(machines.named("Spinner.phase"))
        XCTAssertEqual(spinner.transitions, ["still -spin()-> spinning", "braking -spin()-> spinning", "spinning -brake()-> braking",
                                             "braking -settle()-> still"])
        let hatch = try XCTUnwrap(machines.named("HatchState"))
        XCTAssertEqual(hatch.transitions, ["ajar -shove()-> shut", "shut -bolt()-> bolted"])
        // an enum named as data, not as a state, is not a machine of its methods
        XCTAssertNil(machines.first { $0.name == "Pouch.storage" })
    }

    /// A state word is a whole word of the name.
    func testStateWordsAreWholeWordsOfTheName() {
        for name in ["state", "State", "_state", "connectionState", "HTTPState", "SubscriptionStatus", "ReadState", "lifecyclePhase",
                     "displayMode", "STAGE"] {
            XCTAssertTrue(SwitchMethodRecogniser.namedAsState(name), name)
        }
        for name in ["statement", "estate", "modest", "storage", "sign", "Backing", "stateless", "phases"] {
            XCTAssertFalse(SwitchMethodRecogniser.namedAsState(name), name)
        }
    }

    /// Overloads are inputs of their own, named in full; a type with one method that changes the state
    /// has no machine of its methods, unless it is named a state machine.
    func testOverloadedMethodsAreNamedInFull() throws {
        let (machines, _) = try Fixture.analyze(source: """
        struct TapState {}
        final class Faucet {
            enum Flow { case dry, running }
            private var flowState: Flow = .dry
            func open() { if flowState == .dry { flowState = .running } }
            func open(gently: Bool) { if flowState == .dry { flowState = .running } }
            func close() { flowState = .dry }
        }
        final class Lamp {
            enum Mode { case off, on }
            private var mode: Mode = .off
            func toggle() { mode = mode == .off ? .on : .off }
        }
        struct FuseStateMachine {
            enum State { case intact(Int), blown }
            private var state: State = .intact(0)
            mutating func surge() {
                switch self.state {
                case .intact(let n): self.state = n > 2 ? .blown : .intact(n + 1)
                case .blown: break
                }
            }
        }
        """)
        let faucet = try XCTUnwrap(machines.named("Faucet.flowState"))
        XCTAssertEqual(faucet.inputs, ["open()", "open(gently:)", "close()"])
        XCTAssertNil(machines.first { $0.name == "Lamp.mode" })
        // one method is enough in a type its author calls a state machine
        XCTAssertEqual(try XCTUnwrap(machines.named("FuseStateMachine.state")).transitions, ["intact -surge()-> blown"])
    }

    /// A state assigned only to be overwritten before the method returns (copy-on-write's placeholder),
    /// or held across an `await`, is transient: no rule leads there, and it is not reported unreachable.
    func testAStateHeldOnlyWhileAMethodRunsIsTransient() throws {
        let (machines, _) = try Fixture.analyze(source: """
        struct QueueStateMachine {
            enum State { case idle, holding([Int]), busy, closed }
            private var state: State = .idle
            mutating func push(_ x: Int) {
                switch self.state {
                case .idle: self.state = .holding([x])
                case .holding(var xs):
                    self.state = .busy
                    xs.append(x)
                    self.state = .holding(xs)
                case .busy, .closed: break
                }
            }
            mutating func close() { self.state = .closed }
        }
        actor Furnace {
            enum State { case off, warming, hot }
            private var state: State = .off
            func light() async {
                guard case .off = state else { return }
                state = .warming
                await Task.yield()
                state = .hot
            }
            func douse() { state = .off }
        }
        """)
        let queue = try XCTUnwrap(machines.named("QueueStateMachine.state"))
        XCTAssertEqual(queue.transient, ["busy"])
        XCTAssertFalse(queue.findingKeys.contains("unreachable_state busy"), "\(queue.findingKeys)")
        // an actor's method that waits is seen in the state it waits in: no passing state
        let furnace = try XCTUnwrap(machines.named("Furnace.state"))
        XCTAssertEqual(furnace.transient, [])
        XCTAssertEqual(furnace.transitions, ["off -light()-> warming", "warming -light() after yield()-> hot",
                                             "warming -douse()-> off", "hot -douse()-> off"])
        XCTAssertEqual(furnace.findingKeys, [])
    }

    /// A state every `switch` over the property traps in is never seen between calls: a local named like
    /// the state is a value, not the state, and a value read from it is none of those states; a method
    /// left in one (its write made by a closure) makes the machine partial, with a note.
    func testAStateEverySwitchTrapsInIsNeverSeenBetweenCalls() throws {
        let (machines, diagnostics) = try Fixture.analyze(source: """
        struct LoomStateMachine {
            enum State { case idle, weaving(Int), resting, borrowed }
            private var state: State = .idle
            private func step(_ rows: Int) -> (State, Bool) { rows > 3 ? (.resting, true) : (.weaving(rows), false) }
            mutating func weave() -> Bool {
                switch self.state {
                case .idle, .resting:
                    self.state = .weaving(0)
                    return true
                case .weaving(let rows):
                    self.state = .borrowed
                    let (state, done) = self.step(rows + 1)
                    self.state = state
                    return done
                case .borrowed:
                    fatalError("borrowed")
                }
            }
            mutating func stop() {
                switch self.state {
                case .weaving: self.state = .resting
                case .idle, .resting: break
                case .borrowed: preconditionFailure()
                }
            }
        }
        struct SpoolStateMachine {
            enum State { case empty, wound, lent }
            private var state: State = .empty
            private mutating func lending(_ body: (inout State) throws -> Void) rethrows {
                self.state = .lent
                try body(&self.state)
            }
            mutating func wind(_ spin: (inout State) throws -> Void) rethrows { try self.lending(spin) }
            mutating func unwind() {
                switch self.state {
                case .wound: self.state = .empty
                case .empty: break
                case .lent: fatalError()
                }
            }
        }
        """)
        let loom = try XCTUnwrap(machines.named("LoomStateMachine.state"))
        XCTAssertEqual(loom.transient, ["borrowed"])
        XCTAssertFalse(loom.edges.contains { $0.to == "borrowed" }, "\(loom.transitions)")
        XCTAssertTrue(loom.transitions.contains("weaving -weave()-> resting"), "\(loom.transitions)")
        XCTAssertFalse(loom.partial)
        let spool = try XCTUnwrap(machines.named("SpoolStateMachine.state"))
        XCTAssertTrue(spool.partial)
        XCTAssertFalse(spool.findingKeys.contains("dead_end_state lent"), "\(spool.findingKeys)")
        XCTAssertTrue(diagnostics.contains { $0.message.contains("ends some methods in 'lent'") }, "\(diagnostics.map(\.message))")
    }

    /// What such methods return is an action for their caller: an action enum's own `.cancel(…)` case is
    /// no cancellation, and a case that traps on states that cannot reach it is no shadowed rule.
    func testReturnedActionsAndTrappingCasesAreNoFindings() throws {
        let (machines, _) = try Fixture.analyze(source: """
        struct ValveStateMachine {
            enum State { case shut, opening, open }
            enum Action { case cancel(reason: String, retry: Bool), none }
            private var state: State = .shut
            mutating func timedOut() -> Action {
                switch self.state {
                case .opening:
                    self.state = .shut
                    return .cancel(reason: "slow", retry: false)
                case .shut, .open:
                    return .none
                }
            }
            mutating func begin() {
                guard case .shut = self.state else { return }
                self.state = .opening
                self.finish()
            }
            private mutating func finish() {
                switch self.state {
                case .opening: self.state = .open
                default: preconditionFailure("finishing in \\(self.state)")
                }
            }
        }
        """)
        let valve = try XCTUnwrap(machines.named("ValveStateMachine.state"))
        XCTAssertEqual(valve.findingKeys, ["dead_end_state open"], "\(valve.findings.map(\.message))")
        XCTAssertTrue(valve.rules.allSatisfy { $0.cancels.isEmpty })
    }

    /// A write before a `throw`, or before a `continue` in a `guard`'s else, stays written, and the loop
    /// runs again in the state written; a method called as a `switch` subject runs first.
    func testWritesBeforeThrowAndContinueAndCallsInASwitchSubject() throws {
        let (machines, _) = try Fixture.analyze(source: """
        struct Fault: Error {}
        final class Pipe {
            enum State { case idle, open, failed }
            private var state: State = .idle
            func open(ok: Bool) throws {
                guard case .idle = state else { return }
                if !ok { state = .failed; throw Fault() }
                state = .open
            }
            func reset() { state = .idle }
        }
        struct Siphon {
            enum State { case filling, drained, done }
            private var state: State = .filling
            mutating func next(_ levels: [Int]) -> Int? {
                while true {
                    switch self.state {
                    case .filling:
                        guard let first = levels.first else {
                            self.state = .drained
                            continue
                        }
                        return first
                    case .drained:
                        if levels.isEmpty { self.state = .done }
                        return nil
                    case .done:
                        return nil
                    }
                }
            }
            mutating func finish() { if case .drained = state { state = .done } }
        }
        final class Scanner {
            enum Outcome { case more, end }
            enum State { case idle, open, paused, done }
            private var state: State = .idle
            private func advance() -> Outcome {
                if case .idle = state { state = .open; return .more }
                return .end
            }
            func read() {
                switch self.advance() {
                case .more: break
                case .end: state = .done
                }
            }
            func pause() { if case .open = state { state = .paused } }
        }
        """)
        XCTAssertTrue(try XCTUnwrap(machines.named("Pipe.state")).transitions.contains("idle -open()-> failed"))
        let siphon = try XCTUnwrap(machines.named("Siphon.state"))
        // the loop goes on in the state the `continue` left
        XCTAssertTrue(siphon.transitions.isSuperset(of: ["filling -next()-> drained", "filling -next()-> done"]), "\(siphon.transitions)")
        XCTAssertFalse(siphon.findingKeys.contains("unreachable_state drained"), "\(siphon.findingKeys)")
        let scanner = try XCTUnwrap(machines.named("Scanner.state"))
        XCTAssertTrue(scanner.transitions.isSuperset(of: ["idle -read()-> open", "open -pause()-> paused"]), "\(scanner.transitions)")
    }

    /// An enum declared apart and held by several types is a vocabulary: each type's machine has the cases
    /// that type names, not the others reported unreachable in each.
    func testASharedEnumGivesEachTypeTheCasesItNames() throws {
        let (machines, _) = try Fixture.analyze(source: """
        enum LinkStatus { case waiting, linked, draining, gone }
        final class Uplink {
            private var status = LinkStatus.waiting
            func attach() { guard case .waiting = status else { return }; status = .linked }
            func detach() { if case .linked = status { status = .gone } }
        }
        final class Downlink {
            private var status = LinkStatus.waiting
            func attach() { guard case .waiting = status else { return }; status = .linked }
            func drain() { if case .linked = status { status = .draining } }
            func detach() { if case .draining = status { status = .gone } }
        }
        """)
        let up = try XCTUnwrap(machines.named("Uplink.status"))
        XCTAssertEqual(up.states, ["waiting", "linked", "gone"])
        XCTAssertFalse(up.findingKeys.contains("unreachable_state draining"))
        XCTAssertEqual(try XCTUnwrap(machines.named("Downlink.status")).states, ["waiting", "linked", "draining", "gone"])
    }

    /// An optional enum property is a machine with `nil` as a state of its own; `.x?`, `.some(.x)`, `.x`
    /// and `nil` patterns match it.
    func testAnOptionalEnumPropertyHasNilAsAState() throws {
        let (machines, diagnostics) = try Fixture.analyze(source: """
        enum Swell { case calm, rising, breaking }
        enum Wind { case gust, lull }
        final class Jetty {
            private(set) var swell: Swell?
            func feel(_ w: Wind) {
                switch (swell, w) {
                case (nil, _): swell = .calm
                case (.calm?, .gust): swell = .rising
                case (.some(.rising), .gust): swell = .breaking
                case (.breaking, .lull): swell = nil
                default: break
                }
            }
        }
        enum Brew { case steeping, poured }
        final class Teapot {
            private var brewState: Brew? = nil
            func fill() { guard brewState == nil else { return }; brewState = .steeping }
            func pour() { if case .steeping = brewState { brewState = .poured } }
            func rinse() { brewState = nil }
        }
        """)
        let jetty = try XCTUnwrap(machines.named("Jetty.swell"))
        XCTAssertEqual(jetty.states, ["nil", "calm", "rising", "breaking"])
        XCTAssertEqual(jetty.initial, "nil")
        XCTAssertEqual(jetty.transitions, ["nil -gust-> calm", "nil -lull-> calm", "calm -gust-> rising", "rising -gust-> breaking",
                                           "breaking -lull-> nil"])
        let teapot = try XCTUnwrap(machines.named("Teapot.brewState"))
        XCTAssertEqual(teapot.initial, "nil")
        XCTAssertEqual(teapot.transitions, ["nil -fill()-> steeping", "steeping -pour()-> poured", "steeping -rinse()-> nil",
                                            "poured -rinse()-> nil"])
        XCTAssertEqual(diagnostics.map(\.message), [])
    }

    /// A generic machine whose methods are declared in an extension that binds its parameters
    /// (`extension Dial where S == Notch`) holds the bound enum.
    func testAGenericStateBoundByAConstrainedExtension() throws {
        let (machines, _) = try Fixture.analyze(source: """
        enum Notch { case low, mid, high }
        enum Twist { case up, down }
        struct Dial<S, E> { private(set) var s: S }
        extension Dial where S == Notch, E == Twist {
            mutating func turn(_ e: E) {
                switch (s, e) {
                case (.low, .up): s = .mid
                case (.mid, .up): s = .high
                case (.high, .down), (.mid, .down): s = .low
                default: break
                }
            }
        }
        """)
        let dial = try XCTUnwrap(machines.named("Dial.s"))
        XCTAssertEqual(dial.states, ["low", "mid", "high"])
        XCTAssertEqual(dial.transitions, ["low -up-> mid", "mid -up-> high", "high -down-> low", "mid -down-> low"])
    }

    /// A holder's method that only hands its argument to the enum's own event method sends the enum's
    /// events: no input of its own, and the holder's starting value is the initial state.
    func testAHolderForwardingToTheEnumsEventMethodIsNoInputOfItsOwn() throws {
        let (machines, _) = try Fixture.analyze(source: """
        enum Sluice {
            case sealed, filling, open
            func after(_ c: Crank) -> Sluice? {
                switch (self, c) {
                case (.sealed, .wind): return .filling
                case (.filling, .wind): return .open
                case (_, .release): return .sealed
                default: return nil
                }
            }
        }
        enum Crank { case wind, release }
        final class Lock {
            private(set) var sluice: Sluice = .sealed
            func crank(_ c: Crank) {
                guard let next = sluice.after(c) else { return }
                sluice = next
            }
            func flood() { sluice = .open }
        }
        enum Latch {
            case up, down
            func flipped(by k: Knock) -> Latch { switch (self, k) { case (.up, .tap): return .down; case (.down, .tap): return .up } }
        }
        enum Knock { case tap }
        final class Gate {
            var latch = Latch.down
            func knock(_ k: Knock) { latch = latch.flipped(by: k) }
        }
        """)
        let sluice = try XCTUnwrap(machines.named("Sluice"))
        XCTAssertEqual(sluice.inputs, ["wind", "release", "Lock.flood()"])
        XCTAssertEqual(sluice.initial, "sealed")
        XCTAssertTrue(sluice.transitions.isSuperset(of: ["sealed -wind-> filling", "filling -wind-> open", "open -release-> sealed",
                                                         "sealed -Lock.flood()-> open"]), "\(sluice.transitions)")
        let latch = try XCTUnwrap(machines.named("Latch"))
        XCTAssertEqual(latch.inputs, ["tap"])
        XCTAssertEqual(latch.initial, "down")
        XCTAssertFalse(latch.findings.contains { $0.check == "data_dependent_target" })
    }

    /// `defer` runs on every way out of its block; an endless loop that tries something is left by the
    /// error; a condition in parentheses is read; an enum's computed successor (`var next: Self`) is
    /// followed and counts as a test of the state.
    func testDeferEndlessLoopsParenthesesAndSuccessors() throws {
        let (machines, _) = try Fixture.analyze(source: """
        final class Kettle {
            enum BoilState { case cold, boiling, whistling }
            private(set) var state: BoilState = .cold
            func boil() async {
                guard (state == .cold) else { return }
                state = .boiling
                defer { if state == .boiling { state = .cold } }
                do { try await Task.sleep(nanoseconds: 9) } catch { state = .whistling }
            }
            func reset() { state = .cold }
        }
        actor Reel {
            enum Phase { case wound, spinning, snapped }
            private(set) var phase: Phase = .wound
            func spin() async throws {
                guard phase == .wound else { return }
                phase = .spinning
                defer { phase = .snapped }
                repeat { try await Task.sleep(nanoseconds: 9) } while true
            }
            func rewind() { if phase == .snapped { phase = .wound } }
        }
        enum Beacon {
            case dark, lit, flashing
            var next: Beacon {
                switch self {
                case .dark: return .lit
                case .lit: return .flashing
                case .flashing: return .dark
                }
            }
        }
        final class Tower {
            private var beaconState: Beacon = .dark
            func pulse() { beaconState = beaconState.next }
            func blackout() { beaconState = .dark }
        }
        """)
        let kettle = try XCTUnwrap(machines.named("Kettle.state"))
        // `boiling` is held while it waits (when another method may be called); the `defer` turns it back
        // to `cold` on the way out, after the wait
        XCTAssertEqual(kettle.transitions, ["cold -boil()-> boiling", "boiling -boil() after sleep()-> cold",
                                            "boiling -boil() after sleep()-> whistling", "whistling -reset()-> cold", "boiling -reset()-> cold"])
        XCTAssertEqual(kettle.transient, [])
        let reel = try XCTUnwrap(machines.named("Reel.phase"))
        XCTAssertEqual(reel.transitions, ["wound -spin()-> spinning", "spinning -spin() after sleep()-> snapped", "snapped -rewind()-> wound"])
        let tower = try XCTUnwrap(machines.named("Tower.beaconState"))
        XCTAssertEqual(tower.transitions, ["dark -pulse()-> lit", "lit -pulse()-> flashing", "flashing -pulse()-> dark",
                                           "lit -blackout()-> dark", "flashing -blackout()-> dark"])
    }

    /// An `if` whose two sides go on alike decides nothing: the edge carries no guard from it.
    func testAnIfThatDecidesNothingLeavesNoGuard() throws {
        let (machines, _) = try Fixture.analyze(source: """
        final class Ferry {
            enum Mode { case docked, sailing }
            private(set) var mode: Mode = .docked
            var horn: (() -> Void)?
            var trips = 0
            func depart() {
                guard mode == .docked else { return }
                mode = .sailing
                if let h = horn { h(); horn = nil } else { trips += 1 }
                if trips > 3 { print("busy") }
            }
            func dock() { if mode == .sailing { mode = .docked } }
        }
        """)
        let ferry = try XCTUnwrap(machines.named("Ferry.mode"))
        let departs = ferry.rules.flatMap(\.outcomes).filter { $0.pairs.contains(Pair(from: "docked", input: "depart()")) }
        XCTAssertEqual(departs.map(\.guardText), [nil])
    }

    /// A local variable that holds a state (`let next: Mode; … next = .x; mode = next`) gives that state,
    /// not every state.
    func testALocalHoldingAStateGivesThatState() throws {
        let (machines, _) = try Fixture.analyze(source: """
        final class Sluicegate {
            enum Mode { case shut, easing, open, sealing }
            private(set) var mode: Mode = .shut
            func lever(gently: Bool) {
                let next: Mode
                switch mode {
                case .shut: next = gently ? .easing : .open
                case .open: next = .sealing
                default: return
                }
                mode = next
            }
            func settle() {
                var target = Mode.shut
                if case .easing = mode { target = .open }
                mode = target
            }
        }
        """)
        let gate = try XCTUnwrap(machines.named("Sluicegate.mode"))
        XCTAssertEqual(gate.transitions, ["shut -lever()-> easing", "shut -lever()-> open", "open -lever()-> sealing",
                                          "easing -settle()-> open", "open -settle()-> shut", "sealing -settle()-> shut"])
    }

    /// A reducer method that returns a changed copy of its state (ReactorKit's `reduce(state:mutation:)`):
    /// a setter's payload leads to the values the type's other methods send it with (`mutate(action:)`).
    func testSettersSentByAnotherMethodOfTheReducersType() throws {
        let (machines, _) = try Fixture.analyze(source: """
        final class TillReactor {
            enum Action { case ring, void }
            enum Mutation { case setDrawer(Drawer), setBusy(Bool) }
            enum Drawer { case shut, open, jammed }
            struct State { var drawer: Drawer = .shut; var busy = false }
            func mutate(action: Action) -> [Mutation] {
                switch action {
                case .ring: return [.setBusy(true), .setDrawer(.open), .setBusy(false)]
                case .void: return [.setDrawer(.shut)]
                }
            }
            func reduce(state: State, mutation: Mutation) -> State {
                var next = state
                switch mutation {
                case let .setDrawer(d): next.drawer = d
                case let .setBusy(b): next.busy = b
                }
                return next
            }
        }
        """)
        let drawer = try XCTUnwrap(machines.named("TillReactor.drawer"))
        // `jammed` is never sent: no edge leads there
        XCTAssertTrue(drawer.transitions.isSuperset(of: ["shut -setDrawer-> open", "open -setDrawer-> shut"]))
        XCTAssertFalse(drawer.transitions.contains { $0.hasSuffix("-> jammed") }, "\(drawer.transitions)")
    }

    /// A closure a call runs before it returns (`withAnimation { … }`, `lock.withLock { … }`) is the
    /// method's own code: its writes are walked, and its `return` leaves only the closure. Its `completion:`
    /// runs later, an input of its own (`press() completion`) from where the animation leaves the state.
    func testClosuresRunAtOnceAreWalked() throws {
        let (machines, _) = try Fixture.analyze(source: """
        final class Awning {
            enum Phase { case rolled, unrolling, out }
            var phase: Phase = .rolled
            let lock = NSLock()
            func press() {
                switch phase {
                case .rolled:
                    withAnimation(.spring) { phase = .unrolling }
                case .unrolling:
                    withAnimation {
                        guard phase == .unrolling else { return }
                        self.phase = .out
                    } completion: {
                        self.phase = .rolled
                    }
                case .out:
                    phase = .rolled
                }
            }
            func storm() { lock.withLock { phase = .rolled } }
        }
        """)
        let awning = try XCTUnwrap(machines.named("Awning.phase"))
        XCTAssertEqual(awning.transitions, ["rolled -press()-> unrolling", "unrolling -press()-> out", "out -press()-> rolled",
                                            "unrolling -storm()-> rolled", "out -storm()-> rolled", "out -press() completion-> rolled"])
        XCTAssertFalse(awning.partial, "the completion runs later, from where the animation leaves the state")
    }

    /// Work a method starts to run later (`Task { … }`) is an input of its own, `load() task`, arriving in
    /// the states the method starts it from; with an event method, it is named by the event.
    func testTasksAreInputsOfTheirOwn() throws {
        let (machines, diagnostics) = try Fixture.analyze(source: """
        @MainActor final class Almanac {
            enum LoadState { case idle, loading, loaded([String]), failed }
            private(set) var state: LoadState = .idle
            func load() {
                guard case .idle = state else { return }
                state = .loading
                Task {
                    do { let pages = try await fetch(); state = .loaded(pages) } catch { state = .failed }
                }
            }
            func retry() { if case .failed = state { state = .idle; load() } }
            func fetch() async throws -> [String] { [] }
        }
        @MainActor final class Ledger {
            enum Phase { case idle, syncing, synced }
            enum Event { case sync, reset }
            private(set) var phase: Phase = .idle
            func send(_ event: Event) {
                switch (phase, event) {
                case (.idle, .sync):
                    phase = .syncing
                    Task { try? await Task.sleep(nanoseconds: 1); phase = .synced }
                case (_, .reset): phase = .idle
                default: break
                }
            }
        }
        """)
        let almanac = try XCTUnwrap(machines.named("Almanac.state"))
        XCTAssertEqual(almanac.inputs, ["load()", "retry()", "load() task"])
        XCTAssertEqual(almanac.transitions, ["idle -load()-> loading", "failed -retry()-> loading", "loading -load() task-> loaded",
                                             "loading -load() task-> failed"])
        XCTAssertFalse(almanac.partial)
        let ledger = try XCTUnwrap(machines.named("Ledger.phase"))
        XCTAssertTrue(ledger.transitions.isSuperset(of: ["idle -sync-> syncing", "syncing -sync task-> synced"]), "\(ledger.transitions)")
        XCTAssertFalse(diagnostics.contains { $0.message.contains("inside a closure") })
    }

    /// A state-named property its methods change without testing it is a machine when one of them takes
    /// it through stages (`phase = .fetching`, then `phase = .shown` after it), as a view model's `load()`
    /// does; two cases assigned in the branches of one `if` are no stages.
    func testMethodsTakingTheStateThroughStagesAreItsEvents() throws {
        let (machines, _) = try Fixture.analyze(source: """
        @MainActor final class Gallery {
            enum Phase { case empty, fetching, shown, broken }
            var phase: Phase = .empty
            func fetch() async {
                phase = .fetching
                do { _ = try await pictures(); phase = .shown } catch { phase = .broken }
            }
            func clear() { phase = .empty }
            func pictures() async throws -> [Int] { [] }
        }
        final class Lantern {
            enum Mode { case dim, bright, off }
            var mode: Mode = .dim
            func set(_ strong: Bool) { if strong { mode = .bright } else { mode = .dim } }
            func douse() { mode = .off }
        }
        """)
        let gallery = try XCTUnwrap(machines.named("Gallery.phase"))
        XCTAssertEqual(gallery.inputs, ["fetch()", "fetch() after pictures()", "clear()"])
        XCTAssertTrue(gallery.transitions.isSuperset(of: ["empty -fetch()-> fetching", "fetching -fetch() after pictures()-> shown",
                                                          "fetching -fetch() after pictures()-> broken", "shown -clear()-> empty"]),
                      "\(gallery.transitions)")
        XCTAssertNil(machines.first { $0.name == "Lantern.mode" })
    }

    /// A property named as no state (`step`, `page`) is a machine when a method steps it by the case it
    /// holds (`switch step { case .intro: step = .details … }`) and its enum's cases carry no data; one
    /// whose cases do (`.one(Int)`, `.many([Int])`, a storage's representation) is data, and keeps its note.
    func testAPropertyAMethodStepsByItsCaseIsAStateWhateverItsName() throws {
        let (machines, diagnostics) = try Fixture.analyze(source: """
        enum SignupPage { case hello, email, code, welcome }
        final class SignupFlow {
            private(set) var page: SignupPage = .hello
            func forward() {
                switch page {
                case .hello: page = .email
                case .email: page = .code
                case .code: page = .welcome
                case .welcome: break
                }
            }
            func backward() { if page == .code { page = .email } }
        }
        struct Bag {
            enum Store { case none, one(Int), many([Int]) }
            var store: Store = .none
            mutating func add(_ x: Int) {
                switch store {
                case .none: store = .one(x)
                case .one(let a): store = .many([a, x])
                case .many(let xs): store = .many(xs + [x])
                }
            }
            mutating func clear() { store = .none }
        }
        """)
        let flow = try XCTUnwrap(machines.named("SignupFlow.page"))
        XCTAssertEqual(flow.inputs, ["forward()", "backward()"])
        XCTAssertEqual(flow.transitions, ["hello -forward()-> email", "email -forward()-> code", "code -forward()-> welcome",
                                          "code -backward()-> email"])
        XCTAssertNil(machines.first { $0.name == "Bag.store" })
        XCTAssertTrue(diagnostics.contains { $0.message.contains("`Bag.store` is shaped like a state machine") }, "\(diagnostics)")
    }

    /// A computed property with a setter that the type's methods assign is a state like a stored one (a
    /// persisted model's `var status: Status { get { Status(rawValue: raw) ?? .open } set { raw =
    /// newValue.rawValue } }`), starting in the case its raw value starts as; one no method assigns is none.
    func testAComputedStateKeptInARawValue() throws {
        let (machines, _) = try Fixture.analyze(source: """
        enum ChoreStatus: String { case todo, doing, done }
        final class Chore {
            private var statusRaw: String = ChoreStatus.todo.rawValue
            var status: ChoreStatus {
                get { ChoreStatus(rawValue: statusRaw) ?? .todo }
                set { statusRaw = newValue.rawValue }
            }
            private var moodRaw = "doing"
            var mood: ChoreStatus {
                get { ChoreStatus(rawValue: moodRaw) ?? .todo }
                set { moodRaw = newValue.rawValue }
            }
            func begin() { if status == .todo { status = .doing } }
            func finish() { guard status == .doing else { return }; status = .done }
        }
        """)
        XCTAssertEqual(machines.map(\.name), ["Chore.status"])
        let chore = try XCTUnwrap(machines.named("Chore.status"))
        XCTAssertEqual(chore.initial, "todo")
        XCTAssertEqual(chore.transitions, ["todo -begin()-> doing", "doing -finish()-> done"])
    }

    /// The platform's callbacks run later: an animation's completion (`UIView.animate(withDuration: 0.2,
    /// animations: { … }) { _ in … }`, or `completion:`) while its `animations:` closure runs at once, a
    /// `URLSession` task's completion handler; a method setting a case then, in such a callback, one of a
    /// ternary's (`ok ? .fetched : .failed`) takes the state through stages. Work sent to another queue
    /// (`DispatchQueue.global().async`) is none of them.
    func testThePlatformsCallbacksRunLater() throws {
        let (machines, _) = try Fixture.analyze(source: """
        import UIKit
        final class Banner: UIView {
            enum Curtain { case down, rising, up, falling }
            private var curtain: Curtain = .down
            func raise() {
                guard curtain == .down else { return }
                curtain = .rising
                UIView.animate(withDuration: 0.2, animations: { self.alpha = 1 }) { _ in self.curtain = .up }
            }
            func lower() {
                guard curtain == .up else { return }
                curtain = .falling
                UIView.animate(withDuration: 0.2, animations: { self.alpha = 0 }, completion: { _ in self.curtain = .down })
            }
        }
        final class Fetcher {
            enum FetchStatus { case idle, fetching, fetched, failed }
            private(set) var fetchStatus: FetchStatus = .idle
            func fetch(_ url: URL) {
                fetchStatus = .fetching
                URLSession.shared.dataTask(with: url) { data, _, _ in
                    self.fetchStatus = data != nil ? .fetched : .failed
                }.resume()
            }
            func reset() { fetchStatus = .idle }
        }
        """)
        let banner = try XCTUnwrap(machines.named("Banner.curtain"))
        XCTAssertEqual(banner.transitions, ["down -raise()-> rising", "rising -raise() completion-> up",
                                            "up -lower()-> falling", "falling -lower() completion-> down"])
        let fetcher = try XCTUnwrap(machines.named("Fetcher.fetchStatus"))
        XCTAssertTrue(fetcher.transitions.isSuperset(of: ["idle -fetch()-> fetching", "fetching -fetch() callback-> fetched",
                                                          "fetching -fetch() callback-> failed", "fetched -reset()-> idle"]),
                      "\(fetcher.transitions)")
    }

    /// A loop over a stream of events (`for await signal in signals`, a parameter of type
    /// `AsyncStream<Signal>`) makes its variable the event and its body one step. A private method called
    /// only from a completion handler (`self?.settle(result)`) is that handler's helper, no input of its
    /// own; one called also from a closure no walk follows stays an input. Work a callback starts in turn
    /// is an input too (`brew() callback 2 callback`), and a task's waits in a helper it calls are its own
    /// (`open() task after dial()`).
    func testEventLoopsHandlersAndNestedCallbacks() throws {
        let (machines, _) = try Fixture.analyze(source: """
        actor Radio {
            enum Signal { case tune, lock, lose, off }
            enum Band { case silent, tuning, locked }
            private var band: Band = .silent
            func listen(_ signals: AsyncStream<Signal>) async {
                for await signal in signals {
                    switch (band, signal) {
                    case (.silent, .tune): band = .tuning
                    case (.tuning, .lock): band = .locked
                    case (.locked, .lose): band = .tuning
                    case (_, .off): band = .silent
                    default: break
                    }
                }
            }
        }
        final class Teapot {
            enum BrewState { case cold, steeping, ready, spilled }
            private(set) var brewState: BrewState = .cold
            private let stove = Stove()
            private var timer: Timer?
            func brew() {
                guard brewState == .cold else { return }
                brewState = .steeping
                stove.heat { [weak self] ok in self?.settle(ok) }
                timer = Timer.scheduledTimer(withTimeInterval: 9, repeats: false) { [weak self] _ in
                    self?.timer = Timer.scheduledTimer(withTimeInterval: 9, repeats: false) { [weak self] _ in
                        self?.brewState = .cold
                    }
                }
            }
            private func settle(_ ok: Bool) { brewState = ok ? .ready : .spilled }
        }
        actor Line {
            enum LineState { case down, dialing, up }
            private var lineState: LineState = .down
            private var task: Task<Void, Never>?
            func open() { task = Task { [weak self] in await self?.connect() } }
            func hangUp() { lineState = .down }
            private func connect() async {
                lineState = .dialing
                _ = await dial()
                lineState = .up
            }
            func dial() async -> Bool { true }
        }
        """)
        let radio = try XCTUnwrap(machines.named("Radio.band"))
        XCTAssertEqual(radio.inputs, ["tune", "lock", "lose", "off"])
        XCTAssertEqual(radio.transitions, ["silent -tune-> tuning", "tuning -lock-> locked", "locked -lose-> tuning",
                                           "tuning -off-> silent", "locked -off-> silent"])
        let teapot = try XCTUnwrap(machines.named("Teapot.brewState"))
        XCTAssertEqual(Set(teapot.inputs), ["brew()", "brew() callback", "brew() callback 2 callback"])
        XCTAssertTrue(teapot.transitions.isSuperset(of: ["cold -brew()-> steeping", "steeping -brew() callback-> ready",
                                                         "steeping -brew() callback-> spilled", "steeping -brew() callback 2 callback-> cold"]),
                      "\(teapot.transitions)")
        let line = try XCTUnwrap(machines.named("Line.lineState"))
        XCTAssertEqual(Set(line.inputs), ["hangUp()", "open() task", "open() task after dial()"])
        XCTAssertTrue(line.transitions.isSuperset(of: ["down -open() task-> dialing", "dialing -open() task after dial()-> up"]),
                      "\(line.transitions)")
    }

    /// A Combine pipeline assigning the state (`$draft.map { $0.isEmpty ? .blank : .typed }.assign(to:
    /// &$inkState)`, `.assign(to: \.inkState, on: self)`) is an input named by its source, arriving in any
    /// state, leading to each case its last `map` gives; one whose values the tool cannot read makes the
    /// machine partial, with a note. Without them, `typed` and `sent` read as unreachable.
    func testACombinePipelineAssigningTheState() throws {
        let (machines, diagnostics) = try Fixture.analyze(source: """
        import Combine
        final class Composer: ObservableObject {
            enum InkState { case blank, typed, sent }
            @Published var draft = ""
            @Published var inkState: InkState = .blank
            init(clock: AnyPublisher<Int, Never>, other: AnyPublisher<InkState, Never>) {
                $draft.map { $0.isEmpty ? .blank : InkState.typed }.assign(to: &$inkState)
                other.assign(to: \\.inkState, on: self)
            }
            func send() { if inkState == .typed { inkState = .sent } }
            func reset() { inkState = .blank }
        }
        """)
        let composer = try XCTUnwrap(machines.named("Composer.inkState"))
        XCTAssertEqual(Set(composer.inputs), ["send()", "reset()", "$draft assign"])
        XCTAssertTrue(composer.transitions.isSuperset(of: ["blank -$draft assign-> typed", "typed -send()-> sent", "sent -$draft assign-> blank"]),
                      "\(composer.transitions)")
        XCTAssertTrue(composer.partial)
        XCTAssertTrue(diagnostics.contains { $0.message.contains("Combine pipeline") }, "\(diagnostics.map(\.message))")
        XCTAssertFalse(composer.findingKeys.contains { $0.hasPrefix("unreachable_state") }, "\(composer.findingKeys)")
    }

    /// An optional `@State` a modal modifier presents (`.sheet(item: $panel) { p in … }`) is a machine of
    /// `nil` and its cases: the controls of the presenting view arrive only while nothing is presented,
    /// those of the presented content where it is shown (`switch p`), and the user's dismissal (`sheet
    /// dismissed`) sets it to `nil`. An optional `@State` nothing presents is no machine. A state kept in
    /// `@AppStorage` is read as a `@State`.
    func testAnOptionalStateAViewPresents() throws {
        let (machines, _) = try Fixture.analyze(source: """
        import SwiftUI
        struct GardenView: View {
            enum Panel: Identifiable { case seeds, tools, receipt; var id: Self { self } }
            @State private var panel: Panel?
            @State private var picked: Panel?
            @AppStorage("season") private var season: Season = .spring
            enum Season: String { case spring, summer }
            var body: some View {
                Button("Grow") { season = .summer }
                Button("Rest") { season = .spring }
                List(selection: $picked) {
                    Button("Seeds") { panel = .seeds }
                    Button("Tools") { panel = .tools }
                }
                .sheet(item: $panel) { p in
                    switch p {
                    case .seeds: Button("Buy") { panel = .receipt }
                    case .tools: Button("Close") { panel = nil }
                    case .receipt: Text("Thanks")
                    }
                }
            }
        }
        """)
        XCTAssertEqual(machines.map(\.name).sorted(), ["GardenView.panel", "GardenView.season"])
        XCTAssertEqual(try XCTUnwrap(machines.named("GardenView.season")).transitions, ["spring -Grow-> summer", "summer -Rest-> spring"])
        let garden = try XCTUnwrap(machines.named("GardenView.panel"))
        XCTAssertEqual(garden.initial, "nil")
        XCTAssertEqual(garden.transitions, ["nil -Seeds-> seeds", "nil -Tools-> tools", "seeds -Buy-> receipt", "tools -Close-> nil",
                                            "seeds -sheet dismissed-> nil", "tools -sheet dismissed-> nil", "receipt -sheet dismissed-> nil"])
    }

    /// A SwiftUI view's `@State` enum is a machine whose inputs are its controls, named by what the user
    /// sees (`Button("Brew")`, a `label:`'s text) or does (`.onAppear`, `.task`), each arriving in the
    /// states the view shows it in (the `switch` case and `if` branch around it, less where `.disabled(…)`
    /// surely holds). An action calling an `async` method of the view waits where it awaits (`task after
    /// grind()`); a `Task` it starts is an input of its own. A write outside any control (`onDismiss:`)
    /// makes the machine partial, with a note.
    func testASwiftUIViewsStateIsChangedByItsControls() throws {
        let (machines, diagnostics) = try Fixture.analyze(source: """
        import SwiftUI
        struct BrewView: View {
            enum Brew { case idle, grinding, pouring, served }
            @State private var brew: Brew = .idle
            @State private var showHelp = false
            var body: some View {
                VStack {
                    switch brew {
                    case .idle:
                        Button("Brew") { Task { await grindAndPour() } }
                    case .grinding, .pouring:
                        Button { brew = .idle } label: { Text("Stop") }
                    case .served:
                        EmptyView()
                    }
                    if brew == .served {
                        Button("Again") { brew = .idle }
                    } else {
                        Button("Skip") { brew = .served }.disabled(brew == .idle)
                    }
                }
                .onAppear { if brew == .served { brew = .idle } }
                .sheet(isPresented: $showHelp, onDismiss: { brew = .idle }) { Text("Help") }
            }
            private func grindAndPour() async {
                brew = .grinding
                await grind()
                brew = .pouring
            }
            private func grind() async {}
        }
        struct Dial: View {
            @Binding var brew: BrewView.Brew
            var body: some View { Button("Reset") { brew = .idle } }
        }
        struct RoastView: View {
            enum Roast { case light, medium, dark }
            enum Drum { case cold, turning }
            @State private var roast: Roast = .medium
            @State private var drum: Drum = .cold
            var body: some View {
                Picker("Roast", selection: $roast) {
                    Text("Light").tag(Roast.light)
                    Text("Medium").tag(Roast.medium)
                }
                if drum == .cold { Button("Turn", action: turn) } else { Button("Halt", action: self.halt) }
            }
            private func turn() { drum = .turning }
            private func halt() { drum = .cold }
        }
        """)
        let view = try XCTUnwrap(machines.named("BrewView.brew"))
        XCTAssertEqual(view.initial, "idle")
        XCTAssertEqual(view.inputs, ["Stop", "Again", "Skip", "onAppear", "Brew task", "Brew task after grind()"])
        XCTAssertEqual(view.transitions, ["idle -Brew task-> grinding", "grinding -Brew task after grind()-> pouring",
                                          "grinding -Stop-> idle", "pouring -Stop-> idle", "served -Again-> idle",
                                          "grinding -Skip-> served", "pouring -Skip-> served", "served -onAppear-> idle"])
        XCTAssertTrue(view.partial)
        XCTAssertTrue(diagnostics.contains { $0.message.contains("outside the actions of the view's controls") }, "\(diagnostics)")
        XCTAssertNil(machines.first { $0.name == "Dial.brew" })
        // a picker bound to the state chooses one of the cases it tags; a button may name a method
        let roast = try XCTUnwrap(machines.named("RoastView.roast"))
        XCTAssertEqual(roast.inputs, ["Roast"])
        XCTAssertEqual(roast.transitions, ["medium -Roast-> light", "light -Roast-> medium", "dark -Roast-> light", "dark -Roast-> medium"])
        XCTAssertTrue(roast.findingKeys.contains("unreachable_state dark"), "\(roast.findingKeys)")
        let drum = try XCTUnwrap(machines.named("RoastView.drum"))
        XCTAssertEqual(drum.transitions, ["cold -Turn-> turning", "turning -Halt-> cold"])
    }

    /// A `Task` a method of a class or an actor starts waits where it awaits, like an `async` method: the
    /// state it set before is seen meanwhile, and its rest is an input of its own (`start() task after
    /// upload()`). A struct's is walked whole (its state is a value the task copied).
    func testATasksAwaitsAreSuspensionPoints() throws {
        let (machines, _) = try Fixture.analyze(source: """
        @MainActor final class Mirror {
            enum CopyState { case still, copying, copied, broken }
            private(set) var copyState: CopyState = .still
            func start() {
                guard copyState != .copying else { return }
                Task {
                    copyState = .copying
                    do { try await push(); copyState = .copied } catch { copyState = .broken }
                }
            }
            func reset() { copyState = .still }
            private func push() async throws {}
        }
        """)
        let mirror = try XCTUnwrap(machines.named("Mirror.copyState"))
        XCTAssertEqual(mirror.inputs, ["reset()", "start() task", "start() task after push()"])
        XCTAssertEqual(mirror.transitions, ["copying -reset()-> still", "copied -reset()-> still", "broken -reset()-> still",
                                            "still -start() task-> copying", "copied -start() task-> copying", "broken -start() task-> copying",
                                            "copying -start() task after push()-> copied", "copying -start() task after push()-> broken"])
    }

    /// A closure handed to a call that hands its work back to the main queue (`api.fetch { r in
    /// DispatchQueue.main.async { self.state = … } }`, `self` held strongly) is a completion handler: an
    /// input of its own (`refresh() callback`), its hop to the main queue walked as its rest; the machine
    /// is not partial for it.
    func testACompletionHandlerHandingWorkToTheMainQueueRunsLater() throws {
        let (machines, diagnostics) = try Fixture.analyze(source: """
        import Foundation
        final class AlbumScreen {
            enum ScreenState { case waiting, shown, blank, broken }
            private var screenState: ScreenState = .shown
            let client = AlbumClient()
            func refresh() {
                guard screenState != .waiting else { return }
                screenState = .waiting
                client.albums { result in
                    guard let albums = try? result.get() else {
                        DispatchQueue.main.async { self.screenState = .broken }
                        return
                    }
                    DispatchQueue.main.async { self.screenState = albums.isEmpty ? .blank : .shown }
                }
            }
        }
        """)
        let screen = try XCTUnwrap(machines.named("AlbumScreen.screenState"))
        XCTAssertEqual(screen.inputs, ["refresh()", "refresh() callback"])
        XCTAssertEqual(screen.transitions, ["shown -refresh()-> waiting", "blank -refresh()-> waiting", "broken -refresh()-> waiting",
                                            "waiting -refresh() callback-> broken", "waiting -refresh() callback-> blank",
                                            "waiting -refresh() callback-> shown"])
        XCTAssertFalse(screen.partial)
        XCTAssertFalse(diagnostics.contains { $0.message.contains("where the tool does not follow") }, "\(diagnostics)")
    }

    /// A `sink(receiveCompletion:receiveValue:)` (its closures labelled or trailing) starts two inputs:
    /// `lookup() sink` for each value and `lookup() sink completion` at the end. A method that sets the
    /// state and whose sink sets another takes it through stages, so the methods are its events even
    /// where none tests it.
    func testASinksCompletionIsAnInputOfItsOwn() throws {
        let (machines, _) = try Fixture.analyze(source: """
        import Combine
        final class Lexicon: ObservableObject {
            enum LookupState { case blank, looking, found, missing }
            @Published private(set) var lookupState: LookupState = .blank
            private var bag = Set<AnyCancellable>()
            func lookup(_ word: AnyPublisher<Int, Error>) {
                lookupState = .looking
                word.sink { [weak self] end in
                    if case .failure = end { self?.lookupState = .missing }
                } receiveValue: { [weak self] _ in
                    self?.lookupState = .found
                }
                .store(in: &bag)
            }
            func forget() { lookupState = .blank }
        }
        """)
        let lexicon = try XCTUnwrap(machines.named("Lexicon.lookupState"))
        XCTAssertEqual(Set(lexicon.inputs), ["lookup()", "forget()", "lookup() sink", "lookup() sink completion"])
        XCTAssertTrue(lexicon.transitions.isSuperset(of: ["blank -lookup()-> looking", "looking -lookup() sink-> found",
                                                          "looking -lookup() sink completion-> missing", "found -forget()-> blank"]),
                      "\(lexicon.transitions)")
        XCTAssertFalse(lexicon.partial)
    }

    /// A method taking a value of the state's own enum (`func shift(to next: Gear)`, switching over `(gear,
    /// next)` and assigning `gear = next` where the pair is allowed) is walked once for each case: its
    /// moves are the allowed pairs. The methods calling it with a case (`func climb() { shift(to: .high)
    /// }`) take only the pairs whose element matches the case they give, in a tuple `switch` too. A guard
    /// asking the enum's relation (`guard phase.canMove(to: next)`, `AllowedMoves`) lets the moves it allows.
    func testAMethodGivenAStateMovesWhereTheSwitchAllows() throws {
        let (machines, _) = try Fixture.analyze(source: """
        final class Bicycle {
            enum Gear { case low, middle, high, locked }
            private(set) var gear: Gear = .low
            func shift(to next: Gear) {
                switch (gear, next) {
                case (.low, .middle), (.middle, .high), (.high, .middle), (.middle, .low):
                    gear = next
                case (_, .locked) where gear != .high:
                    gear = next
                default:
                    assertionFailure("cannot shift")
                }
            }
            func climb() { shift(to: .middle) }
            func sprint() { shift(to: .high) }
            func park() { shift(to: .locked) }
        }
        enum KettlePhase {
            case cold, warming, boiling
            func canMove(to next: KettlePhase) -> Bool {
                switch (self, next) {
                case (.cold, .warming), (.warming, .boiling), (.boiling, .cold), (.warming, .cold): return true
                default: return false
                }
            }
        }
        final class Kettle {
            private(set) var phase: KettlePhase = .cold
            private func move(to next: KettlePhase) {
                guard phase.canMove(to: next) else { return }
                phase = next
            }
            func heat() { move(to: .warming) }
            func boil() { move(to: .boiling) }
            func cool() { move(to: .cold) }
        }
        """)
        let kettle = try XCTUnwrap(machines.named("Kettle.phase"))
        XCTAssertEqual(kettle.transitions, ["cold -heat()-> warming", "warming -boil()-> boiling", "boiling -cool()-> cold",
                                            "warming -cool()-> cold"])
        let bicycle = try XCTUnwrap(machines.named("Bicycle.gear"))
        XCTAssertEqual(bicycle.transitions, [
            "low -shift()-> middle", "middle -shift()-> high", "high -shift()-> middle", "middle -shift()-> low",
            "low -shift()-> locked", "middle -shift()-> locked",
            "low -climb()-> middle", "high -climb()-> middle", "middle -sprint()-> high",
            "low -park()-> locked", "middle -park()-> locked",
        ])
    }

    /// A closure using `self` given to a parameter its callee's declaration marks `@escaping` (or an optional
    /// closure), the callee found by Swift's lookup and a property's declared or constructed type
    /// (`private let kiln = KilnAPI()`, `kiln.fire(…) { … }`, a parameter's type), runs later: a completion
    /// handler, an input of its own. A closure given to a non-escaping parameter runs at once. Work an
    /// initializer starts (`feed.onChange { self.mood = … }`) is an input arriving in every state, `init()
    /// callback`; a closure it only stores (`later = { … }`) is not followed, and says so.
    func testClosuresTheCalleeDeclaresEscapingRunLater() throws {
        let (machines, diagnostics) = try Fixture.analyze(source: """
        enum Glaze { case ok, cracked }
        final class KilnAPI {
            func fire(hours: Int, done: @escaping (Glaze) -> Void) { done(.ok) }
            func vent(then: ((Bool) -> Void)? = nil) {}
            func inspect(_ look: (Glaze) -> Void) { look(.ok) }
        }
        final class Studio {
            enum KilnState { case cold, firing, fired, ruined }
            private var kilnState: KilnState = .cold
            private let kiln = KilnAPI()
            func fire() {
                guard kilnState == .cold else { return }
                kilnState = .firing
                kiln.fire(hours: 9) { glaze in
                    switch glaze {
                    case .ok: self.kilnState = .fired
                    case .cracked: self.kilnState = .ruined
                    }
                }
            }
            func vent() { kiln.vent(then: { _ in self.kilnState = .cold }) }
            func check() { kiln.inspect { g in if g == .cracked { self.kilnState = .ruined } } }
        }
        final class Feed { func onChange(_ f: @escaping () -> Void) {} }
        final class Mood {
            enum MoodState { case calm, upset }
            var moodState: MoodState = .calm
            var later: (() -> Void)?
            init(feed: Feed) {
                feed.onChange { self.moodState = .upset }
                later = { self.moodState = .calm }
            }
            func soothe() { moodState = .calm }
            func poke() { if moodState == .calm { moodState = .upset } }
        }
        """)
        let studio = try XCTUnwrap(machines.named("Studio.kilnState"))
        XCTAssertEqual(Set(studio.inputs), ["fire()", "fire() callback", "vent() then", "check()"])
        XCTAssertTrue(studio.transitions.isSuperset(of: ["cold -fire()-> firing", "firing -fire() callback-> fired",
                                                         "firing -fire() callback-> ruined", "fired -vent() then-> cold",
                                                         "cold -check()-> ruined"]), "\(studio.transitions)")
        XCTAssertFalse(studio.partial)
        let mood = try XCTUnwrap(machines.named("Mood.moodState"))
        XCTAssertEqual(Set(mood.inputs), ["soothe()", "poke()", "init() callback"])
        XCTAssertEqual(mood.transitions, ["upset -soothe()-> calm", "calm -poke()-> upset", "calm -init() callback-> upset"])
        XCTAssertTrue(mood.partial)
        XCTAssertTrue(diagnostics.contains { $0.message.contains("inside a closure in init()") }, "\(diagnostics.map(\.message))")
    }

    /// A property whose name and enum's name say nothing of a state is one when a method guards it — assigns
    /// it a case where a test of it decides (`if hatch == .shut { hatch = .ajar }`, after a `guard`, in a
    /// ternary over it) — and its enum's cases carry no data; or when a method takes it through stages
    /// across a wait (`Remote<[String]>`: `.fetching`, then after `await`, `.got(list)`), whatever its
    /// cases carry. A write decided by a test of something else, a value copied from a variable, or two
    /// cases assigned one after the other with no wait between make no machine.
    func testPropertiesNamedOtherwiseThatAreGuardedOrLoadedInStages() throws {
        let (machines, _) = try Fixture.analyze(source: """
        enum Hatch { case shut, ajar, sealed }
        final class Airlock {
            private(set) var hatch: Hatch = .shut
            func open() { if hatch == .shut { hatch = .ajar } }
            func close() { hatch = hatch == .ajar ? .shut : hatch }
            func seal() {
                guard hatch == .shut else { return }
                hatch = .sealed
            }
            func unseal() { if case .sealed = hatch { hatch = .shut } }
        }
        enum Remote<Value> { case untouched, fetching, got(Value), broke(Error) }
        final class ShelfModel {
            var books: Remote<[String]> = .untouched
            func refresh() async {
                books = .fetching
                do { books = .got(try await catalogue()) } catch { books = .broke(error) }
            }
            func forget() { books = .untouched }
            func catalogue() async throws -> [String] { [] }
        }
        enum Verbosity { case quiet, normal, loud }
        enum Command { case run, update }
        struct Tool {
            var verbosity: Verbosity = .normal
            var command: Command = .run
            var incoming: Verbosity = .quiet
            mutating func main() {
                switch command {
                case .run: if verbosity == .loud { print("running") }
                case .update: verbosity = .quiet
                }
            }
            mutating func adopt() { if verbosity != incoming { verbosity = incoming } }
        }
        enum Slot { case empty, inline(Int), spilled([Int]) }
        struct Buffer {
            var slot: Slot = .empty
            mutating func append(_ x: Int) { slot = .inline(x); slot = .spilled([x]) }
            mutating func clear() { slot = .empty }
        }
        """)
        let airlock = try XCTUnwrap(machines.named("Airlock.hatch"))
        XCTAssertEqual(airlock.initial, "shut")
        XCTAssertEqual(airlock.transitions, ["shut -open()-> ajar", "ajar -close()-> shut", "shut -seal()-> sealed", "sealed -unseal()-> shut"])
        let shelf = try XCTUnwrap(machines.named("ShelfModel.books"))
        XCTAssertEqual(shelf.initial, "untouched")
        XCTAssertTrue(shelf.transitions.isSuperset(of: ["untouched -refresh()-> fetching", "fetching -refresh() after catalogue()-> got",
                                                        "fetching -refresh() after catalogue()-> broke", "got -forget()-> untouched"]),
                      "\(shelf.transitions)")
        XCTAssertEqual(machines.map(\.name).sorted(), ["Airlock.hatch", "ShelfModel.books"], "Tool.verbosity and Buffer.slot are data")
    }

    /// A state held in a reactive box (RxRelay's `BehaviorRelay`, Combine's `CurrentValueSubject`) is read
    /// as `box.value` and written by `box.value = …` or the box's setter (`accept`, `send`); its initial
    /// state is the box's. Completion handlers passed by label (`subscribe(onSuccess: { [weak self] … },
    /// onFailure: …)`) are inputs named by their labels.
    func testAStateHeldInARelayOrSubject() throws {
        let (machines, _) = try Fixture.analyze(source: """
        import RxSwift
        import RxRelay
        import Combine
        final class PairingModel {
            enum PairState { case unpaired, pairing, paired, refused }
            let pairState = BehaviorRelay<PairState>(value: .unpaired)
            let bag = DisposeBag()
            func pair(_ device: Single<Bool>) {
                guard pairState.value == .unpaired else { return }
                pairState.accept(.pairing)
                device.subscribe(onSuccess: { [weak self] _ in self?.pairState.accept(.paired) },
                                 onFailure: { [weak self] _ in self?.pairState.accept(.refused) })
                    .disposed(by: bag)
            }
            func forget() { pairState.accept(.unpaired) }
        }
        final class Shutter {
            enum ApertureMode { case closed, half, open }
            let aperture = CurrentValueSubject<ApertureMode, Never>(.closed)
            func widen() { if aperture.value == .closed { aperture.send(.half) } else { aperture.value = .open } }
            func shut() { aperture.send(.closed) }
        }
        """)
        let pairing = try XCTUnwrap(machines.named("PairingModel.pairState"))
        XCTAssertEqual(pairing.initial, "unpaired")
        XCTAssertEqual(pairing.inputs, ["pair()", "forget()", "pair() onSuccess", "pair() onFailure"])
        XCTAssertEqual(pairing.transitions, ["unpaired -pair()-> pairing", "pairing -pair() onSuccess-> paired",
                                             "pairing -pair() onFailure-> refused", "pairing -forget()-> unpaired",
                                             "paired -forget()-> unpaired", "refused -forget()-> unpaired"])
        let shutter = try XCTUnwrap(machines.named("Shutter.aperture"))
        XCTAssertEqual(shutter.initial, "closed")
        XCTAssertEqual(shutter.transitions, ["closed -widen()-> half", "half -widen()-> open", "half -shut()-> closed", "open -shut()-> closed"])
    }

    /// A Combine subscription a method starts (`publisher.sink { [weak self] v in self?.state = … }`, at
    /// the start of a chain ending in `.store(in:)`) is work that runs later, like a `Task`: an input of its
    /// own, `play() sink`, and `self?.state` in it writes the state; so is a completion handler holding
    /// `self` weakly (`feed.load { [weak self] ok in … }`, `refresh() callback`).
    func testCombineSinksAreInputsOfTheirOwn() throws {
        let (machines, _) = try Fixture.analyze(source: """
        import Combine
        final class Radio: ObservableObject {
            enum TuneState { case off, seeking, locked, lost }
            @Published private(set) var tuneState: TuneState = .off
            private var bag = Set<AnyCancellable>()
            func seek(_ signal: AnyPublisher<Bool, Never>) {
                tuneState = .seeking
                signal.receive(on: DispatchQueue.main)
                    .sink { [weak self] found in self?.tuneState = found ? .locked : .lost }
                    .store(in: &bag)
            }
            func off() { if tuneState != .off { tuneState = .off } }
        }
        final class Kiosk {
            enum ScreenState { case idle, loading, ready, failed }
            private(set) var screenState: ScreenState = .idle
            let feed = Feed()
            func refresh() {
                guard screenState != .loading else { return }
                screenState = .loading
                feed.load { [weak self] ok in self?.screenState = ok ? .ready : .failed }
            }
        }
        final class Feed { func load(_ done: @escaping (Bool) -> Void) {} }
        """)
        let radio = try XCTUnwrap(machines.named("Radio.tuneState"))
        let kiosk = try XCTUnwrap(machines.named("Kiosk.screenState"))
        XCTAssertEqual(kiosk.inputs, ["refresh()", "refresh() callback"])
        XCTAssertEqual(kiosk.transitions, ["idle -refresh()-> loading", "ready -refresh()-> loading", "failed -refresh()-> loading", "loading -refresh() callback-> ready",
                                           "loading -refresh() callback-> failed"])
        XCTAssertFalse(kiosk.partial)
        XCTAssertEqual(radio.inputs, ["seek()", "off()", "seek() sink"])
        XCTAssertTrue(radio.transitions.isSuperset(of: ["off -seek()-> seeking", "seeking -seek() sink-> locked", "seeking -seek() sink-> lost"]),
                      "\(radio.transitions)")
        XCTAssertEqual(radio.findingKeys, ["data_dependent_target seeking/seek() sink"])
    }

    /// An `async` method of a class or actor that changes the state and then waits (`await`) stops there:
    /// the state is seen while it waits, and its rest is an input of its own (`load() after fetch()`,
    /// `watch() on readings()` for a `for await` loop) arriving in the state it waits in. A `catch` starts
    /// where a `try` may throw, so from the rest after the wait; awaiting another method that changes the
    /// state walks it in line; a struct's mutating method holds the value while it waits.
    func testAsyncMethodsStopWhereTheyWait() throws {
        let (machines, _) = try Fixture.analyze(source: """
        @MainActor final class Herbarium {
            enum Stage { case empty, gathering, pressed, torn }
            private(set) var stage: Stage = .empty
            func gather() async {
                guard case .empty = stage else { return }
                stage = .gathering
                do {
                    let leaves = try await pick()
                    stage = leaves.isEmpty ? .torn : .pressed
                } catch {
                    stage = .torn
                }
            }
            func regather() async {
                if case .torn = stage { stage = .empty; await gather() }
            }
            func pick() async throws -> [Int] { [] }
        }
        actor Barometer {
            enum Mode { case off, warming, reading, broken }
            var mode: Mode = .off
            func watch() async {
                guard mode == .off else { return }
                mode = .warming
                let ok = await selfTest()
                mode = ok ? .reading : .broken
                guard ok else { return }
                for await value in readings() {
                    if value < 0 { mode = .broken }
                }
            }
            func stop() { mode = .off }
            func selfTest() async -> Bool { true }
            nonisolated func readings() -> AsyncStream<Int> { AsyncStream { _ in } }
        }
        struct Kiln {
            enum Stage { case cold, firing, done }
            var stage: Stage = .cold
            mutating func fire() async {
                guard stage == .cold else { return }
                stage = .firing
                await Task.yield()
                stage = .done
            }
            mutating func cool() { stage = .cold }
        }
        """)
        let herbarium = try XCTUnwrap(machines.named("Herbarium.stage"))
        XCTAssertEqual(herbarium.inputs, ["gather()", "gather() after pick()", "regather()", "regather() after pick()"])
        XCTAssertEqual(herbarium.transitions, ["empty -gather()-> gathering", "gathering -gather() after pick()-> torn",
                                               "gathering -gather() after pick()-> pressed", "torn -regather()-> gathering",
                                               "gathering -regather() after pick()-> torn", "gathering -regather() after pick()-> pressed"])
        XCTAssertFalse(herbarium.transient.contains("gathering"))
        let barometer = try XCTUnwrap(machines.named("Barometer.mode"))
        XCTAssertEqual(barometer.inputs, ["watch()", "watch() after selfTest()", "watch() on readings()", "stop()"])
        XCTAssertTrue(barometer.transitions.isSuperset(of: ["off -watch()-> warming", "warming -watch() after selfTest()-> reading",
                                                            "warming -watch() after selfTest()-> broken",
                                                            "reading -watch() on readings()-> broken"]), "\(barometer.transitions)")
        let kiln = try XCTUnwrap(machines.named("Kiln.stage"))
        XCTAssertEqual(kiln.inputs, ["fire()", "cool()"])
        XCTAssertTrue(kiln.transitions.contains("cold -fire()-> done"), "\(kiln.transitions)")
    }

    /// `switch consume self` reads as `switch self`; an enum's own initializer gives the initial state
    /// when no holder does (`Locked(Wick())`); a struct that rebuilds itself to change its state
    /// (`self = .lit(l)` through a static member, `self = .init(stage: .spent)`) writes it.
    func testConsumedSwitchesAndStructsRebuildingThemselves() throws {
        let (machines, diagnostics) = try Fixture.analyze(source: """
        enum WickState: ~Copyable {
            case dark
            case lit(Int)
            case spent
            init() { self = .dark }
            mutating func strike() {
                switch consume self {
                case .dark: self = .lit(1)
                case .lit(let n): self = .lit(n + 1)
                case .spent: self = .spent
                }
            }
            mutating func snuff() {
                switch consume self {
                case .dark, .spent: self = .spent
                case .lit: self = .dark
                }
            }
        }
        struct Locked<T> { var value: T; init(_ v: T) { value = v } }
        final class Candle { private var wick = Locked(WickState()) }

        struct Lantern {
            struct Machine: ~Copyable {
                enum Stage: ~Copyable {
                    struct Lit { var hours = 0 }
                    case unlit
                    case lit(Lit)
                    case spent
                }
                var stage: Stage
                init() { self.stage = .unlit }
                fileprivate init(stage: consuming Stage) { self.stage = stage }
                static func lit(_ l: Stage.Lit) -> Self { .init(stage: .lit(l)) }
                static var unlit: Self { Self(stage: .unlit) }

                mutating func kindle() {
                    switch consume self.stage {
                    case .unlit: self = .lit(.init())
                    case .lit(var l):
                        l.hours += 1
                        self = .lit(l)
                    case .spent: self = .init(stage: .spent)
                    }
                }
                mutating func douse(burntOut: Bool) {
                    switch consume self.stage {
                    case .lit:
                        if burntOut { self = Machine(stage: .spent) } else { self = .unlit }
                    case .unlit: self = .unlit
                    case .spent: self = .init(stage: .spent)
                    }
                }
            }
        }
        """)
        let wick = try XCTUnwrap(machines.named("WickState"))
        XCTAssertEqual(wick.initial, "dark")
        XCTAssertEqual(wick.transitions, ["dark -strike()-> lit", "dark -snuff()-> spent", "lit -snuff()-> dark"])
        XCTAssertEqual(wick.selfLoops, ["lit -strike()-> lit", "spent -strike()-> spent", "spent -snuff()-> spent"])
        // (its initializers disagree: the one the rebuilds use takes the state from its caller)
        let lantern = try XCTUnwrap(machines.named("Machine.stage"))
        XCTAssertNil(lantern.initial)
        XCTAssertEqual(lantern.transitions, ["unlit -kindle()-> lit", "lit -douse()-> spent", "lit -douse()-> unlit"])
        XCTAssertEqual(lantern.selfLoops, ["lit -kindle()-> lit", "spent -kindle()-> spent", "unlit -douse()-> unlit", "spent -douse()-> spent"])
        XCTAssertEqual(diagnostics.map(\.message), ["Machine.stage starts as init(stage:) is given; no initial state, so no state is checked for reachability"])
    }

    /// A tuple assignment: element by element from a tuple of values; from a call the walk does not
    /// follow, the state gets a data-dependent target instead of keeping its value unseen.
    func testTupleAssignmentsOfTheState() throws {
        let (machines, _) = try Fixture.analyze(source: """
        enum FerryState {
            struct Docked { func castOff() -> (Int, FerryState) { (1, .crossing) } }
            case docked(Docked)
            case crossing
            case sunk
            init() { self = .docked(Docked()) }
            mutating func leave() -> Int {
                let fare: Int
                switch self {
                case .docked(let d): (fare, self) = d.castOff()
                case .crossing, .sunk: fare = 0
                }
                return fare
            }
            mutating func land() {
                var count = 0
                switch self {
                case .crossing: (count, self) = (count + 1, .docked(Docked()))
                case .docked, .sunk: break
                }
            }
        }
        """)
        let ferry = try XCTUnwrap(machines.named("FerryState"))
        XCTAssertEqual(ferry.initial, "docked")
        XCTAssertEqual(ferry.transitions, ["crossing -land()-> docked"])
        XCTAssertTrue(ferry.selfLoops.contains("crossing -leave()-> crossing"), "\(ferry.selfLoops)")
        XCTAssertTrue(ferry.findingKeys.contains("data_dependent_target docked/leave()"), "\(ferry.findingKeys)")
        XCTAssertFalse(ferry.findingKeys.contains { $0.hasPrefix("unreachable_state") }, "\(ferry.findingKeys)")
    }

    /// A labelled statement is walked (it was skipped, with every write in it): `break scan` leaves the
    /// labelled loop or switch, `continue scan` goes on at its next turn. A case that fires on one path
    /// through a method is no shadowed rule because another path reaching it takes every state it matches.
    func testLabelledStatementsAndCasesReachedOnSeveralPaths() throws {
        let (machines, diagnostics) = try Fixture.analyze(source: """
        final class Spindle {
            enum State { case idle, winding, full, snapped }
            private var state = State.idle
            func feed(_ turns: [Int]) {
                wind: for t in turns {
                    switch state {
                    case .idle:
                        state = .winding
                        continue wind
                    case .winding:
                        if t == 0 {
                            state = .full
                            break wind
                        }
                    case .full, .snapped:
                        break wind
                    }
                }
            }
            func yank(hard: Bool) {
                check: switch state {
                case .winding:
                    if !hard { break check }
                    state = .snapped
                default:
                    break
                }
                switch state {
                case .snapped:
                    state = .idle
                default:
                    break
                }
            }
        }
        """)
        let spindle = try XCTUnwrap(machines.named("Spindle.state"))
        XCTAssertEqual(spindle.transitions, ["idle -feed()-> winding", "idle -feed()-> full", "winding -feed()-> full",
                                             "winding -yank()-> idle", "snapped -yank()-> idle"])
        XCTAssertFalse(spindle.findingKeys.contains { $0.hasPrefix("shadowed_rule") }, "\(spindle.findingKeys)")
        XCTAssertFalse(diagnostics.contains { $0.message.contains("shaped like a state machine") })

        // the second switch's `default` takes `warm` on one path, and nothing on the path that made it `hot`
        let (kilns, _) = try Fixture.analyze(source: """
        final class Kiln {
            enum State { case cold, warm, hot, cracked }
            private var state = State.cold
            func stoke(_ more: Bool) {
                switch state {
                case .cold: if more { state = .warm }
                case .warm: if more { state = .hot }
                default: return
                }
                switch state {
                case .hot: state = .cracked
                default: break
                }
            }
            func cool() { if case .cracked = state { return }; state = .cold }
        }
        """)
        let kiln = try XCTUnwrap(kilns.named("Kiln.state"))
        XCTAssertEqual(kiln.findingKeys, ["dead_end_state cracked"])
    }

    /// A state reached only from one the machine holds while a method runs (`priming` between `phase =
    /// .priming` and the write after it) is reached by a call re-entering that method: a note, not an
    /// unreachable warning.
    func testAStateReachedOnlyFromATransientOneIsANote() throws {
        let (machines, _) = try Fixture.analyze(source: """
        final class Pump {
            enum Phase { case idle, priming, stoppedWhilePriming, running, stopped }
            private var phase = Phase.idle
            var hooks: [() -> Void] = []
            func start() {
                guard case .idle = phase else { return }
                phase = .priming
                for hook in hooks { hook() }
                switch phase {
                case .priming: phase = .running
                case .stoppedWhilePriming: phase = .stopped
                default: break
                }
            }
            func stop() {
                switch phase {
                case .priming: phase = .stoppedWhilePriming
                case .running, .idle: phase = .stopped
                case .stoppedWhilePriming, .stopped: break
                }
            }
        }
        """)
        let pump = try XCTUnwrap(machines.named("Pump.phase"))
        XCTAssertEqual(pump.transient, ["priming"])
        let finding = try XCTUnwrap(pump.findings.first { $0.check == "unreachable_state" && $0.subject == "stoppedWhilePriming" })
        XCTAssertEqual(finding.severity, .note)
        XCTAssertTrue(finding.message.contains("only reached from 'priming'"), finding.message)
    }
    /// An `Operation`'s state that only computed properties test (`isExecuting`, `isFinished`), set by
    /// `start()` and the method finishing the work, is its machine.
    func testAStateOnlyComputedPropertiesTest() throws {
        let (machines, _) = try Fixture.analyze(source: """
        import Foundation
        class KettleOperation: Operation {
            enum Stage { case waiting, boiling, done }
            private var stage: Stage = .waiting
            override var isExecuting: Bool { stage == .boiling }
            override var isFinished: Bool { stage == .done }
            override func start() {
                if isCancelled { stage = .done; return }
                stage = .boiling
            }
            func whistle() { stage = .done }
        }
        """)
        let kettle = try XCTUnwrap(machines.named("KettleOperation.stage"))
        XCTAssertEqual(kettle.initial, "waiting")
        XCTAssertTrue(kettle.transitions.isSuperset(of: ["waiting -start()-> boiling", "waiting -start()-> done", "boiling -whistle()-> done"]),
                      "\(kettle.transitions)")
    }

    /// A closure stored in another value's property (`sensor.onReading = { [weak self] … }`) is called
    /// back later, from the states it was set in and after: an input named by the property. Its hand-over to
    /// the main queue is the rest of it.
    func testAHandlerStoredInAnotherValuesProperty() throws {
        let (machines, _) = try Fixture.analyze(source: """
        import Foundation
        final class Greenhouse {
            enum HumidityStatus { case unknown, humid, dry }
            private(set) var humidityStatus: HumidityStatus = .unknown
            private let sensor = Hygrometer()
            func watch() {
                sensor.onReading = { [weak self] percent in
                    DispatchQueue.main.async { self?.humidityStatus = percent > 60 ? .humid : .dry }
                }
            }
            func unplug() { humidityStatus = .unknown }
        }
        final class Hygrometer { var onReading: ((Int) -> Void)? }
        """)
        let greenhouse = try XCTUnwrap(machines.named("Greenhouse.humidityStatus"))
        XCTAssertEqual(greenhouse.transitions, ["unknown -watch() onReading-> humid", "unknown -watch() onReading-> dry",
                                                "humid -watch() onReading-> dry", "dry -watch() onReading-> humid",
                                                "humid -unplug()-> unknown", "dry -unplug()-> unknown"])
        XCTAssertFalse(greenhouse.partial)

        // the handler calls another method that writes it (`self?.finish()`), itself the handler's helper
        let (players, _) = try Fixture.analyze(source: """
        final class Gramophone {
            enum PlaybackStatus { case stopped, playing, finished }
            private(set) var playbackStatus: PlaybackStatus = .stopped
            private let motor = Motor()
            func play() {
                playbackStatus = .playing
                self.motor.onRunOut = { [weak self] in self?.finish() }
            }
            private func finish() { playbackStatus = .finished }
            func stop() { playbackStatus = .stopped }
        }
        final class Motor { var onRunOut: (() -> Void)? }
        """)
        let gramophone = try XCTUnwrap(players.named("Gramophone.playbackStatus"))
        XCTAssertTrue(gramophone.transitions.contains("playing -play() onRunOut-> finished"), "\(gramophone.transitions)")
        XCTAssertFalse(gramophone.inputs.contains("finish()"), "\(gramophone.inputs)")
    }

    /// Stages written through a box's setter (`orderStatus.onNext(.ordering)`, then in a completion
    /// handler), and a SwiftUI view's escaping closure, which says no `self` in a struct.
    func testStagesThroughSettersAndAViewsEscapingClosure() throws {
        let (machines, _) = try Fixture.analyze(source: """
        import RxSwift
        final class BakeryViewModel {
            enum OrderStatus { case browsing, ordering, placed, refused }
            let orderStatus = BehaviorSubject<OrderStatus>(value: .browsing)
            private let counter = Counter()
            func order() {
                orderStatus.onNext(.ordering)
                counter.place { [weak self] accepted in self?.orderStatus.onNext(accepted ? .placed : .refused) }
            }
            func leave() { orderStatus.onNext(.browsing) }
        }
        final class Counter { func place(_ done: @escaping (Bool) -> Void) {} }
        """)
        let bakery = try XCTUnwrap(machines.named("BakeryViewModel.orderStatus"))
        XCTAssertTrue(bakery.transitions.isSuperset(of: ["browsing -order()-> ordering", "ordering -order() callback-> placed",
                                                         "ordering -order() callback-> refused", "placed -leave()-> browsing"]),
                      "\(bakery.transitions)")
        let (views, _) = try Fixture.analyze(source: """
        import SwiftUI
        struct VaultView: View {
            enum Door { case shut, opening, open }
            @State private var door: Door = .shut
            var body: some View {
                switch door {
                case .shut: Button("Dial") { door = .opening; Tumbler.turn { ok in door = ok ? .open : .shut } }
                case .opening: ProgressView()
                case .open: Button("Close") { door = .shut }
                }
            }
        }
        enum Tumbler { static func turn(_ done: @escaping (Bool) -> Void) {} }
        """)
        let vault = try XCTUnwrap(views.named("VaultView.door"))
        XCTAssertEqual(vault.transitions, ["shut -Dial-> opening", "opening -Dial callback-> open", "opening -Dial callback-> shut",
                                           "open -Close-> shut"])
        XCTAssertFalse(vault.findingKeys.contains("dead_end_state opening"), "\(vault.findingKeys)")
    }

    /// A property a generic superclass declares with the type parameter the class binds to an enum
    /// (`class Oven: StoreBase<OvenState>`) is the class's state, starting as `super.init(state:)` says.
    func testAStateDeclaredByAGenericSuperclass() throws {
        let (machines, _) = try Fixture.analyze(source: """
        class StoreBase<Value> {
            var state: Value
            init(state: Value) { self.state = state }
        }
        enum OvenState { case off, preheating, ready }
        final class Oven: StoreBase<OvenState> {
            init() { super.init(state: .off) }
            func preheat() { guard state == .off else { return }; state = .preheating }
            func ding() { if state == .preheating { state = .ready } }
            func switchOff() { state = .off }
        }
        """)
        let oven = try XCTUnwrap(machines.named("Oven.state"))
        XCTAssertEqual(oven.initial, "off")
        // (`super.init(initialState: .idle)` names it too)
        let (labelled, _) = try Fixture.analyze(source: """
        class Model<Value> {
            var state: Value
            init(initialState: Value) { state = initialState }
        }
        enum KilnState { case cold, firing }
        final class Kiln: Model<KilnState> {
            init() { super.init(initialState: .cold) }
            func fire() { if state == .cold { state = .firing } }
            func cool() { state = .cold }
        }
        """)
        XCTAssertEqual(try XCTUnwrap(labelled.named("Kiln.state")).initial, "cold")
        XCTAssertEqual(oven.transitions, ["off -preheat()-> preheating", "preheating -ding()-> ready", "preheating -switchOff()-> off",
                                          "ready -switchOff()-> off"])
    }

    /// An enum kept in a lock (`Mutex`, `NIOLockedValueBox`, `OSAllocatedUnfairLock`) is read and written
    /// in the closures its accessor runs at once, its parameter (or `$0`) the state; it starts as the lock
    /// is made with, through the enum's own `init()` too.
    func testAStateKeptInALock() throws {
        let (machines, _) = try Fixture.analyze(source: """
        import Synchronization
        import NIOConcurrencyHelpers
        import os
        final class Tap: Sendable {
            enum State { case closed, running, dripping }
            private let state = Mutex<State>(.closed)
            func open() -> Bool {
                state.withLock { state in
                    guard state == .closed else { return false }
                    state = .running
                    return true
                }
            }
            func loosen() { state.withLock { if $0 == .running { $0 = .dripping } } }
            func shut() { state.withLock { $0 = .closed } }
        }
        final class Ferry: Sendable {
            enum Crossing { case docked, sailing, moored
                init() { self = .docked }
            }
            private let crossing: NIOLockedValueBox<Crossing>
            init() { crossing = NIOLockedValueBox(Crossing()) }
            func depart() { crossing.withLockedValue { value in if case .docked = value { value = .sailing } } }
            func arrive() { crossing.withLockedValue { $0 = .moored } }
        }
        final class Metronome: @unchecked Sendable {
            enum Phase { case still, ticking }
            private let phase = OSAllocatedUnfairLock(initialState: Phase.still)
            func tick() { phase.withLock { $0 = .ticking } }
            func hush() { phase.withLock { $0 = .still } }
        }
        """)
        let tap = try XCTUnwrap(machines.named("Tap.state"))
        XCTAssertEqual(tap.initial, "closed")
        XCTAssertEqual(tap.transitions, ["closed -open()-> running", "running -loosen()-> dripping", "running -shut()-> closed",
                                         "dripping -shut()-> closed"])
        let ferry = try XCTUnwrap(machines.named("Ferry.crossing"))
        XCTAssertEqual(ferry.initial, "docked")
        XCTAssertEqual(ferry.transitions, ["docked -depart()-> sailing", "docked -arrive()-> moored", "sailing -arrive()-> moored"])
        let metronome = try XCTUnwrap(machines.named("Metronome.phase"))
        XCTAssertEqual(metronome.transitions, ["still -tick()-> ticking", "ticking -hush()-> still"])
        // (the enum's own machine is not read apart from its holder's)
        XCTAssertFalse(machines.contains { $0.name == "Ferry.Crossing" })
    }

    /// A `switch` over what a method of the state returns (`switch state.gust(strong:)`, or a local holding
    /// it) takes only the cases it returned on each path: in `dim`, `gust` returns `.nothing`, so `wind`
    /// does not relight it. The holder of an enum that steps itself is its machine without a test of its own.
    func testASwitchOverTheCaseAMethodReturned() throws {
        let (machines, _) = try Fixture.analyze(source: """
        final class Lantern {
            enum State {
                case lit, dim, relighting, out
                enum OnGust { case flicker, relight, nothing }
                mutating func gust(strong: Bool) -> OnGust {
                    let onGust: OnGust
                    switch self {
                    case .lit:
                        self = .dim
                        onGust = strong ? .relight : .flicker
                    case .dim, .relighting, .out:
                        onGust = .nothing
                    }
                    return onGust
                }
                mutating func relight() { if case .dim = self { self = .relighting } }
                mutating func caught() { if case .relighting = self { self = .lit } }
            }
            private var state: State = .lit
            func wind(strong: Bool) {
                switch self.state.gust(strong: strong) {
                case .flicker: print("flicker")
                case .relight: self.state.relight()
                case .nothing: break
                }
            }
            func flame() {
                let action = self.state.gust(strong: true)
                switch action {
                case .relight: self.state.relight()
                default: break
                }
            }
            func spark() { self.state.caught() }
        }
        """)
        let lantern = try XCTUnwrap(machines.named("Lantern.state"))
        XCTAssertEqual(lantern.transitions, ["lit -wind()-> dim", "lit -wind()-> relighting", "lit -flame()-> dim", "lit -flame()-> relighting",
                                             "relighting -spark()-> lit"])
    }

    /// Square's Workflow: the actions' `apply(toState:)` is the machine, starting where the workflow's
    /// `makeInitialState()` says.
    func testAWorkflowStartsAsMakeInitialStateSays() throws {
        let (machines, _) = try Fixture.analyze(source: """
        import Workflow
        struct RecipeWorkflow: Workflow {
            enum State { case choosing, cooking, served }
            func makeInitialState() -> State { .choosing }
        }
        extension RecipeWorkflow {
            enum Action: WorkflowAction {
                typealias WorkflowType = RecipeWorkflow
                case cook, serve, again
                func apply(toState state: inout RecipeWorkflow.State) -> Never? {
                    switch self {
                    case .cook: state = .cooking
                    case .serve: state = .served
                    case .again: state = .choosing
                    }
                    return nil
                }
            }
        }
        """)
        let recipe = try XCTUnwrap(machines.named("apply"))
        XCTAssertEqual(recipe.initial, "choosing")
        XCTAssertTrue(recipe.transitions.contains("choosing -cook-> cooking"), "\(recipe.transitions)")
    }

    /// A write in a nested function, which no walk follows, makes the machine partial and says where.
    func testAWriteInANestedFunctionIsNotFollowed() throws {
        let (machines, diagnostics) = try Fixture.analyze(source: """
        final class Kiosk {
            enum State { case idle, busy, closed }
            private var state: State = .idle
            private let queue = Work()
            func begin() { guard state == .idle else { return }; state = .busy }
            func close() {
                func finish() { state = .closed }
                queue.later { finish() }
            }
            func reset() { state = .idle }
        }
        final class Work { func later(_ f: @escaping () -> Void) {} }
        """)
        let kiosk = try XCTUnwrap(machines.named("Kiosk.state"))
        XCTAssertTrue(kiosk.partial)
        XCTAssertTrue(diagnostics.contains { $0.message.contains("inside a nested function in close()") && $0.location?.line == 7 },
                      "\(diagnostics.map(\.message))")
    }

    /// A property not named as a state that a method steps to its enum's successor (`page = page.next`,
    /// `page = page.advanced()`, a method switching over `self`) is a state.
    func testAStepToTheEnumsSuccessorIsEvidence() throws {
        let (machines, _) = try Fixture.analyze(source: """
        final class Tour {
            enum Stop {
                case harbour, castle, market
                var next: Stop { switch self { case .harbour: return .castle; case .castle, .market: return .market } }
            }
            private(set) var stop: Stop = .harbour
            func walkOn() { stop = stop.next }
            func restart() { stop = .harbour }
        }
        final class Quiz {
            enum Round {
                case warmUp, main, final
                func advanced() -> Round { switch self { case .warmUp: return .main; case .main, .final: return .final } }
            }
            private(set) var round: Round = .warmUp
            func nextRound() { round = round.advanced() }
            func forfeit() { round = .final }
        }
        """)
        let tour = try XCTUnwrap(machines.named("Tour.stop"))
        XCTAssertEqual(tour.transitions, ["harbour -walkOn()-> castle", "castle -walkOn()-> market", "castle -restart()-> harbour",
                                          "market -restart()-> harbour"])
        let quiz = try XCTUnwrap(machines.named("Quiz.round"))
        XCTAssertEqual(quiz.transitions, ["warmUp -nextRound()-> main", "main -nextRound()-> final", "warmUp -forfeit()-> final",
                                          "main -forfeit()-> final"])
    }

    /// A closure given to a call the code does not declare runs later when it says `self.x` where the
    /// method around it says `x` alone: Swift asks for `self` in escaping closures only.
    func testSelfWrittenOnlyInAClosureMarksItEscaping() throws {
        let (machines, _) = try Fixture.analyze(source: """
        final class Lookup {
            enum Phase { case idle, asking, answered, unknown }
            private(set) var phase: Phase = .idle
            func ask(_ q: String) {
                phase = .asking
                Oracle.consult(q) { answer in
                    self.phase = answer == nil ? .unknown : .answered
                }
            }
            func clear() { phase = .idle }
        }
        final class Tally {
            enum Phase { case idle, counting, done }
            private(set) var phase: Phase = .idle
            func count(_ xs: [Int]) {
                phase = .counting
                xs.forEach { _ in self.phase = .counting }
                phase = .done
            }
            func reset() { phase = .idle }
        }
        """)
        let lookup = try XCTUnwrap(machines.named("Lookup.phase"))
        XCTAssertEqual(lookup.inputs, ["ask()", "clear()", "ask() callback"])
        XCTAssertTrue(lookup.transitions.isSuperset(of: ["idle -ask()-> asking", "asking -ask() callback-> unknown",
                                                         "asking -ask() callback-> answered"]), "\(lookup.transitions)")
        // (`forEach` runs its closure at once)
        let tally = try XCTUnwrap(machines.named("Tally.phase"))
        XCTAssertEqual(tally.inputs, ["count()", "reset()"])
    }

    /// `return false` after a guard returns no effect: a rejected call is no self-loop. `precondition` and
    /// `assert` on the state are guards whose failing paths trap.
    func testRejectedCallsAndAssertionsDrawNoEdges() throws {
        let (machines, _) = try Fixture.analyze(source: """
        final class Kettle {
            enum HeatState { case cold, heating, boiling }
            private(set) var heatState: HeatState = .cold
            @discardableResult func switchOn() -> Bool {
                guard heatState == .cold else { return false }
                heatState = .heating
                return true
            }
            func boil() {
                precondition(heatState == .heating, "boil() before switchOn()")
                heatState = .boiling
            }
            func coolDown() {
                assert(heatState != .cold)
                heatState = .cold
            }
        }
        """)
        let kettle = try XCTUnwrap(machines.named("Kettle.heatState"))
        XCTAssertEqual(kettle.transitions, ["cold -switchOn()-> heating", "heating -boil()-> boiling", "heating -coolDown()-> cold",
                                            "boiling -coolDown()-> cold"])
    }

    /// `withCheckedContinuation`'s closure runs before the method waits: a state it sets is where the
    /// method waits. A stream's build closure runs in its initializer; its `onTermination` later.
    func testContinuationAndStreamClosuresRunAtOnce() throws {
        let (machines, _) = try Fixture.analyze(source: """
        final class Dialog {
            enum State { case hidden, showing, waiting, accepted, declined }
            private(set) var state: State = .hidden
            private var answer: CheckedContinuation<Bool, Never>?
            func ask() async {
                guard state == .hidden else { return }
                state = .showing
                let yes = await withCheckedContinuation { c in
                    self.answer = c
                    self.state = .waiting
                }
                state = yes ? .accepted : .declined
            }
            func dismiss() { state = .hidden }
        }
        final class Feed {
            enum State { case off, flowing, stopped }
            private(set) var state: State = .off
            func values() -> AsyncStream<Int> {
                AsyncStream { c in
                    self.state = .flowing
                    c.onTermination = { _ in self.state = .stopped }
                }
            }
            func reset() { state = .off }
        }
        """)
        let dialog = try XCTUnwrap(machines.named("Dialog.state"))
        XCTAssertTrue(dialog.transitions.isSuperset(of: ["hidden -ask()-> waiting", "waiting -ask() after withCheckedContinuation()-> accepted",
                                                         "waiting -ask() after withCheckedContinuation()-> declined"]), "\(dialog.transitions)")
        XCTAssertFalse(dialog.transitions.contains { $0.hasPrefix("showing -ask() after") }, "\(dialog.transitions)")
        let feed = try XCTUnwrap(machines.named("Feed.state"))
        XCTAssertTrue(feed.transitions.isSuperset(of: ["off -values()-> flowing", "flowing -values() onTermination-> stopped"]), "\(feed.transitions)")
    }

    /// An enum field named as a state of a struct the type keeps (`viewState.phase = …`) is a state of
    /// its own, starting as the field's default; an optional enum a method guards on `nil` is a state too.
    func testAStructFieldAndAnOptionalAreStates() throws {
        let (machines, _) = try Fixture.analyze(source: """
        final class SignInScreen {
            struct Screen {
                enum Phase { case typing, checking, welcomed, refused }
                var phase: Phase = .typing
                var hint: String?
            }
            private(set) var screen = Screen()
            func submit() {
                guard screen.phase == .typing || screen.phase == .refused else { return }
                screen.phase = .checking
                screen.hint = nil
            }
            func verdict(_ ok: Bool) {
                guard screen.phase == .checking else { return }
                screen.phase = ok ? .welcomed : .refused
            }
        }
        final class Sketchpad {
            enum Stroke { case inking, smudging }
            var pencil = true
            private(set) var stroke: Stroke?
            func press() {
                guard stroke == nil else { return }
                stroke = pencil ? .inking : .smudging
            }
            func lift() { stroke = nil }
        }
        """)
        let screen = try XCTUnwrap(machines.named("SignInScreen.screen.phase"))
        XCTAssertEqual(screen.initial, "typing")
        XCTAssertEqual(screen.transitions, ["typing -submit()-> checking", "refused -submit()-> checking", "checking -verdict()-> welcomed",
                                            "checking -verdict()-> refused"])
        let pad = try XCTUnwrap(machines.named("Sketchpad.stroke"))
        XCTAssertEqual(pad.initial, "nil")
        XCTAssertTrue(pad.transitions.isSuperset(of: ["nil -press()-> inking", "nil -press()-> smudging", "inking -lift()-> nil"]),
                      "\(pad.transitions)")
    }

    /// Work a case's payload starts (`state = .running(Task { … })`) runs later, from that state.
    func testATaskInACasesPayloadRunsFromThatState() throws {
        let (machines, _) = try Fixture.analyze(source: """
        final class Printer {
            enum State { case idle, printing(Task<Void, Never>), done }
            private(set) var state: State = .idle
            func print() {
                guard case .idle = state else { return }
                state = .printing(Task { await self.finish() })
            }
            func abort() {
                if case let .printing(task) = state { task.cancel(); state = .idle }
            }
            private func finish() async { state = .done }
        }
        """)
        let printer = try XCTUnwrap(machines.named("Printer.state"))
        XCTAssertEqual(printer.transitions, ["idle -print()-> printing", "printing -abort()-> idle", "printing -print() task-> done"])
    }

    /// Initial states from where they are given: a table handed to a machine's initializer with the start
    /// beside it, a transition closure after a lone case, a computed property read from `UserDefaults`
    /// with a fallback case.
    func testInitialStatesGivenBesideTheTransitions() throws {
        let (machines, _) = try Fixture.analyze(source: """
        final class Machine<S: Hashable, E: Hashable> {
            private(set) var current: S
            private let table: [S: [E: S]]
            init(start: S, table: [S: [E: S]]) { current = start; self.table = table }
            func fire(_ e: E) { if let n = table[current]?[e] { current = n } }
        }
        final class Flow<S, E> {
            private(set) var s: S
            let step: (S, E) -> S?
            init(_ s: S, step: @escaping (S, E) -> S?) { self.s = s; self.step = step }
        }
        enum Valve: Hashable { case shut, ajar }
        enum Turn: Hashable { case twist, close }
        final class Plumbing {
            let valve = Machine<Valve, Turn>(start: .shut, table: [.shut: [.twist: .ajar], .ajar: [.close: .shut]])
        }
        let lamp = Flow<Valve, Turn>(.ajar) { s, e in
            switch (s, e) {
            case (.shut, .twist): return .ajar
            case (.ajar, .close): return .shut
            default: return nil
            }
        }
        final class Intro {
            enum Stage: String { case hello, tips, done }
            var stage: Stage {
                get { Stage(rawValue: UserDefaults.standard.string(forKey: "intro") ?? "") ?? .hello }
                set { UserDefaults.standard.set(newValue.rawValue, forKey: "intro") }
            }
            func next() { guard stage == .hello else { return }; stage = .tips }
            func finish() { guard stage == .tips else { return }; stage = .done }
        }
        """)
        XCTAssertEqual(try XCTUnwrap(machines.named("valve")).initial, "shut")
        XCTAssertEqual(try XCTUnwrap(machines.named("lamp")).initial, "ajar")
        XCTAssertEqual(try XCTUnwrap(machines.named("Intro.stage")).initial, "hello")
    }

    /// A view's `onChange(of:)` modifiers are inputs named by what each watches, one input each.
    func testEachOnChangeIsAnInputOfItsOwn() throws {
        let (machines, _) = try Fixture.analyze(source: """
        import SwiftUI
        struct ScannerView: View {
            enum Mode { case looking, matched }
            @State private var mode: Mode = .looking
            @State private var code: String?
            @Environment(\\.scenePhase) private var scenePhase
            var body: some View {
                Text("Scan")
                    .onChange(of: code) { _ in if mode == .looking { mode = .matched } }
                    .onChange(of: scenePhase) { _ in if mode == .matched { mode = .looking } }
            }
        }
        """)
        let scanner = try XCTUnwrap(machines.named("ScannerView.mode"))
        XCTAssertEqual(scanner.transitions, ["looking -onChange(of: code)-> matched", "matched -onChange(of: scenePhase)-> looking"])
    }

    /// A step by raw value (`Page(rawValue: page.rawValue + 1)`, bound by `guard let`/`if let`, before
    /// `?? fallback` or `!`) in an enum of `Int` raw values goes to the case one on or back, where there is
    /// one: a wizard's pages.
    func testAStepByRawValue() throws {
        let (machines, _) = try Fixture.analyze(source: """
        final class Booklet {
            enum Leaf: Int { case cover = 1, preface, story }
            private(set) var leaf: Leaf = .cover
            func turn() { guard let next = Leaf(rawValue: leaf.rawValue + 1) else { return }; leaf = next }
            func turnBack() { if let previous = Leaf(rawValue: leaf.rawValue - 1) { leaf = previous } }
            func flip() { leaf = Leaf(rawValue: leaf.rawValue + 1) ?? .cover }
        }
        """)
        let booklet = try XCTUnwrap(machines.named("Booklet.leaf"))
        XCTAssertEqual(booklet.transitions, ["cover -turn()-> preface", "preface -turn()-> story", "preface -turnBack()-> cover",
                                             "story -turnBack()-> preface", "cover -flip()-> preface", "preface -flip()-> story",
                                             "story -flip()-> cover"])
    }

    /// A `switch` or `if` expression gives the state its value (`light = switch light { … }`), and a
    /// getter or function that is one returns its branches' values (`var next: Step { switch self { case
    /// .a: .b … } }`).
    func testSwitchAndIfExpressions() throws {
        let (machines, _) = try Fixture.analyze(source: """
        final class Crossing {
            enum Signal { case stop, walk, hurry, off }
            private(set) var signal: Signal = .stop
            func tick() {
                signal = switch signal {
                case .stop: .walk
                case .walk: .hurry
                case .hurry: .stop
                case .off: .off
                }
            }
            func power(_ on: Bool) { signal = if on { .stop } else { .off } }
        }
        final class Intake {
            enum Form {
                case name, address, review
                var next: Form {
                    switch self {
                    case .name: .address
                    case .address, .review: .review
                    }
                }
            }
            private(set) var form: Form = .name
            func proceed() { form = form.next }
            func startOver() { form = .name }
        }
        """)
        let crossing = try XCTUnwrap(machines.named("Crossing.signal"))
        XCTAssertTrue(crossing.transitions.isSuperset(of: ["stop -tick()-> walk", "walk -tick()-> hurry", "hurry -tick()-> stop",
                                                           "off -power()-> stop", "walk -power()-> off"]), "\(crossing.transitions)")
        XCTAssertFalse(crossing.transitions.contains("stop -tick()-> hurry"))
        let intake = try XCTUnwrap(machines.named("Intake.form"))
        XCTAssertEqual(intake.transitions, ["name -proceed()-> address", "address -proceed()-> review", "address -startOver()-> name",
                                            "review -startOver()-> name"])
    }

    /// A state a view controller's methods only set, and one of its methods switches over to show
    /// (`render()` from `didSet`), is a machine of those methods, whatever its cases carry.
    func testAStateSetByMethodsAndShownByOneIsAMachine() throws {
        let (machines, _) = try Fixture.analyze(source: """
        final class InboxScreen {
            enum State { case loading, empty, listing([String]), broken(String) }
            private var state: State = .loading { didSet { show() } }
            func reload() { state = .loading }
            func arrived(_ mail: [String]) { state = mail.isEmpty ? .empty : .listing(mail) }
            func failed(_ why: String) { state = .broken(why) }
            private func show() {
                switch state {
                case .loading: spin()
                case .empty, .listing, .broken: stop()
                }
            }
            private func spin() {}
            private func stop() {}
        }
        """)
        let inbox = try XCTUnwrap(machines.named("InboxScreen.state"))
        XCTAssertTrue(inbox.transitions.isSuperset(of: ["empty -reload()-> loading", "loading -arrived()-> listing", "loading -failed()-> broken"]),
                      "\(inbox.transitions)")
    }

    /// A method setting the state to its argument after asking a predicate method of the type (`guard
    /// canTransition(to: next) else { return false }; current = next`) moves where the predicate allows.
    func testAMoveCheckedByAPredicateMethod() throws {
        let (machines, _) = try Fixture.analyze(source: """
        enum Brew { case idle, grinding, pouring, done }
        final class BrewFlow {
            private(set) var current: Brew = .idle
            func canTransition(to next: Brew) -> Bool {
                switch (current, next) {
                case (.idle, .grinding), (.grinding, .pouring), (.pouring, .done): return true
                case (.done, .idle): return true
                default: return false
                }
            }
            @discardableResult func transition(to next: Brew) -> Bool {
                guard canTransition(to: next) else { return false }
                current = next
                return true
            }
        }
        """)
        let flow = try XCTUnwrap(machines.named("BrewFlow.current"))
        XCTAssertEqual(flow.initial, "idle")
        XCTAssertEqual(Set(flow.edges.filter { !$0.noop }.map { "\($0.from)->\($0.to)" }),
                       ["idle->grinding", "grinding->pouring", "pouring->done", "done->idle"])
    }

    /// A helper mapping a value of an enum the code does not declare (`switch status { case .authorized:
    /// … default: … }`) takes every case: a call's result (`Sys.status()`) is no case.
    func testAHelperOverAnUndeclaredEnumTakesEveryCase() throws {
        let (machines, _) = try Fixture.analyze(source: """
        final class CameraGate {
            enum Access { case unknown, asking, allowed, refused }
            private(set) var access: Access = .unknown
            func check() { access = Self.map(Permissions.status()) }
            func ask() { guard access == .unknown else { return }; access = .asking }
            private static func map(_ status: PermissionStatus) -> Access {
                switch status {
                case .authorized: return .allowed
                case .denied, .restricted: return .refused
                default: return .unknown
                }
            }
        }
        """)
        let gate = try XCTUnwrap(machines.named("CameraGate.access"))
        XCTAssertTrue(gate.transitions.isSuperset(of: ["unknown -check()-> allowed", "unknown -check()-> refused", "asking -check()-> unknown"]),
                      "\(gate.transitions)")
    }

    /// A `for await` loop waits again before each value: a state its body sets is where the next value
    /// (or the end of the sequence) comes.
    func testAForAwaitLoopWaitsBeforeEachValue() throws {
        let (machines, _) = try Fixture.analyze(source: """
        final class Ticker {
            enum Phase { case idle, tuning, playing, ended }
            private(set) var phase: Phase = .idle
            func listen(_ frames: AsyncStream<Int>) async {
                phase = .tuning
                for await _ in frames { phase = .playing }
                phase = .ended
            }
            func stop() { phase = .idle }
        }
        """)
        let ticker = try XCTUnwrap(machines.named("Ticker.phase"))
        XCTAssertTrue(ticker.transitions.isSuperset(of: ["idle -listen()-> tuning", "tuning -listen() on frames-> playing",
                                                         "playing -listen() on frames-> ended"]), "\(ticker.transitions)")
    }

    /// A state made by its enum from data: a static function called as an implicit member
    /// (`.from(ok)`, one expression), an initializer assigning `self`, a failable one with `??`.
    func testAStateMadeByItsEnumsFactories() throws {
        let (machines, _) = try Fixture.analyze(source: """
        enum Grade { case pending, pass, fail, review
            static func from(_ score: Int) -> Grade { score > 50 ? .pass : .fail }
            init(verdict: Verdict) {
                switch verdict {
                case .accepted: self = .pass
                default: self = .review
                }
            }
            init?(code: Int) {
                guard code > 0 else { return nil }
                self = .fail
            }
        }
        final class Exam {
            private(set) var gradeState: Grade = .pending
            func score(_ n: Int) { gradeState = .from(n) }
            func judge(_ v: Verdict) { gradeState = Grade(verdict: v) }
            func imported(_ c: Int) { gradeState = .init(code: c) ?? .pending }
            func retake() { guard gradeState != .pending else { return }; gradeState = .pending }
        }
        """)
        let exam = try XCTUnwrap(machines.named("Exam.gradeState"))
        XCTAssertTrue(exam.transitions.isSuperset(of: ["pending -score()-> pass", "pending -score()-> fail",
                                                       "pending -judge()-> pass", "pending -judge()-> review",
                                                       "pass -imported()-> fail", "pass -imported()-> pending"]), "\(exam.transitions)")
        XCTAssertFalse(exam.transitions.contains("pending -score()-> review"), "\(exam.transitions)")
    }

    /// Setting another stored property runs its `didSet`, which may set the state: the method setting
    /// that property is the input.
    func testAnObserverOfAnotherPropertySetsTheState() throws {
        let (machines, _) = try Fixture.analyze(source: """
        final class PinEntry {
            enum CheckState { case empty, short, checking, ok }
            private(set) var checkState: CheckState = .empty
            private var digits = "" {
                didSet {
                    if digits.isEmpty { checkState = .empty } else if digits.count < 4 { checkState = .short } else {
                        checkState = .checking
                        Verifier.check(digits) { good in self.checkState = good ? .ok : .short }
                    }
                }
            }
            func typed(_ text: String) { digits = text }
            func clear() { guard checkState != .empty else { return }; digits = "" }
        }
        """)
        let pin = try XCTUnwrap(machines.named("PinEntry.checkState"))
        XCTAssertTrue(pin.transitions.isSuperset(of: ["empty -typed()-> short", "empty -typed()-> checking",
                                                      "checking -digits.didSet callback-> ok", "short -clear()-> empty"]), "\(pin.transitions)")
    }

    /// A mutating method of the state's enum called with an event (`lamp.handle(.press)`), or a static
    /// helper given the state `inout` and an event: only that event's rows run.
    func testAnEventHandedToTheEnumsOwnStep() throws {
        let (machines, _) = try Fixture.analyze(source: """
        enum Knock { case press, timeout }
        enum Lamp {
            case dark, lit, dimmed
            mutating func handle(_ knock: Knock) {
                switch (self, knock) {
                case (.dark, .press): self = .lit
                case (.lit, .press): self = .dimmed
                case (.lit, .timeout), (.dimmed, .timeout): self = .dark
                default: break
                }
            }
            static func step(_ lamp: inout Lamp, _ knock: Knock) { lamp.handle(knock) }
        }
        final class Porch {
            private(set) var lamp: Lamp = .dark
            func tapped() { lamp.handle(.press) }
            func waited() { Lamp.step(&lamp, .timeout) }
            func unplug() { if lamp != .dark { lamp = .dark } }
        }
        """)
        let porch = try XCTUnwrap(machines.named("Porch.lamp"))
        XCTAssertEqual(Set(porch.transitions.filter { !$0.contains("unplug") }),
                       ["dark -tapped()-> lit", "lit -tapped()-> dimmed", "lit -waited()-> dark", "dimmed -waited()-> dark"])
    }

    /// `default: return []` returns no command: an unhandled event is no change, not an effect.
    func testAnEmptyArrayReturnedIsNoEffect() throws {
        let (machines, _) = try Fixture.analyze(source: """
        struct Pump {
            enum Phase { case idle, pumping }
            enum Signal { case start, stop, noise }
            enum Command { case valveOpen, valveClose }
            private(set) var phase: Phase = .idle
            mutating func send(_ signal: Signal) -> [Command] {
                switch (phase, signal) {
                case (.idle, .start): phase = .pumping; return [.valveOpen]
                case (.pumping, .stop): phase = .idle; return [.valveClose]
                default: return []
                }
            }
        }
        """)
        let pump = try XCTUnwrap(machines.named("Pump.phase"))
        XCTAssertTrue(pump.edges.filter { $0.from == $0.to }.allSatisfy(\.noop), "\(pump.edges)")
        XCTAssertEqual(pump.transitions, ["idle -start-> pumping", "pumping -stop-> idle"])
    }

    /// A completion handler writing `self.x` in a method that names `x` nowhere else: the type's other
    /// methods say `x` bare (and never `self.x` where nothing requires it), so the closure is one that
    /// must say `self`: it escapes, and runs later.
    func testACompletionHandlerWritingTheStateAlone() throws {
        let (machines, _) = try Fixture.analyze(source: """
        final class MicGate {
            enum Access { case unknown, refused, open, live }
            private(set) var access: Access = .unknown
            func ask() {
                Permissions.requestMicrophone { granted in
                    self.access = granted ? .open : .refused
                }
            }
            func goLive() { guard access == .open else { return }; access = .live }
            func hangUp() { guard access == .live else { return }; access = .open }
        }
        """)
        let gate = try XCTUnwrap(machines.named("MicGate.access"))
        XCTAssertTrue(gate.transitions.isSuperset(of: ["unknown -ask() callback-> open", "unknown -ask() callback-> refused",
                                                       "open -goLive()-> live"]), "\(gate.transitions)")
        XCTAssertFalse(gate.findingKeys.contains { $0.hasPrefix("unreachable_state") }, "\(gate.findings)")
    }

    /// A free reducer taking a struct `inout`, called by a store with its stored property (`apply(&model,
    /// action)`): the reducer is a machine of its own (it is no part of another reducer).
    func testAFreeInoutReducerCalledByAStore() throws {
        let (machines, _) = try Fixture.analyze(source: """
        enum Sign { case out, checking, inside }
        enum Door { case knock, welcome, leave }
        struct Hall { var sign: Sign = .out }
        func apply(_ hall: inout Hall, _ door: Door) {
            switch door {
            case .knock: guard hall.sign == .out else { return }; hall.sign = .checking
            case .welcome: guard hall.sign == .checking else { return }; hall.sign = .inside
            case .leave: hall.sign = .out
            }
        }
        final class HallStore {
            private(set) var hall = Hall()
            func dispatch(_ door: Door) { apply(&hall, door) }
        }
        """)
        let hall = try XCTUnwrap(machines.named("Hall.sign"))
        XCTAssertEqual(hall.initial, "out")
        XCTAssertTrue(hall.transitions.isSuperset(of: ["out -knock-> checking", "checking -welcome-> inside", "inside -leave-> out"]),
                      "\(hall.transitions)")
    }

    /// A view hands its child views closures that set its `@State` (`WelcomeCard(onNext: { stage = .form
    /// })`, a trailing closure): each is an input named by the child and the label, arriving where the
    /// view shows that child. (A closure building views sets nothing.)
    func testClosuresHandedToChildViewsSetTheState() throws {
        let (machines, _) = try Fixture.analyze(source: """
        import SwiftUI
        struct SignupFlow: View {
            enum Stage { case welcome, form, sent }
            @State private var stage: Stage = .welcome
            var body: some View {
                VStack {
                    switch stage {
                    case .welcome: WelcomeCard(onNext: { stage = .form })
                    case .form: FormCard(onSend: { stage = .sent }, onBack: { stage = .welcome })
                    case .sent:
                        DoneCard { stage = .welcome }
                        Button("Resend") { resend() }
                    }
                }
            }
            private func resend() { stage = .form; Task { stage = .sent } }
        }
        """)
        let flow = try XCTUnwrap(machines.named("SignupFlow.stage"))
        // (the `Task` a method starts is work, no child view: `Resend task`)
        XCTAssertEqual(flow.transitions, ["welcome -WelcomeCard.onNext-> form", "form -FormCard.onSend-> sent",
                                          "form -FormCard.onBack-> welcome", "sent -DoneCard-> welcome",
                                          "sent -Resend-> form", "form -Resend task-> sent"])
    }

    /// A guard through the owner's own `Bool` property or method that tests the state (`guard !isBusy`,
    /// `guard canSave()`) restricts the paths as the test it stands for.
    func testAGuardThroughTheOwnersPredicate() throws {
        let (machines, _) = try Fixture.analyze(source: """
        final class Sketch {
            enum Mode { case blank, drawn, exporting, exported }
            private(set) var mode: Mode = .blank
            var isBusy: Bool { mode == .exporting }
            func canExport() -> Bool {
                switch mode {
                case .drawn, .exported: return true
                default: return false
                }
            }
            func draw() { guard !isBusy else { return }; mode = .drawn }
            func export() { guard canExport() else { return }; mode = .exporting }
            func finished() { if mode == .exporting { mode = .exported } }
        }
        """)
        let sketch = try XCTUnwrap(machines.named("Sketch.mode"))
        XCTAssertEqual(sketch.transitions, ["blank -draw()-> drawn", "exported -draw()-> drawn", "drawn -export()-> exporting",
                                            "exported -export()-> exporting", "exporting -finished()-> exported"])
    }

    /// An observer registered in a method (`player.observe(…) { … }`, `publisher.sink { … }`) delivers
    /// again and again: its callback arrives in every state, not only the one it was registered in. Made in
    /// `init`, a subscription's input is named by what it subscribes to.
    func testASubscriptionDeliversInEveryState() throws {
        let (machines, _) = try Fixture.analyze(source: """
        import Combine
        final class Tuner {
            enum Signal { case off, searching, locked, lost }
            private(set) var signal: Signal = .off
            private var watch: AnyCancellable?
            private var bag = Set<AnyCancellable>()
            init(center: NotificationCenter) {
                center.publisher(for: .antennaUnplugged).sink { [weak self] _ in self?.signal = .off }.store(in: &bag)
            }
            func scan(_ radio: Radio) {
                signal = .searching
                watch = radio.$strength.sink { [weak self] level in self?.signal = level > 3 ? .locked : .lost }
            }
        }
        """)
        let tuner = try XCTUnwrap(machines.named("Tuner.signal"))
        XCTAssertTrue(tuner.transitions.isSuperset(of: ["searching -scan() sink-> locked", "locked -scan() sink-> lost",
                                                        "lost -scan() sink-> locked", "locked -antennaUnplugged sink-> off"]),
                      "\(tuner.transitions)")
    }

    /// Work started in an argument (`tokens.append(center.addObserver(forName: n, …) { … })`) runs as the
    /// argument is evaluated: its callback is an input (it was lost, its state quietly transient).
    func testWorkStartedInAnArgument() throws {
        let (machines, _) = try Fixture.analyze(source: """
        final class Dock {
            enum Link { case off, on, dropped }
            private(set) var link: Link = .off
            private var tokens: [NSObjectProtocol] = []
            func connect() {
                guard link == .off else { return }
                link = .on
                tokens.append(NotificationCenter.default.addObserver(forName: .dockLost, object: nil, queue: .main) { [weak self] _ in
                    self?.link = .dropped
                })
            }
            func reset() { link = .off }
        }
        """)
        let dock = try XCTUnwrap(machines.named("Dock.link"))
        XCTAssertTrue(dock.transitions.contains("on -connect() callback-> dropped"), "\(dock.transitions)")
    }
}
