import MachineModel
import XCTest

/// D7: Tinder/StateMachine result-builder DSL.
final class TinderTests: XCTestCase {
    func testStateBlocksOnHandlersAndInitialFromParameterDefault() throws {
        let valve = try Analysed.fixture("TinderValve.swift").machine("valve")
        XCTAssertEqual(valve.dialect, .tinder)
        XCTAssertEqual(valve.order, .allMatch)
        XCTAssertEqual(valve.initial, "closed")   // init(start: ValveState = .closed) … initialState(start)
        XCTAssertEqual(valve.states, ["closed", "opened", "metered", "jammed"])
        XCTAssertEqual(valve.inputs, ["open", "close", "feed", "probe", "kick"])
        XCTAssertEqual(valve.moves, [
            "closed -open-> opened", "closed -feed-> metered",
            "metered -feed-> opened", "metered -close-> closed",
            "opened -close-> jammed", "opened -close-> closed",
        ])
    }

    func testPayloadsAreIgnoredWhenMatchingCases() throws {
        let valve = try Analysed.fixture("TinderValve.swift").machine("valve")
        // `state(.metered)` is the case `metered(level:)`; `transition(to: .metered(level: 0))` leads to it
        XCTAssertEqual(try valve.rule(at: 20).targets, ["metered"])
        XCTAssertEqual(try valve.rule(at: 23).from, ["metered"])
    }

    func testDontTransitionIsASelfLoopWithItsEffect() throws {
        let valve = try Analysed.fixture("TinderValve.swift").machine("valve")
        let probe = try XCTUnwrap(valve.edge("closed", "probe", "closed"))
        XCTAssertFalse(probe.noop)
        XCTAssertEqual(valve.effectLabel("closed", "probe", "closed"), "logProbe")
        XCTAssertEqual(valve.effectLabel("closed", "open", "opened"), "chime")
        // side effects are not inputs
        XCTAssertEqual(try valve.rule(at: 18).effect?.emits, [])
    }

    func testClosureFormTargetsComeFromIfElseAndTernaryBranches() throws {
        let valve = try Analysed.fixture("TinderValve.swift").machine("valve")
        let feed = try valve.rule(at: 23)
        XCTAssertEqual(feed.outcomes.map(\.target), [.state("opened"), .state("metered")])
        XCTAssertEqual(feed.outcomes.map(\.guardText), ["total >= 10", "!(total >= 10)"])
        let close = try valve.rule(at: 34)
        XCTAssertEqual(close.outcomes.map(\.target), [.state("jammed"), .state("closed")])
        XCTAssertEqual(close.outcomes.map(\.guardText), ["isPressureHigh()", "!(isPressureHigh())"])
        XCTAssertEqual(close.outcomes.map { $0.effect?.label }, ["callService", nil])
        XCTAssertEqual(valve.findingSet, [
            "data_dependent_target metered/feed", "data_dependent_target opened/close", "data_dependent_target opened/kick",
            "dead_end_state jammed",
        ])
    }

    func testResultComputedElsewhereIsReportedNotGuessed() throws {
        let result = Analysed.fixture("TinderValve.swift")
        let kick = try result.machine("valve").rule(at: 37)
        XCTAssertEqual(kick.outcomes.map(\.target), [.unknown("try nextAfterKick(state, event)")])
        XCTAssertEqual(result.diagnosticLines, [
            "warning 37: `on(.kick)` in state .opened computes its result (`try nextAfterKick(state, event)`); its target cannot be drawn",
        ])
    }

    /// The library keeps one handler per state and event (dictionaries): the later `on(.press)` replaces
    /// the earlier, which never runs (a warning says so), and a later `state(.s)` block replaces an earlier one.
    func testALaterHandlerForOnePairReplacesTheEarlier() throws {
        let a = Analysed.source("""
        enum Light: StateMachineHashable { case off, on, broken }
        enum Press: StateMachineHashable { case press }
        enum Fx { case click }
        let light = StateMachine<Light, Press, Fx> {
            initialState(.off)
            state(.off) {
                on(.press) { transition(to: .on, emit: .click) }
                on(.press) { transition(to: .broken) }
            }
            state(.on) { on(.press) { transition(to: .off) } }
            state(.broken) { on(.press) { transition(to: .off) } }
            state(.broken) {}
        }
        """)
        let m = try a.machine("light")
        XCTAssertEqual(m.initial, "off")
        XCTAssertEqual(m.moves, ["off -press-> broken", "on -press-> off"])
        XCTAssertEqual(m.findingSet, ["dead_end_state broken", "unreachable_state on"])
        XCTAssertEqual(a.diagnosticLines.filter { $0.contains("never runs") }, [
            "warning 7: `on(.press)` in state .off never runs: StateMachine keeps one handler per state and event, and a later `on(.press)` in this block replaces it",
            "warning 11: `on(.press)` in state .broken never runs: StateMachine keeps one handler per state and event, and a later `state(.broken)` block replaces this one",
        ])
    }

    func testInitialStateParameterWithoutDefaultIsUnknown() throws {
        let result = Analysed.source("""
        enum S: StateMachineHashable { case a, b }
        enum E: StateMachineHashable { case go }
        func make(start: S) -> StateMachine<S, E, Never> {
            StateMachine {
                initialState(start)
                state(.a) { on(.go) { transition(to: .b) } }
            }
        }
        """)
        let m = try result.machine("make")
        XCTAssertNil(m.initial)
        XCTAssertEqual(m.moves, ["a -go-> b"])
        XCTAssertEqual(result.diagnosticLines, [
            "note 5: the initial state is the parameter 'start', which has no default value; initial state unknown",
        ])
    }
}
