import MachineAnalysis
import MachineModel

/// Writes the sequences of a `TransitionCover` as XCTest skeletons in the machine's own framework:
/// TCA `TestStore` sends and receives, Actomaton `send`, Harvest inputs, and for the other dialects a
/// comment per step with an `XCTAssertEqual` on the state. The text is valid Swift syntax (no editor
/// placeholders); what the code cannot tell is left to names the test must provide, so the compiler
/// points at each: `makeActomaton()`, a payload bound in the pattern (`url`), `expectedAlert`.
public struct TestSkeletonWriter: Sendable {
    public init() {}

    public func write(_ machine: Machine, cover: TransitionCover) -> String {
        let style = Style(machine)
        var out: [String] = []
        out.append("// Test skeletons written by `machine-viz paths --format xctest` for \(machine.name) (\(machine.dialect)).")
        out.append("// \(cover.sequences.count) sequence\(cover.sequences.count == 1 ? "" : "s") from the initial state take all \(cover.covered) transitions that change something.")
        if !cover.unreachable.isEmpty {
            out.append("// Not covered (no input sequence reaches their source): " +
                       cover.unreachable.map { Self.describe(machine.edges[$0]) }.joined(separator: "; ") + ".")
        }
        out.append("// To do: import the module under test\(style.provides.isEmpty ? "" : ", write " + style.provides.joined(separator: " and ")), and give the payloads the steps name.")
        out += style.imports.map { "import \($0)" }
        out.append("")
        if style.mainActor { out.append("@MainActor") }
        out.append("final class \(Self.typeName(machine.name))PathTests: XCTestCase {")
        for (n, sequence) in cover.sequences.enumerated() {
            if n > 0 { out.append("") }
            let summary = sequence.steps.map { ($0.by == .effect ? "⇠ " : "") + $0.readable }.joined(separator: " → ")
            out.append("    /// \(Self.comment(summary))")
            out.append("    func testPath\(n + 1)() \(style.async ? "async " : ""){")
            out += style.setUp(machine).map { "        " + $0 }
            var from = machine.initial ?? "?"
            for (i, step) in sequence.steps.enumerated() {
                let sender = step.by == .effect ? " (sent back by an effect)" : ""
                out.append("        // \(i + 1). \(Self.comment(step.trigger))\(sender): \(Self.comment(from)) → \(Self.comment(step.state))")
                out += style.step(step, from: from, number: i + 1).map { "        " + $0 }
                from = step.state
            }
            out.append("    }")
        }
        if cover.sequences.isEmpty {
            out.append("    // No transition to cover\(machine.initial == nil ? ": the machine has no initial state in the code" : "").")
        }
        out.append("}")
        return out.joined(separator: "\n") + "\n"
    }

    // MARK: Frameworks

    struct Style {
        enum Kind { case tca, tcaLegacy, actomaton, harvest, plain }
        var kind: Kind
        /// The machine is one field of a struct state (`Feature.phase`): the field's name.
        var field: String?
        var valueKind: ValueKind

        enum ValueKind { case enumeration, bool, optional }

        init(_ machine: Machine) {
            switch machine.dialect {
            case .tca: kind = .tca
            case .tcaLegacy: kind = .tcaLegacy
            case .actomaton: kind = .actomaton
            case .operatorTable, .mappingFunction: kind = .harvest
            default: kind = .plain
            }
            valueKind = machine.states == ["false", "true"] ? .bool : machine.states == ["nil", "some"] ? .optional : .enumeration
            // reducers over a struct state give machines named `Type.field`; a collection item (`todos[]`) has no one field
            let structState: Set<Dialect> = [.tca, .tcaLegacy, .actomaton, .combineProcessor]
            if structState.contains(machine.dialect), let dot = machine.name.firstIndex(of: "."),
               (kind == .tca || kind == .tcaLegacy || valueKind != .enumeration) {
                let f = String(machine.name[machine.name.index(after: dot)...])
                field = f.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" } ? f : nil
            }
        }

        var imports: [String] {
            switch kind {
            case .tca, .tcaLegacy: ["ComposableArchitecture", "XCTest"]
            case .actomaton: ["Actomaton", "XCTest"]
            case .harvest: ["Combine", "Harvest", "XCTest"]
            case .plain: ["XCTest"]
            }
        }

        var mainActor: Bool { kind == .tca || kind == .tcaLegacy }
        var async: Bool { kind == .tca || kind == .tcaLegacy || kind == .actomaton }

        /// Functions the test file needs that the code does not say how to write.
        var provides: [String] {
            switch kind {
            case .tca: []
            case .tcaLegacy: ["`makeTestStore()`"]
            case .actomaton: ["`makeActomaton()`"]
            case .harvest: ["`makeAutomaton()`"]
            case .plain: ["`makeMachine()`", "`send(_:to:)`"]
            }
        }

        func setUp(_ machine: Machine) -> [String] {
            let feature = machine.name.split(separator: ".").first.map(String.init) ?? machine.name
            let initial = machine.initial.map { "in its initial state \($0)" } ?? "in the state to start from"
            switch kind {
            case .tca:
                let type = TestSkeletonWriter.isIdentifier(feature) ? feature : TestSkeletonWriter.typeName(feature)
                return ["let store = TestStore(initialState: \(type).State()) {",
                        "    \(type)()",
                        "}"]
            case .tcaLegacy:
                return ["let store = makeTestStore()  // TestStore(initialState:reducer:environment:) \(comment(initial))"]
            case .actomaton:
                return ["let actomaton = makeActomaton()  // Actomaton(state:reducer:environment:) \(comment(initial))"]
            case .harvest:
                return ["// the automaton \(comment(initial)) and the subject it reads inputs from",
                        "// (Harvest: `Harvester(state:inputs:mapping:)`; ReactiveAutomaton: `Signal.pipe()` and `inputObserver.send(value:)`)",
                        "let (automaton, inputs) = makeAutomaton()"]
            case .plain:
                return ["var machine = makeMachine()  // \(comment(initial))"]
            }
        }

        func step(_ step: TraceStep, from: String, number: Int) -> [String] {
            let noInput = step.input == "*"
            let input = noInput ? "trigger" : TestSkeletonWriter.expression(forTrigger: step.trigger, input: step.input)
            let changed = step.state != from
            switch kind {
            case .tca, .tcaLegacy:
                let call = step.by == .effect && !noInput ? "await store.receive(\\.\(step.input))" : "await store.send(\(input))"
                guard changed else { return [call] }
                let lhs = field.map { "$0.\($0)" } ?? "$0"
                return [call + " {", "    \(lhs) = \(value(step.state))", "}"]
            case .actomaton:
                let lhs = field.map { "state\(number).\($0)" } ?? "state\(number)"
                let note = step.by == .effect ? "  // stands in for the effect; with a real environment, wait for it instead" : ""
                return ["await actomaton.send(\(input))\(note)", "let state\(number) = await actomaton.state"] + assertion(lhs, step.state)
            case .harvest:
                let note = step.by == .effect ? "  // stands in for the effect" : ""
                return ["inputs.send(\(input))\(note)"] + assertion("automaton.state", step.state)
            case .plain:
                return ["send(\(input), to: &machine)"] + assertion("machine.state", step.state)
            }
        }

        func assertion(_ lhs: String, _ state: String) -> [String] {
            switch (valueKind, state) {
            case (.optional, "nil"): ["XCTAssertNil(\(lhs))"]
            case (.optional, _): ["XCTAssertNotNil(\(lhs))"]
            default: ["XCTAssertEqual(\(lhs), \(value(state)))"]
            }
        }

        /// A state as a Swift value: `.loading`, `true`, `nil`, or `expectedField` for an optional's value.
        func value(_ state: String) -> String {
            switch valueKind {
            case .bool: return state == "true" ? "true" : "false"
            case .optional: return state == "nil" ? "nil" : "expected" + TestSkeletonWriter.typeName(field ?? "value")
            case .enumeration: return TestSkeletonWriter.isIdentifier(state) ? "." + state : "expectedState"
            }
        }

        func comment(_ s: String) -> String { TestSkeletonWriter.comment(s) }
    }

    // MARK: Swift text

    /// An input pattern as an expression to send: `view(.saveTapped)` → `.view(.saveTapped)`;
    /// bindings stay as names the test must define (`let .finished(url)` → `.finished(url)`, `_` → `value`).
    public static func expression(forTrigger trigger: String, input: String) -> String {
        var text = trigger.trimmingCharacters(in: .whitespaces)
        for prefix in ["case ", "let ", "var "] where text.hasPrefix(prefix) { text.removeFirst(prefix.count) }
        if !text.hasPrefix(".") { text = "." + text }
        // identifiers and single other characters; `let`/`var` inside the arguments dropped, `_` named
        var out = ""
        let chars = Array(text)
        var i = 0
        var depth = 0
        while i < chars.count {
            let c = chars[i]
            if c.isLetter || c == "_" {
                var j = i
                while j < chars.count, chars[j].isLetter || chars[j].isNumber || chars[j] == "_" { j += 1 }
                let word = String(chars[i..<j])
                var k = j
                while k < chars.count, chars[k] == " " { k += 1 }
                let afterDot = out.last == "."
                if ["let", "var"].contains(word), !afterDot, depth > 0 {
                    i = k
                    continue
                }
                out += word == "_" && !afterDot ? "value" : word
                i = j
                continue
            }
            if c == "(" { depth += 1 }
            if c == ")" { depth -= 1 }
            // several patterns (`.a, .b`) are no one input to send
            if c == ",", depth == 0 { return isIdentifier(input) ? "." + input : "input" }
            out.append(c)
            i += 1
        }
        let head = String(out.dropFirst().prefix { $0 != "(" && $0 != "." })
        guard isBalanced(Array(out)), isIdentifier(head) else { return isIdentifier(input) ? "." + input : "input" }
        return out
    }

    static func isBalanced(_ chars: [Character]) -> Bool {
        var depth = 0
        for c in chars {
            if c == "(" { depth += 1 }
            if c == ")" { depth -= 1; if depth < 0 { return false } }
        }
        return depth == 0
    }

    static func isIdentifier(_ s: String) -> Bool {
        guard let first = s.first, first.isLetter || first == "_" else { return false }
        return s.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" }
    }

    /// `RecordingFeature.phase` → `RecordingFeaturePhase`: a type name from a machine name.
    public static func typeName(_ name: String) -> String {
        var out = ""
        var upper = true
        for c in name {
            if c.isLetter || c.isNumber || c == "_" {
                out += upper ? c.uppercased() : String(c)
                upper = false
            } else {
                upper = true
            }
        }
        if out.isEmpty || out.first!.isNumber { out = "Machine" + out }
        return out
    }

    /// Text safe inside a `//` comment: one line.
    static func comment(_ s: String) -> String {
        s.replacingOccurrences(of: "\r", with: " ").replacingOccurrences(of: "\n", with: " ")
    }

    static func describe(_ edge: Edge) -> String { "\(edge.from) --\(edge.trigger)--> \(edge.to)" }
}
