import MachineAnalysis
import MachineModel

/// Writes a machine as Graphviz DOT text: deterministic, every name quoted and escaped.
public struct DOTRenderer: Sendable {
    public struct Options: Sendable {
        /// Draw self-loops that change nothing (no effect, no cancellation).
        public var showNoops = false
        /// Add the legend explaining every mark.
        public var legend = true
        /// Draw the inputs an effect sends back as dashed feedback edges.
        public var feedback = true
        /// Above this many drawn edges (after merging parallel ones) the layout effort is bounded:
        /// straight edges, a capped crossing and network-simplex search, no feedback edges. Spline routing
        /// around label nodes is what makes `dot` slow: 100 states / 300 transitions took 38 s with
        /// splines and 0.7 s with straight lines; 200 / 600 took over 200 s and 3.9 s.
        public var largeEdgeCount = 100
        /// Above this many, the force-directed `sfdp` engine replaces `dot`: on a random 200-state /
        /// 600-transition machine (596 drawn edges) bounded `dot` still took 5–6.5 s, `sfdp` well under 1 s.
        /// Between `largeEdgeCount` and this, `render` gives `dot` a time budget (`--layout-budget`).
        public var hugeEdgeCount = 400
        /// A witness trace to draw over the machine: its edges bold and numbered in order.
        public var trace: Highlight?

        public init(showNoops: Bool = false, legend: Bool = true, feedback: Bool = true, trace: Highlight? = nil) {
            self.showNoops = showNoops
            self.legend = legend
            self.feedback = feedback
            self.trace = trace
        }
    }

    /// A trace to highlight, and what it is the trace of (`dead_end_state: done`), said in the legend.
    public struct Highlight: Sendable {
        public var title: String
        public var steps: [TraceStep]

        public init(title: String, steps: [TraceStep]) {
            self.title = title
            self.steps = steps
        }

        /// A finding's witness, with the steps an effect takes marked; nil when it has no trace.
        public init?(finding: Finding, in machine: Machine) {
            guard let steps = finding.trace else { return nil }
            self.init(title: "\(finding.check): \(finding.subject)", steps: TransitionCover.markEffectSteps(steps, in: machine))
        }
    }

    public var options: Options

    public init(options: Options = Options()) {
        self.options = options
    }

    /// What the renderer gave up to keep layout fast, if anything (said in the output too).
    public func tradeOffs(for machine: Machine) -> [String] {
        let count = drawnEdges(machine).count
        if count > options.hugeEdgeCount {
            return ["\(counted(count, "edge")): laid out with sfdp (force-directed) instead of dot, straight edges, no feedback edges"]
        }
        guard count > options.largeEdgeCount else { return [] }
        return ["\(counted(count, "edge")): layout effort bounded (straight edges, mclimit, nslimit, searchsize; no feedback edges)"]
    }

    /// Edges drawn after merging parallel ones (one edge per pair of states, one label line per input).
    public func drawnEdgeCount(_ machine: Machine) -> Int { drawnEdges(machine).count }

    struct DrawnEdge {
        var from: String
        var to: String
        var lines: [String]
        var overlapping: Bool
        var cancels: Bool
        var implicit: Bool
        var dataDependent: Bool
    }

    func drawnEdges(_ machine: Machine) -> [DrawnEdge] {
        let rules = Dictionary(machine.rules.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        let overlapping = Set(machine.findings.filter { $0.check == "overlapping_rules" }.map(\.subject))
        let dataDependent = Set(machine.findings.filter { $0.check == "data_dependent_target" }.map(\.subject))
        var order: [String] = []
        var grouped: [String: DrawnEdge] = [:]
        for edge in machine.edges where options.showNoops || !edge.noop {
            let key = "\(edge.from)\u{0}\(edge.to)"
            let rule = rules[edge.rule]
            let line = label(edge, rule)
            let subject = "\(edge.from)/\(edge.input)"
            if grouped[key] == nil {
                order.append(key)
                grouped[key] = DrawnEdge(from: edge.from, to: edge.to, lines: [], overlapping: false, cancels: false,
                                         implicit: false, dataDependent: false)
            }
            if !grouped[key]!.lines.contains(line) { grouped[key]!.lines.append(line) }
            grouped[key]!.overlapping = grouped[key]!.overlapping || overlapping.contains(subject)
            grouped[key]!.cancels = grouped[key]!.cancels || !EdgeDescription(edge: edge, rule: rule).cancels.isEmpty
            grouped[key]!.implicit = grouped[key]!.implicit || (rule?.implicit ?? false)
            grouped[key]!.dataDependent = grouped[key]!.dataDependent || dataDependent.contains(subject)
        }
        return order.map { grouped[$0]! }
    }

    /// `input [guard] / effect ⇢ emits ✕ cancels`, from the branches of the rule behind the edge (a line
    /// each when they differ in what they start or cancel).
    func label(_ edge: Edge, _ rule: Rule?) -> String {
        EdgeDescription.perBranch(edge: edge, rule: rule).map(label).joined(separator: "\n")
    }

    func label(_ parts: EdgeDescription) -> String {
        var text = parts.trigger
        if let g = parts.guardText { text += " [\(Self.abbreviate(g, 40))]" }
        if let effect = parts.effectText(labelLimit: 32) {
            text += " / " + effect
            if !parts.sends.isEmpty { text += "\n⇢ sends " + parts.sends.joined(separator: ", ") }
        }
        if !parts.cancels.isEmpty { text += "\n✕ cancels " + parts.cancels.joined(separator: ", ") }
        if parts.implicit { text += "\n(implicit)" }
        return text
    }

    static func abbreviate(_ s: String, _ n: Int) -> String { EdgeDescription.abbreviate(s, n) }

    /// ` — partial: …` after a partial machine's name, with why.
    static func partialLabel(_ machine: Machine) -> String {
        guard machine.partial else { return "" }
        var why: [String] = []
        if !machine.unreadWrites.isEmpty || machine.pathsLeftOut.isEmpty { why.append("state also written elsewhere") }
        if !machine.pathsLeftOut.isEmpty { why.append("paths left out") }
        return " — partial: " + why.joined(separator: ", ")
    }

    public func render(_ machine: Machine) -> String {
        let edges = drawnEdges(machine)
        let large = edges.count > options.largeEdgeCount
        var out: [String] = []
        out.append("digraph \(Self.id(machine.name)) {")
        var graphAttributes = [
            ("rankdir", "LR"), ("fontname", "Helvetica"), ("charset", "UTF-8"), ("labelloc", "t"),
            ("label", "\(machine.name) (\(machine.dialect))\(Self.partialLabel(machine))"), ("nodesep", "0.4"), ("ranksep", "0.6"),
        ]
        if edges.count > options.hugeEdgeCount {
            graphAttributes += [("layout", "sfdp"), ("overlap", "prism"), ("splines", "false")]
            out.append("  // \(tradeOffs(for: machine).joined(separator: "; "))")
        } else if large {
            graphAttributes += [("splines", "line"), ("mclimit", "0.3"), ("nslimit", "2"), ("nslimit1", "2"),
                                ("searchsize", "10"), ("remincross", "false")]
            out.append("  // \(tradeOffs(for: machine).joined(separator: "; "))")
        }
        out.append("  graph [\(Self.attributes(graphAttributes))];")
        out.append("  node [\(Self.attributes([("shape", "box"), ("style", "rounded"), ("fontname", "Helvetica"), ("fontsize", "12")]))];")
        out.append("  edge [\(Self.attributes([("fontname", "Helvetica"), ("fontsize", "10")]))];")

        let unreachable = Set(machine.findings.filter { $0.check == "unreachable_state" }.map(\.subject))
        let deadEnds = Set(machine.findings.filter { $0.check == "dead_end_state" }.map(\.subject))
        // the combinations of a product that break an invariant: where each violation's trace ends
        let violating = Set(machine.findings.filter { $0.check == Check.invariantViolation.rawValue }.compactMap { $0.trace?.last?.state ?? machine.initial })
        if let initial = machine.initial {
            out.append("  \(Self.id("__start")) [\(Self.attributes([("shape", "point"), ("width", "0.15"), ("label", "")]))];")
            out.append("  \(Self.id("__start")) -> \(Self.id(initial));")
        }
        for state in machine.states {
            var attrs: [(String, String)] = [("label", state)]
            if unreachable.contains(state) {
                attrs += [("style", "rounded,dashed"), ("color", "gray55"), ("fontcolor", "gray45")]
            } else if violating.contains(state) {
                attrs += [("style", "rounded,filled"), ("fillcolor", "mistyrose"), ("color", "firebrick"), ("xlabel", "breaks invariant")]
            } else if deadEnds.contains(state) {
                attrs += [("style", "rounded,bold"), ("color", "firebrick"), ("xlabel", "dead end")]
            } else if machine.terminal.contains(state) {
                attrs += [("peripheries", "2")]
            }
            if let last = options.trace, state == (last.steps.last?.state ?? machine.initial) {
                attrs += [("color", "crimson"), ("penwidth", "2.5")]
            } else if state == machine.initial { attrs += [("penwidth", "1.6")] }
            out.append("  \(Self.id(state)) [\(Self.attributes(attrs))];")
        }
        let marks = traceMarks(machine, edges: edges)
        for edge in edges {
            let key = "\(edge.from)\u{0}\(edge.to)"
            var label = edge.lines.joined(separator: "\n")
            if let mark = marks.steps[key] { label = Self.numbers(mark) + " " + label }
            var attrs: [(String, String)] = [("label", label)]
            if let mark = marks.steps[key] {
                attrs += Self.traceAttributes(byEffect: mark.allSatisfy { $0.byEffect })
            } else if edge.overlapping { attrs += [("color", "darkorange"), ("fontcolor", "darkorange3"), ("penwidth", "2")] }
            else if edge.dataDependent { attrs += [("color", "purple"), ("fontcolor", "purple")] }
            if edge.implicit && marks.steps[key] == nil { attrs += [("style", "dotted")] }
            if edge.cancels { attrs += [("arrowtail", "tee"), ("dir", "both")] }
            out.append("  \(Self.id(edge.from)) -> \(Self.id(edge.to)) [\(Self.attributes(attrs))];")
        }
        // steps the drawing has no edge for (a no-op self-loop, an input that leaves the state as it is)
        for extra in marks.extra {
            let attrs = [("label", Self.numbers(extra.steps) + " " + extra.label)] + Self.traceAttributes(byEffect: extra.steps.allSatisfy { $0.byEffect })
            out.append("  \(Self.id(extra.from)) -> \(Self.id(extra.to)) [\(Self.attributes(attrs))];")
        }
        // a trace is easier to follow without the feedback edges, which are dashed blue too
        let feedbackLines = options.feedback && !large && options.trace == nil ? feedback(machine) : []
        out += feedbackLines
        if options.legend { out += legend(machine, edges: edges, feedback: !feedbackLines.isEmpty) }
        out.append("}")
        return out.joined(separator: "\n") + "\n"
    }

    struct TraceMark {
        var number: Int
        var byEffect: Bool
    }

    struct ExtraTraceEdge {
        var from: String
        var to: String
        var label: String
        var steps: [TraceMark]
    }

    /// Which drawn edge (by `from\0to`) each step of the trace takes, and the steps no drawn edge carries.
    func traceMarks(_ machine: Machine, edges: [DrawnEdge]) -> (steps: [String: [TraceMark]], extra: [ExtraTraceEdge]) {
        guard let trace = options.trace else { return ([:], []) }
        let drawn = Set(edges.map { "\($0.from)\u{0}\($0.to)" })
        var steps: [String: [TraceMark]] = [:]
        var extra: [ExtraTraceEdge] = []
        var from = machine.initial ?? trace.steps.first?.state ?? ""
        for (i, step) in trace.steps.enumerated() {
            let key = "\(from)\u{0}\(step.state)"
            let mark = TraceMark(number: i + 1, byEffect: step.by == .effect)
            if drawn.contains(key) {
                steps[key, default: []].append(mark)
            } else if let k = extra.firstIndex(where: { $0.from == from && $0.to == step.state && $0.label == step.trigger }) {
                extra[k].steps.append(mark)
            } else {
                extra.append(ExtraTraceEdge(from: from, to: step.state, label: step.trigger, steps: [mark]))
            }
            from = step.state
        }
        return (steps, extra)
    }

    /// `1. 3.`: the steps of the trace that take an edge.
    static func numbers(_ marks: [TraceMark]) -> String { marks.map { "\($0.number)." }.joined(separator: " ") }

    /// Trace edges are bold crimson; steps delivered by an effect are bold dashed blue.
    static func traceAttributes(byEffect: Bool) -> [(String, String)] {
        byEffect ? [("color", "royalblue3"), ("fontcolor", "royalblue3"), ("penwidth", "2.5"), ("style", "bold,dashed")]
            : [("color", "crimson"), ("fontcolor", "crimson"), ("penwidth", "2.5"), ("style", "bold")]
    }

    /// Dashed edges from an effect's target state to where the input it sends back leads.
    func feedback(_ machine: Machine) -> [String] {
        var lines: [String] = []
        var seen = Set<String>()
        let rules = Dictionary(machine.rules.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        for edge in machine.edges where !edge.noop {
            guard let effect = EdgeDescription(edge: edge, rule: rules[edge.rule]).effect else { continue }
            for sent in effect.emits {
                for next in machine.edges where next.from == edge.to && next.input == sent && next.to != next.from {
                    let key = "\(next.from)\u{0}\(next.to)\u{0}\(sent)"
                    guard seen.insert(key).inserted else { continue }
                    lines.append("  \(Self.id(next.from)) -> \(Self.id(next.to)) [\(Self.attributes([("style", "dashed"), ("color", "steelblue"), ("fontcolor", "steelblue"), ("constraint", "false"), ("arrowhead", "open"), ("label", "⇠ \(sent) (sent by effect)")]))];")
                }
            }
        }
        return lines
    }

    /// The legend lists the marks this diagram uses, so small diagrams keep a small legend.
    func legend(_ machine: Machine, edges: [DrawnEdge], feedback: Bool) -> [String] {
        let checks = Set(machine.findings.map(\.check))
        let rules = Dictionary(machine.rules.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        let described = machine.edges.filter { options.showNoops || !$0.noop }.map { EdgeDescription(edge: $0, rule: rules[$0.rule]) }
        var rows: [(String, String)] = []
        if machine.initial != nil { rows.append(("●→", "initial state")) }
        if checks.contains("unreachable_state") { rows.append(("dashed grey", "unreachable state")) }
        if checks.contains("dead_end_state") { rows.append(("bold red, \"dead end\"", "reachable state with no way out")) }
        if checks.contains(Check.invariantViolation.rawValue) { rows.append(("filled red", "reachable combination that breaks an invariant")) }
        if !machine.terminal.isEmpty { rows.append(("double border", "terminal state (allowed dead end)")) }
        rows.append(("input [guard] / effect", "edge label"))
        if described.contains(where: { !($0.effect?.emits.isEmpty ?? true) }) { rows.append(("⇢ sends x", "input the effect sends back")) }
        if edges.contains(where: \.cancels) {
            rows.append(("✕ cancels q", "effects this transition cancels (id or queue)"))
            rows.append(("⊣ tail", "edge that cancels"))
        }
        if edges.contains(where: \.overlapping) { rows.append(("orange", "overlapping rules")) }
        if edges.contains(where: \.dataDependent) { rows.append(("purple", "target chosen by data")) }
        if feedback { rows.append(("dashed blue", "feedback: where a sent input leads")) }
        if edges.contains(where: \.implicit) { rows.append(("dotted", "implicit (done by the framework)")) }
        if let trace = options.trace {
            rows.append(("bold red 1. 2. …", "trace of \(trace.title), step by step"))
            if trace.steps.contains(where: { $0.by == .effect }) { rows.append(("bold dashed blue", "step delivered by an effect")) }
            rows.append(("red border", trace.steps.isEmpty ? "the finding holds in the initial state" : "state after the last step"))
        }
        var html = "<<TABLE BORDER=\"0\" CELLBORDER=\"1\" CELLSPACING=\"0\" CELLPADDING=\"3\"><TR><TD COLSPAN=\"2\"><B>legend</B></TD></TR>"
        for (mark, meaning) in rows {
            html += "<TR><TD ALIGN=\"LEFT\">\(Self.html(mark))</TD><TD ALIGN=\"LEFT\">\(Self.html(meaning))</TD></TR>"
        }
        html += "</TABLE>>"
        return [
            "  subgraph \(Self.id("cluster_legend")) {",
            "    graph [\(Self.attributes([("label", ""), ("style", "invis")]))];",
            "    \(Self.id("__legend")) [shape=plaintext, fontsize=9, label=\(html)];",
            "  }",
        ]
    }

    // MARK: Escaping

    /// A DOT identifier, always quoted: quotes, backslashes and newlines escaped; keywords and names
    /// that start with a digit are safe because they are quoted.
    public static func id(_ s: String) -> String { "\"" + escape(s) + "\"" }

    /// Text inside a quoted DOT string. Characters XML 1.0 forbids (C0 controls but tab and line
    /// breaks, DEL, U+FFFE, U+FFFF), which reach a label only from broken source text, are shown as
    /// their Unicode control pictures (`␄`) or U+FFFD: libgvc copies label text into the SVG as it
    /// is, and one such character makes the SVG unreadable (found by the fuzz target).
    public static func escape(_ s: String) -> String {
        var out = ""
        for scalar in s.unicodeScalars {
            switch scalar.value {
            case 0x5C: out += "\\\\"
            case 0x22: out += "\\\""
            case 0x0A: out += "\\n"
            case 0x0D: break
            case 0x09: out.unicodeScalars.append(scalar)
            case 0x00..<0x20: out.unicodeScalars.append(Unicode.Scalar(0x2400 + scalar.value)!)
            case 0x7F: out += "\u{2421}"
            case 0xFFFE, 0xFFFF: out += "\u{FFFD}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// Text inside Graphviz's HTML-like labels (the legend) follows HTML's escaping.
    static func html(_ s: String) -> String { HTMLIndexRenderer.escape(s) }

    /// Attributes in the order given (callers give a fixed order), values quoted and escaped.
    static func attributes(_ pairs: [(String, String)]) -> String {
        pairs.map { "\($0.0)=\(id($0.1))" }.joined(separator: ", ")
    }
}
