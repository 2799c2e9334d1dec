import MachineModel

/// Breadth-first exploration of a machine together with its effects in flight (see `EffectModel`).
///
/// From a configuration, an input that is not internal can arrive at any time (`by: user`), and every
/// running effect can deliver any input it sends (`by: effect`); a `once` effect ends when it has
/// delivered, a `stream` runs until it is cancelled or delivers what it sends last (`Effect.outputs`:
/// a `catch:` output). One step does, in this order: remove the delivering instance if this delivery
/// ends it; cancel what the move cancels; if the state changes, every instance in
/// flight becomes stale, except those the new state waits for (`EffectModel.adopted`) and those started
/// in any state (`EffectModel.unbound`); start the move's effect (after its queue's policy); resume waiting instances
/// of `suspendNew` queues. A start that would put more than `maxInstances` instances of one effect in
/// flight is not taken, and said so.
public struct EffectExplorer: Sendable {
    public let model: EffectModel
    /// Take only moves that assume nothing (`EffectModel.Move.assumed`): every configuration found is
    /// then reachable for sure, so every finding is one to report. The checks explore this way; the
    /// full exploration (the default) is the one the Promela export mirrors.
    public var sureOnly: Bool

    public init(model: EffectModel, sureOnly: Bool = false) {
        self.model = model
        self.sureOnly = sureOnly
    }

    public init(machine: Machine, bounds: EffectBounds = EffectBounds()) {
        model = EffectModel(machine: machine, bounds: bounds)
        sureOnly = false
    }

    public typealias Configuration = [UInt8]

    /// What one exploration found.
    public struct Result: Sendable {
        /// Distinct configurations visited.
        public var configurations: Int
        /// False when the budget stopped it.
        public var complete: Bool
        /// Whether a start was refused because the instance bound was reached, and where first.
        public var boundHit: (definition: Int, trace: [TraceStep])?
        /// Per subject the shortest witness first, then (if that one assumes something) the shortest
        /// one that assumes nothing.
        public var stale: [StaleOutput]
        public var uncancelled: [Uncancelled]
        public var waiting: [Waiting]
    }

    public struct StaleOutput: Sendable {
        public var definition: Int
        public var input: String
        public var from: String
        public var to: String
        /// Ends with the late delivery.
        public var trace: [TraceStep]
        /// The trace takes a step on an assumption (`EffectModel.Move.assumed`).
        public var assumed: Bool
    }

    public struct Uncancelled: Sendable {
        public var definition: Int
        public var state: String
        public var trace: [TraceStep]
        public var assumed: Bool
    }

    public struct Waiting: Sendable {
        public var state: String
        /// The internal inputs that would take the machine out.
        public var exits: [String]
        public var trace: [TraceStep]
        public var assumed: Bool
    }

    // MARK: Configurations

    /// A configuration starts with the state in two bytes (big-endian), then the counts per effect.
    static let head = 2

    /// Most states a machine (or a product) may have to be explored.
    public static let maxStates = Int(UInt16.max)

    /// A configuration as a key of the visited set, its bytes hashed in one go (a `[UInt8]` hashes
    /// byte by byte: a quarter of the exploration's time on machines with many effects).
    struct Key: Hashable {
        let bytes: Configuration
        init(_ bytes: Configuration) { self.bytes = bytes }
        func hash(into hasher: inout Hasher) { bytes.withUnsafeBytes { hasher.combine(bytes: $0) } }
    }

    func state(of c: Configuration) -> Int { Int(c[0]) << 8 | Int(c[1]) }

    func set(_ state: Int, in c: inout Configuration) {
        c[0] = UInt8(state >> 8)
        c[1] = UInt8(state & 0xFF)
    }

    func slot(_ d: Int, stale: Bool, waiting: Bool) -> Int { Self.head + d * EffectModel.slots + (waiting ? 2 : 0) + (stale ? 1 : 0) }

    func total(_ c: Configuration, _ d: Int) -> Int {
        let base = Self.head + d * EffectModel.slots
        return Int(c[base]) + Int(c[base + 1]) + Int(c[base + 2]) + Int(c[base + 3])
    }

    func running(_ c: Configuration, _ d: Int) -> Int {
        let base = Self.head + d * EffectModel.slots
        return Int(c[base]) + Int(c[base + 1])
    }

    public var initialConfiguration: Configuration? {
        guard let initial = model.initial, model.states.count <= Self.maxStates else { return nil }
        var c = Configuration(repeating: 0, count: Self.head + model.definitions.count * EffectModel.slots)
        set(initial, in: &c)
        return c
    }

    /// A successor: the configuration after the step, whether a stale instance delivered, or nil when
    /// the instance bound refuses the start.
    public struct Step: Sendable {
        public var next: Configuration
        public var move: EffectModel.Move
        /// The delivering effect and whether it was stale, for effect steps.
        public var delivered: (definition: Int, stale: Bool)?
    }

    /// The first effect `move` would start beyond the instance bound in `c`, if any. Explicitly
    /// cancelled effects and newest-n queues (n within the bound) make room themselves.
    public func refusedStart(_ move: EffectModel.Move, in c: Configuration) -> Int? {
        for d in move.starts where !move.cancels.contains(d) && total(c, d) >= model.bounds.maxInstances {
            if case .newest(let n)? = model.definitions[d].queue.map({ model.queues[$0].policy }), n <= model.bounds.maxInstances {
                continue
            }
            return d
        }
        return nil
    }

    /// Applies `move` to `c` (after the delivering instance, if any, has been removed).
    /// Returns nil when the start is refused by the instance bound.
    /// `driver`: a fresh stream whose delivery this move is; the state it moves the machine to is its
    /// own doing, so that instance stays fresh (a socket's `didOpen` then `didClose`).
    func apply(_ move: EffectModel.Move, to start: Configuration, driver: Int? = nil) -> Configuration? {
        guard refusedStart(move, in: start) == nil else { return nil }
        var c = start
        let defs = model.definitions
        for d in move.cancels {
            for k in 0..<EffectModel.slots { c[Self.head + d * EffectModel.slots + k] = 0 }
        }
        if move.changesState, let to = move.to { set(to, in: &c) }
        if move.leaves, let to = move.to {
            for d in defs.indices where !model.adopted[to].contains(d) && !model.unbound.contains(d) {
                for waiting in [false, true] {
                    let fresh = slot(d, stale: false, waiting: waiting), stale = slot(d, stale: true, waiting: waiting)
                    let keep: UInt8 = d == driver && !waiting ? min(c[fresh], 1) : 0
                    c[stale] += c[fresh] - keep
                    c[fresh] = keep
                }
            }
        }
        for d in move.starts {
            var waiting = false
            if let q = defs[d].queue {
                let queue = model.queues[q]
                switch queue.policy {
                case .merge:
                    break
                case .newest(let n):
                    // cancel the oldest until fewer than n are in the queue: stale ones first, by effect order
                    var inQueue = queue.members.reduce(0) { $0 + total(c, $1) }
                    for stale in [true, false] {
                        for waitingSlot in [true, false] {
                            for m in queue.members {
                                let s = slot(m, stale: stale, waiting: waitingSlot)
                                while inQueue >= n, c[s] > 0 { c[s] -= 1; inQueue -= 1 }
                            }
                        }
                    }
                case .discardNew(let n):
                    if queue.members.reduce(0, { $0 + running(c, $1) }) >= n { continue }
                case .suspendNew(let n):
                    waiting = queue.members.reduce(0) { $0 + running(c, $1) } >= n
                }
            }
            c[slot(d, stale: false, waiting: waiting)] += 1
        }
        return resume(c)
    }

    /// Waiting instances of `suspendNew` queues start while fewer than n run: stale ones first, by effect order.
    func resume(_ start: Configuration) -> Configuration {
        var c = start
        for queue in model.queues {
            guard case .suspendNew(let n) = queue.policy else { continue }
            var runningCount = queue.members.reduce(0) { $0 + running(c, $1) }
            for stale in [true, false] {
                for m in queue.members {
                    let w = slot(m, stale: stale, waiting: true), r = slot(m, stale: stale, waiting: false)
                    while runningCount < n, c[w] > 0 { c[w] -= 1; c[r] += 1; runningCount += 1 }
                }
            }
        }
        return c
    }

    /// Every step from `c`, in a fixed order: user inputs by input order, then deliveries by effect,
    /// stale before fresh, by input. Steps refused by the bound come back as `refused`.
    public func successors(of c: Configuration, refused: inout [(move: EffectModel.Move, definition: Int)]) -> [Step] {
        var steps: [Step] = []
        let s = state(of: c)
        for i in model.inputs.indices where !model.isInternal[i] {
            for move in model.moves[s][i] where move.to != nil && !move.noop && !(sureOnly && move.assumed) {
                if let next = apply(move, to: c) {
                    steps.append(Step(next: next, move: move))
                } else if let d = refusedStart(move, in: c) {
                    refused.append((move, d))
                }
            }
        }
        for (d, def) in model.definitions.enumerated() {
            for stale in [true, false] {
                let r = slot(d, stale: stale, waiting: false)
                guard c[r] > 0 else { continue }
                var without = c
                without[r] -= 1
                without = resume(without)
                for i in def.emits {
                    let moves = model.moves[s][i].filter { $0.to != nil && !(sureOnly && $0.assumed) && model.delivers(d, by: $0) }
                    if moves.isEmpty || moves.allSatisfy(\.noop) {
                        // delivered into nothing: only the effect's end (a once effect, a stream's last
                        // output) changes the configuration
                        if def.effect.kind == .once || moves.contains(where: { model.ends(d, by: $0) }) {
                            let idle = EffectModel.Move(from: s, input: i, to: s, trigger: model.inputs[i], starts: [], cancels: [],
                                                        noop: true, rule: 0)
                            steps.append(Step(next: without, move: idle, delivered: (d, stale)))
                        }
                        continue
                    }
                    for move in moves {
                        let ends = model.ends(d, by: move)
                        if let next = apply(move, to: ends ? without : c, driver: !stale && !ends ? d : nil) {
                            steps.append(Step(next: next, move: move, delivered: (d, stale)))
                        } else if let refusedDefinition = refusedStart(move, in: ends ? without : c) {
                            refused.append((move, refusedDefinition))
                        }
                    }
                }
            }
        }
        return steps
    }

    // MARK: Search

    public func explore() -> Result {
        var result = Result(configurations: 0, complete: true, boundHit: nil, stale: [], uncancelled: [], waiting: [])
        guard let initial = initialConfiguration else { return result }
        var index: [Key: Int] = [Key(initial): 0]
        var configurations: [Configuration] = [initial]
        var parent: [Int] = [-1]
        var via: [TraceStep?] = [nil]
        var assumed: [Bool] = [false]
        let waitingStates = model.waitingStates()
        let idle = model.definitions.indices.map { Set(model.idleStates(of: $0)) }
        // per subject, the shortest witness, and the shortest that assumes nothing (when that one is longer)
        var staleSeen = Set<String>(), uncancelledSeen = Set<Int>(), waitingSeen = Set<Int>()
        var staleSure = Set<String>(), uncancelledSure = Set<Int>(), waitingSure = Set<Int>()
        func first<T: Hashable>(_ subject: T, assumed: Bool, _ seen: inout Set<T>, _ sure: inout Set<T>) -> Bool {
            let new = seen.insert(subject).inserted
            let newSure = !assumed && sure.insert(subject).inserted
            return new || newSure
        }

        func trace(to k: Int) -> [TraceStep] {
            var steps: [TraceStep] = []
            var i = k
            while let step = via[i] { steps.append(step); i = parent[i] }
            return steps.reversed()
        }
        func inspect(_ k: Int) {
            let c = configurations[k]
            let s = state(of: c)
            if let senders = waitingStates[s], !senders.contains(where: { running(c, $0) > 0 }),
               first(s, assumed: assumed[k], &waitingSeen, &waitingSure) {
                result.waiting.append(Waiting(state: model.states[s], exits: model.exits(of: s).map { model.inputs[$0] },
                                              trace: trace(to: k), assumed: assumed[k]))
            }
            for d in model.definitions.indices where idle[d].contains(s) && running(c, d) > 0
                && first(d, assumed: assumed[k], &uncancelledSeen, &uncancelledSure) {
                result.uncancelled.append(Uncancelled(definition: d, state: model.states[s], trace: trace(to: k), assumed: assumed[k]))
            }
        }

        inspect(0)
        var head = 0
        while head < configurations.count {
            let current = configurations[head]
            var refused: [(move: EffectModel.Move, definition: Int)] = []
            let steps = successors(of: current, refused: &refused)
            if result.boundHit == nil, let first = refused.first {
                let by: TraceStep.Origin = model.isInternal[first.move.input] ? .effect : .user
                result.boundHit = (first.definition, trace(to: head) + [step(first.move, by: by)])
            }
            for step in steps {
                // made only for a step that is kept or reported (most reach a configuration already seen)
                var traceStep: TraceStep { self.step(step.move, by: step.delivered == nil ? .user : .effect) }
                if let delivered = step.delivered, delivered.stale, step.move.leaves {
                    let d = delivered.definition
                    let input = model.inputs[step.move.input]
                    if first(input, assumed: assumed[head] || step.move.assumed, &staleSeen, &staleSure) {
                        result.stale.append(StaleOutput(definition: d, input: input, from: model.groupNames[model.group[step.move.from]],
                                                        to: model.groupNames[model.group[step.move.to!]], trace: trace(to: head) + [traceStep],
                                                        assumed: assumed[head] || step.move.assumed))
                    }
                }
                let key = Key(step.next)
                guard index[key] == nil else { continue }
                if configurations.count >= model.bounds.budget {
                    result.complete = false
                    result.configurations = configurations.count
                    return result
                }
                index[key] = configurations.count
                configurations.append(step.next)
                parent.append(head)
                via.append(traceStep)
                assumed.append(assumed[head] || step.move.assumed)
                inspect(configurations.count - 1)
            }
            head += 1
        }
        result.configurations = configurations.count
        return result
    }

    func step(_ move: EffectModel.Move, by origin: TraceStep.Origin) -> TraceStep {
        TraceStep(input: model.inputs[move.input], trigger: move.trigger, by: origin,
                  state: model.groupNames[model.group[move.to ?? move.from]])
    }
}
