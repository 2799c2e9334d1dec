@testable import MachineAnalysis
import MachineModel
import XCTest

/// Effect-aware exploration on machines written out by hand (made-up names): each framework's
/// cancellation semantics, the bounds, and the shortest witness traces.
final class EffectExplorerTests: XCTestCase {
    var rules: [Rule] = []

    func rule(_ from: [String], _ input: String, _ target: Target, start effect: Effect? = nil, cancels: [String] = [],
              writes: Bool = false, guard guardText: String? = nil) {
        let id = rules.count + 1
        rules.append(Rule(id: id, location: SourceLocation(file: "T.swift", line: 10 + id, column: 5),
                          outcomes: [Outcome(pairs: from.map { Pair(from: $0, input: input) }, target: target, effect: effect,
                                             cancels: cancels, guardText: guardText, writes: writes)]))
    }

    func machine(_ states: [String], _ inputs: [String], initial: String = "", bounds: EffectBounds = EffectBounds(),
                 overrides: [String: Analyzer.InputOverride] = [:]) -> (Machine, [Diagnostic]) {
        let m = Machine(name: "t", dialect: .actomaton, location: SourceLocation(file: "T.swift", line: 1, column: 1),
                        states: states, inputs: inputs, initial: initial.isEmpty ? states[0] : initial, rules: rules, order: .resolved)
        return Analyzer(bounds: bounds, inputOverrides: overrides).analyzeReporting(m)
    }

    func findings(_ m: Machine, _ check: Check) -> [Finding] { m.findings.filter { $0.check == check.rawValue } }

    func describe(_ trace: [TraceStep]?) -> String { trace.map(CheckDescription.describe) ?? "nil" }

    /// The session race: a login request outlives a forced logout.
    func session(cancelOnLogout: Bool) -> Machine {
        rule(["out"], "login", .state("in?"), start: Effect(label: "login", emits: ["ok"], id: "LoginID"))
        rule(["in?"], "ok", .state("in"))
        rule(["in?", "in"], "force", .state("out?"), start: Effect(label: "logout", emits: ["bye"]),
             cancels: cancelOnLogout ? ["LoginID"] : [])
        rule(["out?"], "bye", .state("out"))
        return machine(["out", "in?", "in", "out?"], ["login", "ok", "force", "bye"]).0
    }

    func testStaleOutputHasTheShortestRaceAsItsTrace() {
        let m = session(cancelOnLogout: false)
        XCTAssertEqual(m.internalInputs, ["ok", "bye"])
        let stale = findings(m, .staleEffectOutput)
        XCTAssertEqual(stale.map(\.subject), ["ok"])
        XCTAssertEqual(describe(stale.first?.trace), "login → force → bye (effect) → login → ok (effect)")
        XCTAssertEqual(stale.first?.trace?.map(\.state), ["in?", "out?", "out", "in?", "in"])
        XCTAssertEqual(stale.first?.location.line, 11, "at the rule that starts the effect")
        XCTAssertTrue(stale.first?.message.contains("late 'ok'") ?? false, stale.first?.message ?? "")
    }

    func testCancellingOnLeaveRemovesTheRace() {
        XCTAssertEqual(findings(session(cancelOnLogout: true), .staleEffectOutput).count, 0)
    }

    func testLatestQueueReplacesTheEffectInFlight() {
        // `search` restarts a request from its own state; a `.latest` queue (Harvest) keeps one
        rule(["idle", "busy"], "search", .state("busy"), start: Effect(label: "fetch", emits: ["done"], queue: "request", policy: "latest"),
             cancels: ["request"])
        rule(["busy"], "done", .state("idle"))
        let (m, diagnostics) = machine(["idle", "busy"], ["search", "done"])
        XCTAssertEqual(diagnostics, [])
        // two searches in a row: the first request is gone, so no late `done`
        XCTAssertEqual(findings(m, .staleEffectOutput).count, 0)
        let explorer = EffectExplorer(machine: m)
        // (idle, none), (busy, fresh), and nothing else: the queue never holds two
        XCTAssertEqual(explorer.explore().configurations, 2)
    }

    func testMergedRestartsRaceAndHitTheInstanceBound() {
        rule(["idle", "busy"], "search", .state("busy"), start: Effect(label: "fetch", emits: ["done"]))
        rule(["busy"], "done", .state("idle"))
        let (m, diagnostics) = machine(["idle", "busy"], ["search", "done"])
        // two requests in flight: the first answer ends the wait, a new search starts, and the older
        // request's answer ends the new search's wait
        let stale = findings(m, .staleEffectOutput)
        XCTAssertEqual(stale.map(\.subject), ["done"])
        XCTAssertEqual(describe(stale.first?.trace), "search → search → done (effect) → search → done (effect)")
        XCTAssertEqual(diagnostics.count, 1)
        XCTAssertTrue(diagnostics[0].message.contains("more than 2 instances"), diagnostics[0].message)
        XCTAssertEqual(diagnostics[0].location?.line, 11)
        // a larger bound is honoured
        let wider = EffectExplorer(machine: m, bounds: EffectBounds(maxInstances: 3)).explore()
        XCTAssertNotNil(wider.boundHit)
        XCTAssertGreaterThan(wider.configurations, EffectExplorer(machine: m).explore().configurations)
    }

    func testBudgetStopsWithADiagnostic() {
        rule(["a"], "go", .state("b"), start: Effect(label: "x", emits: ["back"]))
        rule(["b"], "go", .state("c"))
        rule(["c"], "back", .state("a"))
        let (_, diagnostics) = machine(["a", "b", "c"], ["go", "back"], bounds: EffectBounds(budget: 2))
        XCTAssertTrue(diagnostics.contains { $0.message.contains("budget of 2 configurations") }, "\(diagnostics)")
    }

    func testStreamLeftRunningWhereItsOutputsDoNothing() {
        rule(["off"], "start", .state("on"), start: Effect(label: "timer", emits: ["tick"], id: "CancelID.timer", kind: .stream))
        rule(["on"], "stop", .state("off"))
        rule(["on"], "tick", .stay, writes: true)
        rule(["off"], "tick", .stay)
        let m = machine(["off", "on"], ["start", "stop", "tick"]).0
        let found = findings(m, .uncancelledEffect)
        XCTAssertEqual(found.map(\.subject), ["CancelID.timer"])
        XCTAssertEqual(describe(found.first?.trace), "start → stop")
    }

    func testAStreamIgnoredForAWhileIsPausedNotLeaked() {
        // a metronome whose beats are ignored while a prompt is up: dismissing it makes them count again
        rule(["none"], "appear", .stay, start: Effect(label: "beats", emits: ["beat"], kind: .stream))
        rule(["none"], "beat", .stay, writes: true)
        rule(["none"], "quit", .state("prompt"))
        rule(["prompt"], "beat", .stay)
        rule(["prompt"], "dismiss", .state("none"))
        let paused = machine(["none", "prompt"], ["appear", "beat", "quit", "dismiss"]).0
        XCTAssertEqual(findings(paused, .uncancelledEffect).count, 0)
        // with no way back but a new start, the ignored stream is a leak
        rules = []
        rule(["none", "prompt"], "appear", .state("none"), start: Effect(label: "beats", emits: ["beat"], kind: .stream))
        rule(["none"], "beat", .stay, writes: true)
        rule(["none"], "quit", .state("prompt"))
        rule(["prompt"], "beat", .stay)
        let leaked = machine(["none", "prompt"], ["appear", "beat", "quit"]).0
        XCTAssertEqual(describe(findings(leaked, .uncancelledEffect).first?.trace), "appear → quit")
    }

    func testCancelledStreamAndOnceEffectsAreNotReported() {
        rule(["off"], "start", .state("on"), start: Effect(label: "timer", emits: ["tick"], id: "CancelID.timer", kind: .stream))
        rule(["on"], "stop", .state("off"), cancels: ["timer"])  // by suffix
        rule(["on"], "tick", .stay, writes: true)
        rule(["off"], "ping", .state("off"), start: Effect(label: "once", emits: ["tick"]))
        let m = machine(["off", "on"], ["start", "stop", "tick", "ping"]).0
        XCTAssertEqual(findings(m, .uncancelledEffect).count, 0)
        XCTAssertEqual(findings(m, .unknownCancelID).count, 0)
    }

    func testWaitingForeverAfterAnInPlaceCancel() {
        rule(["idle"], "refresh", .state("loading"), start: Effect(label: "load", emits: ["loaded"], id: "CancelID.load"))
        rule(["loading"], "loaded", .state("idle"))
        rule(["idle", "loading"], "disappear", .stay, cancels: ["CancelID.load"])
        let m = machine(["idle", "loading"], ["refresh", "loaded", "disappear"]).0
        let waiting = findings(m, .waitingForever)
        XCTAssertEqual(waiting.map(\.subject), ["loading"])
        XCTAssertEqual(describe(waiting.first?.trace), "refresh → disappear")

        // declared external (the user can also send it): no longer a wait on effects
        let external = machine(["idle", "loading"], ["refresh", "loaded", "disappear"],
                               overrides: ["t": Analyzer.InputOverride(external: ["loaded"])]).0
        XCTAssertEqual(external.internalInputs, [])
        XCTAssertEqual(findings(external, .waitingForever).count, 0)
    }

    func testNewestQueueKeepsTheNewestN() {
        // Actomaton runNewest(2): a third start cancels the oldest; never a bound hit
        rule(["a"], "go", .stay, start: Effect(label: "poll", emits: ["got"], queue: "Poll", policy: "runNewest(2)"), cancels: ["Poll"])
        rule(["a"], "got", .state("b"))
        rule(["b"], "reset", .state("a"))
        let (m, diagnostics) = machine(["a", "b"], ["go", "got", "reset"])
        XCTAssertEqual(diagnostics, [])
        let result = EffectExplorer(machine: m).explore()
        XCTAssertTrue(result.complete)
        XCTAssertNil(result.boundHit)
    }

    func testOldestQueueDiscardsOrSuspendsNewEffects() {
        rule(["a"], "go", .stay, start: Effect(label: "job", emits: ["done"], queue: "Jobs", policy: "runOldest(1, discardNew)"))
        rule(["a"], "done", .state("b"))
        rule(["b"], "back", .state("a"))
        let discard = machine(["a", "b"], ["go", "done", "back"])
        XCTAssertEqual(discard.1, [], "a discarded start is no bound hit")
        let discardCount = EffectExplorer(machine: discard.0).explore().configurations

        rules = []
        rule(["a"], "go", .stay, start: Effect(label: "job", emits: ["done"], queue: "Jobs", policy: "runOldest(1, suspendNew)"))
        rule(["a"], "done", .state("b"))
        rule(["b"], "back", .state("a"))
        let suspend = machine(["a", "b"], ["go", "done", "back"])
        let suspendResult = EffectExplorer(machine: suspend.0).explore()
        XCTAssertGreaterThan(suspendResult.configurations, discardCount, "a waiting job is a configuration of its own")
        XCTAssertNotNil(suspendResult.boundHit, "the third go would put a third job in the queue")
    }

    func testUnknownCancelIDIsStaticAndMatchesBySuffix() {
        rule(["a"], "go", .state("b"), start: Effect(label: "x", emits: ["done"], id: "CancelID.timer"))
        rule(["b"], "done", .state("a"))
        rule(["b"], "stop", .state("a"), cancels: ["timer", "CancelID.clock", "item.id (runtime value)"])
        let m = machine(["a", "b"], ["go", "done", "stop"]).0
        XCTAssertEqual(findings(m, .unknownCancelID).map(\.subject), ["CancelID.clock"])
        XCTAssertEqual(findings(m, .unknownCancelID).first?.location.line, 13)
    }

    func testNoInitialStateNoEffectChecks() {
        rule(["a"], "go", .state("b"), cancels: ["Nothing"])
        let m = Analyzer().analyze(Machine(name: "t", dialect: .actomaton, location: SourceLocation(file: "T.swift", line: 1, column: 1),
                                           states: ["a", "b"], inputs: ["go"], initial: nil, rules: rules, order: .resolved))
        XCTAssertEqual(findings(m, .unknownCancelID).count, 0)
    }

    func testSyntheticMachineFinishesWithinItsBudgetAndIsDeterministic() {
        let (m, diagnostics) = Analyzer().analyzeReporting(SyntheticMachines.withEffects(states: 50, effects: 20, seed: 7))
        XCTAssertFalse(diagnostics.contains { $0.message.contains("budget") }, "\(diagnostics)")
        XCTAssertEqual(m, Analyzer().analyze(SyntheticMachines.withEffects(states: 50, effects: 20, seed: 7)))
        XCTAssertFalse(findings(m, .staleEffectOutput).isEmpty, "the generator leaks effects on purpose")
        XCTAssertFalse(findings(m, .waitingForever).isEmpty, "and cancels some in place")
    }

    /// A state entered to wait for an effect already running (every way out of it is that effect's
    /// output) takes the effect over: its output there is expected. Leaving for a state the user can
    /// leave, and coming back, is still a race.
    func handoff(cancelOnPause: Bool) -> Machine {
        rules = []
        rule(["idle"], "start", .state("taping"), start: Effect(label: "tape", emits: ["ended"], id: "TapeID"))
        rule(["taping"], "halt", .state("closing"))
        rule(["taping"], "hold", .state("held"), cancels: cancelOnPause ? ["TapeID"] : [])
        rule(["held"], "go", .state("taping"), start: cancelOnPause ? Effect(label: "tape", emits: ["ended"], id: "TapeID") : nil)
        rule(["held"], "halt", .state("closing"))
        rule(["taping", "closing", "held"], "ended", .state("idle"))
        return machine(["idle", "taping", "held", "closing"], ["start", "halt", "hold", "go", "ended"]).0
    }

    func testAStateWaitingForTheEffectTakesItOver() {
        let leaky = handoff(cancelOnPause: false)
        let stale = findings(leaky, .staleEffectOutput)
        XCTAssertEqual(stale.map(\.subject), ["ended"])
        XCTAssertEqual(describe(stale.first?.trace), "start → hold → ended (effect)", "from 'held', not from 'closing'")
        XCTAssertEqual(EffectModel(machine: leaky).adopted.map { $0.count }, [0, 0, 0, 1], "only 'closing' waits for the tape")
        let fixed = findings(handoff(cancelOnPause: true), .staleEffectOutput)
        XCTAssertEqual(fixed.count, 0, "taping → closing → ended is expected: \(fixed.map { describe($0.trace) })")
    }

    func testAConfigurationFirstReachedOnAnAssumptionStillGivesItsSureWitness() {
        // `drop` needs a flag of another field (assumed); the same configuration is reachable for sure
        // through `side` and `back`, one step longer
        rule(["idle"], "start", .state("busy"), start: Effect(label: "job", emits: ["fin"]))
        rule(["busy"], "drop", .state("idle"), guard: "state.isFlagged")
        rule(["busy"], "side", .state("aside"))
        rule(["aside"], "back", .state("idle"))
        rule(["busy"], "fin", .state("shown"))
        let (m, diagnostics) = machine(["idle", "busy", "aside", "shown"], ["start", "drop", "side", "back", "fin"])
        let stale = findings(m, .staleEffectOutput)
        XCTAssertEqual(describe(stale.first?.trace), "start → side → back → start → fin (effect)")
        XCTAssertTrue(diagnostics.allSatisfy { !$0.message.contains("drop") }, "\(diagnostics)")
    }

    func testTheInstanceBoundIsNotedOnlyOnAPathThatAssumesNothing() {
        // restarting needs a flag of another field: whether a third request can be in flight depends on it
        rule(["idle", "busy"], "search", .state("busy"), start: Effect(label: "fetch", emits: ["done"]), guard: "!state.isSearching")
        rule(["busy"], "done", .state("idle"))
        XCTAssertEqual(machine(["idle", "busy"], ["search", "done"]).1, [])
    }

    func testACancelOfAnIDGivenToOnePartOfAMergeIsKnown() {
        let parts = [Effect(label: "clock", emits: ["beat"], id: "Marks.clock", kind: .stream), Effect(label: "tape", emits: ["ended"], id: "Marks.tape")]
        rule(["off"], "start", .state("on"), start: Effect(label: "clock + tape", emits: ["beat", "ended"], id: "Marks.clock", kind: .stream, parts: parts))
        rule(["on"], "stop", .state("off"), cancels: ["Marks.clock", "Marks.tape"])
        rule(["on", "off"], "beat", .stay)
        rule(["on"], "ended", .state("off"))
        let m = machine(["off", "on"], ["start", "stop", "beat", "ended"]).0
        XCTAssertEqual(findings(m, .unknownCancelID).map(\.subject), [])
    }

    func testAnIDComputedAtRunTimeIsNamedByWhatItIsBuiltFrom() {
        rule(["off"], "start", .state("on"), start: Effect(label: "run", emits: ["pulse"], id: "BeatID(item: state.itemID) (runtime value)", kind: .stream))
        rule(["on"], "pulse", .stay)
        rule(["off"], "go", .state("off2"), start: Effect(label: "run", emits: ["pulse"], id: "row.id (runtime value)", kind: .stream))
        rule(["off2"], "pulse", .stay)
        let m = machine(["off", "on", "off2"], ["start", "pulse", "go"]).0
        XCTAssertEqual(findings(m, .uncancelledEffect).map(\.subject).sorted(), ["BeatID", "row.id"])
    }

    func testARequestWhoseOutputsChangeNothingHereIsNotTracked() {
        // `store` is handled by another field only: for this machine its request can pile up freely
        rule(["idle", "busy"], "store", .stay, start: Effect(label: "persist", emits: ["stored"]))
        rule(["idle", "busy"], "stored", .stay)
        rule(["idle"], "load", .state("busy"), start: Effect(label: "fetch", emits: ["loaded"], id: "FetchID"))
        rule(["busy"], "loaded", .state("idle"))
        let (m, diagnostics) = machine(["idle", "busy"], ["store", "stored", "load", "loaded"])
        XCTAssertEqual(diagnostics, [], "no instance-bound note about `persist`")
        XCTAssertEqual(EffectModel(machine: m).definitions.map(\.label), ["fetch"])
        // a stream that does nothing is still tracked: running for nothing is a finding
        rules = []
        rule(["idle"], "watch", .stay, start: Effect(label: "ticker", emits: ["tick"], kind: .stream))
        rule(["idle"], "tick", .stay)
        XCTAssertEqual(EffectModel(machine: machine(["idle"], ["watch", "tick"]).0).definitions.map(\.label), ["ticker"])
    }

    func testAMachineOfMoreThan255StatesIsExplored() {
        // a long chain: the request started at the start is answered at the far end, after a reset
        let states = (0..<300).map { "s\($0)" }
        rule(["s0"], "begin", .state("s1"), start: Effect(label: "fetch", emits: ["answer"]))
        for k in 1..<299 { rule([states[k]], "step", .state(states[k + 1])) }
        rule(["s299"], "reset", .state("s0"))
        rule(["s1"], "answer", .state("s299"))
        let m = machine(states, ["begin", "step", "reset", "answer"]).0
        let stale = findings(m, .staleEffectOutput)
        XCTAssertEqual(stale.map(\.subject), ["answer"])
        XCTAssertEqual(stale.first?.trace?.last?.state, "s299")
        XCTAssertEqual(EffectExplorer(machine: m).explore().configurations, EffectExplorer(machine: m).explore().configurations)
    }

    func testTheSameNoteOfFieldMachinesOfOneStructIsSaidOnce() {
        let here = SourceLocation(file: "T.swift", line: 12, column: 5)
        let note = "more than 2 instances of the effect started at line 12 (`run`) can be in flight (after go → go → go)"
        let merged = Analyzer.mergingRepeats([
            Diagnostic(severity: .note, message: "Pad.isOn: " + note, location: here),
            Diagnostic(severity: .warning, message: "something else", location: nil),
            Diagnostic(severity: .note, message: "Pad.mode: " + note, location: here),
            Diagnostic(severity: .note, message: "Pad.mode: " + note.replacingOccurrences(of: "line 12", with: "line 13"), location: here),
        ], machines: ["Pad.isOn", "Pad.mode"])
        XCTAssertEqual(merged.map(\.message), ["Pad.isOn, Pad.mode: " + note, "something else",
                                                "Pad.mode: " + note.replacingOccurrences(of: "line 12", with: "line 13")])
    }

    func testAnEffectStartedInEveryStateWithoutLeavingItIsNeverStale() {
        // `ping` neither reads nor changes the state: its answer is not for a state, whenever it comes
        rule(["hidden", "shown"], "ping", .stay, start: Effect(label: "probe", emits: ["pong"]))
        rule(["hidden"], "pong", .state("shown"))
        rule(["shown"], "hide", .state("hidden"))
        let (m, _) = machine(["hidden", "shown"], ["ping", "pong", "hide"])
        XCTAssertEqual(findings(m, .staleEffectOutput).count, 0)
        XCTAssertEqual(EffectModel(machine: m).unbound, [0])
        // started only where it is shown: it is for that state, and hiding makes its answer late
        rules = []
        rule(["shown"], "ping", .stay, start: Effect(label: "probe", emits: ["pong"]))
        rule(["hidden", "shown"], "pong", .state("shown"), writes: true)
        rule(["hidden"], "reveal", .state("shown"))
        rule(["shown"], "hide", .state("hidden"))
        let bound = machine(["hidden", "shown"], ["ping", "pong", "reveal", "hide"]).0
        XCTAssertEqual(describe(findings(bound, .staleEffectOutput).first?.trace), "reveal → ping → hide → pong (effect)")
    }

    func testAStreamThatMovesTheMachineItselfStaysFresh() {
        // a socket: its own `opened` moves the machine on, and its later `closed` is expected there
        // (dialling again replaces the socket in flight: cancelInFlight)
        rule(["off"], "dial", .state("dialling"), start: Effect(label: "socket", emits: ["opened", "closed"], id: "SocketID", kind: .stream),
             cancels: ["SocketID"])
        rule(["dialling"], "opened", .state("online"))
        rule(["dialling", "online"], "closed", .state("off"))
        rule(["dialling", "online"], "hangUp", .state("off"), cancels: ["SocketID"])
        let (m, _) = machine(["off", "dialling", "online"], ["dial", "opened", "closed", "hangUp"])
        XCTAssertEqual(findings(m, .staleEffectOutput).count, 0)
        // without the cancel, hanging up leaves it running: its `closed` after a new dial is a race
        rules = []
        rule(["off"], "dial", .state("dialling"), start: Effect(label: "socket", emits: ["opened", "closed"], id: "SocketID", kind: .stream))
        rule(["dialling"], "opened", .state("online"))
        rule(["dialling", "online"], "closed", .state("off"))
        rule(["dialling", "online"], "hangUp", .state("off"))
        let leaky = machine(["off", "dialling", "online"], ["dial", "opened", "closed", "hangUp"]).0
        XCTAssertEqual(describe(findings(leaky, .staleEffectOutput).first?.trace), "dial → hangUp → dial → closed (effect)")
    }

    /// A feed that streams `chunk`s and, when it fails, sends `failed` from its `catch:` and is over.
    func feedMachine(failedIsLast: Bool) -> Machine {
        let chunk = InputPattern.member("feed", [.init(.member("chunk", [.init(.any)]))])
        let failed = InputPattern.member("feed", [.init(.member("failed"))])
        let feed = Effect(label: "feed", emits: ["feed"], id: "FeedID", kind: .stream,
                          outputs: [.init(value: chunk, last: false), .init(value: failed, last: failedIsLast)])
        rules.append(Rule(id: 1, location: SourceLocation(file: "T.swift", line: 11, column: 5),
                          outcomes: [Outcome(pairs: [Pair(from: "idle", input: "open")], target: .state("opening"), effect: feed)]))
        rules.append(Rule(id: 2, location: SourceLocation(file: "T.swift", line: 12, column: 5),
                          outcomes: [Outcome(pairs: [Pair(from: "opening", input: "feed")], target: .state("open"),
                                             pattern: .member("feed", [.init(.member("chunk"))]))]))
        rules.append(Rule(id: 3, location: SourceLocation(file: "T.swift", line: 13, column: 5),
                          outcomes: [Outcome(pairs: [Pair(from: "opening", input: "feed"), Pair(from: "open", input: "feed")],
                                             target: .state("idle"), pattern: .member("feed", [.init(.member("failed"))]))]))
        // closing cancels the feed (so `opening` is no state that only waits for it)
        rules.append(Rule(id: 4, location: SourceLocation(file: "T.swift", line: 14, column: 5),
                          outcomes: [Outcome(pairs: [Pair(from: "opening", input: "close"), Pair(from: "open", input: "close")],
                                             target: .state("idle"), cancels: ["FeedID"])]))
        return machine(["idle", "opening", "open"], ["open", "feed", "close"]).0
    }

    func testAStreamsLastOutputEndsIt() {
        // what a stream sends from its `catch:` is its last word: no later chunk from it
        let ended = feedMachine(failedIsLast: true)
        XCTAssertEqual(findings(ended, .staleEffectOutput).count, 0)
        XCTAssertEqual(EffectModel(machine: ended).definitions.first?.endingTriggers, ["feed(.failed)"])
        // a stream that could go on after `failed` races the one the next `open` starts
        rules = []
        let running = feedMachine(failedIsLast: false)
        XCTAssertEqual(describe(findings(running, .staleEffectOutput).first?.trace), "open → feed(.failed) (effect) → open → feed(.chunk) (effect)")
        // a value sent both in the loop and last does not end the stream
        XCTAssertFalse(Effect(kind: .stream, outputs: [.init(value: .member("done"), last: true), .init(value: .member("done"), last: false)])
            .endsDelivering(.member("done")))
    }

    /// A guard reads other state when it names `state.` or `self.` at the start of a word.
    func testAGuardReadsOtherStateOnlyThroughStateOrSelf() {
        for text in ["state.phase == .on", "self.isOn", "ready && state.count > 0", "(state.x)", "!self.done", "a.b || state.c"] {
            XCTAssertTrue(EffectModel.readsOtherState(text), text)
        }
        for text in ["phase == .on", "mystate.x", "_state.x", "states.x", "selfish.x", "state", "self", "x.state.y" ] {
            XCTAssertEqual(EffectModel.readsOtherState(text), text == "x.state.y", text)
        }
        XCTAssertFalse(EffectModel.readsOtherState(nil))
    }
}
