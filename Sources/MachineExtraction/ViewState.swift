import MachineModel
import SwiftSyntax

/// SwiftUI: a view's `@State` property of an enum type (`@State private var phase: Phase = .idle`) that
/// its controls change. Each control's action is an input named by what the user sees or does
/// (`Button("Start") { phase = .running }` is `Start`, `.onAppear { … }` is `onAppear`, `.task { … }`
/// is `task`), arriving in the states the view shows the control in: those of the `switch phase` cases
/// and `if phase == …` branches around it in the view's code, less those its `.disabled(…)` is surely
/// true in. An action is walked like a method: the view's methods it calls, the `Task`s it starts (each
/// an input of its own, `Start task`). A write of the property the walks do not reach makes the machine
/// partial, with a note where it is.
struct ViewState {
    let type: TypeInfo
    let property: Binding
    let stateEnum: EnumInfo
    let context: ExtractionContext

    /// Modifiers whose closure runs on an event of the view, by name (`.onChange(of: x) { … }`).
    static let eventModifiers: Set<String> = [
        "onTapGesture", "onLongPressGesture", "onAppear", "onDisappear", "task", "onChange", "onReceive", "onSubmit",
        "refreshable", "onOpenURL", "onDelete", "onMove", "onDrop", "onHover", "onContinueUserActivity",
    ]

    /// A control of the view and its action.
    struct Control {
        var call: FunctionCallExprSyntax
        var action: ClosureExprSyntax
        var name: String
        var file: ParsedFile
    }

    /// Whether the type is a SwiftUI view and the property a `@State` of it.
    static func applies(to type: TypeInfo, property: Binding) -> Bool {
        guard type.kind == "struct", type.inherited.contains(where: { ["View", "SwiftUI.View"].contains(SymbolIndex.bareTypeName($0)) }),
              let decl = property.node.parent?.parent?.as(VariableDeclSyntax.self) else { return false }
        return decl.attributes.contains { attribute in
            ["State", "SwiftUI.State"].contains(attribute.as(AttributeSyntax.self)?.attributeName.trimmedText ?? "")
        }
    }

    func build() -> Bool {
        let states = stateEnum.caseNames
        let controls = self.controls()
        let statePaths: Set<String> = [property.name]
        var rules: [Rule] = []
        var leftOut: [SourceLocation?] = []
        var inputs: [String] = []
        var started: [(launch: ReducerInterpreter.Launch, file: ParsedFile, spec: ReducerSpec)] = []
        let template = ReducerSpec(domain: Domain(states: states, inputs: []), statePaths: statePaths, inputPaths: [],
                                   helpers: ReducerSpec.helperTable(type.methods.map(\.0)), helperStatePaths: statePaths,
                                   enumMethods: context.mutatingMethods(of: stateEnum), enumPredicates: context.predicates(of: stateEnum),
                                   enumSuccessors: context.successors(of: stateEnum))
        // (the view's state outlives a call: while an action waits, others may change it)
        let own = StateWrites(property: property.name, enumMethods: Set(template.enumMethods.keys), type: type).writers
        for control in controls {
            var spec = template
            spec.domain = Domain(states: states, inputs: [control.name])
            let resumed = SwitchMethodRecogniser.suspending(&spec, body: control.action.statements, of: type, input: control.name, own: own)
            spec.arrivals = [control.name: Arrival(states: visible(control), presented: nil)]
            let walker = ReducerInterpreter(spec: spec, file: control.file, effects: context.effectReader(inputs: [], inputType: nil),
                                            readings: context.readings)
            let walked = walker.run(control.action.statements, at: control.file.location(of: control.action))
            started += walker.launches.map { ($0, control.file, spec) }
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
        let initial = SwitchMethodRecogniser().startingState(of: property, in: type, states: states, optional: false, context: context)
        var machine = Machine(name: "\(type.name).\(property.name)", dialect: .switchMethod, location: property.location,
                              states: states, inputs: inputs, initial: initial, rules: rules, order: .resolved,
                              stateLocations: context.locations(stateEnum))
        SwitchMethodRecogniser().markUnfollowed(unfollowed(controls), in: &machine, context: context)
        context.add(machine, stateEnum: stateEnum, key: "\(type.key).\(property.name)", leftOut: leftOut)
        return true
    }

    /// The controls written in the view's members (its `body`, other views it builds, its methods), in
    /// order; a control inside another's action is none (an action builds no view).
    func controls() -> [Control] {
        final class Finder: SyntaxVisitor {
            var found: [(FunctionCallExprSyntax, ClosureExprSyntax, String)] = []
            var actions: Set<SyntaxIdentifier> = []
            init() { super.init(viewMode: .sourceAccurate) }
            override func visit(_ node: ClosureExprSyntax) -> SyntaxVisitorContinueKind {
                actions.contains(node.id) ? .skipChildren : .visitChildren
            }
            override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
                if let (action, name) = ViewState.action(of: node) {
                    found.append((node, action, name))
                    actions.insert(action.id)
                }
                return .visitChildren
            }
        }
        var result: [Control] = []
        var seen = Set<SyntaxIdentifier>()
        let members: [(Syntax, ParsedFile)] = type.properties.filter(\.isComputed).map { ($0.node, $0.file) }
            + type.methods.map { (Syntax($0.0), $0.1) }
        for (member, file) in members.sorted(by: { ($0.1.path, $0.0.position) < ($1.1.path, $1.0.position) }) {
            let finder = Finder()
            finder.walk(member)
            // (in the order written: a modifier's call holds the views it modifies)
            for (call, action, name) in finder.found.sorted(by: { $0.1.position < $1.1.position }) where seen.insert(action.id).inserted {
                result.append(Control(call: call, action: action, name: name, file: file))
            }
        }
        return result
    }

    /// A control's action and its name: `Button("Start") { … }` (`Start`; the label's text for `Button {
    /// … } label: { Text("Start") }` and `Button(action: { … }) { Label("Start", …) }`), an event
    /// modifier's closure (`onAppear`, `onChange(of: query)` as `onChange`).
    static func action(of call: FunctionCallExprSyntax) -> (ClosureExprSyntax, String)? {
        if let member = call.calledExpression.as(MemberAccessExprSyntax.self), member.base != nil,
           eventModifiers.contains(member.declName.baseName.text) {
            let closure = call.arguments.first { ["perform", "action"].contains($0.label?.text ?? "") }?.expression.as(ClosureExprSyntax.self)
                ?? call.trailingClosure
            return closure.map { ($0, member.declName.baseName.text) }
        }
        guard call.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text == "Button" else { return nil }
        let labelled = call.arguments.first { $0.label?.text == "action" }?.expression.as(ClosureExprSyntax.self)
        guard let action = labelled ?? call.trailingClosure else { return nil }
        // the title: the first unlabelled string, else the first string of the label's view
        let label = labelled != nil ? call.trailingClosure.map(Syntax.init)
            : call.additionalTrailingClosures.first { $0.label.text == "label" }.map { Syntax($0.closure) }
        let title = call.arguments.first { $0.label == nil }.flatMap { firstString(in: Syntax($0.expression)) }
            ?? label.flatMap(firstString)
        return (action, title ?? "Button")
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
        let all = Set(stateEnum.caseNames)
        let evaluator = PredicateEvaluator(values: stateEnum.caseNames, subjects: [property.name, "self." + property.name],
                                           file: control.file, index: context.index)
        var states = all
        var child = Syntax(control.call)
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
        var pending = controls.map { Syntax($0.action) }
        while let node = pending.popLast() {
            for call in SwitchFinder.scanAll(node).calls {
                guard let name = DSLSupport.calleeName(call), called.insert(name).inserted else { continue }
                pending += type.methods.filter { $0.0.name.text == name }.compactMap { $0.0.body.map(Syntax.init) }
            }
        }
        let reached = controls.map { Syntax($0.action) } + type.methods.filter { called.contains($0.0.name.text) }.map { Syntax($0.0) }
        var result: [StateWrites.Unfollowed] = []
        let members: [(Syntax, ParsedFile)] = type.properties.filter(\.isComputed).map { ($0.node, $0.file) }
            + type.methods.map { (Syntax($0.0), $0.1) }
        for (member, file) in members {
            for (lhs, _) in SwitchFinder.scanAll(member).assignments where [property.name, "self." + property.name].contains(SyntaxHelpers.path(lhs) ?? "") {
                guard !reached.contains(where: { r in sequence(first: Syntax(lhs), next: { $0.parent }).contains { $0.id == r.id } }) else { continue }
                result.append(StateWrites.Unfollowed(location: file.location(of: lhs), why: "outside the actions of the view's controls"))
            }
        }
        return result
    }
}
