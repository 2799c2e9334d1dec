import Foundation
import XCTest

/// The effect-aware checks through the built binary, conformance-style: a Swift file in, the JSON
/// document's findings (check, subject, trace length) compared with what is expected. Covers
/// `unknown_cancel_id`, which the shared conformance suite exercises only alongside another check.
final class EffectChecksEndToEndTests: XCTestCase {
    var temp: URL!

    override func setUpWithError() throws {
        temp = FileManager.default.temporaryDirectory.appendingPathComponent("mv-effects-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: temp, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: temp) }

    func run(_ arguments: [String]) throws -> CLIEndToEndTests.Run {
        try CLIEndToEndTests.run(arguments)
    }

    /// (check, subject, trace length or nil) of every effect-aware finding, per machine name.
    func effectFindings(_ source: String, _ extra: [String] = []) throws -> [String: Set<String>] {
        let file = temp.appendingPathComponent("Case.swift")
        try source.write(to: file, atomically: true, encoding: .utf8)
        let r = try run(["analyze", file.path] + extra)
        let doc = try XCTUnwrap(JSONSerialization.jsonObject(with: r.data) as? [String: Any], r.stderr)
        var result: [String: Set<String>] = [:]
        let effectChecks: Set<String> = ["stale_effect_output", "uncancelled_effect", "waiting_forever", "unknown_cancel_id"]
        for machine in doc["machines"] as? [[String: Any]] ?? [] {
            var found = Set<String>()
            for f in machine["findings"] as? [[String: Any]] ?? [] where effectChecks.contains(f["check"] as? String ?? "") {
                let trace = (f["trace"] as? [Any]).map { " \($0.count)" } ?? ""
                found.insert("\(f["check"]!) \(f["subject"]!)\(trace)")
            }
            result[machine["name"] as? String ?? "?"] = found
        }
        return result
    }

    func testUnknownCancelIDAcrossFrameworks() throws {
        // TCA: a misspelt id, a suffix-matched id, and an id built from a run-time value (not checked)
        let tca = """
            import ComposableArchitecture

            @Reducer
            struct Radar {
                @ObservableState
                struct State: Equatable { var isScanning = false; var blips = 0 }
                enum Action { case scan, halt, blip, reset, forget(Int) }
                private enum SweepID { case sweep, sweeep }
                struct TrackID: Hashable { var n: Int }

                var body: some ReducerOf<Self> {
                    Reduce { state, action in
                        switch action {
                        case .scan:
                            state.isScanning = true
                            return .run { send in await send(.blip) }.cancellable(id: SweepID.sweep, cancelInFlight: true)
                        case .halt:
                            state.isScanning = false
                            return .cancel(id: SweepID.sweeep)
                        case .blip:
                            state.blips += 1
                            return .none
                        case .reset:
                            state.isScanning = false
                            return .cancel(id: .sweep)
                        case let .forget(n):
                            return .cancel(id: TrackID(n: n))
                        }
                    }
                }
            }
            """
        XCTAssertEqual(try effectFindings(tca)["Radar.isScanning"], ["unknown_cancel_id SweepID.sweeep", "unknown_cancel_id TrackID(n: n) (runtime value)"])

        // Actomaton: Effect.cancel(id:) of a type no effect is started with
        let actomaton = """
            import Actomaton

            enum PumpAction: Sendable { case prime, primed, stop }
            enum Pump: Sendable { case dry, priming, wet }
            struct PrimeID: EffectIDProtocol {}
            struct FlushID: EffectIDProtocol {}

            let pumpReducer = Reducer<PumpAction, Pump, Void> { action, state, _ in
                switch (action, state) {
                case (.prime, .dry):
                    state = .priming
                    return Effect(id: PrimeID()) { .primed }
                case (.primed, .priming):
                    state = .wet
                    return .empty
                case (.stop, .priming):
                    state = .dry
                    return Effect.cancel(id: FlushID())
                default:
                    return .empty
                }
            }

            let pump = Actomaton<PumpAction, Pump>(state: .dry, reducer: pumpReducer)
            """
        // stopping cancels the wrong id: the priming request outlives `stop`, and after
        // prime → stop → prime its late `primed` wets the pump while the second request still runs
        XCTAssertEqual(try effectFindings(actomaton)["pump"],
                       ["unknown_cancel_id FlushID", "stale_effect_output primed 4"])
    }

    /// Spellings of ids, cancels and effects that were read wrongly (made-up identifiers): an id given by
    /// `withTaskCancellation(id:cancelInFlight:)` inside `.run` (with its `catch:` handler), Actomaton id
    /// predicates (`$0 is A || $0 is B`, `{ _ in true }`), an effect kept in a local before it is
    /// returned, a table row that stays, and a cancel that dismisses the feature.
    func testIDAndEffectSpellings() throws {
        let tca = """
            import ComposableArchitecture

            @Reducer
            struct Forecast {
                @ObservableState
                struct State: Equatable { var phase: Phase = .idle }
                enum Phase: Equatable { case idle, loading, shown }
                enum Action { case refresh, loaded, close }
                enum CancelID { case fetch }
                var body: some ReducerOf<Self> {
                    Reduce { state, action in
                        switch action {
                        case .refresh:
                            state.phase = .loading
                            return .run { send in
                                try await withTaskCancellation(id: CancelID.fetch, cancelInFlight: true) {
                                    try await Task.sleep(for: .seconds(1))
                                    await send(.loaded)
                                }
                            } catch: { _, _ in }
                        case .loaded:
                            state.phase = .shown
                            return .none
                        case .close:
                            state.phase = .idle
                            return .cancel(id: CancelID.fetch)
                        }
                    }
                }
            }

            @Reducer
            struct Compass {
                @ObservableState
                struct State: Equatable { var tracking = false; var heading = 0 }
                enum Action { case start, stop, moved }
                enum CancelID { case heading }
                var body: some ReducerOf<Self> {
                    Reduce { state, action in
                        switch action {
                        case .start:
                            state.tracking = true
                            let updates: Effect<Action> = .run { send in
                                for await _ in AsyncStream<Int> { _ in } { await send(.moved) }
                            }
                            return updates.cancellable(id: CancelID.heading)
                        case .stop:
                            state.tracking = false
                            return .none
                        case .moved:
                            guard state.tracking else { return .none }
                            state.heading += 1
                            return .none
                        }
                    }
                }
            }

            @Reducer
            struct Upload {
                @ObservableState
                struct State: Equatable { var step: Step = .ready }
                enum Step: Equatable { case ready, sending, sent }
                enum Action { case send, finished, cancel }
                enum CancelID { case upload }
                @Dependency(\\.dismiss) var dismiss
                var body: some ReducerOf<Self> {
                    Reduce { state, action in
                        switch action {
                        case .send:
                            guard state.step == .ready else { return .none }
                            state.step = .sending
                            return .run { send in await send(.finished) }.cancellable(id: CancelID.upload)
                        case .finished:
                            guard state.step == .sending else { return .none }
                            state.step = .sent
                            return .none
                        case .cancel:
                            return .merge(.cancel(id: CancelID.upload), .run { _ in await self.dismiss() })
                        }
                    }
                }
            }
            """
        let found = try effectFindings(tca)
        XCTAssertEqual(found["Forecast.phase"], [])
        // the heading stream left running after `stop` (it is no longer lost in the local)
        XCTAssertEqual(found["Compass.tracking"], ["uncancelled_effect CancelID.heading 2"])
        XCTAssertEqual(found["Upload.step"], [])

        let actomaton = """
            import Actomaton

            enum DeckAction: Sendable { case play, ready, tick, stop, halt }
            enum Deck: Sendable { case stopped, buffering, playing }
            struct LoadID: EffectIDProtocol {}
            struct ClockID: EffectIDProtocol {}

            let deckReducer = Reducer<DeckAction, Deck, Void> { action, state, _ in
                switch (action, state) {
                case (.play, .stopped):
                    state = .buffering
                    return Effect(id: LoadID()) { .ready }
                case (.ready, .buffering):
                    state = .playing
                    return Effect(id: ClockID(), sequence: { AsyncStream<DeckAction> { _ in } })
                case (.tick, .playing):
                    return .empty
                case (.stop, _):
                    state = .stopped
                    return Effect.cancel(ids: { $0 is LoadID || $0 is ClockID })
                case (.halt, _):
                    state = .stopped
                    return Effect.cancel(ids: { _ in true })
                default:
                    return .empty
                }
            }

            let deck = Actomaton<DeckAction, Deck>(state: .stopped, reducer: deckReducer)
            """
        XCTAssertEqual(try effectFindings(actomaton)["deck"], [])

        // Harvest: a row that stays is a transition the machine reports; the timer's ticks are not for nothing
        let harvest = """
            import Harvest

            enum LampInput { case on, off, blink }
            enum Lamp { case dark, blinking }
            enum TimerID { case blink }

            let blinkTimer = Timer.publish(every: 1, on: .main, in: .common).autoconnect().map { _ in LampInput.blink }

            let mappings: [Harvester<LampInput, Lamp>.EffectMapping] = [
                .on | .dark => .blinking | Effect(blinkTimer, id: .blink),
                .blink | .blinking => .blinking | .empty,
                .off | .blinking => .dark | .cancel(.blink),
            ]

            let blinker = Harvester(state: .dark, inputs: inputs, mapping: .reduce(.first, mappings))
            """
        XCTAssertEqual(try effectFindings(harvest)["blinker"], [])

        // a producer that sends two values (`prefix(value:)`, `concat`) delivers both: the machine waiting in
        // `armed` for `fire` is not stuck when `ready` comes too
        let producers = """
            import ReactiveAutomaton
            import ReactiveSwift

            enum RelayInput { case arm, ready, fire }
            enum Relay { case idle, armed, fired }

            let mappings: [Automaton<RelayInput, Relay>.EffectMapping] = [
                .arm | .idle => .armed | SignalProducer<RelayInput, Never>(value: .ready).prefix(value: .fire),
                .fire | .armed => .fired | .empty,
            ]

            let relay = Automaton(state: .idle, input: signal, mapping: reduce(mappings))
            """
        XCTAssertEqual(try effectFindings(producers)["relay"], [])
    }

    func testBoundsOptionsAndThePromelaExport() throws {
        let source = """
            import Actomaton

            enum TapAction: Sendable { case tap, echo }
            enum Tap: Sendable { case idle, heard }

            let tapReducer = Reducer<TapAction, Tap, Void> { action, state, _ in
                switch action {
                case .tap:
                    return Effect { .echo }
                case .echo:
                    state = .heard
                    return .empty
                }
            }

            let tapper = Actomaton<TapAction, Tap>(state: .idle, reducer: tapReducer)
            """
        let file = temp.appendingPathComponent("Tap.swift")
        try source.write(to: file, atomically: true, encoding: .utf8)
        // every tap starts another effect: the instance bound is reached, and said
        let r = try run(["analyze", file.path])
        XCTAssertTrue(r.stdout.contains("more than 2 instances of the effect started at line 8"), r.stdout)
        XCTAssertTrue(try run(["analyze", file.path, "--max-effect-instances", "4"]).stdout.contains("more than 4 instances"))
        let budget = try run(["analyze", file.path, "--effect-budget", "2"])
        XCTAssertTrue(budget.stdout.contains("stopped at its budget of 2 configurations"), budget.stdout)
        XCTAssertEqual(try run(["analyze", file.path, "--max-effect-instances", "0"]).status, 2)

        let promela = try run(["render", file.path, "--format", "promela"])
        XCTAssertEqual(promela.status, 0, promela.stderr)
        XCTAssertTrue(promela.stdout.contains("active proctype machine()"))
        XCTAssertTrue(promela.stdout.contains("#define MAX 2"))
        XCTAssertTrue(try run(["render", file.path, "--format", "promela", "--max-effect-instances", "3"]).stdout.contains("#define MAX 3"))
    }

    /// A kiosk whose scan can be started only once armed: the screen machine alone has to assume the
    /// guard on `isArmed`, so its race is not reported from it; the product of the struct's fields
    /// evaluates the guard, finds the race when `arm` exists, and nothing when nothing arms the kiosk.
    static func kiosk(armable: Bool) -> String {
        """
        import ComposableArchitecture

        @Reducer
        struct Kiosk {
            @ObservableState
            struct State: Equatable {
                var screen: Screen = .welcome
                var isArmed = false
                enum Screen: Equatable { case welcome, scanning, paid }
            }
            enum Action { case arm, scanTapped, scanned, leave }

            var body: some ReducerOf<Self> {
                Reduce { state, action in
                    switch action {
                    case .arm:
                        \(armable ? "state.isArmed = true" : "")
                        return .none
                    case .scanTapped:
                        guard state.isArmed else { return .none }
                        state.screen = .scanning
                        return .run { send in await send(.scanned) }
                    case .scanned:
                        state.screen = .paid
                        return .none
                    case .leave:
                        state.screen = .welcome
                        return .none
                    }
                }
            }
        }
        """
    }

    func testAGuardOnAnotherFieldIsEvaluatedInTheProduct() throws {
        let armable = try effectFindings(Self.kiosk(armable: true))
        XCTAssertEqual(armable["Kiosk.screen"], ["stale_effect_output scanned 4"], "arm → scanTapped → leave → scanned")
        let file = temp.appendingPathComponent("Case.swift")
        let r = try run(["analyze", file.path])
        let doc = try XCTUnwrap(JSONSerialization.jsonObject(with: r.data) as? [String: Any])
        let screen = try XCTUnwrap((doc["machines"] as? [[String: Any]])?.first { $0["name"] as? String == "Kiosk.screen" })
        let trace = try XCTUnwrap((screen["findings"] as? [[String: Any]])?.first?["trace"] as? [[String: Any]])
        XCTAssertEqual(trace.map { $0["state"] as? String ?? "?" }, ["welcome", "scanning", "welcome", "paid"], "the screen's values along the way")
        XCTAssertEqual(trace.map { $0["by"] as? String ?? "?" }, ["user", "user", "user", "effect"])

        let never = try effectFindings(Self.kiosk(armable: false))
        XCTAssertEqual(never["Kiosk.screen"], [], "never armed: the scan never starts")
    }

    /// The README tour's fix of the voice-memo race: cancel the recording on pause, start it again on
    /// resume. Nothing is reported then: `stop` hands the running recording over to `finishing`,
    /// which only its `finished` can leave.
    func testTheFixOfTheExampleRaceLeavesNoEffectFinding() throws {
        let example = CLIEndToEndTests.root.appendingPathComponent("examples/tca/VoiceMemos.swift")
        var code = try String(contentsOf: example, encoding: .utf8)
        let edits = [
            ("state.phase = .recording(startedAt: Date())\n                    return startTimer()",
             "state.phase = .recording(startedAt: Date())\n                    return .merge(startTimer(), startRecording())"),
            ("return .cancel(id: CancelID.timer)\n\n            case .view(.stopButtonTapped):",
             "return .merge(.cancel(id: CancelID.timer), .cancel(id: CancelID.recording))\n\n            case .view(.stopButtonTapped):"),
            ("    private func startTimer() -> Effect<Action> {",
             "    private func startRecording() -> Effect<Action> {\n        .run { send in\n            await send(.finished(Result { try await audioRecorder.record() }.mapError { _ in .io }))\n        }\n        .cancellable(id: CancelID.recording)\n    }\n\n    private func startTimer() -> Effect<Action> {"),
        ]
        let before = try effectFindings(code)
        XCTAssertEqual(before["RecordingFeature.phase"], ["stale_effect_output finished 4"])
        for (old, new) in edits {
            XCTAssertTrue(code.contains(old), old)
            code = code.replacingOccurrences(of: old, with: new)
        }
        let after = try effectFindings(code)
        for name in ["RecordingFeature.phase", "RecordingFeature.isMuted", "RecordingFeature.alert"] {
            XCTAssertEqual(after[name], [], name)
        }
    }

    /// A request started on a branch chosen by another field (`permission`) and not touching the alert:
    /// for the alert it is started whatever the alert is, so the alert its answer presents after an
    /// unrelated alert came and went is no race. The permission field still sees it as its own.
    func testARequestStartedWhateverTheFieldIsIsNotStaleForIt() throws {
        let source = """
            import ComposableArchitecture

            @Reducer
            struct Jukebox {
                @ObservableState
                struct State: Equatable {
                    var access: Access = .unknown
                    @Presents var alert: AlertState<Action.Alert>?
                    enum Access: Equatable { case unknown, refused, granted }
                }
                enum Action {
                    case playTapped, accessResponse(Bool), trackFailed, alertClosed
                    case alert(PresentationAction<Alert>)
                    enum Alert: Equatable { case ok }
                }
                @Dependency(\\.speaker) var speaker

                var body: some ReducerOf<Self> {
                    Reduce { state, action in
                        switch action {
                        case .playTapped:
                            switch state.access {
                            case .unknown:
                                return .run { send in await send(.accessResponse(await speaker.ask())) }
                            case .refused, .granted:
                                return .none
                            }
                        case let .accessResponse(ok):
                            state.access = ok ? .granted : .refused
                            if !ok { state.alert = AlertState { TextState("No speaker") } }
                            return .none
                        case .trackFailed:
                            state.alert = AlertState { TextState("Track failed") }
                            return .none
                        case .alertClosed:
                            state.alert = nil
                            return .none
                        case .alert:
                            return .none
                        }
                    }
                    .ifLet(\\.$alert, action: \\.alert)
                }
            }
            """
        let found = try effectFindings(source)
        XCTAssertEqual(found["Jukebox.alert"], [], "\(found)")
    }

    /// A stream ends with what it sends from its `catch:` closure, or after its `for await` loop: a
    /// failed upload sends nothing more, so the next upload has no late answer to fear from it.
    func testAStreamsLastOutputEndsIt() throws {
        let source = """
            import ComposableArchitecture

            @Reducer
            struct Uploader {
                @ObservableState
                struct State: Equatable { var phase: Phase = .idle }
                enum Phase: Equatable { case idle, sending, sent }
                enum Action { case sendTapped, cancelTapped, upload(Result<Step, any Error>) }
                enum Step { case part, done }
                enum CancelID { case upload }
                @Dependency(\\.courier) var courier

                var body: some ReducerOf<Self> {
                    Reduce { state, action in
                        switch action {
                        case .sendTapped:
                            guard state.phase == .idle else { return .none }
                            state.phase = .sending
                            return .run { send in
                                for try await step in courier.ship() {
                                    await send(.upload(.success(step)))
                                }
                            } catch: { error, send in
                                await send(.upload(.failure(error)))
                            }
                            .cancellable(id: CancelID.upload)
                        case .cancelTapped:
                            state.phase = .idle
                            return .cancel(id: CancelID.upload)
                        case .upload(.success(.part)):
                            return .none
                        case .upload(.success(.done)):
                            state.phase = .sent
                            return .none
                        case .upload(.failure):
                            state.phase = .idle
                            return .none
                        }
                    }
                }
            }

            @Reducer
            struct Metronome {
                @ObservableState
                struct State: Equatable { var phase: Beat = .still; var beats = 0 }
                enum Beat: Equatable { case still, ticking, over }
                enum Action { case go, tick, ended, rewind }
                @Dependency(\\.pulse) var pulse

                var body: some ReducerOf<Self> {
                    Reduce { state, action in
                        switch action {
                        case .go:
                            guard state.phase == .still else { return .none }
                            state.phase = .ticking
                            return .run { send in
                                for await _ in pulse.beats() {
                                    await send(.tick)
                                }
                                await send(.ended)
                            }
                        case .tick:
                            state.beats += 1
                            return .none
                        case .ended:
                            state.phase = .over
                            return .none
                        case .rewind:
                            guard state.phase == .over else { return .none }
                            state.phase = .still
                            return .none
                        }
                    }
                }
            }
            """
        let found = try effectFindings(source)
        XCTAssertEqual(found["Uploader.phase"], [], "\(found)")
        XCTAssertEqual(found["Metronome.phase"], [], "\(found)")
        // a failure sent from the loop as well does not end it: its `done` can follow a new start
        let hiccup = source.replacingOccurrences(of: "await send(.upload(.success(step)))",
                                                 with: "await send(.upload(.success(step)))\n                    await send(.upload(.failure(Hiccup())))")
        XCTAssertNotEqual(hiccup, source)
        XCTAssertEqual(try effectFindings(hiccup)["Uploader.phase"], ["stale_effect_output upload 4"])
        // sent inside the loop, `ended` could come again after a rewind and a new start: a race
        let looping = source.replacingOccurrences(of: "        await send(.tick)\n                    }\n                    await send(.ended)",
                                                  with: "        await send(.tick)\n                        await send(.ended)\n                    }")
        XCTAssertNotEqual(looping, source)
        XCTAssertEqual(try effectFindings(looping)["Metronome.phase"], ["stale_effect_output ended 4"])
    }

    /// Ids given where the effect is not: an Actomaton send registered under an id
    /// (`send(_:id:)`), and a child feature's cancellable effect (TCA cancels across the store).
    func testACancelOfAnIDGivenElsewhereIsKnown() throws {
        let source = """
            import Actomaton

            enum LampAction: Sendable { case glow, dim, off }
            enum Lamp: Sendable { case dark, lit }
            struct GlowID: EffectIDProtocol {}
            struct GhostID: EffectIDProtocol {}

            let lampReducer = Reducer<LampAction, Lamp, Void> { action, state, _ in
                switch action {
                case .glow:
                    state = .lit
                    return .empty
                case .dim:
                    state = .dark
                    return Effect.cancel(id: GlowID())
                case .off:
                    state = .dark
                    return Effect.cancel(id: GhostID())
                }
            }

            let lamp = Actomaton<LampAction, Lamp>(state: .dark, reducer: lampReducer)

            func switchOn() async {
                await lamp.send(.glow, id: GlowID())
            }
            """
        XCTAssertEqual(try effectFindings(source)["lamp"], ["unknown_cancel_id GhostID"])

        let tca = """
            import ComposableArchitecture

            @Reducer
            struct Drawer {
                struct State: Equatable {}
                enum Action { case fill, filled }
                enum CancelID { case filling }
                var body: some ReducerOf<Self> {
                    Reduce { state, action in
                        switch action {
                        case .fill:
                            return .run { send in await send(.filled) }.cancellable(id: CancelID.filling)
                        case .filled:
                            return .none
                        }
                    }
                }
            }

            @Reducer
            struct Cabinet {
                @ObservableState
                struct State: Equatable { var isOpen = false }
                enum Action { case open, close }
                var body: some ReducerOf<Self> {
                    Reduce { state, action in
                        switch action {
                        case .open:
                            state.isOpen = true
                            return .none
                        case .close:
                            state.isOpen = false
                            return .merge(.cancel(id: Drawer.CancelID.filling), .cancel(id: Drawer.CancelID.emptying))
                        }
                    }
                }
            }
            """
        XCTAssertEqual(try effectFindings(tca)["Cabinet.isOpen"], ["unknown_cancel_id Drawer.CancelID.emptying"])
    }
}
