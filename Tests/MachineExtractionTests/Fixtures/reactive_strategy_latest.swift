import ReactiveAutomaton
enum St { case idle, loading, loaded }
enum In { case load, done, reload }
let producer = SignalProducer<In, Never>(value: .done)
let rows: [Automaton<In, St>.EffectMapping] = [
    .load   | .idle    => .loading | producer,
    .done   | .loading => .loaded  | .empty,
    .reload | .loaded  => .loading | producer.toEffect(queue: .fetch, id: .download),
]
let automaton = Automaton(state: .idle, input: signal, mapping: reduce(rows), strategy: .latest)
