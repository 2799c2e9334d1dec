import MachineAnalysis
import MachineModel

/// A machine and its effects in flight as a Promela model for SPIN, with the semantics and bounds of
/// `EffectExplorer`, so that SPIN's reachable states are machine-viz's configurations one to one:
///
/// - `st` is the state, `c[4*d ..< 4*d+4]` the instances of tracked effect `d` (running fresh, running
///   stale, waiting fresh, waiting stale), `q` a scratch counter that is 0 between steps;
/// - one process runs a `do` loop whose every option is one `d_step`: one step of the explorer (a user
///   input, or an effect delivering), so each configuration is one stored state;
/// - compiling with `-DCHECK_STALE_<input>`, `-DCHECK_WAIT_<state>` or `-DCHECK_IDLE_<effect>` adds
///   the assertion that fails exactly where the explorer reports `stale_effect_output`,
///   `waiting_forever` or `uncancelled_effect` (see `docs/promela.md`).
public struct PromelaRenderer: Sendable {
    public let model: EffectModel

    public init(model: EffectModel) { self.model = model }

    public init(machine: Machine, bounds: EffectBounds = EffectBounds()) {
        model = EffectModel(machine: machine, bounds: bounds)
    }

    /// A name usable in a `#define`: letters, digits and `_`.
    public static func identifier(_ text: String) -> String {
        String(text.map { $0.isASCII && ($0.isLetter || $0.isNumber) ? $0 : "_" })
    }

    /// The macro that enables the assertion for one finding.
    public static func staleMacro(_ input: String) -> String { "CHECK_STALE_\(identifier(input))" }
    public static func waitMacro(_ state: String) -> String { "CHECK_WAIT_\(identifier(state))" }
    public static func idleMacro(_ definition: Int) -> String { "CHECK_IDLE_\(definition)" }

    func slot(_ d: Int, stale: Bool, waiting: Bool) -> String { "c[\(d * EffectModel.slots + (waiting ? 2 : 0) + (stale ? 1 : 0))]" }
    func running(_ d: Int) -> String { "(\(slot(d, stale: false, waiting: false)) + \(slot(d, stale: true, waiting: false)))" }
    func total(_ d: Int) -> String {
        "(" + [false, true].flatMap { w in [false, true].map { slot(d, stale: $0, waiting: w) } }.joined(separator: " + ") + ")"
    }

    public func render() -> String {
        let m = model
        let defs = m.definitions
        var out = """
            /* Promela model of \(m.machine.replacingOccurrences(of: "*/", with: "* /")) and its effects in flight, written by machine-viz.
               Same configurations as machine-viz's effect exploration: at most \(m.bounds.maxInstances) instances of each effect.
               Check with: spin -a FILE && gcc -DBFS -DNOREDUCE -o pan pan.c && ./pan -E */

            #define MAX \(m.bounds.maxInstances)

            """
        out += "\n/* states */\n"
        for (i, s) in m.states.enumerated() { out += "/* \(i): \(s) */\n" }
        out += "/* inputs (internal: only effects send them) */\n"
        for (i, s) in m.inputs.enumerated() { out += "/* \(i): \(s)\(m.isInternal[i] ? " (internal)" : "") */\n" }
        out += "/* effects: c[4d] running fresh, c[4d+1] running stale, c[4d+2] waiting fresh, c[4d+3] waiting stale */\n"
        for (d, def) in defs.enumerated() {
            let sends = def.emits.map { m.inputs[$0] }.joined(separator: ", ")
            out += "/* \(d): line \(def.location.line) \(def.label.replacingOccurrences(of: "*/", with: "* /")), \(def.effect.kind.rawValue), sends \(sends)\(def.endingTriggers.isEmpty ? "" : ", ends after " + def.endingTriggers.sorted().joined(separator: ", "))\(def.queue.map { ", queue \(m.queues[$0].name)" } ?? "") */\n"
        }
        out += "\n\(m.states.count > 255 ? (m.states.count > 32767 ? "int" : "short") : "byte") st = \(m.initial ?? 0);\nbyte c[\(max(1, defs.count * EffectModel.slots))];\nbyte q;\n\n"
        out += "active proctype machine() {\n    do\n"
        // user inputs
        for s in m.states.indices {
            for i in m.inputs.indices where !m.isInternal[i] {
                for move in m.moves[s][i] where move.to != nil && !move.noop {
                    var guardText = "st == \(s)"
                    if let bound = boundGuard(move, removing: nil) { guardText += " && \(bound)" }
                    out += option(comment: "\(m.states[s]) --\(m.inputs[i])--> \(m.states[move.to!]) (user)", guardText: guardText,
                                  body: apply(move))
                }
            }
        }
        // deliveries
        for (d, def) in defs.enumerated() {
            for stale in [true, false] {
                let r = slot(d, stale: stale, waiting: false)
                let remove = ["\(r) = \(r) - 1"] + resume()
                for s in m.states.indices {
                    for i in def.emits {
                        let moves = m.moves[s][i].filter { $0.to != nil && m.delivers(d, by: $0) }
                        let comment = "\(m.states[s]): effect \(d)\(stale ? " (stale)" : "") sends \(m.inputs[i])"
                        if moves.isEmpty || moves.allSatisfy(\.noop) {
                            if def.effect.kind == .once || moves.contains(where: { m.ends(d, by: $0) }) {
                                out += option(comment: comment + ", which does nothing", guardText: "st == \(s) && \(r) > 0", body: remove + checks())
                            }
                            continue
                        }
                        for move in moves {
                            let ends = m.ends(d, by: move)
                            var guardText = "st == \(s) && \(r) > 0"
                            if let bound = boundGuard(move, removing: ends ? d : nil) { guardText += " && \(bound)" }
                            var body = ends ? remove : []
                            if stale && move.leaves {
                                body += ["#ifdef \(Self.staleMacro(m.inputs[i]))", "assert(false)", "#endif"]
                            }
                            body += apply(move, driver: !stale && !ends ? d : nil)
                            out += option(comment: comment + " --> \(m.states[move.to!])", guardText: guardText, body: body)
                        }
                    }
                }
            }
        }
        out += "    od\n}\n"
        return out
    }

    func option(comment: String, guardText: String, body: [String]) -> String {
        var text = "    /* \(comment.replacingOccurrences(of: "*/", with: "* /")) */\n    :: d_step { \(guardText) ->\n"
        for line in body { text += line.hasPrefix("#") ? "\(line)\n" : "        \(line);\n" }
        return text + "    }\n"
    }

    /// The guard that refuses a start beyond the instance bound (as `EffectExplorer.refusedStart` does).
    func boundGuard(_ move: EffectModel.Move, removing delivered: Int?) -> String? {
        var guards: [String] = []
        for d in move.starts where !move.cancels.contains(d) {
            if case .newest(let n)? = model.definitions[d].queue.map({ model.queues[$0].policy }), n <= model.bounds.maxInstances {
                continue
            }
            guards.append(delivered == d ? "\(total(d)) - 1 < MAX" : "\(total(d)) < MAX")
        }
        return guards.isEmpty ? nil : guards.joined(separator: " && ")
    }

    /// Statements for one move, in the explorer's order.
    func apply(_ move: EffectModel.Move, driver: Int? = nil) -> [String] {
        let defs = model.definitions
        var body: [String] = []
        for d in move.cancels {
            for w in [false, true] { for s in [false, true] { body.append("\(slot(d, stale: s, waiting: w)) = 0") } }
        }
        if move.changesState, let to = move.to { body.append("st = \(to)") }
        if move.leaves, let to = move.to {
            for d in defs.indices where !model.adopted[to].contains(d) && !model.unbound.contains(d) {
                for w in [false, true] {
                    let fresh = slot(d, stale: false, waiting: w), stale = slot(d, stale: true, waiting: w)
                    if d == driver && !w {
                        // the delivering stream moved the machine itself: it stays fresh
                        body.append("if :: \(fresh) > 0 -> \(stale) = \(stale) + \(fresh) - 1; \(fresh) = 1 :: else -> skip fi")
                    } else {
                        body += ["\(stale) = \(stale) + \(fresh)", "\(fresh) = 0"]
                    }
                }
            }
        }
        for d in move.starts {
            let start = "\(slot(d, stale: false, waiting: false)) = \(slot(d, stale: false, waiting: false)) + 1"
            if let qi = defs[d].queue {
                let queue = model.queues[qi]
                let runningInQueue = queue.members.map(running).joined(separator: " + ")
                switch queue.policy {
                case .merge:
                    body.append(start)
                case .newest(let n):
                    body.append("q = " + queue.members.map(total).joined(separator: " + "))
                    for stale in [true, false] {
                        for w in [true, false] {
                            for mem in queue.members {
                                let s = slot(mem, stale: stale, waiting: w)
                                body.append("do :: q >= \(n) && \(s) > 0 -> \(s) = \(s) - 1; q = q - 1 :: else -> break od")
                            }
                        }
                    }
                    body += ["q = 0", start]
                case .discardNew(let n):
                    body.append("if :: \(runningInQueue) < \(n) -> \(start) :: else -> skip fi")
                case .suspendNew(let n):
                    let wait = "\(slot(d, stale: false, waiting: true)) = \(slot(d, stale: false, waiting: true)) + 1"
                    body.append("if :: \(runningInQueue) >= \(n) -> \(wait) :: else -> \(start) fi")
                }
            } else {
                body.append(start)
            }
        }
        return body + resume() + checks()
    }

    /// Waiting instances of `suspendNew` queues start while fewer than n run.
    func resume() -> [String] {
        var body: [String] = []
        for queue in model.queues {
            guard case .suspendNew(let n) = queue.policy else { continue }
            body.append("q = " + queue.members.map(running).joined(separator: " + "))
            for stale in [true, false] {
                for mem in queue.members {
                    let w = slot(mem, stale: stale, waiting: true), r = slot(mem, stale: stale, waiting: false)
                    body.append("do :: q < \(n) && \(w) > 0 -> \(w) = \(w) - 1; \(r) = \(r) + 1; q = q + 1 :: else -> break od")
                }
            }
            body.append("q = 0")
        }
        return body
    }

    /// The state assertions, each compiled in by its macro, checked after every step.
    func checks() -> [String] {
        var body: [String] = []
        for (s, senders) in model.waitingStates().sorted(by: { $0.key < $1.key }) {
            let none = senders.map { "\(running($0)) == 0" }
            body += ["#ifdef \(Self.waitMacro(model.states[s]))",
                     "assert(!(st == \(s)\(none.isEmpty ? "" : " && " + none.joined(separator: " && "))))", "#endif"]
        }
        for d in model.definitions.indices {
            let idle = model.idleStates(of: d)
            guard !idle.isEmpty else { continue }
            let states = idle.map { "st == \($0)" }.joined(separator: " || ")
            body += ["#ifdef \(Self.idleMacro(d))", "assert(!(\(running(d)) > 0 && (\(states))))", "#endif"]
        }
        return body
    }
}
