import MachineModel
import SwiftSyntax

/// Reducers that mutate `inout` state and return effects: Actomaton `Reducer { action, state, env in }`
/// (D3), TCA `Reduce { state, action in }` and `reduce(into:action:)` (D4), legacy TCA
/// `Reducer<State, Action, Env> { state, action, env in }` (D5), and CombineProcessor
/// `AnyProcessorReducer(mutated:reduce:)` (D8). An enum state is one machine; a struct state gives one
/// machine per enum, Bool or Optional field the reducer assigns (or switches on), named `Type.field`.
struct ReducerRecogniser: Recogniser {
    struct Candidate {
        var node: Syntax
        var body: CodeBlockItemListSyntax
        var dialect: Dialect
        var stateParam: String
        var actionParam: String
        var stateType: String?
        var actionType: String?
        var bindingName: String?
        var ownerTypes: [String]
        var file: ParsedFile
        var ifLetCalls = IfLetCalls()
        /// Shaped like a reducer by its signature only (`func reduce(_ s: inout AppState, _ a: AppAction)`,
        /// a store's `dispatch(_:)`): read when its types say it is one (`readsAsReducer`), and nothing is
        /// said when its state has no field that is a machine.
        var bySignature = false
        /// The parameter the state is a copy of (`var next = model`): it names the state as it was.
        var copied: String?
        /// Returns Mobius's `Next<Model, Effect>` (`.next(copy, effects: …)`, `.noChange`).
        var returnsNext = false
        /// Other names of the action (the parameter an action read through a cast was cast from).
        var actionAliases: [String] = []
        /// The only actions that reach it: `BindingReducer().onChange(of: \.query) { … Reduce { … } }` runs
        /// its reducer after a binding changed the field, on `binding` alone.
        var onlyInputs: Set<String>?
        /// The types the reducer tells its actions apart by, when its action is no enum (`typeCases`),
        /// once read.
        var actionTypes: [String]?
    }

    func finder(for file: ParsedFile) -> SyntaxVisitor? { CandidateFinder(file: file) }

    func recognise(in context: ExtractionContext, found: [SyntaxVisitor?]) {
        // building reads the whole index: on `jobs` threads, each candidate built in a forked context,
        // merged in candidate order
        var chosen: [Candidate] = []
        for (_, finder) in self.found(found, in: context, as: CandidateFinder.self) {
            for var candidate in finder.candidates(index: context.index) where !context.claimed.contains(candidate.node.id) {
                if candidate.bySignature {
                    guard let types = Self.readsAsReducer(candidate, context: context) else { continue }
                    candidate.actionTypes = types
                }
                // a reduce-shaped function that another reducer calls with `&state` is part of that reducer
                if let f = candidate.node.as(FunctionDeclSyntax.self), f.name.text != "reduce",
                   context.inoutCalledFunctions.contains(f.id) { continue }
                context.claimed.insert(candidate.node.id)
                chosen.append(candidate)
            }
        }
        context.buildEach(chosen) { candidate, context in build(candidate, context: context) }
    }

    // MARK: Finding reducers

    final class CandidateFinder: SyntaxVisitor {
        let file: ParsedFile
        /// The candidates in walk order; a `Reducer { … }` closure waits for the file's imports, which
        /// the whole index knows (`@_exported` imports of the module), to tell Actomaton's from TCA's.
        private var found: [Found] = []
        private enum Found {
            case candidate(Candidate)
            case reducer(ClosureExprSyntax, params: [String], generics: [String], owners: [String])
            /// A call of a type named otherwise, given a closure of two parameters or more (`LampReducer {
            /// state, action, _ in … }`): a reducer when the name is a typealias of one, which the index says.
            case aliased(FunctionCallExprSyntax, name: String)
            /// A closure of two parameters written without types whose types its context gives: the type
            /// annotation of the variable it is the value of (`let r: Reducer<S, A> = { state, action in … }`,
            /// a typealias of a function type), or the two generic arguments of the call it is the trailing
            /// closure or `reducer:` of (`Store<S, A>(initialState: …) { state, action in … }`). A reducer
            /// of a struct state when the body writes one parameter (the index says which types they are).
            case contextual(ClosureExprSyntax, annotation: String?, generics: [String], owners: [String])
        }

        init(file: ParsedFile) {
            self.file = file
            super.init(viewMode: .sourceAccurate)
        }

        func candidates(index: SymbolIndex) -> [Candidate] {
            let imports = index.imports(of: file)
            var candidates: [Candidate] = []
            for f in found.flatMap({ expanded($0, index: index) }) {
                switch f {
                case .aliased: break
                case .candidate(let c): candidates.append(c)
                case .contextual(let closure, let annotation, let generics, let owners):
                    if let c = Self.contextual(closure, annotation: annotation, generics: generics, owners: owners, file: file, index: index) {
                        candidates.append(c)
                    }
                case .reducer(let closure, let params, let args, let owners):
                    var actomaton = imports.contains { $0 == "Actomaton" || $0 == "ActomatonUI" || $0 == "ActomatonCore" }
                    if !actomaton && !imports.contains("ComposableArchitecture") {
                        // neither framework imported: the parameter the body writes is the state
                        // (Actomaton: `action, state, env`; legacy TCA: `state, action, env`)
                        let written = Set(SwitchFinder.scan(closure.statements).assignments.compactMap {
                            SyntaxHelpers.path($0.lhs).map { String($0.split(separator: ".").first!) } })
                        actomaton = written.contains(params[1]) && !written.contains(params[0])
                    }
                    let candidate = actomaton
                        ? Self.candidate(closure, file: file, dialect: .actomaton, state: 1, action: 0,
                                         stateType: args.count > 1 ? args[1] : nil, actionType: args.first, owners: owners)
                        : Self.candidate(closure, file: file, dialect: .tcaLegacy, state: 0, action: 1,
                                         stateType: args.first, actionType: args.count > 1 ? args[1] : nil, owners: owners)
                    if let candidate { candidates.append(candidate) }
                }
            }
            return candidates
        }

        /// The candidate of a `contextual` closure: the parameter its body writes is the state (taken
        /// `inout`), of the type the annotation's function type gives it (or the first generic argument), when
        /// that is a struct (an enum state's closure is a mapping function's, read with the enums).
        static func contextual(_ closure: ClosureExprSyntax, annotation: String?, generics: [String], owners: [String],
                               file: ParsedFile, index: SymbolIndex) -> Candidate? {
            let names = SyntaxHelpers.closureParameterNames(closure)
            let written = Set(SwitchFinder.scan(closure.statements).assignments.compactMap {
                SyntaxHelpers.path($0.lhs).map { String($0.split(separator: ".").first!) } })
            guard names.count == 2, let s = names.firstIndex(where: written.contains), !written.contains(names[1 - s]),
                  let scope = index.scope(of: closure) else { return nil }
            var stateType: String?, actionType: String?
            if let annotation {
                let function = index.resolveType(annotation, in: scope)
                guard function.externalName == "(function)", function.arguments.count == 3 else { return nil }
                stateType = function.arguments[s].declared?.qualifiedName
                actionType = function.arguments[1 - s].declared?.qualifiedName
            } else if generics.count == 2 {
                (stateType, actionType) = (generics[0], generics[1])
            }
            guard let stateType, let actionType, index.resolveType(stateType, in: scope).declared?.kind == "struct" else { return nil }
            var c = Candidate(node: Syntax(closure), body: closure.statements, dialect: .mappingFunction, stateParam: names[s],
                              actionParam: names[1 - s], stateType: stateType, actionType: actionType,
                              bindingName: SyntaxHelpers.enclosingBindingName(closure), ownerTypes: owners, file: file)
            c.bySignature = true
            return c
        }

        override func visit(_ node: ClosureExprSyntax) -> SyntaxVisitorContinueKind {
            guard SyntaxHelpers.closureParameterNames(node).count == 2, SyntaxHelpers.closureParameterTypes(node).allSatisfy({ $0 == nil }) else {
                return .visitChildren
            }
            if let binding = node.parent?.as(InitializerClauseSyntax.self)?.parent?.as(PatternBindingSyntax.self),
               let annotation = binding.typeAnnotation?.type.trimmedText {
                found.append(.contextual(node, annotation: annotation, generics: [], owners: SyntaxHelpers.enclosingTypeNames(node)))
            } else if let call = SyntaxHelpers.call(taking: node),
                      call.trailingClosure?.id == node.id || call.arguments.contains(where: { ["reduce", "reducer"].contains($0.label?.text ?? "") && $0.expression.id == node.id }),
                      case let generics = Self.genericArguments(call.calledExpression), generics.count == 2,
                      !Self.reducerNames.contains(Self.leadingName(call.calledExpression) ?? "") {
                found.append(.contextual(node, annotation: nil, generics: generics, owners: SyntaxHelpers.enclosingTypeNames(node)))
            }
            return .visitChildren
        }

        /// An aliased call as the reducer it builds, when its name is a typealias (of no parameters) of a
        /// reducer type: `typealias LampReducer = Reducer<LampState, LampAction, Void>`.
        private func expanded(_ f: Found, index: SymbolIndex) -> [Found] {
            guard case .aliased(let call, let name) = f else { return [f] }
            guard let scope = index.scope(of: call), case let (declared, generic) = index.lookup(name, in: scope), !generic,
                  declared.count == 1, case .alias(let alias) = declared[0], alias.parameters.isEmpty,
                  case let target = alias.target.trimmedText, Self.reducerNames.contains(SymbolIndex.bareTypeName(target)) else { return [] }
            return reducers(call, callee: SymbolIndex.bareTypeName(target), generics: Self.genericArguments(inType: target))
        }

        static func genericArguments(_ expr: ExprSyntax) -> [String] {
            if let g = expr.as(GenericSpecializationExprSyntax.self) {
                return g.genericArgumentClause.arguments.map { $0.argument.trimmedText }
            }
            if let m = expr.as(MemberAccessExprSyntax.self), let base = m.base { return genericArguments(base) }
            return []
        }

        static func genericArguments(inType text: String?) -> [String] {
            guard let text, let lt = text.firstIndex(of: "<"), let gt = text.lastIndex(of: ">"), lt < gt else { return [] }
            var args: [String] = []
            var depth = 0
            var current = ""
            for ch in text[text.index(after: lt)..<gt] {
                if ch == "<" || ch == "(" || ch == "[" { depth += 1 }
                if ch == ">" || ch == ")" || ch == "]" { depth -= 1 }
                if ch == ",", depth == 0 { args.append(current.trimmingCharacters(in: .whitespaces)); current = ""; continue }
                current.append(ch)
            }
            args.append(current.trimmingCharacters(in: .whitespaces))
            return args
        }

        /// The type annotation of the variable a node is the value of (`var reducer: Reducer<A, S, E> { … }`).
        static func enclosingTypeAnnotation(_ node: some SyntaxProtocol) -> String? {
            var current = node.parent
            while let c = current {
                if let b = c.as(PatternBindingSyntax.self) { return b.typeAnnotation?.type.trimmedText }
                if let f = c.as(FunctionDeclSyntax.self) { return f.signature.returnClause?.type.trimmedText }
                if c.is(CodeBlockItemSyntax.self) && c.parent?.parent?.is(SourceFileSyntax.self) == true { return nil }
                if c.is(MemberBlockItemSyntax.self) { return nil }
                current = c.parent
            }
            return nil
        }

        /// The name a call starts with: `Reduce` in `Reduce<S, A>.init { … }`.
        static func leadingName(_ expr: ExprSyntax) -> String? {
            if let ref = expr.as(DeclReferenceExprSyntax.self) { return ref.baseName.text }
            if let g = expr.as(GenericSpecializationExprSyntax.self) { return leadingName(g.expression) }
            if let m = expr.as(MemberAccessExprSyntax.self), let base = m.base { return leadingName(base) }
            return nil
        }

        static let reducerNames: Set<String> = ["Reduce", "Reducer", "AnyReducer", "AnyProcessorReducer"]

        /// Whether a reducer is the one `BindingReducer().onChange(of:)` runs (in its trailing closure).
        static func afterBindings(_ node: FunctionCallExprSyntax) -> Bool {
            for ancestor in sequence(first: Syntax(node), next: { $0.parent }).prefix(8) {
                guard let call = ancestor.as(FunctionCallExprSyntax.self), call.id != node.id,
                      let member = call.calledExpression.as(MemberAccessExprSyntax.self), member.declName.baseName.text == "onChange" else { continue }
                return member.base.flatMap { $0.as(FunctionCallExprSyntax.self) }.map { leadingName($0.calledExpression) == "BindingReducer" } ?? false
            }
            return false
        }

        /// The type arguments of the call a reducer is handed to: `Actomaton<Action, State, Env>(state:
        /// reducer: Reducer { … })`, `Store<State, Action>(…)` (each in its reducer's order).
        static func constructionGenerics(around node: FunctionCallExprSyntax) -> [String] {
            enclosingCall(of: node).map { genericArguments($0.calledExpression) } ?? []
        }

        /// The call a value is an argument of, directly or as an element of an array argument
        /// (`Reducer<S, A, E>.combine([Reducer { … }, …])`).
        static func enclosingCall(of node: FunctionCallExprSyntax) -> FunctionCallExprSyntax? {
            var argument = node.parent
            if let element = argument?.as(ArrayElementSyntax.self) { argument = element.parent?.parent?.parent }
            return argument?.as(LabeledExprSyntax.self)?.parent?.parent?.as(FunctionCallExprSyntax.self)
        }

        /// `Store<State, Action>(initialState: …) { Reduce { … } }` (`TestStore` too): the types the store
        /// is written with, when the reducer is the one statement of its trailing closure.
        static func storeGenerics(around node: FunctionCallExprSyntax) -> [String] {
            guard let item = node.parent?.as(CodeBlockItemSyntax.self), let list = item.parent?.as(CodeBlockItemListSyntax.self),
                  list.count == 1, let closure = list.parent?.as(ClosureExprSyntax.self),
                  let store = closure.parent?.as(FunctionCallExprSyntax.self), store.trailingClosure?.id == closure.id,
                  let name = leadingName(store.calledExpression), name == "Store" || name == "TestStore" else { return [] }
            return genericArguments(store.calledExpression)
        }

        override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
            // a closure handed to a library as its reducer, its parameters written with their types
            // (CombineFeedback's `Loop(initial: State(), reduce: { (state: inout State, event: Event) in … })`):
            // read like a function of that signature
            for argument in node.arguments where ["reduce", "reducer"].contains(argument.label?.text ?? "") {
                guard let closure = argument.expression.as(ClosureExprSyntax.self) else { continue }
                // (or one returning a copy it changed, RxFeedback's `reduce: { (state: S, event: E) -> S in var s = state; …; return s }`)
                if let copy = Self.returnedCopy(closure) {
                    let parameters = Array(zip(SyntaxHelpers.closureParameterNames(closure), SyntaxHelpers.closureParameterTypes(closure)))
                    found.append(.candidate(Self.copyCandidate(Syntax(closure), body: closure.statements, parameters: parameters, copy: copy,
                                                               bindingName: SyntaxHelpers.enclosingBindingName(closure),
                                                               owners: SyntaxHelpers.enclosingTypeNames(node), file: file)))
                    continue
                }
                guard case let types = SyntaxHelpers.closureParameterTypes(closure), types.count == 2, types.allSatisfy({ $0 != nil }),
                      let s = types.firstIndex(where: { $0!.hasPrefix("inout ") }) ?? (types[1]!.hasPrefix("inout ") ? nil : 0),
                      var c = Self.candidate(closure, file: file, dialect: .mappingFunction, state: s, action: 1 - s, stateType: nil, actionType: nil,
                                             owners: SyntaxHelpers.enclosingTypeNames(node)) else { continue }
                c.bySignature = true
                found.append(.candidate(c))
            }
            // `.init { … }` as the value of `var reducer: Reducer<A, S, E>`: the annotation names the type
            var implicitType: String?
            if let m = node.calledExpression.as(MemberAccessExprSyntax.self), m.base == nil, m.declName.baseName.text == "init" {
                implicitType = Self.enclosingTypeAnnotation(node).map(SymbolIndex.bareTypeName)
                    // (`Reducer<S, A, E>.combine(.init { … })`: the reducer type the call is on)
                    ?? Self.enclosingCall(of: node).flatMap { Self.leadingName($0.calledExpression) }.flatMap { Self.reducerNames.contains($0) ? $0 : nil }
            }
            guard let lead = implicitType ?? Self.leadingName(node.calledExpression) else { return .visitChildren }
            guard Self.reducerNames.contains(lead) else {
                if lead.first?.isUppercase == true, lead == node.calledExpression.trimmedText,
                   SyntaxHelpers.closures(of: node).contains(where: { SyntaxHelpers.closureParameterNames($0).count >= 2 }) {
                    found.append(.aliased(node, name: lead))
                }
                return .visitChildren
            }
            let calleeText = implicitType ?? SymbolIndex.bareTypeName(node.calledExpression.trimmedText)
            let callee = calleeText.hasSuffix(".init") ? String(calleeText.dropLast(5)) : calleeText
            found += reducers(node, callee: callee, generics: Self.genericArguments(node.calledExpression))
            return .visitChildren
        }

        /// The reducer a call of a reducer type builds (`callee`: `Reduce`, `Reducer`, …; `generics`: the
        /// type arguments it is written with).
        private func reducers(_ node: FunctionCallExprSyntax, callee: String, generics: [String]) -> [Found] {
            let closures = SyntaxHelpers.closures(of: node)
            let annotated = Self.genericArguments(inType: Self.enclosingTypeAnnotation(node))
            let owners = SyntaxHelpers.enclosingTypeNames(node)
            func candidate(_ closure: ClosureExprSyntax, dialect: Dialect, stateType: String?, actionType: String?) -> [Found] {
                Self.candidate(closure, file: file, dialect: dialect, state: 0, action: 1, stateType: stateType, actionType: actionType,
                               owners: owners).map { [.candidate($0)] } ?? []
            }
            switch callee {
            case "Reduce":
                // `Reduce<State, Action>`, the body's `some Reducer<State, Action>`, or the store's it is built in
                let stored = generics.count == 2 || annotated.count == 2 ? [] : Self.storeGenerics(around: node)
                let args = generics.count == 2 ? generics : annotated.count == 2 ? annotated : stored.count == 2 ? stored : []
                guard let closure = closures.first else { return [] }
                var found = candidate(closure, dialect: .tca, stateType: args.first, actionType: args.last)
                if Self.afterBindings(node), case .candidate(var c)? = found.first {
                    c.onlyInputs = ["binding"]
                    found = [.candidate(c)]
                }
                return found
            case "Reducer", "AnyReducer":
                guard let closure = closures.first else { return [] }
                let params = SyntaxHelpers.closureParameterNames(closure)
                guard params.count >= 2 else { return [] }
                let args = !generics.isEmpty ? generics : !annotated.isEmpty ? annotated : Self.constructionGenerics(around: node)
                return [.reducer(closure, params: params, generics: args, owners: owners)]
            case "AnyProcessorReducer":
                let reduce = node.arguments.first { $0.label?.text == "reduce" }?.expression.as(ClosureExprSyntax.self) ?? closures.last
                guard let closure = reduce else { return [] }
                let args = generics.isEmpty ? annotated : generics
                return candidate(closure, dialect: .combineProcessor, stateType: args.first, actionType: args.count > 2 ? args[2] : nil)
            default:
                return []
            }
        }

        override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind {
            // TCA ReducerProtocol: func reduce(into state: inout State, action: Action) -> Effect<Action>,
            // also under other names used with `Reduce(self.core)`
            let params = Array(node.signature.parameterClause.parameters)
            let returns = node.signature.returnClause?.type.trimmedText ?? ""
            // TCA's effect types (the API), whatever the function is called
            let effectType = ReducerSpec.effectTypes.contains(SymbolIndex.bareTypeName(returns))
            guard node.name.text == "reduce" || effectType,
                  params.count == 2, params[0].firstName.text == "into",
                  SyntaxHelpers.isInout(params[0]), let body = node.body else {
                // any other function of an `inout` state and an action, by either order and any names (TCA's
                // when it returns TCA's effect type: `Reduce(self.core)` with `core(state:action:)`)
                if params.count == 2, let body = node.body, let s = params.firstIndex(where: SyntaxHelpers.isInout),
                   !SyntaxHelpers.isInout(params[1 - s]) {
                    let a = 1 - s
                    var c = Candidate(node: Syntax(node), body: body.statements, dialect: effectType ? .tca : .mappingFunction,
                                      stateParam: (params[s].secondName ?? params[s].firstName).text,
                                      actionParam: (params[a].secondName ?? params[a].firstName).text,
                                      stateType: params[s].type.trimmedText.replacingOccurrences(of: "inout ", with: ""),
                                      actionType: params[a].type.trimmedText, bindingName: node.name.text,
                                      ownerTypes: SyntaxHelpers.enclosingTypeNames(node), file: file)
                    c.bySignature = true
                    found.append(.candidate(c))
                } else if params.count == 2, let body = node.body, let copy = Self.returnedCopy(node, body: body) {
                    // `func reduce(state: AppState, action: AppAction) -> AppState { var new = state; …; return new }`
                    found.append(.candidate(Self.copyCandidate(
                        Syntax(node), body: body.statements, parameters: params.map { (($0.secondName ?? $0.firstName).text, $0.type.trimmedText) },
                        copy: copy, bindingName: node.name.text, owners: SyntaxHelpers.enclosingTypeNames(node), file: file)))
                }
                return .visitChildren
            }
            let stateType = params[0].type.trimmedText.replacingOccurrences(of: "inout ", with: "")
            found.append(.candidate(Candidate(
                node: Syntax(node), body: body.statements, dialect: .tca,
                stateParam: (params[0].secondName ?? params[0].firstName).text,
                actionParam: (params[1].secondName ?? params[1].firstName).text,
                stateType: stateType, actionType: params[1].type.trimmedText,
                bindingName: nil, ownerTypes: SyntaxHelpers.enclosingTypeNames(node), file: file)))
            return .visitChildren
        }

        /// A function returning its parameter's type that makes a copy of that parameter (its first
        /// statement, or one after early returns) and returns the copy, or the parameter unchanged (`guard
        /// … else { return state }`), on every `return`: the parameter's index, the copy's name and the
        /// state's type. So is a Mobius update returning `Next<Model, Effect>` whose `.next` gives the copy
        /// or a new model, and an Elm-style one returning the copy with a command (`-> (Model, Cmd)`,
        /// `return (model, .save)`).
        /// The candidate of a function or closure returning a changed copy of its state (`returnedCopy`): the
        /// copy is the state, and an action read through a cast at the top (`castAction`) is read as the cast.
        static func copyCandidate(_ node: Syntax, body: CodeBlockItemListSyntax, parameters: [(name: String, type: String?)],
                                  copy: (parameter: Int, name: String, type: String, next: Bool), bindingName: String?,
                                  owners: [String], file: ParsedFile) -> Candidate {
            let action = parameters[1 - copy.parameter]
            let cast = castAction(body, param: action.name)
            var c = Candidate(node: node, body: body, dialect: .mappingFunction, stateParam: copy.name, actionParam: cast?.name ?? action.name,
                              stateType: copy.type, actionType: cast?.type ?? action.type, bindingName: bindingName, ownerTypes: owners, file: file)
            c.bySignature = true
            c.returnsNext = copy.next
            c.copied = parameters[copy.parameter].name
            if let cast, cast.name != action.name { c.actionAliases = [action.name] }
            return c
        }

        static func returnedCopy(_ node: FunctionDeclSyntax, body: CodeBlockSyntax) -> (parameter: Int, name: String, type: String, next: Bool)? {
            returnedCopy(returning: node.signature.returnClause?.type,
                         parameters: node.signature.parameterClause.parameters.map { (($0.secondName ?? $0.firstName).text, $0.type.trimmedText) },
                         body: body.statements)
        }

        /// The same for a closure whose parameters and result are written with their types (`{ (state:
        /// Gallery, event: GalleryEvent) -> Gallery in var s = state; …; return s }`).
        static func returnedCopy(_ closure: ClosureExprSyntax) -> (parameter: Int, name: String, type: String, next: Bool)? {
            let types = SyntaxHelpers.closureParameterTypes(closure)
            guard types.allSatisfy({ $0 != nil }) else { return nil }
            return returnedCopy(returning: closure.signature?.returnClause?.type,
                                parameters: Array(zip(SyntaxHelpers.closureParameterNames(closure), types.map { $0! })),
                                body: closure.statements)
        }

        static func returnedCopy(returning returnType: TypeSyntax?, parameters params: [(name: String, type: String)],
                                 body statements: CodeBlockItemListSyntax) -> (parameter: Int, name: String, type: String, next: Bool)? {
            guard let returnType else { return nil }
            let next = SyntaxHelpers.nextModelType(returnType)
            // (an Elm-style update returns the model with a command: `-> (Model, Cmd)`)
            let pair = returnType.as(TupleTypeSyntax.self).flatMap { $0.elements.count == 2 ? $0.elements.first!.type.trimmedText : nil }
            let returned = next ?? pair ?? returnType.trimmedText
            // (ReSwift's reducers take the state optional, `nil` before the first action: `var state = state
            // ?? AppState()`)
            guard let s = params.firstIndex(where: { $0.type == returned || $0.type == returned + "?" })
            else { return nil }
            let parameter = params[s].name
            // (the copy: the first `var` statement, made of the parameter)
            guard let first = statements.lazy.compactMap({ $0.item.as(VariableDeclSyntax.self) }).first(where: { $0.bindingSpecifier.text == "var" }),
                  first.bindings.count == 1, let binding = first.bindings.first,
                  let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text,
                  let value = binding.initializer.map({ SyntaxHelpers.withoutFallback($0.value).value }), SyntaxHelpers.path(value) == parameter
            else { return nil }
            // (a model built afresh: `Model()`, `.init()`)
            func fresh(_ model: ExprSyntax) -> Bool { SyntaxHelpers.construction(model).map { $0 == nil || $0 == returned } ?? false }
            // what a `return` gives: the copy, or the parameter unchanged
            func returnedModel(_ e: ExprSyntax) -> String? {
                if pair != nil, let tuple = SyntaxHelpers.unwrap(e).as(TupleExprSyntax.self), tuple.elements.count == 2 {
                    return SyntaxHelpers.path(tuple.elements.first!.expression)
                }
                return SyntaxHelpers.path(e)
            }
            let returns = SwitchFinder.scan(statements).returns
            guard !returns.isEmpty, returns.allSatisfy({ r in
                guard let e = r.expression else { return false }
                if next != nil, let value = SyntaxHelpers.nextValue(e) { return value.model.map { SyntaxHelpers.path($0) == name || fresh($0) } ?? true }
                return [name, parameter].contains(returnedModel(e) ?? "")
            }), returns.contains(where: { r in r.expression.map { returnedModel($0) == name || next != nil } ?? false })
            else { return nil }
            return (s, name, returned, next != nil)
        }

        /// The action read through a cast at the top of a reducer whose action is a protocol (ReSwift's
        /// `guard let action = action as? CounterAction else { return state }`, or `if let`): the name it
        /// is bound to and the type. None where the reducer tells several action types apart (`if let a =
        /// action as? SetFilter { … } else if action is ClearFilter { … }`).
        static func castAction(_ body: CodeBlockItemListSyntax, param: String) -> (name: String, type: String)? {
            guard ReducerRecogniser.typeCases(in: body, action: param).count < 2 else { return nil }
            for item in body.prefix(3) {
                let conditions = item.item.as(GuardStmtSyntax.self)?.conditions
                    ?? item.item.as(ExpressionStmtSyntax.self)?.expression.as(IfExprSyntax.self)?.conditions
                    ?? item.item.as(IfExprSyntax.self)?.conditions
                guard let conditions, conditions.count == 1, case .optionalBinding(let b) = conditions.first!.condition,
                      let name = b.pattern.as(IdentifierPatternSyntax.self)?.identifier.text,
                      let (base, type) = b.initializer.flatMap({ SyntaxHelpers.conditionalCast($0.value) }), base == param
                else { continue }
                return (name, type)
            }
            return nil
        }

        static func candidate(_ closure: ClosureExprSyntax, file: ParsedFile, dialect: Dialect, state: Int, action: Int,
                              stateType: String?, actionType: String?, owners: [String]) -> Candidate? {
            let params = SyntaxHelpers.closureParameterNames(closure)
            let types = SyntaxHelpers.closureParameterTypes(closure)
            guard params.count > max(state, action) else { return nil }
            let explicitState = types.count > state ? types[state]?.replacingOccurrences(of: "inout ", with: "") : nil
            let explicitAction = types.count > action ? types[action] : nil
            return Candidate(
                node: Syntax(closure), body: closure.statements, dialect: dialect,
                stateParam: params[state], actionParam: params[action],
                stateType: stateType ?? explicitState, actionType: actionType ?? explicitAction,
                bindingName: SyntaxHelpers.enclosingBindingName(closure), ownerTypes: owners, file: file)
        }
    }

    /// The types a reducer whose action is a protocol tells its actions apart by, in the order written
    /// (ReSwift's `case let a as AddTodo`, `case _ as Undo`, `case is Reset` in a `switch` over the action,
    /// `if let a = action as? AddTodo`, `action is Reset`): its inputs.
    static func typeCases(_ c: Candidate) -> [String] { typeCases(in: c.body, action: c.actionParam) }

    static func typeCases(in body: CodeBlockItemListSyntax, action: String) -> [String] {
        final class Finder: SyntaxVisitor {
            let action: String
            var types: [String] = []
            init(action: String) { self.action = action; super.init(viewMode: .sourceAccurate) }
            override func visit(_ node: SwitchExprSyntax) -> SyntaxVisitorContinueKind {
                guard SyntaxHelpers.path(node.subject) == action else { return .visitChildren }
                for case .switchCase(let sc) in node.cases {
                    guard case .case(let label) = sc.label else { continue }
                    for item in label.caseItems { if let type = SyntaxHelpers.typeCase(item.pattern) { found(type) } }
                }
                return .visitChildren
            }
            override func visit(_ node: OptionalBindingConditionSyntax) -> SyntaxVisitorContinueKind {
                if let cast = node.initializer.flatMap({ SyntaxHelpers.conditionalCast($0.value) }), cast.base == action { found(cast.type) }
                return .visitChildren
            }
            override func visit(_ node: SequenceExprSyntax) -> SyntaxVisitorContinueKind {
                let parts = Array(node.elements)
                if parts.count == 3, parts[1].is(UnresolvedIsExprSyntax.self), SyntaxHelpers.path(parts[0]) == action,
                   let type = parts[2].as(TypeExprSyntax.self) { found(type.type.trimmedText) }
                return .visitChildren
            }
            func found(_ type: String) { if !types.contains(type) { types.append(type) } }
        }
        let finder = Finder(action: action)
        for item in body { finder.walk(item) }
        return finder.types
    }

    /// A candidate found by its signature is a reducer when its action is an enum it tests (`switch
    /// action`, `if case`, `==`), or a protocol whose types it tells apart, and its state a struct (an
    /// enum state is a mapping function's): nil when it is none, else those types (none for an enum).
    static func readsAsReducer(_ c: Candidate, context: ExtractionContext) -> [String]? {
        guard let scope = context.index.scope(of: c.node), let stateText = c.stateType, let actionText = c.actionType,
              let state = context.index.type(stateText, in: scope), state.kind == "struct" else { return nil }
        guard let action = context.index.enumInfo(actionText, in: scope) else {
            let types = typeCases(c)
            return types.isEmpty ? nil : types
        }
        return !action.cases.isEmpty && ValueTestFinder.tests(c.body, roots: [c.actionParam]) ? [] : nil
    }

    // MARK: Building machines

    func build(_ c: Candidate, context: ExtractionContext) {
        let location = c.file.location(of: c.node)
        // a `@Reducer enum` feature: the type the reducer is written in is that enum
        if c.dialect == .tca, let scope = context.index.scope(of: c.node),
           let owner = scope.innermostType,
           let feature = owner.enumInfo, Self.isReducer(feature.decl.attributes) {
            buildReducerEnum(c, feature: feature, location: location, context: context)
            return
        }
        // Action type: as written, resolved where it is written; when the closure does not say, the
        // `Action` the reducer sees (a feature's nested Action: `ReducerOf<Self>`, or a module's own)
        // (TCA's `ReducerOf<Self>`: a feature's own `Self.Action`; other dialects say it or are not read)
        let actionText = c.actionType ?? (c.dialect == .tca && !c.ownerTypes.isEmpty ? "Self.Action" : nil)
        guard let actionText else {
            context.warn("reducer: no action type is written for it (closure parameter, annotation or type arguments); no machine extracted", at: location)
            return
        }
        let actionResolved = context.resolve(actionText, at: c.node)
        let actionEnum = actionResolved?.enumInfo
        // (an action protocol whose conforming types are the actions, matched by a cast)
        let typeInputs = actionEnum == nil && c.bySignature ? (c.actionTypes ?? Self.typeCases(c)) : []
        guard actionEnum != nil || !typeInputs.isEmpty else {
            // generic over its action (`Reduce<State, Action>` in a framework, `Base.Action`): no machine of its own
            let root = String(actionText.prefix { $0 != "." && $0 != "<" })
            if let scope = context.index.scope(of: c.node), context.index.lookup(root, in: scope).generic {
                context.warn("reducer: the action type `\(actionText)` is a generic parameter (`\(root)`) here; no machine of its own",
                             at: location, severity: .note)
                return
            }
            // `Reducer<Int, Void>` (tests and samples): a plain value, no enum of actions
            let standard = if case .external(let name, _)? = actionResolved { Self.standardValueTypes.contains(name) } else { false }
            context.warn("reducer: the action type `\(actionText)` \(Self.why(actionResolved)); no machine extracted", at: location,
                         severity: standard ? .note : .warning)
            return
        }
        let scan = SwitchFinder.scan(c.body)
        let inputs = actionEnum?.caseNames ?? typeInputs
        let reader = context.effectReader(inputs: inputs, inputType: actionEnum, at: c.node)

        // State type: an enum (one machine) or a struct (a machine per field).
        let stateText = c.stateType ?? (c.dialect == .tca && !c.ownerTypes.isEmpty ? "Self.State" : nil)
        guard let stateText else {
            context.warn("reducer: no state type is written for it (closure parameter, annotation or type arguments); no machine extracted", at: location)
            return
        }
        let stateResolved = context.resolve(stateText, at: c.node)
        // a reducer a test writes over the program's state (a stub, `Reduce { … }` given to a `TestStore`) is
        // scaffolding for that test, not a way the program's feature changes
        if let declared = stateResolved?.declared, context.testsProgram(c.node, declaredAt: Syntax(declared.node)) {
            context.warn("reducer: test code over the program's state `\(declared.qualifiedName)`; read as the test's scaffolding, no machine extracted",
                         at: location, severity: .note)
            return
        }
        if let stateEnum = stateResolved?.enumInfo {
            let domain = Domain(states: stateEnum.caseNames, inputs: inputs)
            // (a child's actions arrive only in the case `.ifCaseLet` scopes it to)
            var arrivals: [String: Arrival] = [:]
            for scoped in c.dialect == .tca ? around(c, context: context).caseLets : [] where stateEnum.caseNames.contains(scoped.state) && inputs.contains(scoped.action) {
                arrivals[scoped.action] = Arrival(states: [scoped.state], presented: nil)
            }
            arrivals.merge(Self.unreached(c, inputs: inputs)) { $1 }
            let spec = ReducerSpec(domain: domain, statePaths: [c.stateParam], inputPaths: Set([c.actionParam] + c.actionAliases),
                                   payloadTargets: payloadTargets(c, domain: domain, reader: reader),
                                   enumMethods: context.mutatingMethods(of: stateEnum), enumFactories: context.factories(of: stateEnum),
                                   enumPredicates: context.predicates(of: stateEnum), enumSuccessors: context.successors(of: stateEnum),
                                   arrivals: arrivals, openInputs: actionEnum == nil, returnsNext: c.returnsNext)
            let interpreter = ReducerInterpreter(spec: spec, file: c.file, effects: reader, readings: context.readings)
            let rules = interpreter.run(c.body, at: location)
            let built = context.construction(referencing: c.bindingName, around: c.node)
            // a TCA feature is named by its type (`var body` says nothing); others by their variable
            let featureName = c.dialect == .tca ? c.ownerTypes.last : nil
            // a reducer declared in a namespace type is qualified by it (`Stopwatch.reducer`)
            let memberName = c.bindingName.map { name in c.ownerTypes.last.map { "\($0).\(name)" } ?? name }
            let name = built?.binding ?? featureName ?? memberName ?? c.ownerTypes.last ?? "reducer@\(location.line)"
            // (a TCA feature whose `State` is an enum starts where the program's stores start it)
            let initial = context.initialState(built?.initial, states: stateEnum.caseNames)
                ?? (c.dialect == .tca ? enumFeatureStart(stateEnum, states: stateEnum.caseNames, at: location, context: context) : nil)
            context.add(Machine(name: name, dialect: c.dialect, location: location, states: stateEnum.caseNames, inputs: inputs,
                                initial: initial, rules: rules, order: .resolved,
                                stateLocations: context.locations(stateEnum), inputLocations: context.locations(actionEnum)),
                        stateEnum: stateEnum, mergeable: true, at: built?.call ?? c.node, leftOut: [interpreter.leftOut])
            return
        }
        guard let stateType = stateResolved?.declared else {
            context.warn("reducer: the state type `\(stateText)` \(Self.why(stateResolved)); no machine extracted", at: location, severity: .note)
            return
        }
        _ = around(c, context: context)
        let machineOwner = stateType.qualifiedName.split(separator: ".").dropLast().last.map(String.init) ?? stateType.name
        let stateMethods = Self.methodsWithDefaults(of: stateType, context: context)
        let helpers = ReducerSpec.helperTable(stateMethods)
        // what every field's check needs, computed once per reducer rather than once per field
        let facts = CandidateFacts(c, scan: scan, stateMethods: stateMethods, context: context)
        // a type declared with one qualified name in several files (targets, copies) has its members
        // merged in the index: each field name once
        var seenFields = Set<String>()
        var productFields: [ProductInterpreter.Field] = []
        let machinesBefore = context.machines.count
        for field in stateType.properties where !field.isStatic && !field.isComputed && seenFields.insert(field.name).inserted {
            for target in fieldTargets(field, owner: stateType, context: context) {
                let built = buildField(target, c: c, stateType: stateType, machineOwner: machineOwner, helpers: helpers, facts: facts,
                                       inputs: inputs, actionEnum: actionEnum, reader: reader, location: location, context: context)
                if let built { productFields.append(built) }
            }
        }
        // A reducer outside a `@Reducer` type (whose own candidate speaks for it): the construction that
        // holds or names it (`Actomaton(state:reducer: counterReducer)`) built the field machines, or
        // built none for the reason said here, where it is known (else its candidate and the
        // construction's would guess: "switches over no state or action", "rules not found").
        if !CandidatePass.Finder.insideReducerType(c.node) {
            let construction = context.constructionCall(referencing: c.bindingName, around: c.node)
            if context.machines.count > machinesBefore {
                if let construction {
                    context.constructionMachines[construction.id, default: []] += context.machines[machinesBefore...].map(\.location)
                }
            } else if !c.bySignature {
                context.warn("reducer: no field of its state `\(stateType.name)` is an enum, a Bool or an optional that it assigns; no machine extracted",
                             at: location, severity: .note)
                if let construction, let name = c.bindingName {
                    context.constructionReasons[construction.id] = "its reducer `\(name)` (\(c.file.baseName):\(location.line)) assigns no field of its state `\(stateType.name)` that is an enum, a Bool or an optional"
                }
            }
        }
        buildProduct(productFields, c: c, stateType: stateType, name: machineOwner, inputs: inputs, reader: reader,
                     helpers: helpers, location: location, context: context)
    }

    /// The fields that are machines, explored together (`ProductMachine`), when there are two or more.
    func buildProduct(_ fields: [ProductInterpreter.Field], c: Candidate, stateType: TypeInfo, name: String, inputs: [String],
                      reader: EffectReader, helpers: [String: FunctionDeclSyntax], location: SourceLocation, context: ExtractionContext) {
        let invariants = ProductInvariants.stated(in: stateType, context: context)
        guard fields.count >= 2 else {
            if let first = invariants.first {
                context.warn("invariant on \(name): the state has \(fields.count) field\(fields.count == 1 ? "" : "s") that \(fields.count == 1 ? "is a machine" : "are machines"); invariants need two or more",
                             at: first.location)
            }
            return
        }
        let interpreter = ProductInterpreter(fields: fields, stateParam: c.stateParam, actionParam: c.actionParam, effects: reader,
                                             file: c.file, helpers: helpers, copied: c.copied)
        switch interpreter.run(c.body, inputs: inputs, at: location) {
        case .failure(let stop):
            context.warn("\(name): the fields are not explored together (\(stop.reason)); each field is still its own machine",
                         at: stop.location, severity: .note)
        case .success(var rules):
            // TCA clears a presented optional by itself after the reducer ran (`.ifLet(\.$alert, action: \.alert)`:
            // a dismissal, or any button of an ephemeral alert): the branches for that input also write nil
            for f in fields where f.kind == .optional {
                for input in ifLets(c, field: f.name).filter(\.presentation).map(\.action) {
                    var handled = false
                    for i in rules.indices where rules[i].inputs.contains(input) {
                        handled = true
                        var own = rules[i]
                        own.inputs = [input]
                        own.writes[f.name] = "nil"
                        rules[i].inputs.removeAll { $0 == input }
                        rules.append(own)
                    }
                    rules.removeAll { $0.inputs.isEmpty }
                    if !handled {
                        rules.append(ProductMachine.Rule(location: location, inputs: [input], requires: [f.name: ["some"]], writes: [f.name: "nil"]))
                    }
                }
            }
            var product = ProductMachine(
                name: name, dialect: c.dialect, location: location,
                fields: fields.map { ProductMachine.Field(name: $0.name, states: $0.states, initial: $0.initial) },
                inputs: inputs, rules: rules)
            product.invariants = invariants.map(\.text)
            context.products.append(product)
        }
    }

    /// A `@Reducer enum` feature: its cases are the states and (unless it declares its own `Action`) the
    /// inputs; each case's actions arrive only in that case. It is a machine when its own body assigns
    /// `state`, and is not held in a parent's optional field (whose machine describes it then).
    func buildReducerEnum(_ c: Candidate, feature: EnumInfo, location: SourceLocation, context: ExtractionContext) {
        let scan = SwitchFinder.scan(c.body)
        guard scan.assignments.contains(where: { SyntaxHelpers.path($0.lhs) == c.stateParam }) else {
            context.warn("`@Reducer enum \(feature.name)` never assigns `state`: its parent navigates between its cases; no machine of its own",
                         at: location, severity: .note)
            return
        }
        if let holder = optionalHolder(of: feature, context: context) {
            context.warn("`@Reducer enum \(feature.name)` is held in `\(holder)`: that field's machine describes it", at: location, severity: .note)
            return
        }
        let states = feature.caseNames
        // the feature's own nested `Action`, when declared (the macro writes it otherwise)
        let declaredAction: EnumInfo? = context.index.types[feature.key].flatMap { t in
            let found = context.index.members(named: "Action", of: t, from: t.file)
            if found.count == 1, case .type(let a) = found[0] { return a.enumInfo }
            return nil
        }
        let inputs = declaredAction?.caseNames ?? states
        var arrivals: [String: Arrival] = [:]
        for state in states where inputs.contains(state) { arrivals[state] = Arrival(states: [state]) }
        let domain = Domain(states: states, inputs: inputs)
        let reader = context.effectReader(inputs: inputs, inputType: declaredAction ?? feature)
        let spec = ReducerSpec(domain: domain, statePaths: [c.stateParam], inputPaths: Set([c.actionParam] + c.actionAliases),
                               arrivals: arrivals)
        let interpreter = ReducerInterpreter(spec: spec, file: c.file, effects: reader, readings: context.readings)
        let rules = interpreter.run(c.body, at: location)
        let built = context.construction(referencing: c.bindingName, around: c.node)
        let initial = context.initialState(built?.initial, states: states) ?? enumFeatureStart(feature, states: states, at: location, context: context)
        context.add(Machine(name: feature.name, dialect: .tca, location: location, states: states, inputs: inputs,
                            initial: initial, rules: rules, order: .resolved,
                            stateLocations: context.locations(feature), inputLocations: context.locations(declaredAction ?? feature)),
                    stateEnum: feature, leftOut: [interpreter.leftOut])
    }

    /// Where the program creates a store of a `@Reducer enum` feature: `initialState: Feature.State.login(…)`
    /// (the macro's `State`, its base resolved where written). Tests and previews do not count unless the
    /// feature is test code; stores that disagree leave it open, with a note.
    func enumFeatureStart(_ feature: EnumInfo, states: [String], at location: SourceLocation, context: ExtractionContext) -> String? {
        let index = context.index
        let featureIsTest = ExtractionContext.isTestOrPreview(feature.decl, index: index)
        var starts: [String] = []
        for argument in context.facts.initialStateArguments {
            guard let ref = SyntaxHelpers.caseReference(argument, index, accepting: states.contains),
                  featureIsTest || !ExtractionContext.isTestOrPreview(argument, index: index) else { continue }
            let scope = index.scope(of: argument)
            // `Feature.State.x` (`Feature.x` of a `@Reducer enum`), or `.x` given to a store built with the
            // feature's reducer (`Store(initialState: .launching) { Root() }`): its `State`
            var named: [String] = []
            if let typeText = ref.type {
                let parts = typeText.split(separator: ".")
                named = [typeText] + (parts.last == "State" && parts.count > 1 ? [parts.dropLast().joined(separator: ".")] : [])
            } else if let call = argument.parent?.parent?.parent?.as(FunctionCallExprSyntax.self), let reducer = Self.storeReducer(of: call) {
                named = [reducer + ".State"]
            }
            guard named.contains(where: { index.enumInfo($0, in: scope)?.key == feature.key }) else { continue }
            starts.append(ref.name)
        }
        let known = starts.uniqued()
        if known.count > 1 {
            context.warn("\(feature.name) starts as \(known.joined(separator: " or ")) depending on where the store is created; no initial state",
                         at: location, severity: .note)
        }
        return known.count == 1 ? known[0] : nil
    }

    /// The type of the reducer a store is built with: the one call of its trailing closure or `reducer:`
    /// argument (`Store(initialState: …) { Root() }`, `reducer: { Root() }`, `reducer: Root()`).
    static func storeReducer(of store: FunctionCallExprSyntax) -> String? {
        let given = store.trailingClosure.map(ExprSyntax.init) ?? SyntaxHelpers.argument(store, "reducer")
        let built = given.flatMap { g in g.as(ClosureExprSyntax.self).flatMap { SyntaxHelpers.onlyValue($0.statements) } ?? g }
        guard let call = built.flatMap({ SyntaxHelpers.unwrap($0).as(FunctionCallExprSyntax.self) }),
              let callee = call.calledExpression.as(DeclReferenceExprSyntax.self) else { return nil }
        return callee.baseName.text
    }

    /// A stored optional field of some type that holds the enum's `State` (`@Presents var destination: Destination.State?`).
    func optionalHolder(of feature: EnumInfo, context: ExtractionContext) -> String? {
        for type in context.index.typeOrder {
            for field in type.properties where !field.isStatic && !field.isComputed {
                guard let text = field.typeText, text.hasSuffix("?") || text.hasPrefix("PresentationState<") || text.hasPrefix("Optional<") else { continue }
                let wrapped = SymbolIndex.bareTypeName(text.hasSuffix("?") ? text : CandidateFinder.genericArguments(inType: text).first ?? text)
                guard wrapped.hasSuffix(".State"),
                      context.index.enumInfo(String(wrapped.dropLast(6)), in: context.index.scope(of: field.node))?.key == feature.key
                else { continue }
                return "\(type.qualifiedName).\(field.name)"
            }
        }
        return nil
    }

    /// A machine inside a struct state: a field (`mode`), or the per-item state of a keyed collection
    /// (`downloads[]` for `[ID: Download]`, `todos[].status` for `[Todo]` whose `status` is an enum).
    struct FieldTarget {
        var field: Binding
        var suffix: String          // "" | "[]" | "[].status"
        var kind: StateKind
        var states: [String]
        var fieldEnum: EnumInfo?
        var element: Binding?       // the element struct's field, for `[].status`
    }

    func fieldTargets(_ field: Binding, owner: TypeInfo, context: ExtractionContext) -> [FieldTarget] {
        if let (kind, states, e) = fieldStates(field, owner: owner, context: context) {
            return [FieldTarget(field: field, suffix: "", kind: kind, states: states, fieldEnum: e)]
        }
        guard let element = Self.collectionElement(field.typeText) else { return [] }
        let resolved = context.resolve(element, at: field.node)
        if let e = resolved?.enumInfo, !e.cases.isEmpty {
            return [FieldTarget(field: field, suffix: "[]", kind: .enumeration, states: e.caseNames, fieldEnum: e)]
        }
        guard let itemType = resolved?.declared, itemType.kind != "enum" else { return [] }
        return itemType.properties.filter { !$0.isStatic && !$0.isComputed }.compactMap { inner in
            guard let (kind, states, e) = fieldStates(inner, owner: itemType, context: context), kind == .enumeration else { return nil }
            return FieldTarget(field: field, suffix: "[].\(inner.name)", kind: kind, states: states, fieldEnum: e, element: inner)
        }
    }

    /// A type's methods, and the default implementations of the protocols it conforms to that it does
    /// not implement itself (`extension StatusCarrying { mutating func markSyncing() { sync = .syncing } }`).
    static func methodsWithDefaults(of type: TypeInfo, context: ExtractionContext) -> [FunctionDeclSyntax] {
        let own = type.methods.map(\.0)
        let names = Set(own.map(\.name.text))
        let defaults = context.index.supertypes(of: type).filter { $0.kind == "protocol" }.flatMap { p in
            p.methods.map(\.0).filter { $0.body != nil && !names.contains($0.name.text) }
        }
        return own + defaults
    }

    /// `[K: V]` → V, `[V]` → V, `IdentifiedArrayOf<V>` / `IdentifiedArray<K, V>` / `Array<V>` / `Dictionary<K, V>` → V.
    static func collectionElement(_ typeText: String?) -> String? {
        guard var t = typeText?.trimmingCharacters(in: .whitespaces) else { return nil }
        if t.hasPrefix("["), t.hasSuffix("]") {
            t = String(t.dropFirst().dropLast())
            if let colon = t.firstIndex(of: ":") { t = String(t[t.index(after: colon)...]) }
            return t.trimmingCharacters(in: .whitespaces)
        }
        for prefix in ["IdentifiedArrayOf<", "IdentifiedArray<", "Array<", "Dictionary<", "OrderedDictionary<"] where t.hasPrefix(prefix) && t.hasSuffix(">") {
            let args = CandidateFinder.genericArguments(inType: t)
            return args.last
        }
        return nil
    }

    /// Per reducer: its body and the functions it hands `&state` to (scanned once), the state type's
    /// methods it calls (and what they assign), and the setter actions it sends.
    struct CandidateFacts {
        /// Scan and the name the state has there.
        var bodies: [(scan: SwitchFinder, stateName: String)]
        /// Fields assigned by the state type's methods that the body calls (`state.reset()`).
        var helperAssignedFields: Set<String>
        /// `.input(.case)` calls in the body (setter actions), filtered per field's domain.
        var payloadCalls: [(input: String, argument: String)]

        /// `stateMethods`: the state type's methods and its protocols' defaults (`methodsWithDefaults`).
        init(_ c: Candidate, scan: SwitchFinder, stateMethods: [FunctionDeclSyntax], context: ExtractionContext) {
            bodies = [(scan, c.stateParam)]
            var seen = Set<SyntaxIdentifier>()
            for call in scan.calls where call.arguments.contains(where: { $0.expression.is(InOutExprSyntax.self) }) {
                // the function the call names where it is written
                for f in context.index.functions(referencedBy: call.calledExpression).filter(SyntaxHelpers.takesInout)
                where seen.insert(f.id).inserted {
                    guard let body = f.body else { continue }
                    let functionScan = SwitchFinder.scan(body)
                    for p in f.signature.parameterClause.parameters where SyntaxHelpers.isInout(p) {
                        bodies.append((functionScan, (p.secondName ?? p.firstName).text))
                    }
                }
            }
            helperAssignedFields = []
            // the state type's methods the body calls on the state (`state.reset()`)
            let calledOnState = Set(scan.calls.compactMap { call -> String? in
                guard let m = call.calledExpression.as(MemberAccessExprSyntax.self), let base = m.base,
                      SyntaxHelpers.path(base) == c.stateParam else { return nil }
                return m.declName.baseName.text
            })
            for m in stateMethods where calledOnState.contains(m.name.text) {
                guard let body = m.body else { continue }
                let methodScan = SwitchFinder.scan(body)
                for assignment in methodScan.assignments {
                    if let path = SyntaxHelpers.path(assignment.lhs) { helperAssignedFields.insert(path) }
                }
                // (a `@Shared` field written in its lock: `$auth.withLock { $0 = .signedIn }`)
                for call in methodScan.calls {
                    guard let path = SyntaxHelpers.path(call.calledExpression), path.hasSuffix(".withLock") else { continue }
                    let field = path.dropLast(".withLock".count)
                    if field.hasPrefix("$") { helperAssignedFields.insert(String(field.dropFirst())) }
                    if field.hasPrefix("self.$") { helperAssignedFields.insert(String(field.dropFirst("self.$".count))) }
                }
            }
            payloadCalls = PayloadFinder.calls(in: c.body, index: context.index)
            // a reducer method's setters may be sent by the other methods of its type (ReactorKit's
            // `mutate(action:)` returns `.just(.setPhase(.loading))` for `reduce(state:mutation:)`)
            if c.node.is(FunctionDeclSyntax.self), let owner = context.index.scope(of: c.node)?.innermostType {
                for (m, _) in owner.methods where m.id != c.node.id {
                    if let body = m.body { payloadCalls += PayloadFinder.calls(in: body.statements, index: context.index) }
                }
            }
        }
    }

    /// Adds the field's machine; returns the field for the product when it is a plain field (not a collection's items).
    @discardableResult
    func buildField(_ t: FieldTarget, c: Candidate, stateType: TypeInfo, machineOwner: String, helpers: [String: FunctionDeclSyntax],
                    facts: CandidateFacts, inputs: [String], actionEnum: EnumInfo?, reader: EffectReader,
                    location: SourceLocation, context: ExtractionContext) -> ProductInterpreter.Field? {
        let field = t.field
        let path = "\(c.stateParam).\(field.name)\(t.suffix)"
        // the reducer's body and the functions it hands `&state` to, with the names the state has there
        let bodies = facts.bodies.map { b in (scan: b.scan, path: "\(b.stateName).\(field.name)\(t.suffix)") }
        let mutators = context.mutatingMethods(of: t.fieldEnum).keys.sorted() + ["toggle"]
        // (a `@Shared` field is written in its lock: `state.$appearance.withLock { $0 = .dark }`)
        let locked = t.suffix.isEmpty ? "\(c.stateParam).$\(field.name).withLock" : nil
        let assigned = bodies.contains { b in
            b.scan.assignments.contains { SyntaxHelpers.path($0.lhs) == b.path } || b.scan.calls.contains { call in
                if let locked, SyntaxHelpers.path(call.calledExpression) == locked { return true }
                // (handed to a function that may set it: `beginLoad(&state.status)`)
                if call.arguments.contains(where: { $0.expression.as(InOutExprSyntax.self).map { SyntaxHelpers.path($0.expression) == b.path } == true }) { return true }
                guard call.arguments.isEmpty, let m = call.calledExpression.as(MemberAccessExprSyntax.self), let base = m.base else { return false }
                return SyntaxHelpers.path(base) == b.path && mutators.contains(m.declName.baseName.text)
            }
        } || (t.suffix.isEmpty && facts.helperAssignedFields.contains(field.name))
        let switched = bodies.contains { b in b.scan.switches.contains { $0.subject.compactText.contains(b.path) } }
        let presented = t.suffix.isEmpty && !ifLets(c, field: field.name).isEmpty
        guard assigned || (t.kind == .enumeration && switched) || presented else { return nil }
        // an optional enum, alert or dialog: `nil` and each value assigned to it
        let named = t.suffix.isEmpty && t.kind == .optional ? namedOptional(field, owner: stateType, context: context) : nil
        var states = t.states
        var values: [String: InputPattern] = [:]
        var sources: [String: [ExprSyntax]] = [:]
        if let named {
            var found: [String] = []
            func collect(_ raw: ExprSyntax) {
                let expr = SyntaxHelpers.unwrapFolded(raw)
                if let ternary = expr.as(TernaryExprSyntax.self) {
                    collect(ternary.thenExpression)
                    collect(ternary.elseExpression)
                    return
                }
                switch PatternReader.value(expr, context.index) {
                case .named(.literal("nil")), .runtime: return
                case .named(let value):
                    found.append(value.stateName)
                    values[value.stateName] = value
                    sources[value.stateName, default: []].append(expr)
                case .unnamed:
                    found.append("some")
                    values["some"] = .any
                    sources["some", default: []].append(expr)
                }
            }
            for b in bodies { for (lhs, rhs) in b.scan.assignments where SyntaxHelpers.path(lhs) == b.path { collect(rhs) } }
            for (m, _) in stateType.methods {
                guard let body = m.body else { continue }
                for (lhs, rhs) in SwitchFinder.scan(body).assignments where ["\(field.name)", "self.\(field.name)"].contains(lhs.trimmedText) {
                    collect(rhs)
                }
            }
            for start in initialExpressions(field, stateType: stateType, context: context) { collect(start) }
            if found.isEmpty {
                for value in named.values {
                    let name = value == .any ? "some" : value.stateName
                    found.append(name)
                    values[name] = value
                }
            }
            states = ["nil"] + found.uniqued()
        }
        let domain = Domain(states: states, inputs: inputs)
        // a collection's items start when they are inserted: no initial state
        let initialValue = t.suffix.isEmpty ? initialFieldValue(field, kind: t.kind, named: named != nil, stateType: stateType, context: context) : nil
        let defaultTarget: Target = initialValue.map { .state($0) } ?? .unknown("\(stateType.name)()")
        // `.ifLet(\.$field, action: \.action)`: the child's actions arrive only while it is presented
        let scopes = t.kind == .optional && t.suffix.isEmpty ? ifLets(c, field: field.name) : []
        let presentedStates = states.filter { $0 != "nil" }
        var byCase: [String: Set<String>] = [:]
        for (state, value) in values { if let name = value.name { byCase[name, default: []].insert(state) } }
        var arrivals: [String: Arrival] = [:]
        // an enum's presented case picks its states; an alert's presented action is one of its buttons
        let byPresentedCase = named.flatMap { $0.alert == nil ? byCase : nil }
        for scope in scopes { arrivals[scope.action] = Arrival(states: Set(presentedStates), presented: byPresentedCase) }
        arrivals.merge(Self.unreached(c, inputs: inputs)) { $1 }
        let original = c.copied.map { "\($0).\(field.name)\(t.suffix)" }
        var spec = ReducerSpec(domain: domain, stateKind: t.kind, statePaths: Set([path] + (original.map { [$0] } ?? [])), inputPaths: Set([c.actionParam] + c.actionAliases),
                               helpers: t.suffix.isEmpty ? helpers : [:], helperStatePaths: [field.name], resetTarget: defaultTarget,
                               payloadTargets: payloadTargets(facts.payloadCalls, domain: domain),
                               enumMethods: context.mutatingMethods(of: t.fieldEnum), enumFactories: context.factories(of: t.fieldEnum),
                               enumPredicates: context.predicates(of: t.fieldEnum), enumSuccessors: context.successors(of: t.fieldEnum),
                               valueStates: values, arrivals: arrivals, openInputs: actionEnum == nil, returnsNext: c.returnsNext)
        // (and in the State's methods: `$appearance.withLock`)
        if let locked { spec.accessors = [locked, "$\(field.name).withLock", "self.$\(field.name).withLock"] }
        // (`guard state.canSubmit` with `var canSubmit: Bool { status == .draft }` in the State)
        if t.kind == .enumeration, t.suffix.isEmpty {
            spec.ownerPredicates = context.ownerPredicates(of: stateType, statePaths: [field.name], states: states)
            spec.ownerPath = c.stateParam
        }
        let interpreter = ReducerInterpreter(spec: spec, file: c.file, effects: reader, readings: context.readings)
        var rules = interpreter.run(c.body, at: location)
        var inputs = inputs
        var leftOut = [interpreter.leftOut]
        // a store's method (`func send(_ action: Action)` of a view model) starts work that writes the field
        // later (`Task { … viewState.phase = .list }`, a `sink`): each an input of its own, as for a property
        if c.dialect == .switchMethod, !interpreter.launches.isEmpty, let owner = context.index.scope(of: c.node)?.innermostType {
            let tasks = SwitchMethodRecogniser.tasks(interpreter.launches.map { ($0, c.file, spec) }, of: owner, context: context)
            rules += tasks.rules
            inputs = inputs.appendingUnique(tasks.inputs)
            leftOut += tasks.leftOut
        }
        var implicit: [Outcome] = []
        for input in scopes.filter(\.presentation).map(\.action) {
            // `.dismiss` (the child closed, swiped away, `dismiss()`): back to nil from every presented state
            guard !presentedStates.isEmpty else { continue }
            implicit.append(Outcome(pairs: presentedStates.map { Pair(from: $0, input: input) }, target: .state("nil"),
                                    pattern: .member(input, [.init(.member("dismiss"))])))
            // an alert or dialog goes away by itself after any of its buttons
            for state in presentedStates {
                guard let ephemeral = named?.ephemeral(values[state] ?? .any) else { continue }
                for button in buttonActions(sources[state] ?? [], fallback: ephemeral.actions, context: context) {
                    let action: InputPattern = ephemeral.caseName.map { .member($0, [.init(.member(button))]) } ?? .member(button)
                    let pattern = InputPattern.member(input, [.init(.member("presented", [.init(action)]))])
                    if !dismissAfterButton(pattern, from: state, input: input, in: &rules) {
                        implicit.append(Outcome(pairs: [Pair(from: state, input: input)], target: .state("nil"), pattern: pattern))
                    }
                }
            }
        }
        // a field the view binds (`BindingReducer()`, the field bindable): the user sets it to any value
        if t.suffix.isEmpty, t.kind != .optional, let input = bindingInput(c, field: field, stateType: stateType, inputs: inputs, context: context) {
            let pattern = InputPattern.member(input, [.init(.literal("\\.\(field.name)"))])
            for from in states {
                for to in states where to != from { implicit.append(Outcome(pairs: [Pair(from: from, input: input)], target: .state(to), pattern: pattern)) }
            }
        }
        if !implicit.isEmpty { rules.append(Rule(location: location, outcomes: implicit, implicit: true)) }
        var machine = Machine(name: "\(machineOwner).\(field.name)\(t.suffix)", dialect: c.dialect, location: field.location,
                              states: states, inputs: inputs, initial: initialValue, rules: rules, order: .resolved,
                              stateLocations: context.locations(t.fieldEnum), inputLocations: context.locations(actionEnum))
        // an optional holding data (`var fact: String?` set from a response), no child feature nor
        // presentation: once set it may stay, a result rather than a stuck state
        if t.kind == .optional, named == nil, !presented, !Self.holdsFeature(field) { machine.terminal = ["some"] }
        // a flag nothing sets back (`state.hasAppeared = true`, no reset): set for good, a latch rather than a
        // stuck state; not one saying work is under way (`isLoading`, `isRequestInFlight`), which must end
        if t.kind == .bool, !rules.contains(where: { $0.outcomes.contains { $0.target == .state("false") } }),
           case let name = field.name.lowercased(), !Self.underWay.contains(where: name.contains) {
            machine.terminal = ["true"]
        }
        context.add(machine,
                    stateEnum: t.fieldEnum, key: "\(stateType.key).\(field.name)\(t.suffix)", mergeable: true,
                    leftOut: leftOut)
        guard t.suffix.isEmpty else { return nil }
        // the product reads optionals as nil/some
        let productInitial = named == nil ? initialValue : initialValue.map { $0 == "nil" ? "nil" : "some" }
        return ProductInterpreter.Field(name: field.name, kind: t.kind, states: t.states, initial: productInitial)
    }

    /// The actions that never reach a reducer run on some of them only (`onlyInputs`): arriving in no state.
    static func unreached(_ c: Candidate, inputs: [String]) -> [String: Arrival] {
        guard let only = c.onlyInputs else { return [:] }
        return Dictionary(uniqueKeysWithValues: inputs.uniqued().filter { !only.contains($0) }.map { ($0, Arrival(states: [], presented: nil)) })
    }

    /// Words of a flag's name saying work is under way: a flag set and never cleared is stuck, not a latch.
    static let underWay = ["loading", "fetching", "saving", "sending", "submitting", "requesting", "inflight", "busy", "running",
                           "processing", "pending", "uploading", "downloading", "syncing", "refreshing", "connecting", "working"]

    /// Whether an optional field holds a child feature or a presentation (`@Presents var child:
    /// Child.State?`, `PresentationState<…>`, `var detail: DetailState?`) rather than data.
    static func holdsFeature(_ field: Binding) -> Bool {
        let attributes = field.node.parent?.parent?.as(VariableDeclSyntax.self)?.attributes.compactMap {
            $0.as(AttributeSyntax.self)?.attributeName.trimmedText
        } ?? []
        if attributes.contains(where: { ["Presents", "PresentationState"].contains($0) }) { return true }
        let wrapped = (field.typeText ?? "").replacingOccurrences(of: "?", with: "")
        return wrapped.hasPrefix("PresentationState<") || wrapped.hasSuffix("State") || wrapped.hasPrefix("Optional<")
    }

    /// The standard library's value types a reducer may take as its action or state (`Reducer<Int, Void>`).
    static let standardValueTypes: Set<String> = [
        "Void", "Never", "Bool", "Int", "Int8", "Int16", "Int32", "Int64", "UInt", "UInt8", "UInt16", "UInt32", "UInt64",
        "Double", "Float", "String", "Character", "Optional", "Array", "Dictionary", "Set", "Result",
    ]

    /// Why a written type gives no machine: not declared in the inputs, or ambiguous.
    static func why(_ resolved: ResolvedType?) -> String {
        switch resolved {
        case .ambiguous(_, let candidates)?: return "is ambiguous (\(candidates.joined(separator: ", ")))"
        case .declared(let t, _)?: return "is a \(t.kind), not an enum"
        case .external(let name, _)? where standardValueTypes.contains(name): return "is the standard library's `\(name)`, not a type the code read declares"
        case .external(let name, _)?: return "is not declared in the files read (`\(name)`)"
        default: return "cannot be resolved"
        }
    }

    /// The states of a field: an enum's cases, `false`/`true`, or `nil`/`some`.
    func fieldStates(_ field: Binding, owner: TypeInfo, context: ExtractionContext) -> (StateKind, [String], EnumInfo?)? {
        if let t = field.typeText {
            if t.hasSuffix("?") || t.hasPrefix("Optional<") || t.hasPrefix("PresentationState<") { return (.optional, ["nil", "some"], nil) }
            if t == "Bool" { return (.bool, ["false", "true"], nil) }
            if let e = context.resolve(t, at: field.node)?.enumInfo, !e.cases.isEmpty {
                return (.enumeration, e.caseNames, e)
            }
            return nil
        }
        guard let initializer = field.initializer.map(SyntaxHelpers.unwrap) else { return nil }
        if initializer.is(BooleanLiteralExprSyntax.self) { return (.bool, ["false", "true"], nil) }
        if let ref = SyntaxHelpers.caseReference(initializer, context.index), let type = ref.type,
           let e = context.resolve(type, at: field.node)?.enumInfo, e.caseNames.contains(ref.name) {
            return (.enumeration, e.caseNames, e)
        }
        // (a case by its raw value or its place in `allCases`: `var step = Step(rawValue: 0)!`)
        if let e = SwitchMethodRecogniser.enumType(of: field, context: context, reporting: true), context.initialState(initializer, states: e.caseNames, of: e) != nil {
            return (.enumeration, e.caseNames, e)
        }
        return nil
    }

    /// The field's starting value: given where the store is created (`initialState: X.State(field: .v)`),
    /// else its default value (`nil` for an optional without one).
    func initialFieldValue(_ field: Binding, kind: StateKind, named: Bool = false, stateType: TypeInfo,
                           context: ExtractionContext) -> String? {
        let states: [String] = kind == .bool ? ["false", "true"] : kind == .optional && !named ? ["nil", "some"] : []
        let fieldEnum = kind == .enumeration ? SwitchMethodRecogniser.enumType(of: field, context: context, reporting: true) : nil
        func value(_ e: ExprSyntax) -> String? {
            let u = SyntaxHelpers.unwrap(e)
            switch kind {
            case .bool: return u.as(BooleanLiteralExprSyntax.self)?.literal.text
            case .optional where named:
                switch PatternReader.value(u, context.index) {
                case .named(let v): return v.stateName
                case .unnamed: return "some"
                case .runtime: return nil
                }
            case .optional: return u.is(NilLiteralExprSyntax.self) ? "nil" : "some"
            case .enumeration:
                // (also by its raw value or its place in `allCases`: `Step(rawValue: 0)!`)
                return fieldEnum.flatMap { context.initialState(u, states: $0.caseNames, of: $0) } ?? SyntaxHelpers.caseReference(u, context.index)?.name
            }
        }
        // every place the program creates the store gives a start: the value it passes, else the default
        // (the value its declaration gives, else the one every initializer of the state assigns it: `init() {
        // self.mode = .ready }`)
        let defaultValue = field.initializer.flatMap(value)
            ?? SwitchMethodRecogniser.initializerValue(of: field.name, in: stateType).flatMap(value) ?? (kind == .optional ? "nil" : nil)
        let calls = context.initialisers(of: stateType)
        guard !calls.isEmpty else { return defaultValue }
        let starts = calls.map { call in SyntaxHelpers.argument(call, field.name).map(value) ?? defaultValue }
        let known = starts.compactMap { $0 }.uniqued()
        guard !starts.contains(where: { $0 == nil }), known.count == 1, let v = known.first else {
            if known.count > 1 {
                context.warn("\(stateType.qualifiedName).\(field.name) starts as \(known.joined(separator: " or ")) depending on where the store is created; no initial state",
                             at: field.location, severity: .note)
            }
            return nil
        }
        return states.isEmpty || states.contains(v) ? v : nil
    }

    /// The expressions the field can start with: given where the program creates the store, and its
    /// default value.
    func initialExpressions(_ field: Binding, stateType: TypeInfo, context: ExtractionContext) -> [ExprSyntax] {
        context.initialisers(of: stateType).compactMap { SyntaxHelpers.argument($0, field.name) } + (field.initializer.map { [$0] } ?? [])
    }

    // MARK: Navigation: optional enums, alerts and dialogs

    /// An optional field whose states are named values: an enum (a TCA `Destination.State` of a
    /// `@Reducer enum`), or an `AlertState` / `ConfirmationDialogState`.
    struct NamedOptional {
        /// The states when the reducer assigns no value itself: the enum's cases, or `some`.
        var values: [InputPattern]
        /// The field holds an alert or dialog itself, with the enum of its button actions.
        var alert: EnumInfo??
        /// Cases of the enum that hold an alert or dialog, with the enum of its button actions.
        var alertCases: [String: EnumInfo?] = [:]

        /// Whether a value goes away by itself after a button: the case that holds the alert (nil when
        /// the field is the alert) and its action enum.
        func ephemeral(_ value: InputPattern) -> (caseName: String?, actions: EnumInfo?)? {
            if let alert { return (nil, alert) }
            if let name = value.name, let actions = alertCases[name] { return (name, actions) }
            return nil
        }
    }

    static let alertTypes: Set<String> = ["AlertState", "ConfirmationDialogState"]

    func namedOptional(_ field: Binding, owner: TypeInfo, context: ExtractionContext) -> NamedOptional? {
        guard var wrapped = field.typeText?.trimmingCharacters(in: .whitespaces) else { return nil }
        if let inner = SyntaxHelpers.optionalWrapped(wrapped) {
            wrapped = inner
        } else if wrapped.hasPrefix("PresentationState<"), wrapped.hasSuffix(">"),
                  let inner = CandidateFinder.genericArguments(inType: wrapped).first {
            wrapped = inner
        } else {
            return nil
        }
        let index = context.index
        let scope = index.scope(of: field.node)
        if Self.alertTypes.contains(SymbolIndex.bareTypeName(wrapped)) {
            let actions = CandidateFinder.genericArguments(inType: wrapped).first.flatMap { index.enumInfo($0, in: scope) }
            return NamedOptional(values: [.any], alert: .some(actions))
        }
        // `Destination.State` of a `@Reducer enum Destination` is the enum's cases
        var e = index.enumInfo(wrapped, in: scope)
        if e == nil, wrapped.hasSuffix(".State"),
           let reducer = index.enumInfo(String(wrapped.dropLast(6)), in: scope), Self.isReducer(reducer.decl.attributes) {
            e = reducer
        }
        guard let e, !e.cases.isEmpty else { return nil }
        var named = NamedOptional(values: e.caseNames.map { .member($0) }, alert: nil)
        for member in e.decl.memberBlock.members {
            guard let decl = member.decl.as(EnumCaseDeclSyntax.self) else { continue }
            for element in decl.elements {
                guard let type = element.parameterClause?.parameters.first?.type.trimmedText,
                      Self.alertTypes.contains(SymbolIndex.bareTypeName(type)) else { continue }
                named.alertCases[element.name.text] = CandidateFinder.genericArguments(inType: type).first
                    .flatMap { index.enumInfo($0, in: index.types[e.key].map { index.scope(inside: $0) }) }
            }
        }
        return named
    }

    /// `@Reducer`, `@Reducer(state: .equatable)`.
    static func isReducer(_ attributes: AttributeListSyntax) -> Bool {
        attributes.contains { $0.as(AttributeSyntax.self)?.attributeName.trimmedText == "Reducer" }
    }

    /// The button actions of the alerts or dialogs a state's values build: read from the inline
    /// `AlertState { … } actions: { ButtonState(action: .x) … }` or the static member that builds it
    /// (`.confirmDelete`, `.alert(.confirmDelete)`); else every case of the alert's action enum.
    func buttonActions(_ sources: [ExprSyntax], fallback: EnumInfo?, context: ExtractionContext) -> [String] {
        var names: [String] = []
        var unread = sources.isEmpty
        for expr in sources {
            let inline = ButtonFinder.actions(in: expr, index: context.index)
            if !inline.isEmpty { names += inline; continue }
            let value: InputPattern
            switch PatternReader.value(expr, context.index) {
            case .named(let v): value = v
            case .unnamed: continue          // an inline alert without action buttons
            case .runtime: unread = true; continue
            }
            var builders: [Syntax] = []
            let extensions = alertExtensions(visibleAt: expr, actions: fallback, context: context)
            for member in Self.memberNames(value) {
                for ext in extensions {
                    builders += ext.properties.filter { $0.isStatic && $0.name == member }.compactMap { $0.initializer.map { Syntax($0) } }
                    builders += ext.methods.map(\.0).filter { f in
                        f.name.text == member && f.modifiers.contains { $0.name.text == "static" }
                    }.compactMap { f in f.body.map { Syntax($0) } }
                }
            }
            let found = builders.flatMap { ButtonFinder.actions(in: $0, index: context.index) }
                .filter { fallback == nil || fallback!.caseNames.contains($0) }
            if builders.isEmpty { unread = true }
            names += found
        }
        if unread { names += fallback?.caseNames ?? [] }
        return names.uniqued()
    }

    /// The extensions of `AlertState` / `ConfirmationDialogState` a static member written at `node` can
    /// come from: visible there (this module, or an imported one; file-private ones in this file), and,
    /// when they constrain the button action type (`where Action == Feature.Alert`), for `actions`.
    func alertExtensions(visibleAt node: some SyntaxProtocol, actions: EnumInfo?, context: ExtractionContext) -> [TypeInfo] {
        let index = context.index
        guard let file = index.file(of: node) else { return [] }
        let imports = index.imports(of: file)
        return index.typeOrder.filter { t in
            guard t.kind == "extension", Self.alertTypes.contains(t.name),
                  t.module == file.module || imports.contains(t.module), !t.isFilePrivate || t.file === file else { return false }
            guard let actions, let clause = t.node.as(ExtensionDeclSyntax.self)?.genericWhereClause else { return true }
            for requirement in clause.requirements {
                guard let same = requirement.requirement.as(SameTypeRequirementSyntax.self) else { continue }
                let sides = [same.leftType.trimmedText, same.rightType.trimmedText]
                guard let other = sides.first(where: { $0 != "Action" }), sides.contains("Action") else { continue }
                return index.enumInfo(other, in: index.scope(of: t.node))?.key == actions.key
            }
            return true
        }
    }

    static func memberNames(_ value: InputPattern) -> [String] {
        guard case .member(let name, let args) = value else { return [] }
        return [name] + args.flatMap { memberNames($0.value) }
    }

    /// `ButtonState(role: .destructive, action: .confirmDelete) { … }`, `action: .send(.x, animation: …)`.
    final class ButtonFinder: SyntaxVisitor {
        var names: [String] = []
        let index: SymbolIndex
        init(index: SymbolIndex) {
            self.index = index
            super.init(viewMode: .sourceAccurate)
        }

        static func actions(in node: some SyntaxProtocol, index: SymbolIndex) -> [String] {
            let finder = ButtonFinder(index: index)
            finder.walk(node)
            return finder.names
        }

        override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
            guard CandidateFinder.leadingName(node.calledExpression) == "ButtonState",
                  var action = SyntaxHelpers.argument(node, "action") else { return .visitChildren }
            if let call = action.as(FunctionCallExprSyntax.self), SyntaxHelpers.caseReference(call.calledExpression, index, accepting: { $0 == "send" }) != nil,
               let first = call.arguments.first?.expression {
                action = first
            }
            if let ref = SyntaxHelpers.caseReference(action, index) { names.append(ref.name) }
            return .visitChildren
        }
    }

    /// An explicit case on a button's action pattern: when it leaves the alert in place, the framework
    /// dismisses it afterwards, so its edge from `state` leads to `nil`. False when no case names the pattern.
    func dismissAfterButton(_ pattern: InputPattern, from state: String, input: String, in rules: inout [Rule]) -> Bool {
        let pair = Pair(from: state, input: input)
        var found = false
        for r in rules.indices {
            var outcomes: [Outcome] = []
            for o in rules[r].outcomes {
                // (a button's payload bound, `.confirmDeletion(let id)`, is the same button)
                guard o.pattern == pattern || o.pattern?.text == pattern.text, o.pairs.contains(pair) else { outcomes.append(o); continue }
                found = true
                guard o.target == .stay else { outcomes.append(o); continue }
                var rest = o
                rest.pairs.removeAll { $0 == pair }
                if !rest.pairs.isEmpty { outcomes.append(rest) }
                var gone = o
                gone.pairs = [pair]
                gone.target = .state("nil")
                outcomes.append(gone)
            }
            rules[r].outcomes = outcomes
        }
        return found
    }

    /// The `.ifLet`s that scope the field to an action: `.ifLet(\.$alert, action: \.alert)` (a presentation:
    /// `.alert(.dismiss)`, and for alerts any button, set it to nil) or `.ifLet(\.child, action: \.child)`
    /// (the child's actions arrive only while it is there).
    func ifLets(_ c: Candidate, field: String) -> [IfLetFinder.Scope] {
        guard c.dialect == .tca || c.dialect == .tcaLegacy else { return [] }
        return around(c).calls.compactMap { call in
            let (first, action) = call
            guard first == "\\.$\(field)" || first == "\\.\(field)" || first == "\\State.$\(field)",
                  // `\.alert`, `/Action.alert`
                  let name = action.split(whereSeparator: { $0 == "." || $0 == "/" || $0 == "\\" }).last else { return nil }
            return IfLetFinder.Scope(action: String(name), presentation: first.contains("$"))
        }
    }

    /// The `.ifLet(first, action: …)` calls and `BindingReducer()` around a TCA reducer (in the `body` or
    /// function it is written in), found once for all its fields.
    /// (A method the feature's `body` runs as `Reduce(self.core)`: the modifiers in that `body`, found with
    /// `context` on the first call.)
    func around(_ c: Candidate, context: ExtractionContext? = nil) -> IfLetFinder {
        if let found = c.ifLetCalls.finder { return found }
        var owner: Syntax? = c.node
        while let o = owner, !(o.is(VariableDeclSyntax.self) || o.is(FunctionDeclSyntax.self)) { owner = o.parent }
        let finder = IfLetFinder()
        if let scope = owner { finder.walk(scope) }
        if let function = c.node.as(FunctionDeclSyntax.self), let context, let type = context.index.scope(of: function)?.innermostType {
            let name = function.name.text
            for body in type.properties where body.name == "body" && !body.isStatic {
                guard let declaration = body.node.parent?.parent,
                      declaration.tokens(viewMode: .sourceAccurate).contains(where: { $0.text == name }) else { continue }
                finder.walk(declaration)
            }
        }
        c.ifLetCalls.finder = finder
        return finder
    }

    /// The action a view's bindings send (`case binding(BindingAction<State>)`) when `BindingReducer()` runs
    /// before the reducer and the field is bound: bindable (any field of an `@ObservableState` state, or one
    /// marked `@BindingState`, `@BindableState`) and bound by a view (`$store.mode`, `viewStore.$mode`).
    func bindingInput(_ c: Candidate, field: Binding, stateType: TypeInfo, inputs: [String], context: ExtractionContext) -> String? {
        guard inputs.contains("binding"), c.dialect == .tca || c.dialect == .tcaLegacy, around(c).bindingReducer,
              context.storeBindings(in: c.file.module).contains(field.name) else { return nil }
        func marked(_ attributes: AttributeListSyntax?, _ names: Set<String>) -> Bool {
            attributes?.contains { $0.as(AttributeSyntax.self).map { names.contains($0.attributeName.trimmedText) } ?? false } ?? false
        }
        let declaration = field.node.parent?.parent?.as(VariableDeclSyntax.self)
        let observable = marked(stateType.node.as(StructDeclSyntax.self)?.attributes, ["ObservableState"])
        guard declaration?.bindingSpecifier.tokenKind == .keyword(.var),
              observable || marked(declaration?.attributes, ["BindingState", "BindableState"]) else { return nil }
        return "binding"
    }

    final class IfLetCalls {
        var finder: IfLetFinder?
    }

    final class IfLetFinder: SyntaxVisitor {
        struct Scope {
            var action: String
            var presentation: Bool
        }
        var calls: [(first: String, action: String)] = []
        /// `.ifCaseLet(\.loggedOut, action: \.loggedOut)`: the case of an enum state and the action whose
        /// child runs only in it (the last component of each).
        var caseLets: [(state: String, action: String)] = []
        /// `BindingReducer()` (legacy: `.binding()`) runs with the reducer: the view's bindings set the state's fields.
        var bindingReducer = false
        init() { super.init(viewMode: .sourceAccurate) }
        override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
            if node.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text == "BindingReducer" { bindingReducer = true }
            // (the legacy spelling: `Reducer { … }.binding()`)
            if let member = node.calledExpression.as(MemberAccessExprSyntax.self), member.base != nil,
               member.declName.baseName.text == "binding", node.arguments.isEmpty, node.trailingClosure == nil { bindingReducer = true }
            guard let member = node.calledExpression.as(MemberAccessExprSyntax.self), ["ifLet", "ifCaseLet"].contains(member.declName.baseName.text),
                  let first = node.arguments.first?.expression.trimmedText,
                  let action = SyntaxHelpers.argument(node, "action")?.trimmedText else { return .visitChildren }
            if member.declName.baseName.text == "ifLet" {
                calls.append((first, action))
            } else {
                func last(_ text: String) -> String { String(text.split(whereSeparator: { $0 == "." || $0 == "/" || $0 == "\\" }).last ?? "") }
                caseLets.append((last(first), last(action)))
            }
            return .visitChildren
        }
    }

    /// Setter actions whose payload is the next state (`.send(.setStatus(.done))`): for each input, the
    /// state cases the reducer sends it with.
    func payloadTargets(_ c: Candidate, domain: Domain, reader: EffectReader) -> [String: [String]] {
        payloadTargets(PayloadFinder.calls(in: c.body, index: reader.index), domain: domain)
    }

    /// The same from calls found once per reducer (`PayloadFinder.calls`), for each field's domain.
    func payloadTargets(_ calls: [(input: String, argument: String)], domain: Domain) -> [String: [String]] {
        var targets: [String: [String]] = [:]
        for call in calls where domain.inputIndex[call.input] != nil && domain.stateIndex[call.argument] != nil {
            if !(targets[call.input]?.contains(call.argument) ?? false) { targets[call.input, default: []].append(call.argument) }
        }
        return targets
    }

    /// Calls `.input(.case)` (or `.input(true)`) that make a value (an argument, an array's element, a
    /// returned value; not a `case` pattern), in source order.
    final class PayloadFinder: SyntaxVisitor {
        var calls: [(input: String, argument: String)] = []
        let index: SymbolIndex
        init(index: SymbolIndex) {
            self.index = index
            super.init(viewMode: .sourceAccurate)
        }

        /// Whether `node` is part of a pattern (`case .setMode(.x):`, `if case .setMode(.x) = action`).
        static func inPattern(_ node: some SyntaxProtocol) -> Bool {
            var current = node.parent
            while let n = current, !n.is(CodeBlockItemSyntax.self) {
                if n.is(ExpressionPatternSyntax.self) { return true }
                current = n.parent
            }
            return false
        }

        static func calls(in body: CodeBlockItemListSyntax, index: SymbolIndex) -> [(input: String, argument: String)] {
            let finder = PayloadFinder(index: index)
            finder.walk(body)
            return finder.calls
        }

        override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
            let argument = node.arguments.count == 1 ? SyntaxHelpers.unwrap(node.arguments.first!.expression) : nil
            // (each branch of a choice: `.setPhase(ok ? .sent : .rejected)`)
            if let ref = SyntaxHelpers.caseReference(node.calledExpression, index), let argument, !Self.inPattern(node) {
                for branch in SyntaxHelpers.branches(argument) {
                    guard let arg = SyntaxHelpers.caseReference(branch, index)?.name ?? branch.as(BooleanLiteralExprSyntax.self)?.literal.text else { continue }
                    calls.append((ref.name, arg))
                }
            }
            return .visitChildren
        }
    }
}
