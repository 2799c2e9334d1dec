/// A case pattern (or a case-path value) as a tree: the enum case or static member it names, with
/// the patterns of its arguments. Bindings and wildcards (`let x`, `_`) match anything and are dropped
/// from the text; nested cases and literal arguments are kept.
///
/// `.response(.success(let value))` → `member("response", [member("success", [any])])`, whose
/// trigger text is `response(.success)`; `.send(didSucceed: true)` → `send(didSucceed:true)`.
public indirect enum InputPattern: Codable, Hashable, Sendable {
    /// `_`, `let x`, a run-time value: anything.
    case any
    /// A literal argument: `true`, `3`, `"id"`, `nil`, `\.isComplete`.
    case literal(String)
    /// An enum case or static member with its arguments: `.view(.saveTapped)`.
    case member(String, [Argument])

    public struct Argument: Codable, Hashable, Sendable {
        public var label: String?
        public var value: InputPattern

        public init(label: String? = nil, _ value: InputPattern) {
            self.label = label
            self.value = value
        }
    }

    public static func member(_ name: String) -> InputPattern { .member(name, []) }

    /// The case name at the root (`response` for `.response(.failure)`).
    public var name: String? {
        if case .member(let n, _) = self { return n }
        return nil
    }

    public var arguments: [Argument] {
        if case .member(_, let args) = self { return args }
        return []
    }

    /// Whether the pattern matches fewer values than its case name alone (`.view(.saveTapped)`,
    /// `.alert(.presented(let action))`; not `.view(let action)`).
    public var narrows: Bool { arguments.contains { $0.value != .any } }

    /// The canonical text with leading dots on nested members: `.view(.saveTapped)`,
    /// `.send(didSucceed:true)`, `.forecast(_,.failure)`.
    public var text: String { render(dots: true) }

    /// The trigger of an edge: the canonical text without the root's dot (`view(.saveTapped)`).
    public var trigger: String {
        let t = text
        return t.hasPrefix(".") ? String(t.dropFirst()) : t
    }

    /// The name of a value as a state: no dots at all (`alert(confirmDelete)`, `endCall(isDiscardable:true)`).
    public var stateName: String { render(dots: false) }

    private func render(dots: Bool) -> String {
        switch self {
        case .any: return "_"
        case .literal(let t): return t
        case .member(let n, let args):
            let head = (dots ? "." : "") + n
            // labelled wildcards say nothing; unlabelled ones keep the position, except at the end
            var kept = args.filter { $0.label == nil || $0.value != .any }
            while let last = kept.last, last.value == .any { kept.removeLast() }
            guard !kept.isEmpty else { return head }
            let inner = kept.map { ($0.label.map { "\($0):" } ?? "") + $0.value.render(dots: dots) }
            return head + "(" + inner.joined(separator: ",") + ")"
        }
    }

    /// Whether this pattern matches a value described by `value` (its run-time parts as `.any`):
    /// `true`, `false`, or `nil` when that depends on the run-time parts.
    public func matches(_ value: InputPattern) -> Bool? {
        switch (self, value) {
        case (.any, _): return true
        case (_, .any): return nil
        case (.literal(let a), .literal(let b)): return a == b
        case (.member(let a, let pa), .member(let b, let va)):
            guard a == b else { return false }
            var result: Bool? = true
            for (i, p) in pa.enumerated() where p.value != .any {
                let v = p.label.flatMap { l in va.first { $0.label == l } } ?? (i < va.count ? va[i] : nil)
                guard let v else { result = nil; continue }
                switch p.value.matches(v.value) {
                case false?: return false
                case nil: result = nil
                case true?: break
                }
            }
            return result
        default: return false
        }
    }
}
