import MachineModel
import SwiftSyntax

/// Walks a reducer body over all the machine fields of a struct state at once: every path becomes a
/// `ProductMachine.Rule` with the inputs it applies to, the values each field must have for it to be
/// taken, and the values it writes. A condition on a field that the path has already written is
/// decided by the written value; one on data that is not a field (a payload) splits the path both ways
/// and is kept as the rule's guard text.
///
/// It follows `switch`, `if`, `guard`, `return`, assignments, `toggle()`, `do` and loops. Code it does
/// not follow (a helper handed `&state`, a mutating method of the state) makes `run` return nil with a
/// reason, so the product is left out rather than wrong.
final class ProductInterpreter {
    struct Field {
        var name: String
        var kind: StateKind
        var states: [String]
        var initial: String?
    }

    struct Ctx {
        var inputs: [String]
        var pattern: InputPattern?
        var requires: [String: Set<String>] = [:]
        var writes: [String: String] = [:]
        var guards: [String] = []
        var effect: Effect?
        var cancels: [String] = []
        var location: SourceLocation
    }

    struct Stop: Error {
        var reason: String
        var location: SourceLocation
    }

    let fields: [Field]
    /// Paths that denote each field (`state.phase`; inside a method of the state, also `phase`).
    var byPath: [String: Field]
    /// Paths that denote the whole state (`state`; inside a method of the state, also `self`).
    var statePaths: Set<String>
    /// Mutating methods of the state type, by name: a call `state.reset()` is walked.
    let helpers: [String: FunctionDeclSyntax]
    var helperDepth = 0
    let stateParam: String
    let actionParam: String
    let effects: EffectReader
    let file: ParsedFile
    var rules: [ProductMachine.Rule] = []
    var work = 0
    static let workLimit = 50_000
    static let pathLimit = 512

    /// Where a node is: in its own file, which for a helper's node may not be the reducer's.
    func location(of node: some SyntaxProtocol) -> SourceLocation { effects.index.location(of: node, orIn: file) }

    init(fields: [Field], stateParam: String, actionParam: String, effects: EffectReader, file: ParsedFile,
         helpers: [String: FunctionDeclSyntax] = [:], copied: String? = nil) {
        self.fields = fields
        var byPath: [String: Field] = [:]
        // the parameter the state is a copy of (`var next = model`) names it too, as it was
        for root in [stateParam] + (copied.map { [$0] } ?? []) {
            for f in fields { byPath["\(root).\(f.name)"] = f }
        }
        self.byPath = byPath
        self.statePaths = [stateParam]
        self.helpers = helpers
        self.stateParam = stateParam
        self.actionParam = actionParam
        self.effects = effects
        self.file = file
    }

    /// The rules of the body, or why it cannot be walked as a whole.
    func run(_ body: CodeBlockItemListSyntax, inputs: [String], at location: SourceLocation) -> Result<[ProductMachine.Rule], Stop> {
        do {
            let ends = try block(body, [Ctx(inputs: inputs, location: location)])
            for c in ends { finish(c, returning: nil) }
        } catch let stop as Stop {
            return .failure(stop)
        } catch {
            return .failure(Stop(reason: "\(error)", location: location))
        }
        // identical branches joined, inputs in declaration order
        var merged: [ProductMachine.Rule] = []
        for r in rules {
            if let i = merged.firstIndex(where: { $0.location == r.location && $0.pattern == r.pattern && $0.requires == r.requires
                && $0.writes == r.writes && $0.guardText == r.guardText && $0.effect == r.effect && $0.cancels == r.cancels }) {
                merged[i].inputs = merged[i].inputs.appendingUnique(r.inputs)
            } else {
                merged.append(r)
            }
        }
        for i in merged.indices { merged[i].inputs = inputs.filter(merged[i].inputs.contains) }
        return .success(merged)
    }

    // MARK: Values

    func values(_ f: Field, _ c: Ctx) -> Set<String> {
        if let w = c.writes[f.name] { return [w] }
        return c.requires[f.name] ?? Set(f.states)
    }

    /// The path split by whether field `f` has one of `names`.
    func restrict(_ c: Ctx, _ f: Field, _ names: Set<String>) -> (yes: [Ctx], no: [Ctx]) {
        let current = values(f, c)
        let inside = current.intersection(names), outside = current.subtracting(names)
        func with(_ set: Set<String>) -> [Ctx] {
            guard !set.isEmpty else { return [] }
            if c.writes[f.name] != nil { return [c] }
            var n = c
            n.requires[f.name] = set
            return [n]
        }
        return (with(inside), with(outside))
    }

    func restrictInput(_ c: Ctx, _ names: Set<String>, refutable: Bool, pattern: InputPattern?) -> (yes: [Ctx], no: [Ctx]) {
        var yes = c
        yes.inputs = c.inputs.filter(names.contains)
        if refutable, let pattern { yes.pattern = pattern }
        var no = c
        if !refutable { no.inputs = c.inputs.filter { !names.contains($0) } }
        return (yes.inputs.isEmpty ? [] : [yes], no.inputs.isEmpty ? [] : [no])
    }

    func unknown(_ c: Ctx, _ text: String) -> (yes: [Ctx], no: [Ctx]) {
        var yes = c, no = c
        yes.guards.append(text)
        no.guards.append("!(\(text))")
        return ([yes], [no])
    }

    func field(_ expr: ExprSyntax) -> Field? {
        SyntaxHelpers.path(expr).flatMap { byPath[$0] }
    }

    func isInput(_ expr: ExprSyntax) -> Bool { SyntaxHelpers.path(expr) == actionParam }

    func normalized(_ name: String, _ f: Field) -> String {
        f.kind == .optional ? (name == "none" || name == "nil" ? "nil" : "some") : name
    }

    // MARK: Conditions

    func split(_ raw: ExprSyntax, _ c: Ctx) throws -> (yes: [Ctx], no: [Ctx]) {
        let r = try splitUnbounded(raw, c)
        guard r.yes.count + r.no.count <= Self.pathLimit else {
            throw Stop(reason: "more than \(Self.pathLimit) paths through one condition", location: location(of: raw))
        }
        return r
    }

    func splitUnbounded(_ raw: ExprSyntax, _ c: Ctx) throws -> (yes: [Ctx], no: [Ctx]) {
        let expr = SyntaxHelpers.unwrapFolded(raw)
        if let infix = expr.as(InfixOperatorExprSyntax.self) {
            let op = infix.operator.trimmedText
            switch op {
            case "&&":
                let a = try split(infix.leftOperand, c)
                var yes: [Ctx] = [], no = a.no
                for t in a.yes {
                    let b = try split(infix.rightOperand, t)
                    yes += b.yes
                    no += b.no
                }
                return (yes, no)
            case "||":
                let a = try split(infix.leftOperand, c)
                var yes = a.yes, no: [Ctx] = []
                for f in a.no {
                    let b = try split(infix.rightOperand, f)
                    yes += b.yes
                    no += b.no
                }
                return (yes, no)
            case "==", "!=":
                if let r = comparison(infix.leftOperand, infix.rightOperand, c) ?? comparison(infix.rightOperand, infix.leftOperand, c) {
                    return op == "!=" ? (r.no, r.yes) : r
                }
            default:
                break
            }
        }
        if let prefix = expr.as(PrefixOperatorExprSyntax.self), prefix.operator.text == "!" {
            let r = try split(prefix.expression, c)
            return (r.no, r.yes)
        }
        if let b = expr.as(BooleanLiteralExprSyntax.self) { return b.literal.text == "true" ? ([c], []) : ([], [c]) }
        if let f = field(expr), f.kind == .bool { return restrict(c, f, ["true"]) }
        // [.a, .b].contains(state.field)
        if let call = expr.as(FunctionCallExprSyntax.self), let member = call.calledExpression.as(MemberAccessExprSyntax.self),
           member.declName.baseName.text == "contains", let array = member.base?.as(ArrayExprSyntax.self),
           let arg = call.arguments.first?.expression, let f = field(arg) {
            let names = Set(array.elements.compactMap { SyntaxHelpers.caseReference($0.expression, effects.index)?.name })
            return restrict(c, f, Set(names.map { normalized($0, f) }))
        }
        return unknown(c, expr.compactText)
    }

    func comparison(_ lhs: ExprSyntax, _ rhs: ExprSyntax, _ c: Ctx) -> (yes: [Ctx], no: [Ctx])? {
        let r = SyntaxHelpers.unwrap(rhs)
        var name: String?
        if r.is(NilLiteralExprSyntax.self) { name = "nil" }
        else if let b = r.as(BooleanLiteralExprSyntax.self) { name = b.literal.text }
        else if let ref = SyntaxHelpers.caseReference(r, effects.index) { name = ref.name }
        guard let name else { return nil }
        if let f = field(lhs) {
            guard f.kind != .optional || name == "nil" || name == "none" else { return nil }
            return restrict(c, f, [normalized(name, f)])
        }
        if isInput(lhs) { return restrictInput(c, [name], refutable: false, pattern: nil) }
        return nil
    }

    func conditions(_ list: ConditionElementListSyntax, _ c: Ctx) throws -> (yes: [Ctx], no: [Ctx]) {
        var yes = [c], no: [Ctx] = []
        for element in list {
            var nextYes: [Ctx] = []
            for y in yes {
                let r: (yes: [Ctx], no: [Ctx])
                switch element.condition {
                case .expression(let e):
                    r = try split(e, y)
                case .matchingPattern(let m):
                    r = match(PatternAtom(m.pattern, effects.index), m.pattern.compactText, m.initializer.value, y)
                case .optionalBinding(let b):
                    if let value = b.initializer?.value, let f = field(value), f.kind == .optional {
                        r = restrict(y, f, ["some"])
                    } else if b.initializer == nil, let f = byPath["\(stateParam).\(b.pattern.trimmedText)"], f.kind == .optional {
                        r = restrict(y, f, ["some"])
                    } else {
                        r = unknown(y, element.condition.compactText)
                    }
                default:
                    r = unknown(y, element.condition.compactText)
                }
                nextYes += r.yes
                no += r.no
            }
            yes = nextYes
            guard yes.count + no.count <= Self.pathLimit else {
                throw Stop(reason: "more than \(Self.pathLimit) paths through one condition", location: location(of: list))
            }
        }
        return (yes, no)
    }

    /// A pattern matched against a subject: (matches, may not match).
    func match(_ atom: PatternAtom, _ text: String, _ subject: ExprSyntax, _ c: Ctx) -> (yes: [Ctx], no: [Ctx]) {
        if case .any = atom { return ([c], []) }
        let s = SyntaxHelpers.unwrap(subject)
        if let tuple = s.as(TupleExprSyntax.self), tuple.elements.count > 1 {
            guard case .tuple(let atoms) = atom, atoms.count == tuple.elements.count else { return unknown(c, "\(s.compactText) ~ \(text)") }
            // a tuple matches when every element does; it fails at the first element that does not
            var yes = [c], no: [Ctx] = []
            for (a, e) in zip(atoms, tuple.elements) {
                var nextYes: [Ctx] = []
                for y in yes {
                    let r = match(a, text, e.expression, y)
                    nextYes += r.yes
                    no += r.no
                }
                yes = nextYes
            }
            return (yes, no)
        }
        guard case .cases(let names, let refutable, let tree) = atom else { return unknown(c, "\(s.compactText) ~ \(text)") }
        if isInput(s) { return restrictInput(c, names, refutable: refutable, pattern: tree) }
        if let f = field(s) {
            let mapped = Set(names.map { normalized($0, f) })
            if refutable && !mapped.contains("nil") {
                let r = restrict(c, f, mapped)
                return (r.yes.map { var n = $0; n.guards.append("\(s.compactText) ~ \(text)"); return n }, [c])
            }
            return restrict(c, f, mapped)
        }
        return unknown(c, "\(s.compactText) ~ \(text)")
    }

    // MARK: Statements

    func block(_ items: CodeBlockItemListSyntax, _ start: [Ctx]) throws -> [Ctx] {
        var current = start
        for item in items {
            if current.isEmpty { break }
            var next: [Ctx] = []
            for c in current { next += try statement(item, c) }
            current = next
            guard current.count <= Self.pathLimit else {
                throw Stop(reason: "more than \(Self.pathLimit) paths through the reducer", location: location(of: item))
            }
        }
        return current
    }

    /// Paths that `break` out of the innermost switch or loop.
    var breaks: [[Ctx]] = []
    /// Paths that `return` from the methods of the state being walked, innermost last.
    var helperReturns: [[Ctx]] = []

    func statement(_ item: CodeBlockItemSyntax, _ c: Ctx) throws -> [Ctx] {
        work += 1
        guard work < Self.workLimit else { throw Stop(reason: "the reducer is too large to walk as a whole", location: location(of: item)) }
        switch item.item {
        case .decl: return [c]
        case .expr(let e): return try expression(e, c)
        case .stmt(let s): return try statement(s, c)
        }
    }

    func statement(_ stmt: StmtSyntax, _ c: Ctx) throws -> [Ctx] {
        if let ret = stmt.as(ReturnStmtSyntax.self) {
            // inside a method of the state, `return` goes back to the reducer
            if !helperReturns.isEmpty {
                helperReturns[helperReturns.count - 1].append(c)
                return []
            }
            finish(c, returning: ret.expression)
            return []
        }
        if stmt.is(ThrowStmtSyntax.self) { return [] }
        if let g = stmt.as(GuardStmtSyntax.self) {
            let r = try conditions(g.conditions, c)
            for e in try block(g.body.statements, r.no) { finish(e, returning: nil) }
            return r.yes
        }
        if let e = stmt.as(ExpressionStmtSyntax.self) { return try expression(e.expression, c) }
        if stmt.is(BreakStmtSyntax.self) || stmt.is(ContinueStmtSyntax.self) || stmt.is(FallThroughStmtSyntax.self) {
            if breaks.isEmpty { return [c] }
            breaks[breaks.count - 1].append(c)
            return []
        }
        if let d = stmt.as(DoStmtSyntax.self) { return try block(d.body.statements, [c]) }
        // `scan: for … { … break scan }`: the statement (a labelled `break` leaves the innermost loop here)
        if let labelled = stmt.as(LabeledStmtSyntax.self) { return try statement(labelled.statement, c) }
        var body: CodeBlockSyntax?
        if let loop = stmt.as(ForStmtSyntax.self) { body = loop.body }
        if let loop = stmt.as(WhileStmtSyntax.self) { body = loop.body }
        if let loop = stmt.as(RepeatStmtSyntax.self) { body = loop.body }
        if let body {
            breaks.append([])
            let after = try block(body.statements, [c])
            return [c] + after + breaks.removeLast()
        }
        return [c]
    }

    func expression(_ raw: ExprSyntax, _ c: Ctx) throws -> [Ctx] {
        let expr = SyntaxHelpers.unwrap(raw)
        if let sw = expr.as(SwitchExprSyntax.self) { return try switchStatement(sw, c) }
        if let i = expr.as(IfExprSyntax.self) { return try ifStatement(i, c) }
        let folded = SyntaxHelpers.fold(expr)
        if let infix = folded.as(InfixOperatorExprSyntax.self), infix.operator.is(AssignmentExprSyntax.self) {
            return try assign(infix.leftOperand, infix.rightOperand, c)
        }
        if let call = folded.as(FunctionCallExprSyntax.self) { return try self.call(call, c) }
        return [c]
    }

    func call(_ call: FunctionCallExprSyntax, _ c: Ctx) throws -> [Ctx] {
        if let member = call.calledExpression.as(MemberAccessExprSyntax.self), let base = member.base {
            if let f = field(base), f.kind == .bool, member.declName.baseName.text == "toggle" {
                if let w = c.writes[f.name] {
                    var n = c
                    n.writes[f.name] = w == "true" ? "false" : "true"
                    return [n]
                }
                let r = restrict(c, f, ["true"])
                return r.yes.map { var n = $0; n.writes[f.name] = "false"; return n }
                    + r.no.map { var n = $0; n.writes[f.name] = "true"; return n }
            }
            // a method of the state without arguments (`state.resetSession()`): its body, with the fields by their bare names
            if let path = SyntaxHelpers.path(base), statePaths.contains(path), call.arguments.isEmpty,
               let helper = helpers[member.declName.baseName.text], let body = helper.body, helperDepth < 4 {
                let saved = (byPath, statePaths)
                defer { (byPath, statePaths) = saved }
                for f in fields { byPath[f.name] = f }
                statePaths.insert("self")
                helperDepth += 1
                defer { helperDepth -= 1 }
                helperReturns.append([])
                let ends = try block(body.statements, [c])
                return ends + helperReturns.removeLast()
            }
            if let path = SyntaxHelpers.path(base), statePaths.contains(path) || byPath[path] != nil {
                throw Stop(reason: "`\(call.calledExpression.compactText)(…)` may change the state and is not followed",
                           location: location(of: call))
            }
        }
        if call.arguments.contains(where: { arg in
            arg.expression.as(InOutExprSyntax.self).flatMap { SyntaxHelpers.path($0.expression) }.map { p in
                statePaths.contains(p) || statePaths.contains { p.hasPrefix($0 + ".") }
            } ?? false
        }) {
            throw Stop(reason: "`\(call.calledExpression.compactText)(&…)` changes the state and is not followed", location: location(of: call))
        }
        return [c]
    }

    func ifStatement(_ node: IfExprSyntax, _ c: Ctx) throws -> [Ctx] {
        let r = try conditions(node.conditions, c)
        var out = try block(node.body.statements, r.yes)
        switch node.elseBody {
        case .ifExpr(let e): for n in r.no { out += try ifStatement(e, n) }
        case .codeBlock(let b): out += try block(b.statements, r.no)
        case nil: out += r.no
        }
        return out
    }

    func switchStatement(_ sw: SwitchExprSyntax, _ c: Ctx) throws -> [Ctx] {
        var remaining = [c]
        var out: [Ctx] = []
        let machineSwitch = isInput(sw.subject) || field(sw.subject) != nil
            || (SyntaxHelpers.unwrap(sw.subject).as(TupleExprSyntax.self)?.elements.contains { isInput($0.expression) || field($0.expression) != nil } ?? false)
        for sc in SyntaxHelpers.cases(of: sw) {
            var matched: [Ctx] = []
            var rest: [Ctx] = []
            switch sc.label {
            case .default:
                matched = remaining
            case .case(let label):
                // items are alternatives: what one leaves, the next may take
                var left = remaining
                for item in label.caseItems {
                    var next: [Ctx] = []
                    for l in left {
                        let r = match(PatternAtom(item.pattern, effects.index), item.pattern.compactText, sw.subject, l)
                        var taken = r.yes
                        if let w = item.whereClause {
                            var whereTaken: [Ctx] = []
                            for t in taken {
                                let s = try split(w.condition, t)
                                whereTaken += s.yes
                                next += s.no
                            }
                            taken = whereTaken
                        }
                        matched += taken
                        next += r.no
                    }
                    left = next
                }
                rest = left
            }
            if machineSwitch {
                let label = location(of: sc.label)
                matched = matched.map { var n = $0; n.location = label; return n }
            }
            breaks.append([])
            out += try block(sc.statements, matched)
            out += breaks.removeLast()
            remaining = rest
        }
        return out + remaining
    }

    // MARK: Writes

    func assign(_ lhs: ExprSyntax, _ rhs: ExprSyntax, _ c: Ctx) throws -> [Ctx] {
        if let f = field(lhs) { return try value(of: rhs, for: f, c).map { n, v in var m = n; m.writes[f.name] = v; return m } }
        if let path = SyntaxHelpers.path(lhs), statePaths.contains(path) {
            // the whole state replaced: `state = State()` puts every field back to its default
            guard fields.allSatisfy({ $0.initial != nil }) else {
                throw Stop(reason: "`\(lhs.compactText) = …` replaces the state with values not known here", location: location(of: lhs))
            }
            var n = c
            for f in fields { n.writes[f.name] = f.initial! }
            return [n]
        }
        return [c]
    }

    /// The values an expression may give a field on a path, forking on `?:` and on values not known here.
    func value(of raw: ExprSyntax, for f: Field, _ c: Ctx) throws -> [(Ctx, String)] {
        let expr = SyntaxHelpers.unwrapFolded(raw)
        if let t = expr.as(TernaryExprSyntax.self) {
            let r = try split(t.condition, c)
            var out: [(Ctx, String)] = []
            for y in r.yes { out += try value(of: t.thenExpression, for: f, y) }
            for n in r.no { out += try value(of: t.elseExpression, for: f, n) }
            return out
        }
        if let g = field(expr), g.name == f.name {
            if let w = c.writes[f.name] { return [(c, w)] }
            return values(f, c).sorted().map { v in
                var n = c
                n.requires[f.name] = [v]
                return (n, v)
            }
        }
        switch f.kind {
        case .optional:
            if expr.is(NilLiteralExprSyntax.self) { return [(c, "nil")] }
            if let ref = SyntaxHelpers.caseReference(expr, effects.index, accepting: { $0 == "none" }), ref.type == nil { return [(c, "nil")] }
            return [(c, "some")]
        case .bool:
            if let b = expr.as(BooleanLiteralExprSyntax.self) { return [(c, b.literal.text)] }
            if let p = expr.as(PrefixOperatorExprSyntax.self), p.operator.text == "!", let g = field(p.expression), g.kind == .bool {
                return values(g, c).sorted().map { v in
                    var n = c
                    if c.writes[g.name] == nil { n.requires[g.name] = [v] }
                    return (n, v == "true" ? "false" : "true")
                }
            }
            let r = try split(expr, c)
            return r.yes.map { ($0, "true") } + r.no.map { ($0, "false") }
        case .enumeration:
            if let ref = SyntaxHelpers.caseReference(expr, effects.index, accepting: f.states.contains) { return [(c, ref.name)] }
            // a value the code computes: any of the field's states, each on a path of its own
            let text = expr.compactText
            return f.states.map { s in
                var n = c
                n.guards.append("\(text) == .\(s)")
                return (n, s)
            }
        }
    }

    // MARK: Ends of paths

    /// What the path requires of each field, in the order the field declares its states; a field that
    /// may have any value is left out.
    func requirements(_ c: Ctx) -> [String: [String]] {
        var out: [String: [String]] = [:]
        for f in fields {
            guard let set = c.requires[f.name], set.count < f.states.count else { continue }
            out[f.name] = f.states.filter(set.contains)
        }
        return out
    }

    func finish(_ c: Ctx, returning expr: ExprSyntax?) {
        guard !c.inputs.isEmpty else { return }
        var effect = c.effect
        var cancels = c.cancels
        if let expr {
            let value = SyntaxHelpers.unwrap(expr)
            // `return newState` (a reducer returning a copy of its state) returns no effect
            if !value.is(NilLiteralExprSyntax.self), !statePaths.contains(SyntaxHelpers.path(value) ?? "") {
                let r = effects.read(value)
                if let e = r.effect { effect = effect.map { $0.merged(with: e) } ?? e }
                cancels = cancels.appendingUnique(r.cancels)
            }
        }
        rules.append(ProductMachine.Rule(
            location: c.location, inputs: c.inputs, pattern: c.pattern,
            requires: requirements(c),
            writes: c.writes, guardText: c.guards.isEmpty ? nil : c.guards.uniqued().joined(separator: " && "),
            effect: effect, cancels: cancels))
    }
}

/// `// machine-viz: invariant EXPR` comments in a state type's declaration.
enum ProductInvariants {
    struct Stated {
        var text: String
        var location: SourceLocation
    }

    static func stated(in type: TypeInfo, context: ExtractionContext) -> [Stated] {
        var out: [Stated] = []
        for token in type.node.tokens(viewMode: .sourceAccurate) {
            var position = token.position
            for piece in token.leadingTrivia {
                defer { position = position.advanced(by: piece.sourceLength.utf8Length) }
                guard case .lineComment(let text) = piece, let body = CommentCommands.invariantText(text) else { continue }
                let location = type.file.location(at: position)
                do {
                    _ = try Invariant(body)
                    out.append(Stated(text: body, location: location))
                } catch {
                    context.warn("\(error); the invariant is left out", at: location)
                }
            }
        }
        return out
    }
}
