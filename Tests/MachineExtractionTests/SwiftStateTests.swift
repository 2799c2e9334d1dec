import MachineModel
import XCTest

/// D6: SwiftState route DSL.
final class SwiftStateTests: XCTestCase {
    func testEventRoutesMultiFromAnyAndChains() throws {
        let player = try Analysed.fixture("SwiftStatePlayer.swift").machine("player")
        XCTAssertEqual(player.dialect, .swiftstate)
        XCTAssertEqual(player.order, .allMatch)
        XCTAssertEqual(player.initial, "idle")
        XCTAssertEqual(player.states, ["idle", "loading", "playing", "paused", "buffering", "failed"])
        XCTAssertEqual(player.inputs, ["load", "ready", "pause", "resume", "stall", "fail", "reset"])
        XCTAssertEqual(player.moves, [
            "idle -load-> loading", "failed -load-> loading",
            "loading -ready-> playing", "buffering -ready-> playing",
            // `[.playing, .buffering] => .paused`
            "playing -pause-> paused", "buffering -pause-> paused",
            "paused -resume-> playing",
            "playing -stall-> buffering", "playing -stall-> failed",
            // `.any => .failed`
            "idle -fail-> failed", "loading -fail-> failed", "playing -fail-> failed", "paused -fail-> failed", "buffering -fail-> failed",
            // event-less: `addRoute(.failed => .idle)` and the chain `.paused => .idle => .loading`
            "failed -<- .idle-> idle", "paused -<- .idle-> idle", "idle -<- .loading-> loading",
        ])
        XCTAssertEqual(player.findingSet, ["overlapping_rules playing/stall", "unused_input reset"])
    }

    func testAnyEventRouteIsACatchAllThatYieldsToTheEventsOwnRoutes() throws {
        let player = try Analysed.fixture("SwiftStatePlayer.swift").machine("player")
        // `addRoutes(event: .any, transitions: [.failed => .any])`: any event keeps `failed`...
        let anyRule = try player.rule(at: 25)
        XCTAssertTrue(anyRule.catchAll)
        XCTAssertEqual(Set(anyRule.inputs), ["ready", "pause", "resume", "stall", "reset"])
        XCTAssertEqual(anyRule.outcomes.map(\.target), [.stay])
        // ...but `load` and `fail` have routes of their own, which SwiftState tries first: no overlap.
        XCTAssertEqual(player.rules(from: "failed", input: "load").map(\.location.line), [15])
        XCTAssertNotNil(player.edge("failed", "reset", "failed"))
        XCTAssertNil(player.edge("failed", "load", "failed"))
    }

    func testEventlessRoutesHaveAPseudoInputNamedAfterTheRequestedState() throws {
        let player = try Analysed.fixture("SwiftStatePlayer.swift").machine("player")
        let route = try player.rule(at: 28)
        XCTAssertEqual(route.inputs, ["<- .idle"])
        XCTAssertEqual(route.trigger, "<- .idle")
        XCTAssertEqual(route.targets, ["idle"])
        // Pseudo-inputs are not declared inputs.
        XCTAssertFalse(player.inputs.contains { $0.hasPrefix("<-") })
        // A chain is one route per link.
        let chain = player.rules.filter { $0.location.line == 29 }
        XCTAssertEqual(chain.map(\.inputs), [["<- .idle"], ["<- .loading"]])
        XCTAssertEqual(chain.map(\.from), [["paused"], ["idle"]])
    }

    func testConditionIsTheGuard() throws {
        let player = try Analysed.fixture("SwiftStatePlayer.swift").machine("player")
        XCTAssertEqual(try player.rule(at: 18).displayGuard, "self?.isOnline == true")
        XCTAssertNil(try player.rule(at: 22).displayGuard)
    }

    func testHandlersAreEffectsOnTheEdgesTheyApplyTo() throws {
        let player = try Analysed.fixture("SwiftStatePlayer.swift").machine("player")
        // addHandler(event: .fail)
        XCTAssertEqual(player.effectLabel("playing", "fail", "failed"), "track")
        XCTAssertEqual(player.effectLabel("failed", "fail", "failed"), "track")
        XCTAssertNil(player.effectLabel("playing", "stall", "failed"))
        // addHandler(.failed => .idle): the event-less transition only
        XCTAssertEqual(player.effectLabel("failed", "<- .idle", "idle"), "resetBuffers")
        XCTAssertNil(player.effectLabel("paused", "<- .idle", "idle"))
    }

    func testArrowOperatorOnAMachineWithEventsIsNoted() {
        let result = Analysed.fixture("SwiftStatePlayer.swift")
        XCTAssertEqual(result.diagnosticLines, [
            "note 14: `player <- .state` also takes event routes (SwiftState's `hasRoute` looks at every route); those transitions are drawn under their events only",
        ])
    }

    func testRouteMappingTargetsComeFromReturns() throws {
        let vault = try Analysed.fixture("SwiftStateMapping.swift").machine("vault")
        XCTAssertEqual(vault.inputs, ["code", "turn", "panic"])
        XCTAssertEqual(vault.moves, [
            "unlocked -turn-> open",
            // `guard case let .code(n)? = event …; return fromState == .locked && n == 1234 ? .unlocked : nil`
            "locked -code-> unlocked",
            // `switch event { case .panic?: return fromState == .open ? .alarm : nil }`
            "open -panic-> alarm",
            // addStateRouteMapping: `fromState == .alarm ? [.locked, .unlocked] : nil`, event-less
            "alarm -<- .locked-> locked", "alarm -<- .unlocked-> unlocked",
        ])
        XCTAssertEqual(vault.rules(from: "locked", input: "code").first?.displayGuard, "fromState == .locked && n == 1234")
        XCTAssertEqual(vault.findingSet, [])
    }

    func testMachineConfiguredOutsideItsConstructionAndDisposableRoutes() throws {
        let result = Analysed.fixture("SwiftStateMapping.swift")
        let workflow = try result.machine("workflow")
        XCTAssertEqual(workflow.inputs, [])
        XCTAssertEqual(workflow.initial, "draft")
        XCTAssertEqual(workflow.moves, [
            "draft -<- .review-> review", "review -<- .published-> published", "review -<- .draft-> draft",
            "draft -<- .archived-> archived", "review -<- .archived-> archived", "published -<- .archived-> archived",
        ])
        // Two event-less routes out of `review` are different requests, not an overlap.
        XCTAssertEqual(workflow.findingSet, ["dead_end_state archived"])
        XCTAssertEqual(try workflow.rule(at: 33).displayGuard, "until reviewRoute.dispose()")
        XCTAssertEqual(try workflow.rule(at: 35).displayGuard, "context.userInfo as? Bool == true")
        // A route the tool cannot read is reported, not guessed.
        XCTAssertTrue(result.diagnosticLines.contains("warning 36: cannot read the route `allowed.first! => .draft`; it is left out of the machine"))
    }

    func testSubclassRegistersRoutesOnItself() throws {
        let ticket = try Analysed.fixture("SwiftStateMapping.swift").machine("TicketMachine")
        XCTAssertEqual(ticket.states, ["open", "assigned", "closed"])
        XCTAssertEqual(ticket.initial, "open")
        XCTAssertEqual(ticket.moves, ["open -<- .assigned-> assigned", "assigned -<- .closed-> closed"])
    }

    func testAnyTargetOfAnEventlessRouteIsEveryState() throws {
        let m = try Analysed.source("""
        enum Mode: StateType { case a, b, c }
        let modes = StateMachine<Mode, NoEvent>(state: .a) { $0.addRoute(.a => .any) }
        """).machine("modes")
        XCTAssertEqual(m.moves, ["a -<- .b-> b", "a -<- .c-> c"])
        XCTAssertEqual(m.findingSet, ["dead_end_state b", "dead_end_state c"])
    }

    func testPayloadDependentMappingIsDataDependent() throws {
        let m = try Analysed.source("""
        enum Lock: StateType { case shut, open }
        enum Key: EventType { case code(Int) }
        let lock = StateMachine<Lock, Key>(state: .shut) { machine in
            machine.addRouteMapping { event, from, _ in
                guard case let .code(n)? = event, from == .shut else { return nil }
                return n > 10 ? .open : .shut
            }
            machine.addRoutes(event: .code, transitions: [.open => .shut])
        }
        """).machine("lock")
        XCTAssertEqual(m.moves, ["shut -code-> open", "open -code-> shut"])
        XCTAssertEqual(m.findingSet, ["data_dependent_target shut/code"])
    }

    func testSameEventSameStateDifferentTargetsOverlapButEventlessDoNot() throws {
        let m = try Analysed.source("""
        enum S: StateType { case a, b, c }
        enum E: EventType { case go }
        let sm = StateMachine<S, E>(state: .a) { m in
            m.addRoutes(event: .go, transitions: [.a => .b])
            m.addRoutes(event: .go, transitions: [.a => .c])
            m.addRoute(.b => .a)
            m.addRoute(.b => .c)
        }
        """).machine("sm")
        XCTAssertEqual(m.findingSet, ["overlapping_rules a/go", "dead_end_state c"])
    }

    func testLegacyRouteEventAndHandlerArgument() throws {
        let m = try Analysed.source("""
        enum MyState: StateType { case s0, s1, s2 }
        enum MyEvent: EventType { case e0, e1 }
        final class Host {
            var fast = false
            let machine = StateMachine<MyState, MyEvent>(state: .s0) { machine in
                machine.addRouteEvent(.e0, transitions: [.s0 => .s1, .s1 => .s2])
                machine.addRoute(.s2 => .s0, condition: { _ in self.fast == .init(true) })
                machine.addRoute(.s2 => .s1) { context in log(context) }
            }
        }
        """).machine("machine")
        // `.init(true)` in a condition is not a state
        XCTAssertEqual(m.states, ["s0", "s1", "s2"])
        XCTAssertEqual(m.moves, ["s0 -e0-> s1", "s1 -e0-> s2", "s2 -<- .s0-> s0", "s2 -<- .s1-> s1"])
        XCTAssertEqual(try m.rule(at: 7).displayGuard, "self.fast == .init(true)")
        XCTAssertEqual(m.effectLabel("s2", "<- .s1", "s1"), "log")
        XCTAssertEqual(m.findingSet, ["unused_input e1"])
    }

    func testMalformedRegistrationsDoNotCrash() {
        let result = Analysed.source("""
        enum S: StateType { case a, b }
        let m = StateMachine<S, NoEvent>(state: .a) { m in
            m.addRoute(.a => )
            m.addRoutes(event: , transitions: [=> .b])
            m.addRouteChain(.a => .b => )
            m.addHandler(event: .a)
            m.addRouteMapping(nil)
            m.addRoute(.a => .b)
        }
        """)
        XCTAssertEqual(result.machines.map(\.moves), [["a -<- .b-> b"]])
    }

    func testClosureParameterNamedLikeAnotherMachineKeepsItsRoutes() throws {
        let files = [
            "A.swift": """
            enum Lift: StateType { case up, down }
            let machine = StateMachine<Lift, NoEvent>(state: .up) { m in m.addRoute(.up => .down) }
            """,
            "B.swift": """
            enum Door: StateType { case shut, ajar }
            let door = StateMachine<Door, NoEvent>(state: .shut) { machine in
                machine.addRoute(.shut => .ajar)
            }
            """,
        ]
        for _ in 0..<2 {
            let result = Analysed.source(files)
            XCTAssertEqual(try result.machine("machine").moves, ["up -<- .down-> down"])
            XCTAssertEqual(try result.machine("door").moves, ["shut -<- .ajar-> ajar"])
        }
        let reversed = Analysed.source(["Z.swift": files["A.swift"]!, "B.swift": files["B.swift"]!])
        XCTAssertEqual(try reversed.machine("door").moves, ["shut -<- .ajar-> ajar"])
        XCTAssertEqual(try reversed.machine("machine").moves, ["up -<- .down-> down"])
    }
}
