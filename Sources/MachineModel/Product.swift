import Foundation

/// A struct state seen whole: the fields of a feature's state that are machines (an enum, a `Bool`, an
/// `Optional`), and the reducer's branches as rules over all of them at once. Exploring it evaluates a
/// condition on one field (`guard !state.isLoading`) in the branch that changes another, where the
/// per-field machines can only assume it either way.
public struct ProductMachine: Codable, Hashable, Sendable {
    public struct Field: Codable, Hashable, Sendable {
        public var name: String
        public var states: [String]
        public var initial: String?

        public init(name: String, states: [String], initial: String?) {
            self.name = name
            self.states = states
            self.initial = initial
        }
    }

    /// One path through the reducer: the inputs it applies to, what it requires of each field, what it
    /// writes to each field, and what it starts and cancels.
    public struct Rule: Codable, Hashable, Sendable {
        public var location: SourceLocation
        public var inputs: [String]
        /// The case pattern when it narrows the input (`view(.saveTapped)`).
        public var pattern: InputPattern?
        /// Per field, the values the branch is taken in; a field not named may have any value.
        public var requires: [String: [String]]
        /// Per field, its value after the branch; a field not named keeps its value.
        public var writes: [String: String]
        /// Conditions on data that is not a field (a payload, the environment): the branch may or may not be taken.
        public var guardText: String?
        public var effect: Effect?
        public var cancels: [String]

        public init(location: SourceLocation, inputs: [String], pattern: InputPattern? = nil, requires: [String: [String]] = [:],
                    writes: [String: String] = [:], guardText: String? = nil, effect: Effect? = nil, cancels: [String] = []) {
            self.location = location
            self.inputs = inputs
            self.pattern = pattern
            self.requires = requires
            self.writes = writes
            self.guardText = guardText
            self.effect = effect
            self.cancels = cancels
        }

        public func applies(to state: [String: String], input: String) -> Bool {
            inputs.contains(input) && requires.allSatisfy { field, values in state[field].map(values.contains) ?? false }
        }
    }

    /// The feature's name (the state's owner type, as in the field machines `Feature.field`).
    public var name: String
    public var dialect: Dialect
    public var location: SourceLocation
    public var fields: [Field]
    public var inputs: [String]
    public var rules: [Rule]
    /// Invariants stated in the code (`// machine-viz: invariant …` in the state type); configuration adds more.
    public var invariants: [String] = []

    public init(name: String, dialect: Dialect, location: SourceLocation, fields: [Field], inputs: [String], rules: [Rule]) {
        self.name = name
        self.dialect = dialect
        self.location = location
        self.fields = fields
        self.inputs = inputs
        self.rules = rules
    }

    /// A combination of field values as a state name: `phase=loading, isLoading=true`, fields in declaration order.
    public func stateName(_ values: [String: String]) -> String {
        fields.map { "\($0.name)=\(values[$0.name] ?? "?")" }.joined(separator: ", ")
    }
}

/// A statement about the fields of a struct state that must hold in every reachable combination
/// (`isLoading implies phase == .loading`), from `.machine-viz.yml`.
///
/// Grammar: `a implies b` (also `=>`, right-associative, weakest), `||`, `&&`, `!`, parentheses, and
/// atoms `field` (a `Bool` field is true), `field == value`, `field != value`, where a value is
/// `.case`, `case`, `true`, `false` or `nil`.
public struct Invariant: Hashable, Sendable, CustomStringConvertible {
    public indirect enum Expr: Hashable, Sendable {
        case isTrue(String)
        case equals(String, String)
        case not(Expr)
        case and(Expr, Expr)
        case or(Expr, Expr)
        case implies(Expr, Expr)
    }

    public struct ParseError: Error, Hashable, Sendable, CustomStringConvertible {
        public var message: String
        public var description: String { message }
    }

    public var text: String
    public var expr: Expr

    public var description: String { text }

    public init(_ text: String) throws {
        self.text = text
        var parser = Parser(tokens: try Self.tokens(text), text: text)
        expr = try parser.implication()
        if parser.position < parser.tokens.count {
            throw ParseError(message: "unexpected '\(parser.tokens[parser.position])' in the invariant '\(text)'")
        }
    }

    /// The field names the invariant mentions, in first-seen order.
    public var fields: [String] {
        func walk(_ e: Expr) -> [String] {
            switch e {
            case .isTrue(let f), .equals(let f, _): [f]
            case .not(let a): walk(a)
            case .and(let a, let b), .or(let a, let b), .implies(let a, let b): walk(a) + walk(b)
            }
        }
        return walk(expr).uniqued()
    }

    /// Values the invariant compares a field with (`.loading` → `loading`), for checking them against the field's states.
    public var comparisons: [(field: String, value: String)] {
        func walk(_ e: Expr) -> [(field: String, value: String)] {
            switch e {
            case .isTrue(let f): [(f, "true")]
            case .equals(let f, let v): [(f, v)]
            case .not(let a): walk(a)
            case .and(let a, let b), .or(let a, let b), .implies(let a, let b): walk(a) + walk(b)
            }
        }
        return walk(expr)
    }

    /// Whether it holds for one combination of field values (`some` stands for any non-nil optional).
    public func holds(in values: [String: String]) -> Bool { Self.eval(expr, values) }

    static func eval(_ e: Expr, _ values: [String: String]) -> Bool {
        switch e {
        case .isTrue(let f): values[f] == "true"
        case .equals(let f, let v): values[f] == v
        case .not(let a): !eval(a, values)
        case .and(let a, let b): eval(a, values) && eval(b, values)
        case .or(let a, let b): eval(a, values) || eval(b, values)
        case .implies(let a, let b): !eval(a, values) || eval(b, values)
        }
    }

    static func tokens(_ text: String) throws -> [String] {
        var out: [String] = []
        let chars = Array(text)
        var i = 0
        while i < chars.count {
            let c = chars[i]
            if c.isWhitespace { i += 1; continue }
            if c.isLetter || c == "_" || c == "." {
                var j = i + 1
                while j < chars.count, chars[j].isLetter || chars[j].isNumber || chars[j] == "_" { j += 1 }
                out.append(String(chars[i..<j]))
                i = j
                continue
            }
            let two = i + 1 < chars.count ? String(chars[i...i + 1]) : ""
            if ["&&", "||", "==", "!=", "=>"].contains(two) {
                out.append(two)
                i += 2
                continue
            }
            if "!()".contains(c) {
                out.append(String(c))
                i += 1
                continue
            }
            throw ParseError(message: "unexpected '\(c)' in the invariant '\(text)'; write e.g. `isLoading implies phase == .loading`")
        }
        return out
    }

    struct Parser {
        var tokens: [String]
        var text: String
        var position = 0

        var peek: String? { position < tokens.count ? tokens[position] : nil }

        mutating func take() -> String? {
            defer { position += 1 }
            return peek
        }

        func fail(_ what: String) -> ParseError {
            ParseError(message: "\(what) in the invariant '\(text)'; write e.g. `isLoading implies phase == .loading`")
        }

        mutating func implication() throws -> Expr {
            let lhs = try disjunction()
            if peek == "implies" || peek == "=>" {
                position += 1
                return .implies(lhs, try implication())
            }
            return lhs
        }

        mutating func disjunction() throws -> Expr {
            var e = try conjunction()
            while peek == "||" {
                position += 1
                e = .or(e, try conjunction())
            }
            return e
        }

        mutating func conjunction() throws -> Expr {
            var e = try unary()
            while peek == "&&" {
                position += 1
                e = .and(e, try unary())
            }
            return e
        }

        mutating func unary() throws -> Expr {
            guard let t = take() else { throw fail("missing a condition at the end") }
            if t == "!" { return .not(try unary()) }
            if t == "(" {
                let e = try implication()
                guard take() == ")" else { throw fail("missing ')'") }
                return e
            }
            guard let first = t.first, first.isLetter || first == "_", t != "implies" else { throw fail("expected a field name, found '\(t)'") }
            if peek == "==" || peek == "!=" {
                let negate = take() == "!="
                guard var value = take(), value != "implies", value.first.map({ $0.isLetter || $0 == "_" || $0 == "." }) == true else {
                    throw fail("expected a value after '\(negate ? "!=" : "==")'")
                }
                if value.hasPrefix(".") { value.removeFirst() }
                if value == "none" { value = "nil" }
                guard !value.isEmpty else { throw fail("expected a value after '.'") }
                return negate ? .not(.equals(t, value)) : .equals(t, value)
            }
            return .isTrue(t)
        }
    }
}
