import Foundation
@testable import MachineExtraction
import MachineModel
import SwiftParser
import SwiftSyntax
import XCTest

/// Type or value is decided by looking the name up where it is written (NameResolution.swift), never
/// by its capitalisation: each test has a lower-case type or an upper-case value, function or case.
final class NameResolutionTests: XCTestCase {
    /// Fuzz finding 6: a name looked up from inside types nested many levels deep, each inheriting
    /// from a type the inputs do not declare, made the index search the supertypes of every enclosing
    /// type from every other one (2^depth searches: a fuzzed file ran for minutes). The searches nested
    /// in one lookup share a budget; past it a note says where the name is read as not found.
    func testASupertypeSearchThroughDeeplyNestedTypesStopsAndSaysSo() throws {
        func nested(_ depth: Int) -> String {
            (0..<depth).map { "struct Level\($0): Outside {\n" }.joined()
                + "enum Lamp { case on, off\n mutating func flip(_ e: Unknown) { switch self { case .on: self = .off\n case .off: self = .on } } }\n"
                + String(repeating: "}\n", count: depth)
        }
        func cut(_ diagnostics: [Diagnostic]) -> [Diagnostic] {
            diagnostics.filter {
                $0.message.hasPrefix("the search for `Outside` in the supertypes of `Level0.Level1")
                    && $0.message.contains("stopped after \(SymbolIndex.supertypeSearchBudget) steps")
            }
        }
        XCTAssertFalse(cut(try Fixture.analyze(source: nested(16)).diagnostics).isEmpty)
        XCTAssertEqual(cut(try Fixture.analyze(source: nested(8)).diagnostics), [], "ordinary nesting stays within the budget")
    }

    /// The outermost searches of supertypes are kept: generated code (swift-protobuf's messages) asks
    /// the same few at every name it looks up. A search nested in another depends on it (the cycle
    /// guard cuts it short where the outer one is under way), so only outermost answers may be kept,
    /// or an answer would depend on which question came first, and with parallel builds on timing.
    /// Each question, asked after all the others in either order, gets what a fresh index answers.
    func testKeptSupertypeSearchesDoNotDependOnTheOrderOfQuestions() throws {
        let source = """
        class Ring: Loop {}
        class Loop: Ring { class Part {} }
        struct Host: Host.Inner { struct Inner: Outside {} }
        protocol Outside: Host.Inner { }
        struct Shell: Carrier { struct Core: Carrier.Part, Shell.Core {} }
        protocol Carrier: Ring { }
        extension Shell: Loop.Part, Host { struct Part: Outside {} }
        struct Level0: Unknown { struct Level1: Unknown, Carrier { struct Level2: Part, Level1 { enum Lamp: Inner {} } } }
        class Base { class Piece { class Thing {} } }
        class Upper: Base, Middle.Lower.Thing {}
        struct Middle: Upper { class Lower: Piece {} }
        """
        // asked first, `Piece` in `Middle` is found through `Upper` and `Base`, and so is `Thing` in
        // `Lower`; inside the search of `Upper`'s supertypes, the guard stops both at `Upper`
        let names = ["Ring", "Loop", "Part", "Host", "Inner", "Outside", "Shell", "Core", "Carrier", "Level1", "Lamp", "Piece", "Lower", "Thing", "Missing"]
        func index() -> SymbolIndex {
            let file = ParsedFile(path: "Cycles.swift", text: source)
            file.module = "Cycles"
            return SymbolIndex(files: [file])
        }
        func types(_ index: SymbolIndex) -> [TypeInfo] { index.types.values.sorted { $0.qualifiedName < $1.qualifiedName } }
        struct Question: Hashable { let type: String; let name: String? }
        func ask(_ q: Question, _ index: SymbolIndex) -> String {
            guard let t = types(index).first(where: { $0.qualifiedName == q.type }) else { return "no type" }
            guard let name = q.name else { return index.supertypes(of: t).map(\.qualifiedName).joined(separator: ", ") }
            return index.members(named: name, of: t, from: t.file).map(\.description).joined(separator: ", ")
        }
        let questions = types(index()).flatMap { t in [Question(type: t.qualifiedName, name: nil)] + names.map { Question(type: t.qualifiedName, name: $0) } }
        XCTAssertGreaterThan(questions.count, 100)
        let fresh = Dictionary(uniqueKeysWithValues: questions.map { ($0, ask($0, index())) })
        for order in [questions, questions.reversed()] {
            let shared = index()
            for q in order { XCTAssertEqual(ask(q, shared), fresh[q], "\(q)") }
        }
        XCTAssertTrue(fresh.values.contains { !$0.isEmpty }, "some searches find something")
    }

    /// `T.x` as an assigned state: `phase` (a typealias) and `kind` (a nested enum) are types, so
    /// `phase.spinning` is a case; `Turbine.Shared` is a static property, so `Turbine.Shared.spinning`
    /// is a value's member, not a case.
    func testCaseReferenceByResolutionNotSpelling() throws {
        let result = Analysed.source("""
        enum Mode { case resting, spinning, braking }
        typealias phase = Mode
        struct Presets { var spinning: Mode = .braking }
        enum Signal { case start, stop, halt }

        struct Turbine {
            enum kind { case low, high }
            static let Shared = Presets()
            var mode: Mode = .resting
            var gear: kind = .low

            mutating func handle(_ signal: Signal) {
                switch signal {
                case .start:
                    if mode == .resting { mode = phase.spinning }
                case .stop:
                    if mode == .spinning { mode = Turbine.Shared.spinning }
                case .halt:
                    if mode == .braking { mode = phase.resting }
                }
            }

            mutating func shift(_ signal: Signal) {
                switch gear {
                case .low: if signal == .start { gear = kind.high }
                case .high: if signal == .stop { gear = .low }
                }
            }
        }
        """)
        let mode = try result.machine("Turbine.mode")
        XCTAssertEqual(mode.rules.first { $0.inputs == ["start"] }?.targets, ["spinning"], "phase is a typealias")
        XCTAssertEqual(mode.rules.first { $0.inputs == ["halt"] }?.targets, ["resting"])
        XCTAssertEqual(mode.rules.first { $0.inputs == ["stop"] }?.targets, ["resting", "spinning", "braking"],
                       "Turbine.Shared is a value: its member is no case, but a value of the enum, any of its cases")
        let gear = try result.machine("Turbine.gear")
        XCTAssertTrue(gear.moves.contains("low -start-> high"), "kind is a nested enum: \(gear.moves)")
    }

    /// Values of an optional enum field: `berth(level:)` calls an initializer through a lower-case
    /// typealias (a value with no name), `berth.cabin(4)` is a case of it, `.Deck` is an upper-case
    /// case, `Berth.Upper()` a static function (named like the static members TCA alerts use). A callee
    /// nobody declares or writes as a type is read by its spelling, with a note.
    func testOptionalFieldValuesByResolution() throws {
        let result = Analysed.source("""
        import ComposableArchitecture

        @Reducer
        struct Ferry {
            enum Berth: Equatable {
                case Deck, cabin(Int)
                init(level: Int) { self = level > 0 ? .cabin(level) : .Deck }
                static func Upper() -> Berth { .cabin(9) }
            }
            typealias berth = Berth

            @ObservableState
            struct State: Equatable {
                var place: Berth?
            }
            enum Action { case board, upgrade, relocate, promote, guess, leave }

            var body: some ReducerOf<Self> {
                Reduce { state, action in
                    switch action {
                    case .board:
                        state.place = berth.cabin(4)
                        return .none
                    case .upgrade:
                        state.place = berth(level: 2)
                        return .none
                    case .relocate:
                        state.place = .Deck
                        return .none
                    case .promote:
                        state.place = Berth.Upper()
                        return .none
                    case .guess:
                        state.place = Oracle(3)
                        return .none
                    case .leave:
                        state.place = nil
                        return .none
                    }
                }
            }
        }
        """)
        let m = try result.machine("Ferry.place")
        XCTAssertEqual(m.states, ["nil", "cabin(4)", "some", "Deck", "Upper"])
        func target(_ input: String) -> [String]? { m.rules.first { $0.inputs == [input] }?.targets }
        XCTAssertEqual(target("board"), ["cabin(4)"])
        XCTAssertEqual(target("upgrade"), ["some"], "an initializer through a lower-case typealias")
        XCTAssertEqual(target("relocate"), ["Deck"])
        XCTAssertEqual(target("promote"), ["Upper"])
        XCTAssertEqual(target("guess"), ["some"], "Oracle: undeclared, read by its spelling")
        XCTAssertTrue(result.diagnosticLines.contains { $0.hasPrefix("note 34:") && $0.contains("`Oracle`") && $0.contains("by its spelling") },
                      "\(result.diagnosticLines)")
        XCTAssertEqual(result.diagnosticLines.filter { $0.contains("by its spelling") }.count, 1, "\(result.diagnosticLines)")
    }

    /// Effects: `Flash(signal)` calls an upper-case function (its label is the function), `beacon(signal)`
    /// builds a value through a lower-case typealias (the argument names it), `effect.cancel(id:)` is
    /// the effect type's cancellation through a lower-case typealias, `Pump.cancel(id:)` a method of a
    /// property (no cancellation).
    func testEffectCallsByResolution() throws {
        let result = Analysed.source("""
        import ComposableArchitecture

        struct Pinger { func cancel(id: Kiosk.CancelID) -> Effect<Kiosk.Action> { .none } }
        struct Beacon { init(_ signal: Int) {} }
        typealias beacon = Beacon
        typealias effect = Effect<Kiosk.Action>

        func Flash(_ signal: Int) -> Effect<Kiosk.Action> { .none }

        @Reducer
        struct Kiosk {
            enum CancelID { case poll }
            @ObservableState
            struct State: Equatable { var lit = false }
            enum Action { case on, off, blink, ping, stop }
            let Pump = Pinger()

            var body: some ReducerOf<Self> {
                Reduce { state, action in
                    let signal = 1
                    switch action {
                    case .on:
                        state.lit = true
                        return Flash(signal)
                    case .off:
                        state.lit = false
                        return beacon(signal)
                    case .blink:
                        state.lit = true
                        return effect.cancel(id: CancelID.poll)
                    case .ping:
                        return Pump.cancel(id: CancelID.poll)
                    case .stop:
                        state.lit = false
                        return .run { send in await send(.on) }.cancellable(id: CancelID.poll)
                    }
                }
            }
        }
        """)
        let m = try result.machine("Kiosk.lit")
        func rule(_ input: String) -> Rule? { m.rules.first { $0.inputs == [input] } }
        XCTAssertEqual(rule("on")?.effect?.label, "Flash", "an upper-case function, not an initializer")
        XCTAssertEqual(rule("off")?.effect?.label, "signal", "an initializer through a lower-case typealias")
        XCTAssertEqual(rule("blink")?.cancels, ["CancelID.poll"])
        XCTAssertNil(rule("blink")?.effect)
        XCTAssertEqual(rule("ping")?.cancels, [], "a method of the property Pump cancels nothing")
        XCTAssertEqual(rule("ping")?.effect?.label, "Pump")
    }

    /// Effect labels list the functions a handler calls: `Ring()` is a function, `chime()` and `Bell()`
    /// build values (a typealias, a struct).
    func testCalledNamesSkipInitializersByResolution() throws {
        let m = try Analysed.source("""
        struct Bell { init() {} }
        typealias chime = Bell
        func Ring() {}
        func light() {}

        enum Floor: StateType { case ground, roof }
        final class Lift {
            let machine = StateMachine<Floor, NoEvent>(state: .ground) { m in
                m.addRoute(.ground => .roof) { context in
                    Ring()
                    _ = chime()
                    _ = Bell()
                    light()
                }
            }
        }
        """).machine("machine")
        XCTAssertEqual(m.effectLabel("ground", "<- .roof", "roof"), "Ring, light")
    }

    /// A name nobody declares, in a class whose superclass the inputs do not declare (its members
    /// could be that name): read by its spelling, with a note at its line. In a struct Swift's rule
    /// decides: a name that is no value in scope is a type.
    func testUndeclaredBaseInASubclassOfAFrameworkClassIsANote() throws {
        let result = Analysed.source("""
        enum Glow { case dim, bright }
        enum Knob { case turn, reset }

        final class Dial: FrameworkView {
            var glow: Glow = .dim
            func handle(_ knob: Knob) {
                switch knob {
                case .turn: if glow == .dim { glow = Shade.bright }
                case .reset: glow = .dim
                }
            }
        }

        struct Lamp {
            var glow: Glow = .dim
            mutating func handle(_ knob: Knob) {
                switch knob {
                case .turn: if glow == .dim { glow = Shade.bright }
                case .reset: glow = .dim
                }
            }
        }
        """)
        XCTAssertTrue(try result.machine("Dial.glow").moves.contains("dim -turn-> bright"))
        XCTAssertTrue(try result.machine("Lamp.glow").moves.contains("dim -turn-> bright"))
        let notes = result.diagnosticLines.filter { $0.contains("`Shade`") }
        XCTAssertEqual(notes.count, 1, "\(result.diagnosticLines)")
        XCTAssertTrue(notes.first?.hasPrefix("note 8:") == true, "\(notes)")
    }

    /// A local or parameter shadows a type of the same name: `Level.high` on a parameter `Level` is a
    /// member of that value.
    func testParameterShadowsAType() throws {
        let result = Analysed.source("""
        enum Level { case low, high }
        enum Cue { case raise, drop }
        struct Presets { var high: Level = .low }

        struct Tank {
            var level: Level = .low
            mutating func handle(_ cue: Cue, _ Level: Presets) {
                switch cue {
                case .raise: if level == .low { level = Level.high }
                case .drop: level = .low
                }
            }
        }
        """)
        let m = try result.machine("Tank.level")
        // (not the case `.high`: the member of a value of the enum, any of its cases)
        XCTAssertEqual(m.rules.first { $0.inputs == ["raise"] }?.targets, ["low", "high"])
    }

    /// The enum of a switch position is the written type that declares every name used there (`Knob`
    /// declares `cold` too, but not `warm`); when none declares them all, the closest is taken with a note.
    func testEnumOfAPositionDeclaresEveryNameUsedOrANoteSaysSo() throws {
        let result = Analysed.source("""
        enum Phase { case cold, warm, hot }
        enum Knob { case up, down, cold }
        let mapping: Harvester<Knob, Phase>.Mapping = { knob, st in
            switch (knob, st) {
            case (.up, .cold): return .warm
            case (.up, .warm): return .hot
            case (.down, .hot): return .warm
            case (.down, .lukewarm): return .cold
            default: return nil
            }
        }
        """)
        let m = try result.machine("mapping")
        XCTAssertEqual(m.inputs, ["up", "down", "cold"])
        XCTAssertEqual(m.states, ["cold", "warm", "hot", "lukewarm"])
        XCTAssertEqual(result.diagnosticLines.filter { $0.contains("declares every name") },
                       ["note 3: no written type declares every name used as a case here; read as Phase, which does not declare `lukewarm`"])
    }

    /// A folded expression is resolved where it is written (`Rebuilt`), and the trees folded in a run
    /// are let go when the run ends: a long-lived process does not keep every file it ever read.
    func testFoldedTreesAreResolvedInPlaceAndForgottenAfterTheRun() throws {
        let before = Rebuilt.shared.count
        let a = Analysed.source("""
        import ComposableArchitecture
        @Reducer struct Sluice {
            struct State { var gate: Gate = .shut }
            enum Gate { case shut, open }
            typealias gateway = Gate
            enum Action { case flip, idle }
            var body: some ReducerOf<Self> {
                Reduce { state, action in
                    switch action {
                    case .flip:
                        state.gate = state.gate == .shut ? gateway.open : gateway.shut
                        return .none
                    case .idle:
                        return .none
                    }
                }
            }
        }
        """)
        let m = try a.machine("Sluice.gate")
        XCTAssertEqual(m.moves, ["shut -flip-> open", "open -flip-> shut"])
        XCTAssertEqual(Rebuilt.shared.count, before, "the folded trees of a finished run are still kept")
    }

    /// The files a run loads, with their trees and readings, are let go when the run's results are:
    /// only the command line leaves them to the operating system at exit
    /// (`ProcessTuning.leaveMemoryToExit`), never the library on its own.
    func testALoadedFileIsLetGoAfterTheRun() throws {
        weak var file: ParsedFile?
        try Fixture.withFolder(["Tap.swift": """
            enum Tap { case off, on }
            enum Turn { case twist }
            func tap(_ t: Tap, _ e: Turn) -> Tap? {
                switch (t, e) {
                case (.off, .twist): return .on
                case (.on, .twist): return .off
                }
            }
            """]) { paths in
            let sources = SourceSet.load(paths: paths, jobs: 2)
            file = sources.files.first
            XCTAssertNotNil(file)
            let result = Extractor.extract(sources, jobs: 2)
            XCTAssertEqual(result.machines.map(\.name), ["tap"])
        }
        XCTAssertNil(file, "a file of a finished run is still kept")
    }

    /// A route mapping whose patterns have `?` is read from its file parsed again with them blanked: the
    /// operators folded in that second tree belong to the input file, and are let go with it (they were
    /// kept for the life of the process, each holding a whole copy of the file: the fuzz target's memory
    /// grew by about 36 KB per distinct input).
    func testTreesFoldedFromAReparsedFileAreForgottenAfterTheRun() throws {
        let before = Rebuilt.shared.count
        let m = try Analysed.source("""
        enum Valve: StateType { case shut, open }
        enum Knob: EventType { case turn(Int) }
        let valve = StateMachine<Valve, Knob>(state: .shut) { machine in
            machine.addRouteMapping { knob, from, _ in
                guard case let .turn(n)? = knob, from == .shut else { return nil }
                return n > 3 ? .open : .shut
            }
            machine.addRoutes(event: .turn, transitions: [.open => .shut])
        }
        """).machine("valve")
        XCTAssertEqual(m.moves, ["shut -turn-> open", "open -turn-> shut"])
        XCTAssertEqual(Rebuilt.shared.count, before, "the trees folded from the re-parsed file are still kept")
    }

    /// Runs in progress at once (a library user's threads): one run's end lets go of what was folded or
    /// re-parsed from its own files, re-parsed copies included, and keeps the other run's.
    func testARunLetsGoOfItsOwnFilesTreesAndKeepsTheOthers() {
        let rebuilt = Rebuilt()
        let first = Parser.parse(source: "let a = p ?? q")
        let second = Parser.parse(source: "let b = r ?? s")
        rebuilt.begin(files: [first.id])
        rebuilt.begin(files: [second.id])
        func foldSome(_ tree: SourceFileSyntax) {
            let expr = tree.statements.first!.item.as(VariableDeclSyntax.self)!.bindings.first!.initializer!.value
            rebuilt.record(Syntax(Parser.parse(source: expr.description)), from: Syntax(expr))
        }
        let copy = Parser.parse(source: first.description)
        rebuilt.reparsed(Syntax(copy), from: Syntax(first))
        foldSome(copy)
        foldSome(second)
        XCTAssertEqual(rebuilt.count, 3)
        rebuilt.end(files: [first.id])
        XCTAssertEqual(rebuilt.count, 1, "the trees of the first file's copy are kept after its run")
        rebuilt.end(files: [second.id])
        XCTAssertEqual(rebuilt.count, 0)
    }
}
