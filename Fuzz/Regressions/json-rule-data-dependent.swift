// Found by the fuzz target (the JSON document did not read back to the same bytes): a row whose target
// is computed at run time wrote `dataDependent`, and the decoder dropped it. Made-up identifiers.
enum Pump { case off, priming, running }
enum Lever { case pull, push, auto }

func nextPump(_ p: Pump) -> Pump { p == .off ? .priming : .running }

let pumpTable: [Transition<Pump, Lever>] = [
    .pull | .off => .priming,
    .push | .priming => .running,
    .auto | .running => nextPump(.running),
    .push | .running => .off,
]
