import MachineModel

/// Generated machines with effects, for the SPIN cross-check tests and the benchmark: reproducible from
/// a seed, shaped like app features (a request started on entering a state and cancelled on leaving
/// it, some that leak, timers, `.latest` queues, `cancelInFlight`), so that the configurations stay
/// countable while every effect semantic is exercised.
public enum SyntheticMachines {
    public static func withEffects(states n: Int, effects e: Int, seed: UInt64) -> Machine {
        var random = seed &+ 0x9E3779B97F4A7C15
        func next(_ bound: Int) -> Int {
            random = random &* 6364136223846793005 &+ 1442695040888963407
            return Int((random >> 33) % UInt64(max(1, bound)))
        }
        let states = (0..<n).map { "s\($0)" }
        let external = (0..<max(3, n / 5)).map { "e\($0)" }
        let responses = (0..<e).map { "r\($0)" }
        var rules: [Rule] = []
        func add(_ from: String, _ input: String, _ to: Target, effect: Effect? = nil, cancels: [String] = [], writes: Bool = false) {
            let line = rules.count + 2
            rules.append(Rule(id: rules.count + 1, location: SourceLocation(file: "Synthetic.swift", line: line, column: 1),
                              outcomes: [Outcome(pairs: [Pair(from: from, input: input)], target: to, effect: effect, cancels: cancels,
                                                 writes: writes)]))
        }
        var used = Set<Pair>()
        func free(_ from: String, _ input: String) -> Bool { used.insert(Pair(from: from, input: input)).inserted }
        let homes = (0..<e).map { k in 1 + (k * max(1, (n - 1) / max(1, e))) % max(1, n - 1) }
        // a spinner: effect k's home is left only by its answer, and one user input cancels it in place
        let spinner = { (k: Int) in k % 6 == 1 }
        let traps = Set((0..<e).filter(spinner).map { homes[$0] })
        // effects that are not cancelled when their state is left
        let leaky = { (k: Int) in k % 4 == 2 }
        // a ring of user transitions keeps the states reachable; leaving a home cancels its effects
        for i in 0..<n where !traps.contains(i) && free(states[i], external[0]) {
            let cancels = (0..<e).filter { homes[$0] == i && !leaky($0) }.map { "EffectID.e\($0)" }
            add(states[i], external[0], .state(states[(i + 1) % n]), cancels: cancels)
        }
        // effect k: started entering `home`, answered there (once) or ticking (stream), cancelled or not on the way out
        for k in 0..<e {
            let home = homes[k]
            let before = (home + n - 1) % n
            var effect = Effect(label: "effect\(k)", emits: [responses[k]], id: "EffectID.e\(k)", kind: k % 4 == 3 ? .stream : .once)
            var startCancels: [String] = []
            switch k % 5 {
            case 0:
                effect.queue = "queue\(k % 3)"
                effect.policy = "latest"
                startCancels = [effect.queue!]
            case 1:
                startCancels = [effect.id!]  // cancelInFlight: true
            default:
                break
            }
            let trigger = external[1 + k % (external.count - 1)]
            if free(states[before], trigger) {
                add(states[before], trigger, .state(states[home]), effect: effect, cancels: startCancels)
            }
            // the answer leads on, or (stream) changes nothing
            if effect.kind == .once, free(states[home], responses[k]) {
                add(states[home], responses[k], .state(states[(home + 1 + next(3)) % n]))
            } else if free(states[home], responses[k]) {
                add(states[home], responses[k], .stay, writes: true)
            }
            // leaving by the user: cancels the effect, unless it leaks
            let leave = external[1 + (k + 1) % (external.count - 1)]
            if spinner(k) {
                if free(states[home], leave) { add(states[home], leave, .stay, cancels: [effect.id!]) }
            } else if free(states[home], leave) {
                add(states[home], leave, .state(states[next(n)]), cancels: leaky(k) ? [] : [effect.id!])
            }
        }
        var machine = Machine(name: "synthetic\(n)x\(e)", dialect: .actomaton,
                              location: SourceLocation(file: "Synthetic.swift", line: 1, column: 1),
                              states: states, inputs: external + responses, initial: states[0], rules: rules, order: .resolved)
        machine.internalInputs = responses
        return machine
    }
}
