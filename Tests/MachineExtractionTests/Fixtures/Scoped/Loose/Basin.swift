// A generic typealias fixes the input type; the table's states come from its argument.
enum Tap { case open, close }
enum Basin { case dry, filling, full }
enum Spillway { case dry, filling, overflowing, full }

typealias Flow<S> = Automaton<Tap, S>

let basinRows: [Flow<Basin>.Mapping] = [
    .open | .dry => .filling,
    .close | .filling => .full,
]
