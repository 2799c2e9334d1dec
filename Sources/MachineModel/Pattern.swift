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

    /// Reads a trigger text back (`view(.saveTapped)`, `send(didSucceed:true)`, `forecast(_,.failure)`):
    /// the inverse of `trigger`, so `InputPattern(trigger: p.trigger).trigger == p.trigger` for every
    /// member pattern. Nested members start with a dot, `_` is anything, the rest are literals. When the
    /// text does not read back to itself (a literal argument with a comma or a parenthesis of its own),
    /// the arguments are kept as one literal, which still gives the same text.
    public init(trigger text: String) {
        let parsed = Self.parse(Substring(text), member: true)
        if parsed.trigger == text {
            self = parsed
        } else if let open = text.firstIndex(of: "("), text.hasSuffix(")") {
            self = .member(String(text[..<open]), [Argument(.literal(String(text[text.index(after: open)..<text.index(before: text.endIndex)])))])
        } else {
            self = .literal(text)
        }
    }

    private static func parse(_ text: Substring, member: Bool) -> InputPattern {
        if text == "_" { return .any }
        guard member || text.hasPrefix(".") else { return .literal(String(text)) }
        let body = member && !text.hasPrefix(".") ? text : text.dropFirst()
        guard let open = body.firstIndex(of: "(") else {
            return body.isEmpty ? .literal(String(text)) : .member(String(body))
        }
        guard body.hasSuffix(")") else { return .literal(String(text)) }
        let arguments = splitArguments(body[body.index(after: open)..<body.index(before: body.endIndex)]).map { part -> Argument in
            // `label:value`: an identifier, then one colon
            if let colon = part.firstIndex(of: ":"), colon != part.startIndex,
               part[..<colon].allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }),
               part[part.index(after: colon)...].first != ":" {
                return Argument(label: String(part[..<colon]), parse(part[part.index(after: colon)...], member: false))
            }
            return Argument(parse(part, member: false))
        }
        return .member(String(body[..<open]), arguments)
    }

    /// The top-level comma-separated parts (brackets nest, string literals are skipped).
    private static func splitArguments(_ text: Substring) -> [Substring] {
        var parts: [Substring] = [], depth = 0, start = text.startIndex, inString = false, escaped = false
        for i in text.indices {
            let ch = text[i]
            if inString {
                if escaped { escaped = false } else if ch == "\\" { escaped = true } else if ch == "\"" { inString = false }
                continue
            }
            switch ch {
            case "\"": inString = true
            case "(", "[", "{": depth += 1
            case ")", "]", "}": depth -= 1
            case "," where depth == 0:
                parts.append(text[start..<i])
                start = text.index(after: i)
            default: break
            }
        }
        parts.append(text[start...])
        return parts
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
