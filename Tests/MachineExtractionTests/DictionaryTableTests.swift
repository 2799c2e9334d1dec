import MachineModel
import XCTest

/// D10: dictionary transition tables.
final class DictionaryTableTests: XCTestCase {
    func testStructKeyedTableWithDuplicateKeyAndFallbackState() throws {
        let table = try Analysed.fixture("DictionaryTables.swift").machine("lightTable")
        XCTAssertEqual(table.dialect, .dictionaryTable)
        XCTAssertEqual(table.states, ["off", "dim", "bright", "broken"])
        XCTAssertEqual(table.inputs, ["tick", "hold", "surge"])
        XCTAssertEqual(table.initial, "off")   // `var light: Light = .off`, read by the lookup
        // `?? .broken`: every pair the table leaves out leads to `broken`
        XCTAssertEqual(table.moves, [
            "off -tick-> dim", "dim -tick-> bright", "dim -tick-> off", "bright -tick-> off", "dim -hold-> off",
            "off -hold-> broken", "off -surge-> broken", "dim -surge-> broken", "bright -hold-> broken", "bright -surge-> broken",
        ])
        let fallback = try table.rule(at: 21)
        XCTAssertTrue(fallback.catchAll)
        XCTAssertEqual(table.findingSet, ["duplicate_key dim/tick", "dead_end_state broken"])
        let duplicate = try XCTUnwrap(table.findings.first { $0.check == "duplicate_key" })
        XCTAssertEqual(duplicate.location.line, 14)
        XCTAssertTrue(duplicate.message.contains("lines 11 and 14"), duplicate.message)
        XCTAssertTrue(duplicate.message.contains("traps at run time"), duplicate.message)
    }

    func testNestedTableWithStayFallback() throws {
        let table = try Analysed.fixture("DictionaryTables.swift").machine("uploadTable")
        XCTAssertNil(table.initial)   // the state is a parameter of the lookup function
        XCTAssertEqual(table.moves, ["waiting -start-> sending", "sending -finish-> done", "sending -error-> failed", "failed -retry-> sending"])
        // `?? state`: unhandled means stay
        let fallback = try table.rule(at: 35)
        XCTAssertEqual(fallback.outcomes.map(\.target), [.stay])
        XCTAssertEqual(fallback.pairs.count, 4 * 4 - 4)
        XCTAssertTrue(table.edge("done", "retry", "done")?.noop ?? false)
        XCTAssertEqual(table.findingSet, ["dead_end_state done"], "entered by `finish`, left by nothing")
    }

    func testTableWithoutLookupAndEffectValues() throws {
        let table = try Analysed.fixture("DictionaryTables.swift").machine("gateTable")
        XCTAssertNil(table.initial)
        XCTAssertEqual(table.rules.count, 2)
        XCTAssertEqual(table.allEdges, ["shut -nudge-> ajar", "ajar -slam-> shut"])
        XCTAssertEqual(table.effectLabel("shut", "nudge", "ajar"), "\"creak\"")
    }

    func testUnreadableEntryIsReported() {
        let result = Analysed.source("""
        enum S { case a, b }
        enum E { case go, back }
        struct K: Hashable { let s: S; let e: E }
        let table: [K: S] = [
            K(s: .a, e: .go): .b,
            K(s: .b, e: .back): .a,
            K(s: pick(), e: .go): .a,
        ]
        """)
        XCTAssertEqual(result.machines.map(\.moves), [["a -go-> b", "b -back-> a"]])
        XCTAssertEqual(result.diagnosticLines, [
            "warning 7: not a (state, event): state entry: K(s: pick(), e: .go): .a; left out of the machine",
        ])
    }

    func testDictionaryOfOtherThingsIsNotAMachine() {
        let result = Analysed.source("""
        enum Theme { case dark, light }
        let names: [Theme: String] = [.dark: "Dark", .light: "Light"]
        let colors = ["a": 1, "b": 2]
        """)
        XCTAssertEqual(result.machines.count, 0)
    }

    /// Each table takes the lookup of its own variable, wherever it is: two tables of one name in two
    /// types, each looked up in a file of its own (found by name once for all tables, then resolved).
    func testTablesOfOneNameTakeTheLookupOfTheirOwnVariable() throws {
        let result = Analysed.source([
            "Tables.swift": """
            enum Flow { case closed, open, jammed }
            enum Turn { case left, right }
            struct ValveKey: Hashable { let state: Flow; let turn: Turn }
            enum Motor { case idle, running }
            enum Switch { case on, off }
            struct PumpKey: Hashable { let state: Motor; let flip: Switch }
            enum Valve {
                static let table: [ValveKey: Flow] = [
                    ValveKey(state: .closed, turn: .left): .open,
                    ValveKey(state: .open, turn: .right): .closed,
                ]
            }
            enum Pump {
                static let table: [PumpKey: Motor] = [
                    PumpKey(state: .idle, flip: .on): .running,
                    PumpKey(state: .running, flip: .off): .idle,
                ]
            }
            """,
            "PumpRunner.swift": """
            func step(_ state: Motor, _ flip: Switch) -> Motor {
                Pump.table[PumpKey(state: state, flip: flip)] ?? state
            }
            """,
            "ValveRunner.swift": """
            final class Tap {
                var flow: Flow = .closed
                func turn(_ t: Turn) {
                    flow = Valve.table[ValveKey(state: flow, turn: t)] ?? .jammed
                }
            }
            """,
        ])
        let valve = try result.machine("Valve.table")
        XCTAssertEqual(valve.initial, "closed")
        XCTAssertEqual(valve.moves, ["closed -left-> open", "open -right-> closed", "closed -right-> jammed", "open -left-> jammed"])
        let pump = try result.machine("Pump.table")
        XCTAssertNil(pump.initial)   // its lookup reads the state from a parameter
        XCTAssertEqual(pump.moves, ["idle -on-> running", "running -off-> idle"])
        XCTAssertEqual(pump.rules.last?.outcomes.map(\.target), [.stay])
    }

    /// Arrays of (from, event, to) rows: a labelled tuple type, rows of a struct with an effect, and bare
    /// tuples told apart by names (with a note). A row labelled with another word, or rows of other
    /// values, make no table.
    func testArraysOfTransitionRows() throws {
        let result = Analysed.source([
            "Tables.swift": """
            enum Dial { case low, mid, high }
            enum Knob { case up, down }
            let steps: [(from: Dial, knob: Knob, to: Dial)] = [
                (.low, .up, .mid),
                (from: .mid, knob: .up, to: .high),
                (.high, .down, .mid),
            ]
            struct Hop { let source: Dial; let trigger: Knob; let target: Dial; let sound: String }
            let hops: [Hop] = [
                Hop(source: .low, trigger: .up, target: .high, sound: "whoosh"),
                Hop(source: .high, trigger: .down, target: .low, sound: "thud"),
            ]
            let loose = [(Dial.low, Knob.up, Dial.mid), (.mid, .down, .low)]
            struct Cast { let from: Dial; let to: Dial; let cost: Int }
            let casts = [Cast(.low, .mid, is: .up), Cast(.mid, .high, is: .down)]
            let checks: [(Int, Knob, Dial)] = [(1, .up, .low), (2, .down, .mid)]
            """,
        ])
        let steps = try result.machine("steps")
        XCTAssertEqual(steps.moves, ["low -up-> mid", "mid -up-> high", "high -down-> mid"])
        let hops = try result.machine("hops")
        XCTAssertEqual(hops.moves, ["low -up-> high", "high -down-> low"])
        XCTAssertNotNil(hops.rules.first?.outcomes.first?.effect)
        let loose = try result.machine("loose")
        XCTAssertEqual(loose.moves, ["low -up-> mid", "mid -down-> low"])
        XCTAssertTrue(result.diagnostics.contains { $0.message.contains("parts 1 and 3 are read as the source and target states") })
        XCTAssertFalse(result.machines.contains { ["casts", "checks"].contains($0.name) }, "\(result.machines.map(\.name))")
    }

    /// Shapes of home-grown tables (made-up names): rows looked up by `first(where:)`, a table nested as
    /// (event, state) pairs, and a table of allowed moves checked before the state is set.
    func testRowLookupsPairsAndTablesOfAllowedMoves() throws {
        let result = Analysed.source([
            "Sluice.swift": """
            enum Sluice: Hashable { case shut, filling, full, draining }
            enum Lever: Hashable { case pull, push, settled }
            struct Step { let from: Sluice; let on: Lever; let to: Sluice }
            final class SluiceKeeper {
                private(set) var sluice: Sluice = .shut
                private let steps: [Step] = [
                    Step(from: .shut, on: .pull, to: .filling),
                    Step(from: .filling, on: .settled, to: .full),
                    Step(from: .full, on: .push, to: .draining),
                    Step(from: .draining, on: .settled, to: .shut),
                ]
                func handle(_ lever: Lever) {
                    guard let step = steps.first(where: { $0.from == sluice && $0.on == lever }) else { return }
                    sluice = step.to
                }
            }
            enum Kite: Hashable { case grounded, aloft, tangled }
            enum Gust: Hashable { case lift, drop, snag }
            let kiteTable: [Kite: [(Gust, Kite)]] = [
                .grounded: [(.lift, .aloft)],
                .aloft: [(.drop, .grounded), (.snag, .tangled)],
            ]
            enum Brew: Hashable { case cold, steeping, poured, spilled }
            final class Teapot {
                private(set) var brew: Brew = .cold
                private let allowed: [Brew: Set<Brew>] = [
                    .cold: [.steeping],
                    .steeping: [.poured, .spilled],
                    .spilled: [.cold],
                    .poured: [],
                ]
                func move(to next: Brew) {
                    guard allowed[brew]?.contains(next) == true else { return }
                    brew = next
                }
            }
            """,
        ])
        let steps = try result.machine("steps")
        XCTAssertEqual(steps.initial, "shut", "the state the lookup compares rows with starts as `.shut`")
        XCTAssertEqual(steps.moves, ["shut -pull-> filling", "filling -settled-> full", "full -push-> draining", "draining -settled-> shut"])
        let kites = try result.machine("kiteTable")
        XCTAssertEqual(kites.inputs, ["lift", "drop", "snag"], "the written type gives the events")
        XCTAssertEqual(kites.moves, ["grounded -lift-> aloft", "aloft -drop-> grounded", "aloft -snag-> tangled"])
        XCTAssertFalse(result.diagnostics.contains { $0.message.contains("no written type") }, "\(result.diagnosticLines)")
        let allowed = try result.machine("allowed")
        XCTAssertEqual(allowed.initial, "cold")
        XCTAssertEqual(allowed.inputs, [])
        XCTAssertEqual(allowed.moves, ["cold -*-> steeping", "steeping -*-> poured", "steeping -*-> spilled", "spilled -*-> cold"])
        XCTAssertEqual(Set(allowed.rules.compactMap(\.trigger)), ["move()"])
        XCTAssertEqual(allowed.terminal, ["poured"], "`.poured: []` allows no move: an end by design")
        XCTAssertEqual(allowed.findingSet, [])
    }

    /// A home-grown machine type whose transitions are registered by calls (made-up names): one row per
    /// call, the enums from the receiver's written type, the initial state from its construction.
    func testTransitionsRegisteredByCalls() throws {
        let result = Analysed.source("""
        final class Automaton<S: Hashable, E: Hashable> {
            private var table: [S: [E: S]] = [:]
            private(set) var current: S
            init(start: S) { current = start }
            func register(from: S, on event: E, to: S) { table[from, default: [:]][event] = to }
        }
        enum Sail: Hashable { case furled, set, reefed }
        enum Wind: Hashable { case calm, breeze, gale }
        final class Skipper {
            let rig = Automaton<Sail, Wind>(start: .furled)
            init() {
                rig.register(from: .furled, on: .breeze, to: .set)
                rig.register(from: .set, on: .gale, to: .reefed)
                rig.register(from: .reefed, on: .calm, to: .furled)
                rig.register(from: .set, on: .calm, to: .furled)
            }
        }
        final class Chart { func plot(_ a: Sail, _ b: Sail, _ c: Wind) {} }
        func sketch(_ chart: Chart) { chart.plot(.set, .furled, .calm) }
        struct Edge<S, E> { let from: S; let event: E; let to: S }
        final class Graph<S: Hashable, E: Hashable> { init(first: S, edges: [Edge<S, E>]) {} }
        enum Lamp: Hashable { case dark, lit }
        enum Switch: Hashable { case flip, cut }
        let lamp = Graph<Lamp, Switch>(first: .dark, edges: [
            .init(from: .dark, event: .flip, to: .lit),
            .init(from: .lit, event: .flip, to: .dark),
        ])
        """)
        XCTAssertEqual(result.machines.map(\.name), ["rig", "lamp"], "one call is no table")
        let lamp = try result.machine("lamp")
        XCTAssertEqual(lamp.initial, "dark", "the argument beside the rows names the state it starts in")
        XCTAssertEqual(lamp.inputs, ["flip", "cut"], "the call's written type gives the enums")
        let rig = try result.machine("rig")
        XCTAssertEqual(rig.states, ["furled", "set", "reefed"])
        XCTAssertEqual(rig.inputs, ["calm", "breeze", "gale"])
        XCTAssertEqual(rig.initial, "furled")
        XCTAssertEqual(rig.moves, ["furled -breeze-> set", "set -gale-> reefed", "reefed -calm-> furled", "set -calm-> furled"])
    }

    /// Registrations on a stored property of a type, made in its `init`, are that property's machine
    /// (`Sluice.gate`, not the initializer's), and its construction's candidate is explained by it; a
    /// builder's closure registering on its parameter (`FSM(initialState: .dry) { fsm in fsm.on(…) }`)
    /// names the machine by the variable holding the builder and starts it in the builder's state; a row's
    /// source may be an array of states (`from: [.filling, .full]`), a row for each. Test tables whose
    /// rows hold several arrays (`(.all, [.a, .b], [])`) are no transitions.
    func testRegistrationsOnAPropertyAndInABuildersClosure() throws {
        let result = Analysed.source("""
        enum Gate { case shut, raised, jammed }
        enum Lever { case pull, push, kick }
        final class Sluice {
            let gate = Machine<Gate, Lever>(initial: .shut)
            init() {
                gate.addTransition(from: .shut, to: .raised, on: .pull)
                gate.addTransition(from: .raised, to: .shut, on: .push)
                gate.addTransition(from: .raised, to: .jammed, on: .kick)
            }
        }
        enum Basin { case dry, filling, full }
        enum Valve { case open, overflow, drain }
        let basin = FSM<Basin, Valve>(initialState: .dry) { fsm in
            fsm.on(.open, from: .dry, to: .filling)
            fsm.on(.overflow, from: .filling, to: .full)
            fsm.on(.drain, from: [.filling, .full], to: .dry)
        }
        enum Pick { case all, none, some }
        enum Item { case a, b, c }
        let cases: [(Pick, [Item], [Item])] = [(.all, [.a, .b], [.c]), (.none, [.a], [.b, .c]), (.some, [.b], [.a])]
        """)
        let sluice = try result.machine("gate")
        XCTAssertEqual(sluice.id, "Sluice.gate")
        XCTAssertEqual(sluice.initial, "shut")
        XCTAssertEqual(sluice.transitions, ["shut -pull-> raised", "raised -push-> shut", "raised -kick-> jammed"])
        XCTAssertFalse(result.diagnostics.contains { $0.message.contains("none was read from it") }, "\(result.diagnosticLines)")
        let basin = try result.machine("basin")
        XCTAssertEqual(basin.initial, "dry")
        XCTAssertEqual(basin.transitions, ["dry -open-> filling", "filling -overflow-> full", "filling -drain-> dry", "full -drain-> dry"])
        XCTAssertEqual(result.machines.count, 2, "\(result.machines.map(\.name))")
    }

    /// A registering call may take its row whole, built in place or in a local constant (`let fill =
    /// Transition(with: .fill, from: .dry, to: .wet)`, then `m.add(transition: fill)`); `with:` labels the
    /// event. One-argument calls whose argument is no row (`log.append(line)`) are no table.
    func testRowsRegisteredWhole() throws {
        let result = Analysed.source("""
        enum Sponge { case dry, wet, wrung }
        enum Soak { case dip, squeeze, air }
        final class Washer {
            private let sponge = Machine<Sponge, Soak>(initialState: .dry)
            init() {
                let dip = Transition(with: .dip, from: .dry, to: .wet)
                let squeeze = Transition(with: .squeeze, from: .wet, to: .wrung)
                sponge.add(transition: dip)
                sponge.add(transition: squeeze)
                sponge.add(transition: Transition(with: .air, from: .wrung, to: .dry))
            }
        }
        final class Journal {
            var log: [String] = []
            func note(_ line: String, _ other: String) {
                log.append(line)
                log.append(other)
            }
        }
        """)
        let washer = try result.machine("sponge")
        XCTAssertEqual(washer.id, "Washer.sponge")
        XCTAssertEqual(washer.initial, "dry")
        XCTAssertEqual(washer.transitions, ["dry -dip-> wet", "wet -squeeze-> wrung", "wrung -air-> dry"])
        XCTAssertEqual(result.machines.count, 1, "\(result.machines.map(\.name))")
        XCTAssertTrue(result.diagnostics.isEmpty, "\(result.diagnosticLines)")
    }
}
