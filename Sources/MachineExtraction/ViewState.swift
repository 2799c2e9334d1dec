import MachineModel
import SwiftSyntax

/// SwiftUI: a view's `@State` property of an enum type (`@State private var phase: Phase = .idle`) that
/// its controls change. Each control's action is an input named by what the user sees or does
/// (`Button("Start") { phase = .running }` is `Start`, `.onAppear { … }` is `onAppear`, `.task { … }`
/// is `task`), arriving in the states the view shows the control in: those of the `switch phase` cases
/// and `if phase == …` branches around it in the view's code, less those its `.disabled(…)` is surely
/// true in. An action is walked like a method: the view's methods it calls (or names: `Button("Start",
/// action: start)`), the `Task`s it starts (each an input of its own, `Start task`), its `await`s. A
/// control given a binding of the state (`Picker("Speed", selection: $speed)`) sets it to a case its
/// content tags (`.tag(Speed.fast)`). A write of the property the walks do not reach makes the machine
/// partial, with a note where it is.
///
/// An optional `@State` presented by a modal modifier (`@State var sheet: Sheet?` with `.sheet(item:
/// $sheet) { s in … }`) has `nil` and each case as its states: the controls in the presented content
/// arrive where it is shown (its parameter standing for the state: `switch s`), the others only while
/// nothing is presented, and the user's dismissal (`sheet dismissed`) sets it to `nil`.
struct ViewState {
    let type: TypeInfo
    let property: Binding
    let stateEnum: EnumInfo
    /// Whether the state is an optional of the enum (`nil` a state of its own).
    var optional = false
    let context: ExtractionContext

    /// Modifiers presenting a view modally while a binding of an optional holds a value (`.sheet(item:
    /// $sheet)`), which set it to `nil` when the user dismisses the view.
    static let presentations: Set<String> = ["sheet", "fullScreenCover", "popover", "navigationDestination", "alert", "confirmationDialog"]

    /// Modifiers whose closure runs on an event of the view, by name (`.onChange(of: x) { … }`).
    static let eventModifiers: Set<String> = [
        "onTapGesture", "onLongPressGesture", "onAppear", "onDisappear", "task", "onChange", "onReceive", "onSubmit",
        "refreshable", "onOpenURL", "onDelete", "onMove", "onDrop", "onHover", "onContinueUserActivity",
    ]

    /// A control of the view and its action.
    struct Control {
        var call: FunctionCallExprSyntax
        var action: Action
        var name: String
        var file: ParsedFile
    }

    /// What a control does: run a closure, call a method of the view (`Button("Start", action: start)`),
    /// or set the state through a binding (`Picker("Speed", selection: $speed)`) to one of the cases its
    /// content tags (`.tag(Speed.fast)`), any when it tags none.
    enum Action {
        case closure(ClosureExprSyntax)
        case method(String)
        case binding(Set<String>?)
        /// The user dismissing what a presentation modifier shows (`.sheet(item: $sheet)`).
        case dismissal

        var closure: ClosureExprSyntax? { if case .closure(let c) = self { c } else { nil } }
    }

    /// Whether the type is a SwiftUI view and the property a `@State` (or `@AppStorage`, `@SceneStorage`) of it.
    static func applies(to type: TypeInfo, property: Binding) -> Bool {
        guard type.kind == "struct", type.inherited.contains(where: { ["View", "SwiftUI.View"].contains(SymbolIndex.bareTypeName($0)) }),
              let decl = property.node.parent?.parent?.as(VariableDeclSyntax.self) else { return false }
        return decl.attributes.contains { attribute in
            // (or kept in the app's or the scene's storage: `@AppStorage("step") var step: Step = .a`)
            ["State", "SwiftUI.State", "AppStorage", "SwiftUI.AppStorage", "SceneStorage", "SwiftUI.SceneStorage"]
                .contains(attribute.as(AttributeSyntax.self)?.attributeName.trimmedText ?? "")
        }
    }

    func build() -> Bool {
        let states = (optional ? ["nil"] : []) + stateEnum.caseNames
        let controls = self.controls()
        // (an optional only when something presents it: `@State var query: Scope?` is data)
        guard !optional || controls.contains(where: { if case .dismissal = $0.action { true } else { false } }) else { return false }
        let statePaths: Set<String> = [property.name]
        var rules: [Rule] = []
        var leftOut: [SourceLocation?] = []
        var inputs: [String] = []
        var started: [(launch: ReducerInterpreter.Launch, file: ParsedFile, spec: ReducerSpec)] = []
        var template = ReducerSpec(domain: Domain(states: states, inputs: []), stateKind: optional ? .optional : .enumeration,
                                   statePaths: statePaths, inputPaths: [],
                                   helpers: ReducerSpec.helperTable(type.methods.map(\.0)), helperStatePaths: statePaths,
                                   enumMethods: context.mutatingMethods(of: stateEnum), enumFactories: context.factories(of: stateEnum),
                                   enumPredicates: context.predicates(of: stateEnum),
                                   enumSuccessors: context.successors(of: stateEnum),
                                   valueStates: optional ? Dictionary(stateEnum.caseNames.map { ($0, InputPattern.member($0)) }, uniquingKeysWith: { a, _ in a }) : [:])
        template.stateIsMember = true
        // (the view's state outlives a call: while an action waits, others may change it)
        let own = StateWrites(property: property.name, enumMethods: Set(template.enumMethods.keys), type: type, index: context.index).writers
        for control in controls {
            let shown = visible(control)
            let body: CodeBlockItemListSyntax, at: Syntax, file: ParsedFile
            switch control.action {
            case .closure(let closure):
                (body, at, file) = (closure.statements, Syntax(closure), control.file)
            case .method(let name):
                guard let (method, home) = type.methods.first(where: { $0.0.name.text == name }), let b = method.body else { continue }
                (body, at, file) = (b.statements, Syntax(method), home)
            case .binding(let tagged):
                // any case it offers, from where it is shown: a choice made at run time
                let offered = states.filter { tagged?.contains($0) ?? true }
                let pairs = shown.sorted().map { Pair(from: $0, input: control.name) }
                guard !offered.isEmpty, !pairs.isEmpty else { continue }
                rules.append(Rule(location: control.file.location(of: control.call), outcomes: offered.map {
                    Outcome(pairs: pairs, target: .state($0), guardText: offered.count > 1 ? "chosen with \(control.name)" : nil)
                }))
                inputs = inputs.appendingUnique([control.name])
                continue
            case .dismissal:
                // from whatever it presents
                let pairs = states.filter { $0 != "nil" }.map { Pair(from: $0, input: control.name) }
                rules.append(Rule(location: control.file.location(of: control.call), outcomes: [Outcome(pairs: pairs, target: .state("nil"))]))
                inputs = inputs.appendingUnique([control.name])
                continue
            }
            var spec = template
            spec.domain = Domain(states: states, inputs: [control.name])
            let resumed = SwitchMethodRecogniser.suspending(&spec, body: body, of: type, input: control.name, own: own)
            spec.arrivals = [control.name: Arrival(states: shown, presented: nil)]
            let walker = ReducerInterpreter(spec: spec, file: file, effects: context.effectReader(inputs: [], inputType: nil),
                                            readings: context.readings)
            let walked = walker.run(body, at: file.location(of: at))
            started += walker.launches.map { ($0, file, spec) }
            guard SwitchMethodRecogniser.changesState(walked) else { continue }
            rules += walked
            leftOut.append(walker.leftOut)
            inputs = inputs.appendingUnique([control.name] + SwitchMethodRecogniser.arrived(resumed, in: walked))
        }
        let tasks = SwitchMethodRecogniser.tasks(started, of: type, own: own, context: context)
        rules += tasks.rules
        leftOut += tasks.leftOut
        inputs = inputs.appendingUnique(tasks.inputs)
        guard !inputs.isEmpty else { return false }
        let initial = SwitchMethodRecogniser().startingState(of: property, in: type, states: states, optional: optional, context: context)
        var machine = Machine(name: "\(type.name).\(property.name)", dialect: .switchMethod, location: property.location,
                              states: states, inputs: inputs, initial: initial, rules: rules, order: .resolved,
                              stateLocations: context.locations(stateEnum))
        SwitchMethodRecogniser().markUnfollowed(unfollowed(controls), in: &machine, context: context)
        context.add(machine, stateEnum: stateEnum, key: "\(type.key).\(property.name)", leftOut: leftOut)
        return true
    }

    /// The view's members that may hold controls and writes: its computed properties (`body`, other views
    /// it builds) and its methods.
    var members: [(Syntax, ParsedFile)] {
        type.properties.filter(\.isComputed).map { ($0.node, $0.file) } + type.methods.map { (Syntax($0.0), $0.1) }
    }

    /// The controls written in the view's members, in order; a control inside another's action is none
    /// (an action builds no view).
    func controls() -> [Control] {
        final class Finder: SyntaxVisitor {
            let view: ViewState
            var found: [(FunctionCallExprSyntax, Action, String)] = []
            var actions: Set<SyntaxIdentifier> = []
            init(_ view: ViewState) { self.view = view; super.init(viewMode: .sourceAccurate) }
            override func visit(_ node: ClosureExprSyntax) -> SyntaxVisitorContinueKind {
                actions.contains(node.id) ? .skipChildren : .visitChildren
            }
            override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
                for (action, name) in view.action(of: node).map({ [$0] }) ?? view.callbacks(of: node) {
                    found.append((node, action, name))
                    if let closure = action.closure { actions.insert(closure.id) }
                }
                return .visitChildren
            }
        }
        var result: [Control] = []
        var seen = Set<SyntaxIdentifier>()
        for (member, file) in members.sorted(by: { ($0.1.path, $0.0.position) < ($1.1.path, $1.0.position) }) {
            let finder = Finder(self)
            finder.walk(member)
            // (in the order written: a modifier's call holds the views it modifies)
            for (call, action, name) in finder.found.sorted(by: { Self.position($0) < Self.position($1) })
            where seen.insert(action.closure?.id ?? call.id).inserted {
                result.append(Control(call: call, action: action, name: name, file: file))
            }
        }
        return result
    }

    /// Where a found control's action is written (its closure; the call for the others).
    static func position(_ found: (FunctionCallExprSyntax, Action, String)) -> AbsolutePosition {
        found.1.closure?.position ?? found.0.position
    }

    /// A control's action and its name: `Button("Start") { … }` (`Start`; the label's text for `Button {
    /// … } label: { Text("Start") }` and `Button(action: { … }) { Label("Start", …) }`), `Button("Start",
    /// action: start)` naming a method of the view, an event modifier's closure (`onAppear`; `onChange(of:
    /// query)` named so), a control given a binding of the state (`Picker("Speed", selection: $speed)`,
    /// named by its title, else by its type: `TabView`).
    func action(of call: FunctionCallExprSyntax) -> (Action, String)? {
        if optional, let modifier = presentation(call) { return (.dismissal, modifier + " dismissed") }
        if let member = call.calledExpression.as(MemberAccessExprSyntax.self), member.base != nil,
           Self.eventModifiers.contains(member.declName.baseName.text) {
            let closure = call.arguments.first { ["perform", "action"].contains($0.label?.text ?? "") }?.expression.as(ClosureExprSyntax.self)
                ?? call.trailingClosure
            // (named by what it watches: `onChange(of: code)`, `onReceive(timer)`, one input each)
            let watched = call.arguments.first { $0.label?.text == "of" || $0.label == nil && !$0.expression.is(ClosureExprSyntax.self) }
            let name = member.declName.baseName.text + (watched.map { "(\($0.label.map { $0.text + ": " } ?? "")\($0.expression.trimmedText))" } ?? "")
            return closure.map { (.closure($0), name) }
        }
        let callee = call.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text
        let title = call.arguments.first { $0.label == nil }.flatMap { Self.firstString(in: Syntax($0.expression)) }
        if call.arguments.contains(where: { ["$" + property.name, "self.$" + property.name].contains($0.expression.trimmedText) }) {
            let content = SyntaxHelpers.closures(of: call).map { Syntax($0) }
            let tagged = content.isEmpty ? nil : Set(content.flatMap(tags))
            return (.binding(tagged.flatMap { $0.isEmpty ? nil : $0 }), title ?? callee ?? "binding")
        }
        guard callee == "Button" else { return nil }
        let argument = call.arguments.first { $0.label?.text == "action" }?.expression
        let labelled = argument?.as(ClosureExprSyntax.self)
        let method = argument.flatMap { SyntaxHelpers.path($0) }.map { $0.hasPrefix("self.") ? String($0.dropFirst(5)) : $0 }
        let action: Action
        if let closure = labelled ?? (argument == nil ? call.trailingClosure : nil) { action = .closure(closure) }
        else if let method, !method.contains(".") { action = .method(method) }
        else { return nil }
        // the title: the first unlabelled string, else the first string of the label's view
        let label = argument != nil ? call.trailingClosure.map(Syntax.init)
            : call.additionalTrailingClosures.first { $0.label.text == "label" }.map { Syntax($0.closure) }
        return (action, title ?? label.flatMap(Self.firstString) ?? "Button")
    }

    /// The closures a call hands a child view that set the state themselves (`IntroPage(onStart: { step =
    /// .scan })`, `ScanPage { step = .done }`): the child calls them back, each an input named by the
    /// child and the argument's label (`IntroPage.onStart`). (A closure building views sets nothing: a
    /// view builder takes no assignment.)
    func callbacks(of call: FunctionCallExprSyntax) -> [(Action, String)] {
        // (a view built in the view's code, not work a method starts: `Task { phase = .done }`)
        guard let callee = call.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text, callee.first?.isUppercase == true,
              SyntaxHelpers.laterClosures(of: call, index: context.index).isEmpty,
              SyntaxHelpers.enclosingFunction(call) == nil else { return [] }
        // (or in a closure run at once there: `ScanPage(onFinish: { withAnimation { step = .review } })`)
        func setsState(_ closure: ClosureExprSyntax) -> Bool {
            closure.statements.contains { item in
                if let (lhs, _) = SyntaxHelpers.assignment(item.item) { return ["\(property.name)", "self.\(property.name)"].contains(lhs.trimmedText) }
                guard let call = item.item.as(ExpressionStmtSyntax.self)?.expression.as(FunctionCallExprSyntax.self)
                        ?? item.item.as(FunctionCallExprSyntax.self) else { return false }
                return SyntaxHelpers.immediateClosures(of: call).contains(where: setsState)
            }
        }
        var result: [(Action, String)] = []
        for argument in call.arguments {
            guard let closure = argument.expression.as(ClosureExprSyntax.self), setsState(closure) else { continue }
            result.append((.closure(closure), callee + (argument.label.map { ".\($0.text)" } ?? "")))
        }
        if let closure = call.trailingClosure, setsState(closure) { result.append((.closure(closure), callee)) }
        for extra in call.additionalTrailingClosures where setsState(extra.closure) {
            result.append((.closure(extra.closure), "\(callee).\(extra.label.text)"))
        }
        return result
    }

    /// The name of a presentation modifier given a binding of the (optional) state, `item: $sheet`, or the
    /// state itself to present, `presenting: pending`.
    func presentation(_ call: FunctionCallExprSyntax) -> String? {
        guard optional, let member = call.calledExpression.as(MemberAccessExprSyntax.self), member.base != nil,
              Self.presentations.contains(member.declName.baseName.text),
              call.arguments.contains(where: { argument in
                  // (`item: $sheet`, a binding; `presenting: pending`, the value, beside `isPresented:`)
                  let label = argument.label?.text, text = argument.expression.trimmedText
                  return (label == "item" || label == "presenting") && ["$" + property.name, "self.$" + property.name].contains(text)
                      || label == "presenting" && [property.name, "self." + property.name].contains(text) }) else { return nil }
        return member.declName.baseName.text
    }

    /// The cases of the state's enum a control's content tags (`Text("Fast").tag(Speed.fast)`).
    func tags(in content: Syntax) -> [String] {
        final class Finder: SyntaxVisitor {
            var values: [ExprSyntax] = []
            override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
                if node.calledExpression.as(MemberAccessExprSyntax.self)?.declName.baseName.text == "tag", let value = node.arguments.first?.expression {
                    values.append(value)
                }
                return .visitChildren
            }
        }
        let finder = Finder(viewMode: .sourceAccurate)
        finder.walk(content)
        let cases = Set(stateEnum.caseNames)
        return finder.values.compactMap { SyntaxHelpers.caseReference($0, context.index, accepting: cases.contains)?.name }
    }

    /// The text of the first plain string literal under a node.
    static func firstString(in node: Syntax) -> String? {
        for token in node.tokens(viewMode: .sourceAccurate) {
            if case .stringSegment(let text) = token.tokenKind, !text.isEmpty { return text }
        }
        return nil
    }

    /// The states the view shows a control in: the cases of each `switch` over the property around it, the
    /// branch of each `if` testing it, less those its `.disabled(…)` is surely true in.
    func visible(_ control: Control) -> Set<String> {
        var all = Set(stateEnum.caseNames)
        // in a presented view's content, its parameter is the state, and something is presented; elsewhere
        // in a view presenting the state, nothing is (the presentation is modal)
        var subjects: Set<String> = [property.name, "self." + property.name]
        if optional {
            let content = sequence(first: Syntax(control.call), next: { $0.parent }).lazy.compactMap { $0.as(ClosureExprSyntax.self) }
                .first { SyntaxHelpers.call(taking: $0).flatMap(presentation) != nil }
            if let content { subjects.formUnion(SyntaxHelpers.closureParameterNames(content)) } else { all = ["nil"] }
        }
        let evaluator = PredicateEvaluator(values: stateEnum.caseNames, subjects: subjects, file: control.file, index: context.index)
        return Self.shown(Syntax(control.call), in: all, evaluator)
    }

    /// The states among `all` a view shows a node in: the cases of each `switch` over the evaluator's
    /// subjects around it, the branch of each `if` testing them, less those a `.disabled(…)` on it is
    /// surely true in.
    static func shown(_ node: Syntax, in all: Set<String>, _ evaluator: PredicateEvaluator) -> Set<String> {
        var states = all
        var child = node
        while let parent = child.parent, !parent.is(MemberBlockItemSyntax.self) {
            if let sc = parent.as(SwitchCaseSyntax.self), let sw = sc.parent?.parent?.as(SwitchExprSyntax.self), evaluator.isSubject(sw.subject) {
                states.formIntersection(Self.states(of: sc, in: sw, evaluator))
            } else if let branch = parent.as(IfExprSyntax.self) {
                let verdict = evaluator.conditions(branch.conditions)
                if child.id == branch.body.id { states.formIntersection(verdict.possible) }
                else if child.id == branch.elseBody?.id { states.subtract(verdict.yes) }
            } else if let modifier = parent.as(MemberAccessExprSyntax.self), modifier.base?.id == child.id,
                      modifier.declName.baseName.text == "disabled", let call = modifier.parent?.as(FunctionCallExprSyntax.self),
                      let condition = call.arguments.first?.expression {
                states.subtract(evaluator.eval(condition).yes)
            }
            child = parent
        }
        return states
    }

    /// The states a case of a `switch` over the property matches: those its patterns may match; a
    /// `default`'s, those no other case surely matches.
    static func states(of sc: SwitchCaseSyntax, in sw: SwitchExprSyntax, _ evaluator: PredicateEvaluator) -> Set<String> {
        func verdicts(_ label: SwitchCaseLabelSyntax) -> [Verdict?] { label.caseItems.map { evaluator.patternVerdict($0.pattern) } }
        switch sc.label {
        case .case(let label):
            let read = verdicts(label)
            return read.contains { $0 == nil } ? evaluator.all : read.reduce(into: Set<String>()) { $0.formUnion($1!.possible) }
        case .default:
            var rest = evaluator.all
            for other in SyntaxHelpers.cases(of: sw) {
                if case .case(let label) = other.label { for v in verdicts(label) { rest.subtract(v?.yes ?? []) } }
            }
            return rest
        }
    }

    /// The writes of the property in the view's members that no walk reaches: outside the controls'
    /// actions and the methods they call.
    func unfollowed(_ controls: [Control]) -> [StateWrites.Unfollowed] {
        // the methods the actions call, and those they call in turn (by name)
        var called = Set<String>()
        var pending: [Syntax] = []
        func call(_ name: String) {
            guard called.insert(name).inserted else { return }
            pending += type.methods.filter { $0.0.name.text == name }.compactMap { $0.0.body.map(Syntax.init) }
        }
        for control in controls {
            switch control.action {
            case .closure(let closure): pending.append(Syntax(closure))
            case .method(let name): call(name)
            case .binding, .dismissal: break
            }
        }
        while let node = pending.popLast() {
            for c in SwitchFinder.scanAll(node).calls { if let name = DSLSupport.calleeName(c) { call(name) } }
        }
        let reached = controls.compactMap { $0.action.closure.map(Syntax.init) } + type.methods.filter { called.contains($0.0.name.text) }.map { Syntax($0.0) }
        var result: [StateWrites.Unfollowed] = []
        for (member, file) in members {
            for (lhs, _) in SwitchFinder.scanAll(member).assignments where [property.name, "self." + property.name].contains(SyntaxHelpers.path(lhs) ?? "") {
                guard !reached.contains(where: { r in sequence(first: Syntax(lhs), next: { $0.parent }).contains { $0.id == r.id } }) else { continue }
                result.append(StateWrites.Unfollowed(location: file.location(of: lhs), why: "outside the actions of the view's controls"))
            }
        }
        return result
    }
}
