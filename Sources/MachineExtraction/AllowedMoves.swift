import MachineModel
import SwiftSyntax

/// An enum's relation of allowed moves, read as a machine with no inputs: a computed property listing
/// per case the cases it may move to (`var next: [Self] { switch self { case .idle: [.loading] … } }`),
/// or a predicate over two of its values (`func canTransition(to next: Self) -> Bool { switch (self,
/// next) { case (.idle, .loading), (.loading, .done): true; default: false } }`, or a static function
/// of two). Only members named as such (`next…`, `…transition…`, `…successor…`, or allowed, valid,
/// legal, possible or can with next, move, target, state, go, enter, become or advance: `canMove`,
/// `validNextStates`) and read whole: a case the reader cannot read (a `where`, a body that is not a
/// literal) leaves the member unread. Each move is an edge with no input
/// (`*`) but the member's name; the holders' starting value, when they agree, is the initial state.
/// A method setting the state to its argument where a `switch` over both allows it (`validated`) is read
/// the same way, for an enum (`self = next`) or a property of another type (`phase = newPhase`).
struct AllowedMoves {
    let type: TypeInfo
    let stateEnum: EnumInfo
    let context: ExtractionContext

    static func namedAsMoves(_ name: String) -> Bool {
        let lower = name.lowercased()
        if lower.hasPrefix("next") || ["transition", "successor"].contains(where: lower.contains) { return true }
        return ["allow", "valid", "legal", "possible", "can"].contains(where: lower.contains)
            && ["next", "move", "target", "state", "go", "enter", "become", "advance"].contains(where: lower.contains)
    }

    var selfNames: Set<String> { ["Self", stateEnum.name, type.qualifiedName] }

    struct Move: Hashable {
        var from: String
        var to: String
    }

    /// What a member allows: its name, its trigger (`canMove()` for a method), where it is, and each
    /// move with where the code allows it.
    struct Reading {
        var member: String
        var trigger: String
        var location: SourceLocation
        var moves: [(move: Move, location: SourceLocation)]

        init(_ moves: [(move: Move, node: Syntax)], of method: FunctionDeclSyntax, in file: ParsedFile) {
            member = method.name.text
            trigger = member + "()"
            location = file.location(of: method)
            self.moves = moves.map { ($0.move, file.location(of: $0.node)) }
        }

        init(_ moves: [(move: Move, node: Syntax)], of property: Binding) {
            member = property.name
            trigger = member
            location = property.location
            self.moves = moves.map { ($0.move, property.file.location(of: $0.node)) }
        }
    }

    /// The moves the first such member allows.
    func read() -> Reading? {
        for property in type.properties where property.isComputed && !property.isStatic && Self.namedAsMoves(property.name) {
            guard let text = property.typeText, isCollectionOfSelf(text), let body = ExtractionContext.getter(of: property),
                  let moves = listed(body) else { continue }
            return Reading(moves, of: property)
        }
        for (method, file) in type.methods where Self.namedAsMoves(method.name.text) {
            guard method.signature.returnClause?.type.trimmedText == "Bool", let body = method.body,
                  !Self.looksUp(body), let moves = predicate(method, body.statements) else { continue }
            return Reading(moves, of: method, in: file)
        }
        return readValidated(subject: "self")
    }

    /// Whether a predicate looks its answer up in a table (`Self.next[self]?.contains(n)`): the table draws
    /// the machine, read as a dictionary table.
    static func looksUp(_ body: CodeBlockSyntax) -> Bool {
        body.statements.tokens(viewMode: .sourceAccurate).contains { $0.tokenKind == .leftSquare && $0.parent?.is(SubscriptCallExprSyntax.self) == true }
    }

    /// A method of the enum named as moves that takes its values and answers a `Bool` (the predicate `read`
    /// found nothing in), when `read` found nothing.
    func unreadPredicate() -> (FunctionDeclSyntax, ParsedFile)? {
        type.methods.first { method, _ in
            Self.namedAsMoves(method.name.text) && method.body.map(Self.looksUp) == false && method.signature.returnClause?.type.trimmedText == "Bool"
                && !method.signature.parameterClause.parameters.isEmpty
                && method.signature.parameterClause.parameters.allSatisfy { selfNames.contains($0.type.trimmedText) }
        }
    }

    /// The first method of the type that sets `subject` (`self` or a property) to its argument where a
    /// `switch` over both allows it.
    func readValidated(subject: String) -> Reading? {
        for (method, file) in type.methods {
            if let moves = validated(method, subject: subject) { return Reading(moves, of: method, in: file) }
        }
        return nil
    }

    func isCollectionOfSelf(_ text: String) -> Bool {
        let t = text.replacingOccurrences(of: " ", with: "")
        for name in selfNames where ["[\(name)]", "Set<\(name)>", "Array<\(name)>"].contains(t) { return true }
        return false
    }

    /// The one `switch` a body is (`switch self { … }`, `return switch …`).
    static func onlySwitch(_ items: CodeBlockItemListSyntax) -> SwitchExprSyntax? {
        guard items.count == 1, let item = items.first?.item else { return nil }
        if let e = item.as(ExpressionStmtSyntax.self)?.expression.as(SwitchExprSyntax.self) { return e }
        if let e = item.as(ReturnStmtSyntax.self)?.expression?.as(SwitchExprSyntax.self) { return e }
        return item.as(SwitchExprSyntax.self)
    }

    func state(_ expr: ExprSyntax) -> String? {
        SyntaxHelpers.caseReference(expr, context.index, accepting: stateEnum.caseNames.contains)?.name
    }

    /// `switch self { case .a, .b: [.c] … default: [] }`: every case's list, read whole.
    func listed(_ body: CodeBlockItemListSyntax) -> [(move: Move, node: Syntax)]? {
        guard let sw = Self.onlySwitch(body), SyntaxHelpers.unwrap(sw.subject).trimmedText == "self" else { return nil }
        var remaining = stateEnum.caseNames
        var moves: [(move: Move, node: Syntax)] = []
        for sc in SyntaxHelpers.cases(of: sw) {
            var sources: [String] = []
            switch sc.label {
            case .default: sources = remaining
            case .case(let label):
                for item in label.caseItems {
                    guard item.whereClause == nil, let e = item.pattern.as(ExpressionPatternSyntax.self)?.expression,
                          let from = state(e) else { return nil }
                    sources.append(from)
                }
            }
            guard let array = SyntaxHelpers.onlyValue(sc.statements).flatMap(SyntaxHelpers.arrayLiteral) else { return nil }
            var targets: [(String, Syntax)] = []
            for element in array.elements {
                guard let to = state(element.expression) else { return nil }
                targets.append((to, Syntax(element)))
            }
            for from in sources where remaining.contains(from) {
                moves += targets.map { (Move(from: from, to: $0.0), $0.1) }
            }
            remaining.removeAll(where: sources.contains)
        }
        return moves
    }

    /// `switch (self, next) { case (.a, .b), (.b, _): true; default: false }` (or of a static function's
    /// two parameters): the first case matching a pair decides it.
    func predicate(_ method: FunctionDeclSyntax, _ body: CodeBlockItemListSyntax) -> [(move: Move, node: Syntax)]? {
        guard let subjects = subjects(of: method) else { return nil }
        if let sw = Self.onlySwitch(body), let moves = firstMatch(sw, from: [subjects[0]], to: subjects[1], allows: Self.answers) { return moves }
        // (any other body: each pair tried, `switch next { case .sent: return self == .draft … }`)
        return PairPredicate(moves: self, from: subjects[0], to: subjects[1]).allowed(body)
    }

    /// A predicate's source and target: `self` and its one parameter, or a static function's two.
    func subjects(of method: FunctionDeclSyntax) -> [String]? {
        let parameters = method.signature.parameterClause.parameters.map { p in ((p.secondName ?? p.firstName).text, p.type.trimmedText) }
        let isStatic = SymbolIndex.isStatic(method.modifiers)
        guard parameters.allSatisfy({ selfNames.contains($0.1) }) else { return nil }
        if isStatic, parameters.count == 2 { return parameters.map(\.0) }
        if !isStatic, parameters.count == 1 { return ["self", parameters[0].0] }
        return nil
    }

    /// The sources a member's one `switch` explicitly allows nothing from, ends by design: `case .returned:
    /// []` in a list of next cases, `case .ended: return false` or `case (.closed, _): false` in a predicate
    /// (`source` names the switch's source: `self`, or a static predicate's first parameter).
    func ends(_ body: CodeBlockItemListSyntax, source: String) -> Set<String> {
        guard let sw = Self.onlySwitch(body) else { return [] }
        let subject = SyntaxHelpers.unwrap(sw.subject)
        let tuple = subject.as(TupleExprSyntax.self).map { Array($0.elements) }
        // (nil: the switch is over the source alone)
        var sourceAt: Int?
        if let tuple, tuple.count == 2, let i = tuple.firstIndex(where: { $0.expression.trimmedText == source }) { sourceAt = i }
        else if subject.trimmedText != source { return [] }
        var result = Set<String>()
        for sc in SyntaxHelpers.cases(of: sw) {
            guard case .case(let label) = sc.label, let value = SyntaxHelpers.onlyValue(sc.statements),
                  value.as(BooleanLiteralExprSyntax.self)?.literal.tokenKind == .keyword(.false)
                    || SyntaxHelpers.arrayLiteral(value)?.elements.isEmpty == true else { continue }
            for item in label.caseItems where item.whereClause == nil {
                guard let e = item.pattern.as(ExpressionPatternSyntax.self)?.expression else { continue }
                if let i = sourceAt {
                    guard let pair = e.as(TupleExprSyntax.self).map({ Array($0.elements) }), pair.count == 2,
                          SyntaxHelpers.unwrap(pair[1 - i].expression).is(DiscardAssignmentExprSyntax.self),
                          let s = state(pair[i].expression) else { continue }
                    result.insert(s)
                } else if let s = state(e) {
                    result.insert(s)
                }
            }
        }
        return result
    }

    /// A method setting the state to its argument in the cases of a `switch` over both that allow it
    /// (`mutating func transition(to next: Self) { switch (self, next) { case (.idle, .busy): self = next
    /// default: throw … } }`, or `func move(to p: Phase) { switch (phase, p) { … phase = p … } }` for a
    /// property `phase`): the moves those cases allow, each case's pairs taken by the first that matches.
    /// `subject`: `self`, or the property's name.
    func validated(_ method: FunctionDeclSyntax, subject: String) -> [(move: Move, node: Syntax)]? {
        let parameters = method.signature.parameterClause.parameters
        guard parameters.count == 1, let p = parameters.first, selfNames.contains(p.type.trimmedText), let body = method.body else { return nil }
        let argument = (p.secondName ?? p.firstName).text
        let paths: Set<String> = subject == "self" ? ["self"] : [subject, "self." + subject]
        guard let sw = Self.onlySwitch(body.statements) else { return checked(body, argument: argument, paths: paths) }
        var any = false
        let moves = firstMatch(sw, from: paths, to: argument) { sc in
            let sets = SwitchFinder.scan(sc).assignments.contains { paths.contains($0.lhs.trimmedText) && $0.rhs.trimmedText == argument }
            any = any || sets
            return sets
        }
        return any ? moves : nil
    }

    /// A method setting the state to its argument after asking a predicate method of the type about it
    /// (`guard canTransition(to: next) else { return false }; current = next`, with `func canTransition(to
    /// next: Phase) -> Bool { switch (current, next) { case (.idle, .preparing): return true … } }`): the
    /// moves the predicate allows.
    func checked(_ body: CodeBlockSyntax, argument: String, paths: Set<String>) -> [(move: Move, node: Syntax)]? {
        guard let first = body.statements.first?.item.as(GuardStmtSyntax.self), first.conditions.count == 1,
              case .expression(let condition)? = first.conditions.first?.condition,
              let call = SyntaxHelpers.unwrap(condition).as(FunctionCallExprSyntax.self), call.arguments.count == 1,
              call.arguments.first?.expression.trimmedText == argument,
              let name = SyntaxHelpers.path(call.calledExpression), !name.contains("."),
              SwitchFinder.scan(body).assignments.contains(where: { paths.contains($0.lhs.trimmedText) && $0.rhs.trimmedText == argument }),
              let predicate = type.methods.first(where: { method, _ in
                  method.name.text == name && method.signature.returnClause?.type.trimmedText == "Bool"
                      && method.signature.parameterClause.parameters.count == 1
                      && method.signature.parameterClause.parameters.allSatisfy { selfNames.contains($0.type.trimmedText) }
              })?.0, let parameter = predicate.signature.parameterClause.parameters.first,
              let sw = predicate.body.flatMap({ Self.onlySwitch($0.statements) }) else { return nil }
        return firstMatch(sw, from: paths, to: (parameter.secondName ?? parameter.firstName).text, allows: Self.answers)
    }

    /// What a predicate's case answers (`case (.idle, .loading): true`, `return false`); nil for another value.
    static func answers(_ sc: SwitchCaseSyntax) -> Bool? {
        SyntaxHelpers.onlyValue(sc.statements)?.as(BooleanLiteralExprSyntax.self).map { $0.literal.tokenKind == .keyword(.true) }
    }

    /// The moves a `switch` over a (source, target) tuple allows: `from` names the source (wherever the
    /// tuple puts it), `to` the target; `allows` says whether a case allows its pairs (nil: unreadable,
    /// no moves at all). The first case matching a pair decides it.
    func firstMatch(_ sw: SwitchExprSyntax, from: Set<String>, to: String,
                    allows: (SwitchCaseSyntax) -> Bool?) -> [(move: Move, node: Syntax)]? {
        guard let tuple = SyntaxHelpers.unwrap(sw.subject).as(TupleExprSyntax.self), tuple.elements.count == 2 else { return nil }
        let written = tuple.elements.map { $0.expression.trimmedText }
        guard let fromAt = written.firstIndex(where: from.contains), written[1 - fromAt] == to else { return nil }
        var decided = Set<Move>()
        var moves: [(move: Move, node: Syntax)] = []
        let states = stateEnum.caseNames
        for sc in SyntaxHelpers.cases(of: sw) {
            guard let allowed = allows(sc) else { return nil }
            var pairs: [Move] = []
            switch sc.label {
            case .default:
                pairs = states.flatMap { f in states.map { Move(from: f, to: $0) } }
            case .case(let label):
                for item in label.caseItems {
                    guard item.whereClause == nil, let e = item.pattern.as(ExpressionPatternSyntax.self)?.expression.as(TupleExprSyntax.self),
                          e.elements.count == 2 else { return nil }
                    var sides: [[String]] = []
                    for element in e.elements {
                        let x = SyntaxHelpers.unwrap(element.expression)
                        if x.is(DiscardAssignmentExprSyntax.self) || x.is(PatternExprSyntax.self) { sides.append(states) }
                        else if let s = state(x) { sides.append([s]) }
                        else { return nil }
                    }
                    pairs += sides[fromAt].flatMap { f in sides[1 - fromAt].map { Move(from: f, to: $0) } }
                }
            }
            for pair in pairs where decided.insert(pair).inserted && allowed {
                moves.append((pair, Syntax(sc)))
            }
        }
        return moves
    }
}
