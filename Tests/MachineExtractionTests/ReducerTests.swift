import MachineModel
import XCTest

final class ActomatonTests: XCTestCase {
    func testQueuesFallthroughWhereAndCancellation() throws {
        let (machines, _) = Fixture.analyze([Fixture.path("actomaton_lamp")])
        let m = try XCTUnwrap(machines.named("lamp"))
        XCTAssertEqual(m.dialect, .actomaton)
        XCTAssertEqual(m.initial, "off")
        XCTAssertEqual(m.transitions, [
            "off -on-> warming", "warming -warmedUp-> lit", "warming -abort-> cooling", "lit -abort-> cooling", "cooling -cooledDown-> off",
        ])
        // per-pattern `where`, then `fallthrough` into the next body's effect
        let abort = try XCTUnwrap(m.rules.first { $0.inputs == ["abort"] })
        XCTAssertEqual(abort.guardText ?? abort.displayGuard, "env.allowsAbort")
        XCTAssertEqual(abort.effect?.emits, ["cooledDown"])
        // Newest1 queue: a new effect cancels the one running; Oldest1DiscardNew does not
        XCTAssertEqual(m.rules.first { $0.inputs == ["on"] }?.effect?.policy, "runNewest(1)")
        XCTAssertEqual(m.cancels, ["on>LampLane", "abort>LampLane", "off>LampLane", "cooledDown>PingID", "ping>Pinger"])
        XCTAssertEqual(m.rules.first { $0.inputs == ["warmedUp"] }?.effect?.policy, "runOldest(1, discardNew)")
        XCTAssertEqual(m.rules.first { $0.inputs == ["ping"] }?.effect?.policy, "runNewest(3)")
        XCTAssertEqual(m.emits, ["on>warmedUp", "warmedUp>ping", "abort>cooledDown", "off>cooledDown"])
        XCTAssertEqual(m.findings, [])
    }

    func testGuardShapeOnStateAndStructState() throws {
        let (machines, _) = try Fixture.analyze(source: """
        import Actomaton
        struct Player: Equatable { var status: Status = .idle; var volume = 0 }
        enum Status: Equatable { case idle, loading, playing(Int), error }
        enum PlayerAction { case load, loaded, fail, stop, louder }
        let playerReducer = Reducer<PlayerAction, Player, Void> { action, state, _ in
            switch action {
            case .load:
                guard state.status == .idle || state.status == .error else { return .empty }
                state.status = .loading
                return Effect { .loaded }
            case .loaded:
                guard case .loading = state.status else { return .empty }
                state.status = .playing(0)
                return .empty
            case .fail:
                state.status = .error
                return .empty
            case .stop:
                state.status = .idle
                return .empty
            case .louder:
                state.volume += 1
                return .empty
            }
        }
        """)
        let m = try XCTUnwrap(machines.named("Player.status"))
        XCTAssertEqual(m.initial, "idle")
        XCTAssertEqual(Set(m.transitions.filter { $0.contains("-load->") || $0.contains("-loaded->") }),
                       ["idle -load-> loading", "error -load-> loading", "loading -loaded-> playing"])
        XCTAssertEqual(m.emits, ["load>loaded"])
        XCTAssertNil(machines.first { $0.name == "Player.volume" }, "Int fields are not machines")
    }
}

final class TCATests: XCTestCase {
    func testRecordingFeatureFromExamples() throws {
        let (machines, _) = Fixture.analyze([Fixture.example("tca/VoiceMemos.swift")])
        XCTAssertEqual(machines.map(\.name), ["RecordingFeature.phase", "RecordingFeature.isMuted", "RecordingFeature.alert",
                                              "SyncSettings.sync", "SyncSettings.isSaving"])
        let phase = try XCTUnwrap(machines.named("RecordingFeature.phase"))
        XCTAssertEqual(phase.dialect, .tca)
        XCTAssertEqual(phase.inputs, ["view", "permissionResponse", "tick", "finished", "alert", "delegate"])
        XCTAssertTrue(phase.transitions.isSuperset(of: [
            "idle -view-> askingPermission", "failed -view-> askingPermission", "paused -view-> recording",
            "askingPermission -permissionResponse-> recording", "askingPermission -permissionResponse-> failed",
            "recording -view-> paused", "recording -view-> finishing", "paused -view-> finishing",
            // `state.resetSession()`: a mutating helper of State assigns the field
            "recording -finished-> idle", "recording -finished-> failed",
        ]))
        XCTAssertFalse(phase.transitions.contains("idle -view-> paused"), "the nested `switch state.phase` limits it")
        // pausing cancels the timer but not the recording started with it: its `finished` ends the session from `paused`
        XCTAssertEqual(phase.findingKeys, ["data_dependent_target askingPermission/permissionResponse", "stale_effect_output finished"])
        // the branch that denies has no effect; the one that grants starts the timer
        let response = try XCTUnwrap(phase.rules.first { $0.inputs == ["permissionResponse"] && $0.targets.count == 2 })
        let granted = try XCTUnwrap(response.outcomes.first { $0.target == .state("recording") })
        XCTAssertEqual(granted.effect?.emits, ["tick", "finished"])
        XCTAssertEqual(granted.cancels, ["CancelID.timer"])
        XCTAssertNil(response.outcomes.first { $0.target == .state("failed") }?.effect)
        // patterns keep the nested action
        let pause = try XCTUnwrap(phase.rules.first { $0.outcomes.contains { $0.pattern?.trigger == "view(.pauseButtonTapped)" } })
        XCTAssertEqual(pause.cancels, ["CancelID.timer"])

        let muted = try XCTUnwrap(machines.named("RecordingFeature.isMuted"))
        XCTAssertEqual(muted.transitions, ["false -view-> true", "true -view-> false"], "`toggle()`")

        let alert = try XCTUnwrap(machines.named("RecordingFeature.alert"))
        XCTAssertEqual(alert.initial, "nil")
        let dismiss = try XCTUnwrap(alert.rules.first { $0.implicit })
        XCTAssertEqual(dismiss.inputs, ["alert"], "`.ifLet(\\.$alert, action: \\.alert)` clears the alert")
        XCTAssertTrue(alert.transitions.contains("some -alert-> nil"))
        XCTAssertTrue(alert.transitions.contains("nil -finished-> some"))
    }

    func testReduceIntoAndIfConditionsOnState() throws {
        let (machines, _) = Fixture.analyze([Fixture.example("tca/VoiceMemos.swift")])
        let sync = try XCTUnwrap(machines.named("SyncSettings.sync"))
        XCTAssertEqual(sync.transitions, [
            "off -toggleSync-> connecting", "error -toggleSync-> connecting", "connecting -toggleSync-> off", "on -toggleSync-> off",
            "off -connectResponse-> on", "connecting -connectResponse-> on", "error -connectResponse-> on",
            "off -connectResponse-> error", "connecting -connectResponse-> error", "on -connectResponse-> error",
        ])
        XCTAssertEqual(sync.cancels, ["toggleSync>CancelID.connect"])
        let saving = try XCTUnwrap(machines.named("SyncSettings.isSaving"))
        XCTAssertEqual(saving.transitions, ["false -save-> true", "true -saved-> false"])
    }

    func testConformanceRecorderShapes() throws {
        let path = "\(Fixture.packageRoot.path)/../shared/conformance/cases/d4_tca_feature.swift"
        try XCTSkipUnless(FileManager.default.fileExists(atPath: path))
        let m = try XCTUnwrap(Fixture.analyze([path]).machines.named("Recorder.mode"))
        XCTAssertEqual(m.findingKeys, ["dead_end_state denied", "data_dependent_target requestingPermission/permissionResponse"])
        XCTAssertEqual(m.findings.first { $0.check == "dead_end_state" }?.witness, ["recordTapped", "permissionResponse"])
    }
}

final class LegacyAndProcessorTests: XCTestCase {
    func testLegacyReducerLocalCancelIDsAndTimer() throws {
        let (machines, _) = Fixture.analyze([Fixture.path("tca_legacy_app")])
        XCTAssertEqual(machines.map(\.name), ["TimerState.isRunning", "TimerState.phase"])
        let phase = try XCTUnwrap(machines.named("TimerState.phase"))
        XCTAssertEqual(phase.dialect, .tcaLegacy)
        XCTAssertEqual(phase.transitions, [
            "stopped -startTapped-> running", "paused -pauseTapped-> running", "running -pauseTapped-> paused",
            "running -resetTapped-> stopped", "paused -resetTapped-> stopped",
        ])
        // Effect.timer(id:) cancels in flight; `state = TimerState()` resets the field to its default
        XCTAssertEqual(phase.cancels, ["startTapped>TimerId", "pauseTapped>TimerId", "resetTapped>TimerId", "resetTapped>PingID", "nested>PingID"])
        XCTAssertEqual(phase.findings, [])
    }

    func testProcessorSetterPayloadBecomesEdges() throws {
        let (machines, _) = Fixture.analyze([Fixture.path("processor_download")])
        let m = try XCTUnwrap(machines.named("DownloadProcessor.status"))
        XCTAssertEqual(m.dialect, .combineProcessor)
        XCTAssertEqual(m.inputs, ["begin", "gotData", "failure", "setStatus", "cancelled"])
        XCTAssertTrue(m.transitions.isSuperset(of: ["idle -setStatus-> downloading", "downloading -setStatus-> finished",
                                                    "downloading -setStatus-> failed", "downloading -cancelled-> idle"]))
        XCTAssertEqual(m.emits, ["begin>setStatus", "begin>gotData", "begin>failure", "gotData>setStatus", "failure>setStatus"])
        XCTAssertTrue(m.findingKeys.contains("data_dependent_target downloading/setStatus"))
    }

    func testRuntimeCancelIDIsReportedAsSuch() throws {
        let (machines, _) = try Fixture.analyze(source: """
        import ComposableArchitecture
        @Reducer struct Row {
            struct State { var id = 0; var isLoading = false }
            enum Action { case load, cancel }
            var body: some ReducerOf<Self> {
                Reduce { state, action in
                    switch action {
                    case .load:
                        state.isLoading = true
                        return .run { _ in }.cancellable(id: state.id, cancelInFlight: true)
                    case .cancel:
                        state.isLoading = false
                        return .cancel(id: state.id)
                    }
                }
            }
        }
        """)
        let m = try XCTUnwrap(machines.named("Row.isLoading"))
        XCTAssertEqual(m.cancels, ["load>state.id (runtime value)", "cancel>state.id (runtime value)"])
    }
}

final class TCAPayloadAndEnumStateTests: XCTestCase {
    func testPayloadAssignedToAFieldAndEnumStateNamedByFeature() throws {
        let (machines, _) = Fixture.analyze([Fixture.path("tca_settings_loader")])
        XCTAssertEqual(machines.map(\.name), ["Settings.theme", "Settings.destination", "Loader"])
        let theme = try XCTUnwrap(machines.named("Settings.theme"))
        // `case let .themeTapped(theme): state.theme = theme` can lead to any case of Theme
        let fromSystem: Set<String> = theme.transitions.filter { $0.hasPrefix("system") }
        XCTAssertEqual(fromSystem, ["system -themeTapped-> light", "system -themeTapped-> dark"])
        XCTAssertTrue(theme.findingKeys.contains("data_dependent_target system/themeTapped"))
        let destination = try XCTUnwrap(machines.named("Settings.destination"))
        XCTAssertEqual(destination.states, ["nil", "about"], "a destination enum: nil and the values assigned")
        XCTAssertEqual(destination.transitions, ["nil -aboutTapped-> about", "about -destination-> nil"])
        let loader = try XCTUnwrap(machines.named("Loader"))
        XCTAssertEqual(loader.states, ["idle", "loading", "loaded", "failed"])
        XCTAssertEqual(loader.transitions, [
            "idle -start-> loading", "loaded -start-> loading", "failed -start-> loading",
            "idle -retry-> loading", "loaded -retry-> loading", "failed -retry-> loading",
            "idle -response-> loaded", "loading -response-> loaded", "failed -response-> loaded",
            "idle -response-> failed", "loading -response-> failed", "loaded -response-> failed",
        ])
        XCTAssertEqual(loader.emits, ["start>response", "retry>response"])
    }
}

final class KeyedCollectionTests: XCTestCase {
    /// Actomaton sub-shape (c): per-item state in a keyed collection.
    func testPerItemMachinesOfKeyedCollections() throws {
        let (machines, _) = Fixture.analyze([Fixture.path("actomaton_keyed")])
        XCTAssertEqual(machines.map(\.name), ["Downloads.items[]", "Downloads.tasks[].phase"])
        let items = try XCTUnwrap(machines.named("Downloads.items[]"))
        XCTAssertNil(items.initial, "items start when they are inserted")
        XCTAssertTrue(items.transitions.isSuperset(of: [
            "queued -start-> running", "paused -start-> running", "running -pause-> paused", "running -finish-> done",
        ]))
        XCTAssertFalse(items.transitions.contains("done -start-> running"), "the guard on the item narrows it")
        XCTAssertEqual(items.cancels, ["pause>DownloadID(id) (runtime value)"])
        let phase = try XCTUnwrap(machines.named("Downloads.tasks[].phase"))
        XCTAssertEqual(phase.transitions, ["queued -finish-> done", "running -finish-> done", "paused -finish-> done", "failed -finish-> done"])
    }
}

final class SplitReducerTests: XCTestCase {
    /// `return reduceView(into: &state, a)`, `finishSubmit(&state, …)` and `state.step.advance()`.
    func testFunctionsTakingTheStateInoutAndMutatingEnumMethods() throws {
        let (machines, _) = Fixture.analyze([Fixture.path("tca_split_reducer")])
        XCTAssertEqual(machines.map(\.name), ["Wizard.step", "Wizard.isSubmitting"], "the split functions are no reducers of their own")
        let step = try XCTUnwrap(machines.named("Wizard.step"))
        XCTAssertEqual(step.transitions, [
            "welcome -view-> details", "details -view-> review", "review -view-> details",
            "welcome -submitResponse-> done", "details -submitResponse-> done", "review -submitResponse-> done",
        ])
        // the view function's `switch action` is over the `view` case's payload, not the reducer's action
        XCTAssertEqual(step.triggered, [
            "welcome -view(.next)-> details", "details -view(.next)-> review", "review -view(.back)-> details",
            "welcome -submitResponse-> done", "details -submitResponse-> done", "review -submitResponse-> done",
        ])
        // going back while the submit request runs: its answer moves `details` to `done`
        XCTAssertEqual(step.findingKeys, ["dead_end_state done", "stale_effect_output submitResponse"])
        let stale = try XCTUnwrap(step.findings.first { $0.check == "stale_effect_output" })
        XCTAssertTrue(stale.message.contains("after view(.next) → view(.next) → view(.submit) → view(.back):"), stale.message)
        XCTAssertEqual(stale.witness, ["view", "view", "view", "view", "submitResponse"])
        let submitting = try XCTUnwrap(machines.named("Wizard.isSubmitting"))
        XCTAssertEqual(submitting.transitions, ["false -view-> true", "true -submitResponse-> false"])
        XCTAssertEqual(submitting.emits, ["view>submitResponse"])
    }
}

final class ReducerFunctionTests: XCTestCase {
    /// ReSwift's reducers (made-up names): the state comes optional and is defaulted (`var state = state ??
    /// TillState()`); the action is a protocol, read through a cast to an enum at the top (`guard let`,
    /// under the same name or another), or told apart by the types conforming to it (`case _ as Refund`,
    /// `case let r as Reprint`, `if let v = action as? Void`, `action is Refund`), which are then the
    /// inputs: an open set, so a `default` is no shadowed rule.
    func testReSwiftReducers() throws {
        let a = Analysed.source(#"""
        import ReSwift
        struct TillState { var drawer: Drawer = .shut; var total = 0 }
        enum Drawer { case shut, open, jammed }
        enum TillAction: Action { case sale, close, kick }
        struct Refund: Action {}
        struct Reprint: Action { let copies: Int }
        struct Voided: Action { let hard: Bool }
        func tillReducer(action: Action, state: TillState?) -> TillState {
            var state = state ?? TillState()
            guard let till = action as? TillAction else { return state }
            switch till {
            case .sale: if state.drawer == .shut { state.drawer = .open }
            case .close: state.drawer = .shut
            case .kick: if state.drawer == .open { state.drawer = .jammed }
            }
            return state
        }
        struct LampState { var lamp: Drawer = .shut }
        func lampReducer(action: Action, state: LampState?) -> LampState {
            var state = state ?? LampState()
            switch action {
            case _ as Refund: state.lamp = .open
            case let r as Reprint: if r.copies > 1 { state.lamp = .jammed }
            default: break
            }
            return state
        }
        struct SlipState { var slip: Drawer = .shut }
        func slipReducer(action: Action, state: SlipState?) -> SlipState {
            var state = state ?? SlipState()
            if action is Refund, state.slip == .shut {
                state.slip = .open
            } else if let voided = action as? Voided {
                state.slip = voided.hard ? .jammed : .shut
            }
            return state
        }
        """#)
        let till = try a.machine("TillState.drawer")
        XCTAssertEqual(till.initial, "shut")
        XCTAssertEqual(till.transitions, ["shut -sale-> open", "open -close-> shut", "jammed -close-> shut", "open -kick-> jammed"])
        let lamp = try a.machine("LampState.lamp")
        XCTAssertEqual(lamp.inputs, ["Refund", "Reprint"])
        XCTAssertEqual(lamp.transitions, ["shut -Refund-> open", "jammed -Refund-> open", "shut -Reprint-> jammed", "open -Reprint-> jammed"])
        XCTAssertEqual(lamp.findingKeys, [])
        let slip = try a.machine("SlipState.slip")
        XCTAssertEqual(slip.inputs, ["Refund", "Voided"])
        XCTAssertEqual(slip.transitions, ["shut -Refund-> open", "shut -Voided-> jammed", "open -Voided-> jammed", "open -Voided-> shut",
                                          "jammed -Voided-> shut"])
    }

    /// Mobius update functions (made-up names) return `Next<Model, Effect>`: `.next(m, effects: [...])`
    /// leads to `m` running the effects, `.dispatchEffects([...])` keeps the model and runs them, and
    /// `.noChange` is no transition (an unhandled event). An enum model is a mapping function's state;
    /// a struct model is copied (`var model = model`), its fields machines, and `.next(Model())` resets it.
    func testMobiusUpdatesReturningNext() throws {
        let a = Analysed.source(#"""
        import MobiusCore
        enum Kiln: Equatable { case cold, firing, cooling }
        enum KilnEvent { case light, peak, vent, ding }
        enum KilnEffect: Hashable { case ignite, alarm }
        func update(model: Kiln, event: KilnEvent) -> Next<Kiln, KilnEffect> {
            switch (model, event) {
            case (.cold, .light): return .next(.firing, effects: [.ignite])
            case (.firing, .peak): return .next(.cooling)
            case (.cooling, .ding): return .dispatchEffects([.alarm])
            case (_, .vent): return Next.next(.cold)
            default: return .noChange
            }
        }
        struct LoomModel: Equatable { var shed: Shed = .open; var rows = 0 }
        enum Shed: Equatable { case open, crossed, beaten }
        enum LoomEvent { case cross, beat, row, restart }
        enum Loom {
            static func update(model: LoomModel, event: LoomEvent) -> Next<LoomModel, KilnEffect> {
                var model = model
                switch event {
                case .cross:
                    guard model.shed == .open else { return .noChange }
                    model.shed = .crossed
                    return .next(model)
                case .beat:
                    model.shed = .beaten
                    return .next(model, effects: [.alarm])
                case .row:
                    model.rows += 1
                    return .next(model)
                case .restart:
                    return .next(LoomModel())
                }
            }
        }
        """#)
        let kiln = try a.machine("update")
        XCTAssertEqual(kiln.transitions, ["cold -light-> firing", "firing -peak-> cooling", "firing -vent-> cold", "cooling -vent-> cold"])
        XCTAssertEqual(kiln.selfLoops, ["cold -vent-> cold", "cooling -ding-> cooling"])
        XCTAssertEqual(kiln.effectLabel("cold", "light", "firing"), "[.ignite]")
        XCTAssertEqual(kiln.effectLabel("cooling", "ding", "cooling"), "[.alarm]")
        let loom = try a.machine("LoomModel.shed")
        XCTAssertEqual(loom.initial, "open")
        XCTAssertEqual(loom.transitions, ["open -cross-> crossed", "open -beat-> beaten", "crossed -beat-> beaten",
                                          "crossed -restart-> open", "beaten -restart-> open"])
        XCTAssertNil(loom.edge("crossed", "cross", "crossed"))
        XCTAssertEqual(loom.effectLabel("open", "beat", "beaten"), "[.alarm]")
    }

    /// An Elm-style update returns the changed copy of its model with a command (`-> (Model, Cmd)`,
    /// `return (model, .persist)`): the model's enum fields are machines, the command the edge's effect.
    func testElmStyleUpdatesReturningTheModelAndACommand() throws {
        let a = Analysed.source(#"""
        enum Note { case tap, hold, release }
        enum Pedal { case up, down }
        struct Piano { var pedal: Pedal = .up; var volume = 0 }
        enum Cmd { case none, persist }
        func update(_ note: Note, _ piano: Piano) -> (Piano, Cmd) {
            var piano = piano
            switch note {
            case .tap: piano.volume += 1
            case .hold:
                piano.pedal = .down
                return (piano, .persist)
            case .release: piano.pedal = .up
            }
            return (piano, .none)
        }
        """#)
        let piano = try a.machine("Piano.pedal")
        XCTAssertEqual(piano.initial, "up")
        XCTAssertEqual(piano.transitions, ["up -hold-> down", "down -release-> up"])
        XCTAssertEqual(piano.effectLabel("up", "hold", "down"), "persist")
    }

    /// Shapes of split TCA reducers (made-up names): `Reduce(self.core)` with a function of any name
    /// and labels returning TCA's effect type, a helper taking a view action's payload under the name
    /// `action` the reducer gives its input, and mutating methods of the state the reducer calls.
    func testReducerFunctionsOfAnyNameAndStateMethodsTheReducerCalls() throws {
        let a = Analysed.source(#"""
        import ComposableArchitecture
        @Reducer
        struct Kiln {
          struct State: Equatable {
            var door: Door = .shut
            var heat: Heat = .cold
            mutating func fire() -> Effect<Action> {
              heat = .firing
              return .run { send in await send(.fired) }
            }
            mutating func vent() { if heat == .firing { heat = .cold } }
          }
          enum Door: Equatable { case shut, ajar }
          enum Heat: Equatable { case cold, firing, glowing }
          enum Action { case view(View), fired, shutDoor
            enum View { case openTapped, fireTapped, ventTapped } }
          var body: some ReducerOf<Self> { Reduce(self.core) }
          func core(state: inout State, action: Action) -> Effect<Action> {
            switch action {
            case let .view(viewAction):
              return handle(viewAction, &state)
            case .fired:
              state.heat = .glowing
              return .none
            case .shutDoor:
              state.door = .shut
              return .none
            }
          }
          private func handle(_ action: Action.View, _ state: inout State) -> Effect<Action> {
            switch action {
            case .openTapped:
              state.door = .ajar
              return .send(.shutDoor)
            case .fireTapped:
              return state.fire()
            case .ventTapped:
              state.vent()
              return .none
            }
          }
        }
        """#)
        XCTAssertEqual(a.machines.map(\.name), ["Kiln.door", "Kiln.heat"], "the state's methods are the reducer's helpers, no machine of their own")
        XCTAssertEqual(Set(a.machines.map(\.dialect)), [.tca])
        let heat = try a.machine("Kiln.heat")
        XCTAssertEqual(heat.triggered, [
            "cold -view(.fireTapped)-> firing", "glowing -view(.fireTapped)-> firing", "firing -view(.ventTapped)-> cold",
            "cold -fired-> glowing", "firing -fired-> glowing",
        ])
        // venting while the kiln fires leaves the firing's answer in flight
        XCTAssertEqual(heat.findingSet, ["stale_effect_output fired"])
        // TCA's `.send` is handled at once: no effect in flight, nothing stale
        let door = try a.machine("Kiln.door")
        XCTAssertEqual(door.triggered, ["shut -view(.openTapped)-> ajar", "ajar -shutDoor-> shut"])
        XCTAssertEqual(door.findingSet, [])
    }
}

extension ReducerFunctionTests {
    /// TCA's `.debounce(id:for:scheduler:)` cancels the effect of that id in flight, as
    /// `.cancellable(id:cancelInFlight: true)` does: a second query's answer is the only one left.
    func testDebounceCancelsTheEffectInFlight() throws {
        func search(_ chain: String) throws -> Machine {
            try Analysed.source("""
            import ComposableArchitecture
            struct FinderState: Equatable { var mode: Mode = .idle; enum Mode: Equatable { case idle, seeking, shown } }
            enum FinderAction: Equatable { case typed(String), found([String]) }
            struct FinderEnvironment { var seek: (String) -> Effect<[String], Never>; var queue: AnySchedulerOf<DispatchQueue> }
            let finderReducer = Reducer<FinderState, FinderAction, FinderEnvironment> { state, action, environment in
              struct SeekID: Hashable {}
              switch action {
              case let .typed(text):
                state.mode = .seeking
                return environment.seek(text).map(FinderAction.found)\(chain)
              case let .found(items):
                state.mode = items.isEmpty ? .idle : .shown
                return .none
              }
            }
            """).machine("FinderState.mode")
        }
        let debounced = try search(".debounce(id: SeekID(), for: 0.3, scheduler: environment.queue)")
        XCTAssertEqual(debounced.cancels, ["typed>SeekID"])
        XCTAssertEqual(debounced.findingSet.filter { $0.hasPrefix("stale") }, [])
        let kept = try search(".cancellable(id: SeekID())")
        XCTAssertEqual(kept.cancels, [])
        XCTAssertEqual(kept.findingSet.filter { $0.hasPrefix("stale") }, ["stale_effect_output found"])
    }
}

final class MergedMachineTests: XCTestCase {
    func testTwoReduceBlocksOfOneFeatureAreOneMachine() throws {
        let (machines, _) = try Fixture.analyze(source: """
        import ComposableArchitecture
        @Reducer struct Gate {
            struct State { var isOpen = false }
            enum Action { case open, close, log }
            var body: some ReducerOf<Self> {
                Reduce { state, action in
                    switch action {
                    case .open: state.isOpen = true; return .none
                    case .close, .log: return .none
                    }
                }
                Reduce { state, action in
                    guard case .close = action else { return .none }
                    state.isOpen = false
                    return .none
                }
            }
        }
        """)
        XCTAssertEqual(machines.map(\.name), ["Gate.isOpen"])
        XCTAssertEqual(machines.first?.transitions, ["false -open-> true", "true -close-> false"])
    }
}

final class TCACompositionTests: XCTestCase {
    func testChildFeaturesConcatenateAndCatchHandlers() throws {
        let (machines, _) = Fixture.analyze([Fixture.path("tca_composition")])
        // the child feature is a machine of its own; the parent's rows are not an enum collection
        XCTAssertEqual(machines.map(\.name), ["SyncRow.status", "SyncList.isSyncingAll"])
        let row = try XCTUnwrap(machines.named("SyncRow.status"))
        XCTAssertEqual(row.initial, "pending")
        XCTAssertTrue(row.transitions.isSuperset(of: ["pending -syncTapped-> syncing", "failed -retry-> syncing",
                                                       "syncing -finished-> synced", "syncing -failed-> failed"]))
        XCTAssertFalse(row.transitions.contains("syncing -syncTapped-> syncing"))
        XCTAssertEqual(row.emits, ["syncTapped>finished", "syncTapped>failed", "retry>finished", "retry>failed"],
                       "`catch:` sends `.failed` back")
        let list = try XCTUnwrap(machines.named("SyncList.isSyncingAll"))
        XCTAssertEqual(list.emits, ["syncAllTapped>rows", "syncAllTapped>allDone"], "`.concatenate` of `.merge` and `.send`")
        XCTAssertEqual(list.transitions, ["false -syncAllTapped-> true", "true -allDone-> false"])
    }

    func testActomatonSequenceEffects() throws {
        let (machines, _) = try Fixture.analyze(source: """
        import Actomaton
        enum Clock: Sendable { case stopped, ticking }
        enum ClockAction: Sendable { case start, tick, stop }
        struct TickID: EffectIDProtocol {}
        let clockReducer = Reducer<ClockAction, Clock, Void> { action, state, _ in
            switch (action, state) {
            case (.start, .stopped):
                state = .ticking
                return Effect(id: TickID(), sequence: {
                    AsyncStream { continuation in continuation.yield(.tick) }
                })
            case (.stop, .ticking):
                state = .stopped
                return .cancel(id: TickID())
            default:
                return .empty
            }
        }
        """)
        let m = try XCTUnwrap(machines.first)
        XCTAssertEqual(m.dialect, .actomaton)
        XCTAssertEqual(m.emits, ["start>tick"])
        XCTAssertEqual(m.rules.first { $0.inputs == ["start"] }?.effect?.id, "TickID")
        XCTAssertEqual(m.cancels, ["stop>TickID"])
    }
}

final class ComputedGuardTests: XCTestCase {
    /// `guard state.canPause`, `where state.canCancel`, `!state.isFinished`: computed properties of the
    /// state enum, evaluated per case.
    func testGuardsThatAreComputedPropertiesOfTheStateEnum() throws {
        let (machines, _) = Fixture.analyze([Fixture.path("actomaton_computed_guards")])
        let m = try XCTUnwrap(machines.named("jobReducer"))
        XCTAssertEqual(m.transitions, [
            "queued -start-> running", "running -pause-> paused", "paused -resume-> running",
            "queued -cancel-> cancelled", "running -cancel-> cancelled", "paused -cancel-> cancelled",
            "queued -finish-> done", "running -finish-> done", "paused -finish-> done",
        ])
        let cancel = try XCTUnwrap(m.rules.first { $0.inputs == ["cancel"] })
        XCTAssertNil(cancel.displayGuard, "a property decided by the case is no data guard")
    }
}

final class ActomatonNamespaceTests: XCTestCase {
    /// `public static var reducer: Reducer<Action, State, Environment> { .init { … } }` in a namespace enum.
    func testImplicitInitReducerInANamespace() throws {
        let (machines, _) = Fixture.analyze([Fixture.path("actomaton_namespace")])
        let m = try XCTUnwrap(machines.named("Stopwatch.reducer"))
        XCTAssertEqual(m.dialect, .actomaton)
        XCTAssertEqual(m.states, ["idle", "running", "stopped"])
        XCTAssertEqual(m.transitions, [
            "idle -start-> running", "stopped -start-> running", "running -stop-> stopped",
            "running -reset-> idle", "stopped -reset-> idle",
        ])
        XCTAssertEqual(m.emits, ["start>tick"])
        XCTAssertEqual(m.cancels, ["stop>TimerID", "reset>TimerID"])
    }
}
