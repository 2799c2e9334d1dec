import Foundation
import MachineModel
import XCTest

/// Decisions made by resolving names where they are written, never by how a name is spelled (issue 8,
/// the last name heuristics): each test puts a decoy of the same name where a spelling-based lookup
/// would take it. Made-up identifiers throughout.
final class ResolutionShapeTests: XCTestCase {
    /// Writes `files` (relative path → text) under a fresh folder and analyses the folder, so top
    /// folders are modules.
    func analyzeFolder(_ files: [String: String]) throws -> Analysed {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("machine-viz-resolution-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        for (path, text) in files {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
        }
        return Analysed(paths: [root.path])
    }

    /// An implicit `queue: .burst` is a case of the mapping's own queue type (the `Queue` argument of
    /// its written `EffectMapping`), not of another queue enum that happens to have a `burst` case.
    func testHarvestImplicitQueueIsTheMappingsQueueType() throws {
        let result = Analysed.source("""
        import Harvest
        enum Pump { case idle, pumping }
        enum Knob { case push, release, pumped }
        enum SprayQueue: EffectQueueProtocol {
            case burst
            var flattenStrategy: FlattenStrategy { switch self { case .burst: return .merge } }
        }
        enum JetQueue: EffectQueueProtocol {
            case burst
            var flattenStrategy: FlattenStrategy { switch self { case .burst: return .latest } }
        }
        typealias PumpMapping = Harvester<Knob, Pump>.EffectMapping<Void, JetQueue, Never>
        let pumped = Just(Knob.pumped)
        let pumpRows: [PumpMapping] = [
            .push | .idle => .pumping | Effect(pumped, queue: .burst),
            .pumped | .pumping => .idle,
        ]
        """)
        let m = try result.machine("pumpRows")
        let push = try XCTUnwrap(m.rules.first { $0.inputs == ["push"] })
        XCTAssertEqual(push.effect?.queue, "burst")
        XCTAssertEqual(push.effect?.policy, "latest", "JetQueue's strategy, not SprayQueue's")
        XCTAssertEqual(push.cancels, ["burst"])
    }

    /// A predicate function is the one Swift would call there: a method of the enclosing type hides
    /// a top-level function of the same name.
    func testPredicateFunctionResolvesLikeACall() throws {
        let result = Analysed.source("""
        import Harvest
        enum Oven { case cold, warm, hot }
        enum Dial { case heat, cool }
        func isWarmEnough(_ o: Oven) -> Bool { o == .hot }
        struct Kitchen {
            static func isWarmEnough(_ o: Oven) -> Bool {
                switch o {
                case .warm, .hot: return true
                case .cold: return false
                }
            }
            static let ovenRows: [Harvester<Dial, Oven>.Mapping] = [
                .heat | .cold => .warm,
                .heat | .warm => .hot,
                .cool | isWarmEnough => .cold,
            ]
        }
        """)
        let m = try result.machine("ovenRows")
        XCTAssertEqual(Set(m.moves.filter { $0.contains("cool") }), ["warm -cool-> cold", "hot -cool-> cold"])
    }

    /// A function that builds an effect is read where the call resolves: each type's own helper.
    func testEffectHelperIsTheEnclosingTypesFunction() throws {
        let result = Analysed.source("""
        import ComposableArchitecture
        @Reducer
        struct Kite {
            struct State { var mode: Mode = .grounded }
            enum Mode { case grounded, flying }
            enum Action { case launch, landed, gust }
            func flight() -> Effect<Action> { .send(.landed) }
            var body: some Reducer<State, Action> {
                Reduce { state, action in
                    switch action {
                    case .launch:
                        state.mode = .flying
                        return flight()
                    case .landed:
                        state.mode = .grounded
                        return .none
                    case .gust:
                        return .none
                    }
                }
            }
        }
        @Reducer
        struct Glider {
            struct State { var mode: Mode = .parked }
            enum Mode { case parked, soaring }
            enum Action { case launch, landed, gust }
            func flight() -> Effect<Action> { .send(.gust) }
            var body: some Reducer<State, Action> {
                Reduce { state, action in
                    switch action {
                    case .launch:
                        state.mode = .soaring
                        return flight()
                    case .landed, .gust:
                        state.mode = .parked
                        return .none
                    }
                }
            }
        }
        """)
        XCTAssertEqual(try result.machine("Kite.mode").emits, ["launch>landed"])
        XCTAssertEqual(try result.machine("Glider.mode").emits, ["launch>gust"])
    }

    /// A dictionary table's lookup is a subscript of that very variable, and the state variable it
    /// reads is resolved where the lookup is written: another type's `moves` and `dial` are others.
    func testDictionaryLookupAndStateVariableAreResolved() throws {
        let result = Analysed.source("""
        enum Tap { case closed, running }
        enum Turn { case open, shut }
        struct Sink {
            static let moves: [Tap: [Turn: Tap]] = [.closed: [.open: .running], .running: [.shut: .closed]]
            var dial: Tap = .running
            mutating func turn(_ t: Turn) { dial = Sink.moves[dial]?[t] ?? dial }
        }
        struct Bath {
            static let moves: [Tap: [Turn: Tap]] = [.closed: [.open: .running]]
            var dial: Tap = .closed
            mutating func turn(_ t: Turn) { dial = Bath.moves[dial]?[t] ?? .closed }
        }
        """)
        let sink = try XCTUnwrap(result.machines.first { $0.id.hasSuffix("Sink.moves") })
        let bath = try XCTUnwrap(result.machines.first { $0.id.hasSuffix("Bath.moves") })
        XCTAssertEqual(sink.initial, "running")
        XCTAssertEqual(bath.initial, "closed")
        // Sink's lookup falls back to the state itself (stay), Bath's to `.closed`
        XCTAssertEqual(sink.moves, ["closed -open-> running", "running -shut-> closed"])
        XCTAssertEqual(bath.moves, ["closed -open-> running", "running -open-> closed", "running -shut-> closed"])
    }

    /// A table held in a local variable, looked up with a local state variable.
    func testLocalTableAndLocalStateVariable() throws {
        let result = Analysed.source("""
        enum Hatch { case sealed, open }
        enum Lever { case pull, push }
        func operate(_ levers: [Lever]) {
            let hatchTable: [Hatch: [Lever: Hatch]] = [.sealed: [.pull: .open], .open: [.push: .sealed]]
            var hatch = Hatch.open
            for lever in levers { hatch = hatchTable[hatch]?[lever] ?? hatch }
        }
        """)
        let m = try result.machine("hatchTable")
        XCTAssertEqual(m.initial, "open")
        XCTAssertEqual(m.moves, ["sealed -pull-> open", "open -push-> sealed"])
    }

    /// A construction names the machine's variable only when the name resolves to it: a variable of
    /// the same name in another type is another variable.
    func testConstructionOfAnotherTypesVariableOfTheSameName() throws {
        let result = Analysed.source("""
        import Harvest
        enum Sail { case furled, set }
        enum Wind { case rise, drop }
        struct Sloop {
            static let rigging: [Harvester<Wind, Sail>.Mapping] = [.rise | .furled => .set, .drop | .set => .furled]
            let boat = Harvester<Wind, Sail>(state: .set, inputs: winds, mapping: .reduce(.first, rigging), scheduler: q)
        }
        struct Ketch {
            static let rigging: [Harvester<Wind, Sail>.Mapping] = [.rise | .furled => .set]
        }
        """)
        let sloop = try XCTUnwrap(result.machines.first { $0.id.hasSuffix("Sloop.boat") || $0.name == "boat" })
        XCTAssertEqual(sloop.initial, "set")
        let ketch = try XCTUnwrap(result.machines.first { $0.id.hasSuffix("Ketch.rigging") })
        XCTAssertNil(ketch.initial, "Sloop's construction names Sloop's rigging")
    }

    /// GameplayKit: the machine starts where the language says code runs first (an initializer, then a
    /// lifecycle override the framework calls before any event); two candidates at one level: no guess.
    func testGameplayKitStartIsAnInitializerNotANamePrefix() throws {
        let states = """
        import GameplayKit
        final class Docked: GKState {}
        final class Cruising: GKState {}
        final class Sunk: GKState {}
        """
        let fromInit = Analysed.source(states + """

        final class Ferry {
            let machine: GKStateMachine
            init(m: GKStateMachine) {
                machine = m
                machine.enter(Cruising.self)
            }
            func setupVoyage() { machine.enter(Sunk.self) }
            func arrive() { machine.enter(Docked.self) }
        }
        let ferryMachine = GKStateMachine(states: [Docked(), Cruising(), Sunk()])
        """)
        XCTAssertEqual(try fromInit.machine("ferryMachine").initial, "Cruising")

        let undecided = Analysed.source(states + """

        final class Barge {
            let machine = GKStateMachine(states: [Docked(), Cruising(), Sunk()])
            func setupVoyage() { machine.enter(Sunk.self) }
            func startTrip() { machine.enter(Cruising.self) }
        }
        """)
        let m = try undecided.machine("machine")
        XCTAssertNil(m.initial, "neither `setup…` nor `start…` is known to run first")
        XCTAssertTrue(undecided.diagnosticLines.contains { $0.contains("cannot tell which runs first") }, "\(undecided.diagnosticLines)")
    }

    /// Files of a documentation catalog are compiled by no target: each listing is a module of its
    /// own, so successive tutorial steps declaring the same feature are not ambiguous.
    func testDocumentationCatalogListingsAreSeparateModules() throws {
        let step = { (extra: String) in """
            import ComposableArchitecture
            @Reducer
            struct Meter {
                struct State { var level: Level = .low }
                enum Level { case low, high }
                enum Action { case raise, lower\(extra) }
                var body: some Reducer<State, Action> {
                    Reduce { state, action in
                        switch action {
                        case .raise: state.level = .high
                        default: state.level = .low
                        }
                        return .none
                    }
                }
            }
            """
        }
        let result = try analyzeFolder([
            "Sources/Gauge/Gauge.docc/Tutorials/Meter-01.swift": step(""),
            "Sources/Gauge/Gauge.docc/Tutorials/Meter-02.swift": step(", reset"),
        ])
        XCTAssertFalse(result.diagnostics.contains { $0.message.contains("ambiguous") }, "\(result.diagnosticLines)")
        let meters = result.machines.filter { $0.id.hasSuffix("Meter.State.level") }
        XCTAssertEqual(meters.count, 2, "\(result.machines.map(\.id))")
        XCTAssertEqual(Set(meters.map { $0.inputs.count }), [2, 3])
        XCTAssertTrue(meters.allSatisfy { $0.id.hasPrefix("Gauge.docc:Meter-0") }, "\(meters.map(\.id))")
    }

    /// `import A` where A re-exports B (`@_exported import B`) sees B's types, transitively.
    func testReexportedModulesAreSeenThroughTheImport() throws {
        let result = try analyzeFolder([
            "Core/Phases.swift": """
            public enum Valve { case shut, open }
            public enum Hand { case twist, release }
            """,
            "Kit/Exports.swift": "@_exported import Core\n",
            "App/Plant.swift": """
            import Kit
            import Harvest
            let valveRows: [Harvester<Hand, Valve>.Mapping] = [.twist | .shut => .open, .release | .open => .shut]
            """,
        ])
        let m = try result.machine("valveRows")
        XCTAssertEqual(m.states, ["shut", "open"])
        XCTAssertEqual(m.inputs, ["twist", "release"])
    }

    /// Stores built by tests and previews do not say where the program starts; two places of the
    /// program that start it differently leave the initial state open (with a note), never the first.
    func testInitialStateComesFromTheProgramsStoresOnly() throws {
        let feature = """
        import ComposableArchitecture
        @Reducer
        struct Blender {
            struct State { var speed: Speed = .off }
            enum Speed { case off, pulse, puree }
            enum Action { case press, stop }
            var body: some Reducer<State, Action> {
                Reduce { state, action in
                    switch action {
                    case .press: state.speed = state.speed == .off ? .pulse : .puree
                    case .stop: state.speed = .off
                    }
                    return .none
                }
            }
        }
        """
        let withTests = try analyzeFolder([
            "Mixers/Blender.swift": feature,
            "Mixers/App.swift": "import ComposableArchitecture\nlet store = Store(initialState: Blender.State()) { Blender() }\n",
            "Mixers/BlenderTests.swift": """
            import XCTest
            import ComposableArchitecture
            final class BlenderTests: XCTestCase {
                func testStop() { let s = TestStore(initialState: Blender.State(speed: .puree)) { Blender() }; _ = s }
            }
            """,
            "Mixers/Preview.swift": """
            import SwiftUI
            import ComposableArchitecture
            #Preview { BlenderView(store: Store(initialState: Blender.State(speed: .pulse)) { Blender() }) }
            """,
        ])
        XCTAssertEqual(try withTests.machine("Blender.speed").initial, "off")

        let twoStarts = try analyzeFolder([
            "Mixers/Blender.swift": feature,
            "Mixers/App.swift": """
            import ComposableArchitecture
            let kitchen = Store(initialState: Blender.State()) { Blender() }
            let bar = Store(initialState: Blender.State(speed: .pulse)) { Blender() }
            """,
        ])
        XCTAssertNil(try twoStarts.machine("Blender.speed").initial)
        XCTAssertTrue(twoStarts.diagnosticLines.contains { $0.contains("starts as off or pulse") }, "\(twoStarts.diagnosticLines)")
    }

    /// A reducer split into functions taking `&state`: the call `Self.apply(&state, …)` is walked
    /// into the function it resolves to, not into another type's function of the same name.
    func testInoutHelperIsTheOneTheCallResolvesTo() throws {
        let result = Analysed.source("""
        import ComposableArchitecture
        enum Lid { case down, up }
        struct Bin {
            static func apply(_ lid: inout Lid) { lid = .up }
        }
        @Reducer
        struct Can {
            struct State { var lid: Lid = .down }
            enum Action { case step, reset }
            static func apply(_ lid: inout Lid) { lid = .down }
            var body: some Reducer<State, Action> {
                Reduce { state, action in
                    switch action {
                    case .step: Self.apply(&state.lid)
                    case .reset: state.lid = .up
                    }
                    return .none
                }
            }
        }
        """)
        let m = try result.machine("Can.lid")
        XCTAssertEqual(m.moves, ["up -step-> down", "down -reset-> up"])
    }

    /// A reducer hands `&state` to a function declared in another file: the rules read from that
    /// function's `switch` are located in its file, at its own lines (they were placed in the reducer's
    /// file, at the lines the other file's offsets fall on there).
    func testRulesOfAHelperInAnotherFileAreLocatedInThatFile() throws {
        let padding = String(repeating: "// a line\n", count: 30)
        let result = try analyzeFolder([
            "Kettle.swift": """
            import ComposableArchitecture
            @Reducer
            struct Kettle {
                struct State { var water: Water = .cold }
                enum Water { case cold, warm, boiling }
                enum Action { case heat, cool }
                var body: some Reducer<State, Action> {
                    Reduce { state, action in
                        warm(&state, action)
                        return .none
                    }
                }
            }
            """,
            "Warming.swift": padding + """
            func warm(_ state: inout Kettle.State, _ action: Kettle.Action) {
                switch action {
                case .heat:
                    state.water = .boiling
                case .cool:
                    state.water = .cold
                }
            }
            """,
        ])
        let m = try result.machine("Kettle.water")
        XCTAssertTrue(m.transitions.isSuperset(of: ["cold -heat-> boiling", "boiling -cool-> cold"]))
        let located = m.rules.filter { !$0.outcomes.isEmpty }.map { "\(URL(fileURLWithPath: $0.location.file).lastPathComponent):\($0.location.line)" }
        XCTAssertEqual(Set(located), ["Warming.swift:33", "Warming.swift:35"])
    }

    /// A feature declared in test code is run by its tests: their store says where it starts.
    func testFeatureDeclaredInATestStartsWhereItsTestSays() throws {
        let result = try analyzeFolder([
            "Tests/ToasterTests.swift": """
            import XCTest
            import ComposableArchitecture
            final class ToasterTests: XCTestCase {
                @Reducer
                struct Toaster {
                    struct State { var heat: Heat = .cold }
                    enum Heat { case cold, glowing }
                    enum Action { case lever, pop }
                    var body: some Reducer<State, Action> {
                        Reduce { state, action in
                            switch action {
                            case .lever: state.heat = .glowing
                            case .pop: state.heat = .cold
                            }
                            return .none
                        }
                    }
                }
                func testPop() { let s = TestStore(initialState: Toaster.State(heat: .glowing)) { Toaster() }; _ = s }
            }
            """,
        ])
        let m = try XCTUnwrap(result.machines.first { $0.id.hasSuffix("Toaster.State.heat") }, "\(result.machines.map(\.id))")
        XCTAssertEqual(m.initial, "glowing")
    }

    /// A `@Reducer enum` feature starts in the case the program's store is created with
    /// (`initialState: Feature.State.case(…)`), not in the one a test starts it in.
    func testReducerEnumStartsWhereTheProgramsStoreSays() throws {
        let result = try analyzeFolder([
            "Door/Portal.swift": """
            import ComposableArchitecture
            @Reducer
            enum Portal {
                case locked(Lock)
                case open(Hall)
                static var body: some ReducerOf<Self> {
                    Reduce { state, action in
                        switch action {
                        case .locked(.unlocked): state = .open(Hall.State())
                        case .open(.leave): state = .locked(Lock.State())
                        default: break
                        }
                        return .none
                    }
                }
            }
            """,
            "Door/App.swift": "import ComposableArchitecture\nlet store = Store(initialState: Portal.State.locked(.init())) { Portal.body }\n",
            "Door/PortalTests.swift": """
            import Testing
            import ComposableArchitecture
            @Test func leaving() { _ = TestStore(initialState: Portal.State.open(Hall.State())) { Portal.body } }
            """,
        ])
        let m = try result.machine("Portal")
        XCTAssertEqual(m.states, ["locked", "open"])
        XCTAssertEqual(m.initial, "locked")
    }

    /// A bare name in a case pattern binds only under `let`/`var` (the grammar, not its first letter):
    /// `case let .tune(Pitch)` binds `Pitch`, and a setter action's bound payload leads to every state
    /// it may hold.
    func testPatternBindingFollowsLetNotCapitalisation() throws {
        let result = Analysed.source("""
        import ComposableArchitecture
        @Reducer
        struct Radio {
            struct State { var band: Band = .am }
            enum Band { case am, fm }
            enum Action { case tune(Band), mute }
            var body: some Reducer<State, Action> {
                Reduce { state, action in
                    switch action {
                    case let .tune(Chosen):
                        state.band = Chosen
                    case .mute:
                        state.band = .am
                    }
                    return .none
                }
            }
        }
        """)
        let m = try result.machine("Radio.band")
        XCTAssertEqual(m.moves, ["am -tune-> fm", "fm -tune-> am", "fm -mute-> am"])
    }

    /// One declaration per build configuration (branches of one `#if`, or conditionally compiled files
    /// of one module) is no ambiguity: the table's type resolves, with no warning.
    func testConditionalDeclarationsAreAlternativesNotAmbiguities() throws {
        let result = try analyzeFolder([
            "Plant/Platform.swift": """
            #if os(Linux)
            typealias Coolant = Fluid
            #else
            typealias Coolant = Fluid
            #endif
            """,
            "Plant/LinuxPump.swift": "#if os(Linux)\ntypealias PumpMapping = Harvester<Lever, Fluid>.Mapping\n#endif\n",
            "Plant/DarwinPump.swift": "#if canImport(Darwin)\ntypealias PumpMapping = Harvester<Lever, Fluid>.Mapping\n#endif\n",
            "Plant/Pump.swift": """
            import Harvest
            enum Fluid { case still, flowing }
            enum Lever { case open, close }
            let coolantRows: [Harvester<Lever, Coolant>.Mapping] = [.open | .still => .flowing, .close | .flowing => .still]
            let pumpRows: [PumpMapping] = [.open | .still => .flowing]
            """,
        ])
        XCTAssertFalse(result.diagnostics.contains { $0.message.contains("ambiguous") }, "\(result.diagnosticLines)")
        XCTAssertEqual(try result.machine("coolantRows").states, ["still", "flowing"])
        XCTAssertEqual(try result.machine("pumpRows").inputs, ["open", "close"])
    }

    /// A reducer written generically over its action (library code) is no machine, and that is a note,
    /// not a warning about a type missing from the files read.
    func testReducerGenericOverItsActionIsANote() throws {
        let result = Analysed.source("""
        import Actomaton
        struct Relay<Signal, Level> {
            func reducer() -> Reducer<Signal, Level, Void> {
                Reducer { signal, level, _ in .empty }
            }
        }
        """)
        XCTAssertTrue(result.machines.isEmpty)
        XCTAssertTrue(result.diagnosticLines.contains { $0.hasPrefix("note") && $0.contains("is a generic parameter (`Signal`)") },
                      "\(result.diagnosticLines)")
        XCTAssertFalse(result.diagnostics.contains { $0.severity == .warning }, "\(result.diagnosticLines)")
    }

    /// A reducer whose action is a standard library value (`Reducer<Int, Void>` in tests and samples) is
    /// no machine, and that is a note, not a warning about a type missing from the files read; an action
    /// type really missing stays a warning.
    func testReducerOverAStandardLibraryActionIsANote() throws {
        let result = Analysed.source("""
        import ComposableArchitecture
        let counter = Reducer<Int, Void, Void> { count, _, _ in
            count += 1
            return .none
        }
        let toggler = Reducer<Bool, Lever, Void> { on, _, _ in
            on.toggle()
            return .none
        }
        final class MeterTests {
            func testTicks() {
                let store = Store<Int, Void>(initialState: 0) {
                    Reduce { count, _ in
                        count += 1
                        return .none
                    }
                }
                store.send(())
            }
        }
        """)
        XCTAssertTrue(result.machines.isEmpty)
        XCTAssertEqual(result.diagnostics.filter { $0.severity == .warning }.map(\.message),
                       ["reducer: the action type `Lever` is not declared in the files read (`Lever`); no machine extracted"])
        // (the `Reduce` in the store's closure takes the store's types, not a `Self.Action` of the test class)
        XCTAssertEqual(result.diagnosticLines.filter { $0.contains("the action type `Void` is the standard library's `Void`, not a type the code read declares") }.count, 2,
                       "\(result.diagnosticLines)")
    }
}
