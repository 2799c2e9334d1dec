import MachineModel
import XCTest

extension Machine {
    /// State-changing edges as `from -trigger-> to`.
    var triggered: Set<String> { Set(edges.filter { $0.from != $0.to }.map { "\($0.from) -\($0.trigger)-> \($0.to)" }) }
}

/// Nested triggers and TCA navigation (shapes from real TCA features, made-up names: Fixtures/tca_navigation.swift).
final class NavigationTests: XCTestCase {
    static let analysed = Analysed.fixture("tca_navigation.swift")

    func testMachinesOfTheFixture() {
        // `Garden.Destination` is held in `Garden.destination`: that field's machine describes it
        XCTAssertEqual(Self.analysed.machines.map(\.name).sorted(), [
            "Garden.destination", "Garden.uprooted", "Greenhouse", "Kettle.alert", "Kettle.dialog", "Kettle.gauge",
            "Lantern.isLit", "Pantry.focus", "Pantry.isOpen", "Pantry.shelf", "Sprinkler.isWet",
        ])
    }

    /// `.destination(.presented(.alert(let a)))` + `switch a`: the nested switch narrows the trigger;
    /// a `@Reducer enum` destination's states are `nil` plus the values assigned, payloads dropped and
    /// static alert members kept; scoped actions arrive only in their case; `.dismiss` goes back to nil.
    func testDestinationEnumStates() throws {
        let m = try Self.analysed.machine("Garden.destination")
        XCTAssertEqual(m.states, ["nil", "alert(uprootConfirmation)", "planter", "viewer", "alert(dryWarning)"])
        XCTAssertEqual(m.initial, "nil")
        XCTAssertTrue(m.triggered.isSuperset(of: [
            "nil -uprootTapped-> alert(uprootConfirmation)", "viewer -plantTapped-> planter", "nil -drought-> alert(dryWarning)",
            "planter -closePlanter-> nil",
            // `guard case .some(.planter) = state.destination` narrows the from-states
            "planter -donePlanting-> viewer",
            "planter -destination(.presented(.planter(.delegate(.finished))))-> viewer",
            "planter -destination(.dismiss)-> nil", "alert(dryWarning) -destination(.dismiss)-> nil",
            // buttons: a case that leaves the alert in place is followed by the automatic dismissal
            "alert(uprootConfirmation) -destination(.presented(.alert(.confirmUproot)))-> nil",
            "alert(dryWarning) -destination(.presented(.alert(.waterAnyway)))-> nil",
            // a button case that navigates elsewhere keeps its own target
            "alert(dryWarning) -destination(.presented(.alert(.openManual)))-> viewer",
        ]))
        XCTAssertFalse(m.triggered.contains("viewer -donePlanting-> viewer"))
        XCTAssertFalse(m.triggered.contains { $0.hasPrefix("nil -destination") }, "nothing is presented in nil")
        XCTAssertFalse(m.triggered.contains { $0.hasPrefix("viewer -destination(.presented(.planter") },
                       "a planter's action only arrives while the planter is presented")
        XCTAssertFalse(m.triggered.contains { $0.hasPrefix("alert(uprootConfirmation) -destination(.presented(.alert(.waterAnyway)))-> nil") },
                       "that alert has no such button")
        let dismiss = try XCTUnwrap(m.rules.first { $0.implicit })
        XCTAssertTrue(dismiss.outcomes.contains { $0.pattern?.trigger == "destination(.dismiss)" })
    }

    func testTriggerOnAnotherFieldOfTheFeature() throws {
        let m = try Self.analysed.machine("Garden.uprooted")
        XCTAssertEqual(m.triggered, ["false -destination(.presented(.alert(.confirmUproot)))-> true"])
    }

    /// Rules that differ only in a nested pattern keep their own targets; literal arguments are kept;
    /// a case with two patterns on two inputs gives each input its own trigger.
    func testNestedTriggersDoNotMix() throws {
        let alert = try Self.analysed.machine("Kettle.alert")
        XCTAssertEqual(alert.states, ["nil", "stopBoiling(early:true)", "some", "stopBoiling(early:false)"])
        XCTAssertTrue(alert.triggered.isSuperset(of: [
            "nil -heatResponse(.failure)-> some", "nil -report(didSucceed:false)-> stopBoiling(early:false)",
            "nil -boilTapped-> stopBoiling(early:true)", "nil -overheated-> some",
            "stopBoiling(early:true) -alert(.presented(.cool))-> nil", "some -alert(.dismiss)-> nil",
        ]))
        XCTAssertFalse(alert.triggered.contains { $0.contains("heatResponse(.success)") })
        XCTAssertFalse(alert.triggered.contains { $0.contains("report(didSucceed:true)") })

        let gauge = try Self.analysed.machine("Kettle.gauge")
        XCTAssertEqual(gauge.states, ["nil", "some"])
        XCTAssertEqual(gauge.triggered, [
            "nil -gaugeLoaded-> some", "some -gauge(.presented(.delegate(.abandoned)))-> nil", "some -gauge(.dismiss)-> nil",
            "some -heatResponse(.success)-> nil", "some -report(didSucceed:true)-> nil",
        ])

        let dialog = try Self.analysed.machine("Kettle.dialog")
        XCTAssertEqual(dialog.triggered, [
            "nil -optionsTapped-> some", "some -dialog(.dismiss)-> nil",
            "some -dialog(.presented(.colder))-> nil", "some -dialog(.presented(.warmer))-> nil",
        ])
        // JSON patterns of the rule with two patterns
        let rule = try XCTUnwrap(alert.rules.first { $0.inputs.contains("alert") && $0.inputs.contains("dialog") })
        let json = String(decoding: try StableJSON.data(rule), as: UTF8.self)
        XCTAssertTrue(json.contains("\"alert(.presented(.cool))\""), json)
        XCTAssertTrue(json.contains("\"dialog(.presented(.colder))\""), json)
    }

    /// `.ifLet(\.shelf, action: \.shelf)` without `$`: scoped, but there is no `.dismiss`; literal
    /// arguments tell setter actions apart; a bound delegate action of a list element narrows the trigger.
    func testPlainOptionalChildAndLiteralSetters() throws {
        let shelf = try Self.analysed.machine("Pantry.shelf")
        XCTAssertEqual(shelf.triggered, ["nil -shelfLoaded-> some", "some -setOpen(isOpen:false)-> nil"])
        XCTAssertFalse(shelf.allEdges.contains("nil -shelf-> nil"), "the child's actions arrive only while it is there")
        // an optional enum that is not a navigation destination: nil plus the values, the default among them
        let focus = try Self.analysed.machine("Pantry.focus")
        XCTAssertEqual(focus.states, ["nil", "jar(2)", "door"])
        XCTAssertEqual(focus.initial, "door")
        XCTAssertTrue(focus.triggered.isSuperset(of: ["door -shelfLoaded-> jar(2)", "door -setOpen(isOpen:false)-> nil"]))
        let open = try Self.analysed.machine("Pantry.isOpen")
        XCTAssertEqual(open.triggered, [
            "false -setOpen(isOpen:true)-> true", "true -setOpen(isOpen:false)-> false",
            "true -gauges(.element(action:.delegate(.finished)))-> false",
        ])
    }

    func testBoundActionShadowingTheReducersName() throws {
        let m = try Self.analysed.machine("Lantern.isLit")
        XCTAssertEqual(m.triggered, ["false -view(.lightTapped)-> true", "true -view(.dimTapped)-> false"])
    }

    func testIfCaseOnABoundValue() throws {
        let m = try Self.analysed.machine("Sprinkler.isWet")
        XCTAssertEqual(m.triggered, ["false -valveResponse(.success)-> true"])
    }

    /// A root `@Reducer enum`: its cases are states and inputs, and each case's actions arrive only there.
    func testReducerEnumFeature() throws {
        let m = try Self.analysed.machine("Greenhouse")
        XCTAssertEqual(m.states, ["garden", "kettle"])
        XCTAssertEqual(m.inputs, ["garden", "kettle"])
        XCTAssertNil(m.initial)
        XCTAssertEqual(m.triggered, [
            "garden -garden(.destination(.presented(.planter(.delegate(.abandoned)))))-> kettle",
            "kettle -kettle(.alert(.presented(.cool)))-> garden",
        ])
        XCTAssertFalse(m.allEdges.contains("kettle -garden-> kettle"), "a garden action never arrives in kettle")
    }

    /// A `@Reducer enum` with a body of its own, held in a parent's `@Presents` field: the field's
    /// machine describes it, and a note says so.
    func testReducerEnumHeldInAnOptionalField() throws {
        let a = Analysed.source("""
        import ComposableArchitecture
        @Reducer
        struct Leaf {
            struct State: Equatable {}
            enum Action { case done }
            var body: some ReducerOf<Self> { EmptyReducer() }
        }
        @Reducer
        struct Branch {
            @Reducer
            enum Route {
                case first(Leaf)
                case second(Leaf)
                static var body: some ReducerOf<Self> {
                    Reduce { state, action in
                        switch action {
                        case .first(.done):
                            state = .second(Leaf.State())
                            return .none
                        default:
                            return .none
                        }
                    }
                }
            }
            @ObservableState
            struct State: Equatable { @Presents var route: Route.State? }
            enum Action { case open, route(PresentationAction<Route.Action>) }
            var body: some ReducerOf<Self> {
                Reduce { state, action in
                    switch action {
                    case .open:
                        state.route = .first(Leaf.State())
                        return .none
                    case .route:
                        return .none
                    }
                }
                .ifLet(\\.$route, action: \\.route)
            }
        }
        """)
        XCTAssertEqual(a.machines.map(\.name), ["Branch.route"])
        XCTAssertEqual(try a.machine("Branch.route").triggered, ["nil -open-> first", "first -route(.dismiss)-> nil"])
        XCTAssertTrue(a.diagnosticLines.contains { $0.contains("`@Reducer enum Route` is held in `Branch.State.route`") },
                      a.diagnosticLines.joined(separator: "\n"))
    }

    /// Two `Reduce` blocks of one feature write one destination: one machine with the values of both,
    /// one dismissal edge per state, and a button the second block handles leads where that block says.
    func testDestinationWrittenByTwoReduceBlocks() throws {
        let a = Analysed.source("""
        import ComposableArchitecture
        @Reducer
        struct Porch {
            @Reducer
            enum Destination {
                case alert(AlertState<Choice>)
                case mat
                enum Choice { case keep, sweep }
            }
            @ObservableState
            struct State: Equatable { @Presents var destination: Destination.State? }
            enum Action { case ring, wipe, destination(PresentationAction<Destination.Action>) }
            var body: some ReducerOf<Self> {
                Reduce { state, action in
                    switch action {
                    case .wipe:
                        state.destination = .mat
                        return .none
                    default:
                        return .none
                    }
                }
                Reduce { state, action in
                    switch action {
                    case .ring:
                        state.destination = .alert(AlertState { TextState("?") } actions: {
                            ButtonState(action: .keep) { TextState("Keep") }
                            ButtonState(action: .sweep) { TextState("Sweep") }
                        })
                        return .none
                    case .destination(.presented(.alert(.sweep))):
                        state.destination = .mat
                        return .none
                    default:
                        return .none
                    }
                }
                .ifLet(\\.$destination, action: \\.destination)
            }
        }
        """)
        XCTAssertEqual(a.machines.map(\.name), ["Porch.destination"])
        let m = try a.machine("Porch.destination")
        XCTAssertEqual(Set(m.states), ["nil", "mat", "alert"])
        let fromAlert = m.edges.filter { $0.from == "alert" && $0.to != "alert" && $0.input == "destination" }.map { "\($0.trigger)->\($0.to)" }
        XCTAssertEqual(fromAlert.sorted(), [
            "destination(.dismiss)->nil", "destination(.presented(.alert(.keep)))->nil", "destination(.presented(.alert(.sweep)))->mat",
        ])
    }
}

final class InputPatternTests: XCTestCase {
    func testCanonicalText() {
        let success = InputPattern.member("response", [.init(.member("success", [.init(.any)]))])
        XCTAssertEqual(success.trigger, "response(.success)")
        XCTAssertEqual(InputPattern.member("response", [.init(.any)]).trigger, "response")
        XCTAssertFalse(InputPattern.member("response", [.init(.any)]).narrows)
        XCTAssertEqual(InputPattern.member("report", [.init(label: "didSucceed", .literal("true"))]).trigger, "report(didSucceed:true)")
        XCTAssertEqual(InputPattern.member("forecast", [.init(.any), .init(.member("failure"))]).trigger, "forecast(_,.failure)")
        XCTAssertEqual(InputPattern.member("items", [.init(.member("element", [.init(label: "id", .any), .init(label: "action", .member("delete"))]))]).trigger,
                       "items(.element(action:.delete))")
        XCTAssertEqual(InputPattern.member("alert", [.init(.member("confirm"))]).stateName, "alert(confirm)")
    }

    func testMatchingValues() {
        let alert = InputPattern.member("alert", [.init(.member("confirm"))])
        XCTAssertEqual(InputPattern.member("alert").matches(alert), true)
        XCTAssertEqual(alert.matches(alert), true)
        XCTAssertEqual(InputPattern.member("alert", [.init(.member("other"))]).matches(alert), false)
        XCTAssertNil(alert.matches(.member("alert", [.init(.any)])), "a payload known only at run time")
        XCTAssertEqual(InputPattern.member("editor").matches(alert), false)
    }
}
