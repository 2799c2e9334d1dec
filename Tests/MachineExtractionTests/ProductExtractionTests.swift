import Foundation
import MachineAnalysis
@testable import MachineExtraction
import MachineModel
import XCTest

/// Struct states read as the product of their machine fields (made-up features).
final class ProductExtractionTests: XCTestCase {
    func extract(_ source: String) throws -> ExtractionResult {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("mv-product-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("Feature.swift")
        try source.write(to: file, atomically: true, encoding: .utf8)
        return Extractor.extract(paths: [file.path])
    }

    static let tca = """
        import ComposableArchitecture

        @Reducer
        struct Kettle {
            @ObservableState
            struct State {
                // machine-viz: invariant isHeating implies mode == .boiling
                var mode: Mode = .cold
                var isHeating = false
                var warning: String?
            }
            enum Mode { case cold, boiling, warm }
            enum Action { case switchOn, boiled, cooled, fault(String), dismiss }

            var body: some ReducerOf<Self> {
                Reduce { state, action in
                    switch action {
                    case .switchOn:
                        guard !state.isHeating else { return .none }
                        state.mode = .boiling
                        state.isHeating = true
                        return .run { send in await send(.boiled) }
                    case .boiled:
                        if state.mode == .boiling {
                            state.isHeating = false
                        }
                        state.mode = .warm
                        return .none
                    case .cooled:
                        state.mode = .cold
                        return .none
                    case let .fault(text):
                        state.warning = text
                        state.isHeating = false
                        return .none
                    case .dismiss:
                        state.warning = nil
                        return .none
                    }
                }
            }
        }
        """

    func testTCAFeatureRulesCarryConditionsAndWritesOnEveryField() throws {
        let result = try extract(Self.tca)
        let p = try XCTUnwrap(result.products.first { $0.name == "Kettle" }, "\(result.products.map(\.name)) \(result.diagnostics)")
        XCTAssertEqual(p.fields.map(\.name), ["mode", "isHeating", "warning"])
        XCTAssertEqual(p.fields.map(\.initial), ["cold", "false", "nil"])
        XCTAssertEqual(p.invariants, ["isHeating implies mode == .boiling"])
        let switchOn = p.rules.filter { $0.inputs == ["switchOn"] }
        // the guard splits it: heating already → nothing; not heating → writes both fields and starts an effect
        XCTAssertTrue(switchOn.contains { $0.requires == ["isHeating": ["false"]] && $0.writes == ["mode": "boiling", "isHeating": "true"] && $0.effect != nil })
        XCTAssertTrue(switchOn.contains { $0.requires == ["isHeating": ["true"]] && $0.writes.isEmpty })
        // a condition on a field read before it is written: both branches, the write after applies to both
        let boiled = p.rules.filter { $0.inputs == ["boiled"] }
        XCTAssertTrue(boiled.contains { $0.requires == ["mode": ["boiling"]] && $0.writes == ["isHeating": "false", "mode": "warm"] })
        XCTAssertTrue(boiled.contains { $0.requires == ["mode": ["cold", "warm"]] && $0.writes == ["mode": "warm"] })
        XCTAssertTrue(p.rules.contains { $0.inputs == ["fault"] && $0.writes == ["warning": "some", "isHeating": "false"] })
    }

    func testExploredKettleBreaksItsInvariantWhenCooledWhileHeating() throws {
        let p = try XCTUnwrap(try extract(Self.tca).products.first)
        let result = ProductExplorer().explore(p, invariants: p.invariants.map { try! Invariant($0) })
        // `cooled` sets mode without clearing isHeating
        XCTAssertEqual(result.findings.map(\.subject), ["isHeating implies mode == .boiling"])
        XCTAssertEqual(result.findings.first?.trace?.map(\.input), ["switchOn", "cooled"])
        XCTAssertEqual(result.findings.first?.trace?.last?.state, "mode=cold, isHeating=true, warning=nil")
        XCTAssertEqual(result.findings.first?.location.line, 29, "at `case .cooled:`")
        // the guard is evaluated: switchOn while heating leaves the state as it is
        XCTAssertFalse(result.machine.edges.contains { $0.from == "mode=boiling, isHeating=true, warning=nil" && $0.input == "switchOn" && $0.to != $0.from })
    }

    func testActomatonStructState() throws {
        let source = """
            import Actomaton

            struct PumpState {
                var stage: Stage = .off
                var primed: Bool = false
            }
            enum Stage { case off, priming, running }
            enum PumpAction { case prime, primed, run, halt }

            let pumpReducer = Reducer<PumpAction, PumpState, Void> { action, state, _ in
                switch action {
                case .prime:
                    state.stage = .priming
                    return Effect { .primed }
                case .primed:
                    state.primed = true
                    state.stage = .off
                    return .empty
                case .run:
                    guard state.primed, state.stage == .off else { return .empty }
                    state.stage = .running
                    return .empty
                case .halt:
                    state.stage = .off
                    state.primed.toggle()
                    return .empty
                }
            }
            """
        let result = try extract(source)
        let p = try XCTUnwrap(result.products.first, "\(result.diagnostics)")
        XCTAssertEqual(p.dialect, .actomaton)
        XCTAssertEqual(p.fields.map(\.name), ["stage", "primed"])
        XCTAssertTrue(p.rules.contains { $0.inputs == ["run"] && $0.requires == ["stage": ["off"], "primed": ["true"]] && $0.writes == ["stage": "running"] })
        XCTAssertTrue(p.rules.contains { $0.inputs == ["halt"] && $0.requires == ["primed": ["true"]] && $0.writes == ["stage": "off", "primed": "false"] })
        let explored = ProductExplorer().explore(p, invariants: [try Invariant("stage == .running implies primed")])
        // run needs primed: the shortest way to running is prime, primed, run; halt then toggles primed off while stopping
        XCTAssertTrue(explored.machine.states.contains("stage=running, primed=true"))
        XCTAssertFalse(explored.machine.states.contains("stage=running, primed=false"))
        XCTAssertEqual(explored.findings, [])
    }

    func testStateHandedToAHelperIsNotGuessed() throws {
        let source = """
            import ComposableArchitecture

            @Reducer
            struct Lamp {
                struct State {
                    var on = false
                    var level: Level = .low
                }
                enum Level { case low, high }
                enum Action { case flip, brighten }

                var body: some ReducerOf<Self> {
                    Reduce { state, action in
                        switch action {
                        case .flip:
                            state.on.toggle()
                            return .none
                        case .brighten:
                            adjust(&state)
                            state.level = .high
                            return .none
                        }
                    }
                }
            }
            func adjust(_ state: inout Lamp.State) { state.on = true }
            """
        let result = try extract(source)
        XCTAssertEqual(result.products.map(\.name), [])
        XCTAssertTrue(result.diagnostics.contains { $0.message.contains("Lamp: the fields are not explored together") }, "\(result.diagnostics)")
        XCTAssertFalse(result.machines.isEmpty, "the field machines are still there")
    }

    func testBadInvariantCommentIsADiagnostic() throws {
        let source = Self.tca.replacingOccurrences(of: "isHeating implies mode == .boiling", with: "isHeating implies mode ==")
        let result = try extract(source)
        XCTAssertEqual(result.products.first?.invariants, [])
        XCTAssertTrue(result.diagnostics.contains { $0.message.contains("expected a value") && $0.location?.line == 7 }, "\(result.diagnostics)")
    }
}

extension ProductExtractionTests {
    func testCombineProcessorStructStateAndAStateMethod() throws {
        let source = """
            import CombineProcessor

            struct GateState {
                var door: Door = .shut
                var locked = true
                mutating func reset() {
                    door = .shut
                    locked = true
                }
            }
            enum Door { case shut, ajar }
            enum GateAction { case unlock, open, close, reset }

            let gateReducer = AnyProcessorReducer<GateState, Void, GateAction, Void> { state, action in
                switch action {
                case .unlock:
                    state.locked = false
                    return .none
                case .open:
                    if state.locked { return .none }
                    state.door = .ajar
                    return .none
                case .close:
                    state.door = .shut
                    return .none
                case .reset:
                    state.reset()
                    return .none
                }
            }
            """
        let result = try extract(source)
        let p = try XCTUnwrap(result.products.first, "\(result.diagnostics) \(result.machines.map(\.name))")
        XCTAssertEqual(p.dialect, .combineProcessor)
        XCTAssertEqual(p.fields.map(\.name), ["door", "locked"])
        // the method is walked with the fields by their bare names
        XCTAssertTrue(p.rules.contains { $0.inputs == ["reset"] && $0.writes == ["door": "shut", "locked": "true"] }, "\(p.rules)")
        let explored = ProductExplorer().explore(p, invariants: [try Invariant("door == .ajar implies !locked")])
        XCTAssertEqual(explored.findings, [], "open is refused while locked")
        XCTAssertFalse(explored.machine.states.contains("door=ajar, locked=true"))
    }
}

extension ProductExtractionTests {
    /// `.ifLet(\.$alert, action: \.alert)` clears the alert after the reducer's own branch for `alert`.
    func testImplicitDismissalIsPartOfTheBranch() throws {
        let result = Extractor.extract(paths: [Fixture.example("tca/VoiceMemos.swift")])
        let p = try XCTUnwrap(result.products.first { $0.name == "RecordingFeature" }, "\(result.diagnostics)")
        XCTAssertEqual(p.fields.map(\.name), ["phase", "isMuted", "alert"])
        let alert = p.rules.filter { $0.inputs.contains("alert") }
        XCTAssertFalse(alert.isEmpty)
        XCTAssertTrue(alert.allSatisfy { $0.inputs == ["alert"] && $0.writes["alert"] == "nil" }, "\(alert)")
        XCTAssertTrue(alert.contains { $0.writes["phase"] == "idle" }, "the retry button's branch keeps its own write")
        let explored = ProductExplorer().explore(p, invariants: [])
        XCTAssertFalse(explored.machine.edges.contains { $0.input == "alert" && $0.to.hasSuffix("alert=some") })
    }
}
