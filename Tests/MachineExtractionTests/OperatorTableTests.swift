import MachineModel
import XCTest

final class OperatorTableTests: XCTestCase {
    func testHarvestLoginMachine() throws {
        let (machines, _) = Fixture.analyze([Fixture.example("harvest/Login.swift")])
        let m = try XCTUnwrap(machines.named("auth"))
        XCTAssertEqual(m.dialect, .operatorTable)
        XCTAssertEqual(m.initial, "loggedOut")
        XCTAssertEqual(m.states, ["loggedOut", "loggingIn", "loggedIn", "loggingOut"])
        XCTAssertEqual(m.transitions, [
            "loggedOut -login-> loggingIn", "loggingIn -loginOK-> loggedIn", "loggedIn -logout-> loggingOut",
            "loggingOut -logoutOK-> loggedOut",
            // the predicate `[.loggingIn, .loggedIn].contains` declared as a `let`
            "loggingIn -forceLogout-> loggingOut", "loggedIn -forceLogout-> loggingOut",
        ])
        XCTAssertEqual(m.findings, [])
        // effects: the publisher variable's `Just(AuthInput.loginOK)`, the queue and its `.latest` strategy
        let login = try XCTUnwrap(m.rules.first { $0.inputs == ["login"] })
        XCTAssertEqual(login.effect, Effect(label: "loginOKPublisher", emits: ["loginOK"], queue: "request", policy: "latest"))
        XCTAssertEqual(login.cancels, ["request"])
        XCTAssertEqual(m.emits, ["login>loginOK", "logout>logoutOK", "forceLogout>logoutOK"])
        XCTAssertEqual(m.rules.first { $0.inputs == ["loginOK"] }?.effect, nil)
    }

    func testClosurePredicatesWildcardsAndRxGenericOrder() throws {
        let (machines, diagnostics) = try Fixture.analyze(source: """
        import RxAutomaton
        enum Player { case stopped, playing, paused, buffering }
        enum Control { case play, pause, stop, stall, resume }
        func isActive(_ p: Player) -> Bool { p == .playing || p == .buffering }
        let rows: [Automaton<Player, Control>.Mapping] = [
            .play   | { $0 == .stopped || $0 == .paused } => .playing,
            .pause  | isActive                           => .paused,
            .stop   | { $0 != .stopped }                  => .stopped,
            .stall  | .playing                           => .buffering,
            any     | .buffering                         => .buffering,
            .resume | .buffering                         => .playing,
        ]
        let player = Automaton(state: .stopped, input: controls, mapping: reduce(rows))
        """)
        XCTAssertEqual(diagnostics, [])
        let m = try XCTUnwrap(machines.named("player"))
        XCTAssertEqual(m.inputs, ["play", "pause", "stop", "stall", "resume"])
        XCTAssertEqual(m.transitions, [
            "stopped -play-> playing", "paused -play-> playing",
            "playing -pause-> paused", "buffering -pause-> paused",
            "playing -stop-> stopped", "paused -stop-> stopped", "buffering -stop-> stopped",
            "playing -stall-> buffering",
        ])
        // `any | .buffering` comes before `.resume | .buffering`: the last row never fires; the
        // wildcard row also overlaps the `pause` and `stop` rows, which win because they come first
        XCTAssertEqual(m.findingKeys, ["shadowed_rule line:11", "overlapping_rules buffering/resume",
                                       "overlapping_rules buffering/pause", "overlapping_rules buffering/stop"])
        let overlap = try XCTUnwrap(m.findings.first { $0.subject == "buffering/pause" })
        XCTAssertTrue(overlap.message.contains("line 7 wins"), overlap.message)
        XCTAssertEqual(overlap.witness, ["play", "stall", "pause"])
    }

    func testWhatCannotBeExtractedIsADiagnosticNotAnEdge() throws {
        let (machines, diagnostics) = try Fixture.analyze(source: """
        enum Counter { case zero, some }
        enum Tick { case up, reset }
        func next(_ c: Counter) -> Counter { c }
        let counterRows: [Harvester<Tick, Counter>.Mapping] = [
            .reset | any => .zero,
            .up | unknownPredicate => next(.zero),
            .up | { $0 + 1 } | .empty,
        ]
        """)
        let m = try XCTUnwrap(machines.named("counterRows"))
        XCTAssertNil(m.initial, "no Harvester(state:) call: the code does not say")
        XCTAssertEqual(m.transitions, ["some -reset-> zero"])
        let messages = diagnostics.map(\.message).joined(separator: "\n")
        XCTAssertTrue(messages.contains("cannot tell which states `unknownPredicate` accepts"), messages)
        XCTAssertTrue(messages.contains("computed at run time"), messages)
        XCTAssertTrue(messages.contains("not a transition row"), messages)
        XCTAssertTrue(diagnostics.allSatisfy { $0.location?.line ?? 0 > 0 })
        XCTAssertTrue(m.findingKeys.contains("data_dependent_target zero/up"))
    }

    func testOverlapConformanceShapes() throws {
        let (machines, _) = Fixture.analyze(["\(Fixture.packageRoot.path)/../shared/conformance/cases/d1_table_overlap.swift"]
            .filter { FileManager.default.fileExists(atPath: $0) })
        try XCTSkipIf(machines.isEmpty, "shared conformance cases not beside the checkout")
        XCTAssertEqual(machines[0].findingKeys, ["overlapping_rules armed/arm", "overlapping_rules armed/fire", "shadowed_rule line:12"])
    }
}

final class OperatorTableEffectTests: XCTestCase {
    /// `Automaton(…, strategy: .latest)` and `producer.toEffect(queue:id:)`.
    func testGlobalLatestStrategyAndChainedEffectIDs() throws {
        let (machines, _) = Fixture.analyze([Fixture.path("reactive_strategy_latest")])
        let m = try XCTUnwrap(machines.named("automaton"))
        XCTAssertEqual(m.cancels, ["load>strategy: .latest", "reload>strategy: .latest"])
        let reload = try XCTUnwrap(m.rules.first { $0.inputs == ["reload"] }?.effect)
        XCTAssertEqual(reload.id, "download")
        XCTAssertEqual(reload.queue, "fetch")
        XCTAssertEqual(reload.emits, ["done"], "followed through the `producer` variable")
        XCTAssertEqual(m.rules.first { $0.inputs == ["load"] }?.effect?.policy, "latest")
    }
}
