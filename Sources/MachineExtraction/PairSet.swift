import MachineModel

/// The concrete (state, input) pairs of one machine, numbered state-major.
struct Domain {
    let states: [String]
    let inputs: [String]
    let stateIndex: [String: Int]
    let inputIndex: [String: Int]

    init(states: [String], inputs: [String]) {
        self.states = states
        self.inputs = inputs.isEmpty ? ["*"] : inputs
        var si: [String: Int] = [:]
        for (i, s) in states.enumerated() where si[s] == nil { si[s] = i }
        var ii: [String: Int] = [:]
        for (i, s) in self.inputs.enumerated() where ii[s] == nil { ii[s] = i }
        stateIndex = si
        inputIndex = ii
    }

    var size: Int { states.count * inputs.count }
    var all: PairSet { PairSet(size: size, filled: true) }
    var none: PairSet { PairSet(size: size, filled: false) }

    func set(states names: Set<String>) -> PairSet {
        var set = none
        for (s, name) in states.enumerated() where names.contains(name) {
            for i in 0..<inputs.count { set.insert(s * inputs.count + i) }
        }
        return set
    }

    func set(inputs names: Set<String>) -> PairSet {
        var set = none
        for (i, name) in inputs.enumerated() where names.contains(name) {
            for s in 0..<states.count { set.insert(s * inputs.count + i) }
        }
        return set
    }

    func pairs(_ set: PairSet) -> [Pair] {
        set.members.map { Pair(from: states[$0 / inputs.count], input: inputs[$0 % inputs.count]) }
    }

    func stateNames(_ set: PairSet) -> [String] {
        set.members.map { $0 / inputs.count }.uniqued().map { states[$0] }
    }
}

/// A set of pair numbers as a bit vector.
struct PairSet: Hashable {
    private(set) var words: [UInt64]

    init(size: Int, filled: Bool) {
        let count = (size + 63) / 64
        words = Array(repeating: filled ? ~0 : 0, count: count)
        if filled, size % 64 != 0, count > 0 { words[count - 1] = (1 << UInt64(size % 64)) - 1 }
    }

    mutating func insert(_ i: Int) { words[i / 64] |= 1 << UInt64(i % 64) }
    func contains(_ i: Int) -> Bool { words[i / 64] & (1 << UInt64(i % 64)) != 0 }
    var isEmpty: Bool { words.allSatisfy { $0 == 0 } }

    func union(_ o: PairSet) -> PairSet { var r = self; for i in r.words.indices { r.words[i] |= o.words[i] }; return r }
    func intersection(_ o: PairSet) -> PairSet { var r = self; for i in r.words.indices { r.words[i] &= o.words[i] }; return r }
    func subtracting(_ o: PairSet) -> PairSet { var r = self; for i in r.words.indices { r.words[i] &= ~o.words[i] }; return r }

    var members: [Int] {
        var out: [Int] = []
        for (w, word) in words.enumerated() where word != 0 {
            for b in 0..<64 where word & (1 << UInt64(b)) != 0 { out.append(w * 64 + b) }
        }
        return out
    }
}

/// A condition evaluated over pairs: where it surely holds, and where it may hold (depends on data).
struct Pred {
    var yes: PairSet
    var maybe: PairSet

    static func always(_ d: Domain) -> Pred { Pred(yes: d.all, maybe: d.none) }
    static func never(_ d: Domain) -> Pred { Pred(yes: d.none, maybe: d.none) }
    static func unknown(_ d: Domain) -> Pred { Pred(yes: d.none, maybe: d.all) }

    var possible: PairSet { yes.union(maybe) }

    func negated(_ d: Domain) -> Pred { Pred(yes: d.all.subtracting(yes).subtracting(maybe), maybe: maybe) }

    func and(_ o: Pred) -> Pred {
        let yes = self.yes.intersection(o.yes)
        return Pred(yes: yes, maybe: possible.intersection(o.possible).subtracting(yes))
    }

    func or(_ o: Pred) -> Pred {
        let yes = self.yes.union(o.yes)
        return Pred(yes: yes, maybe: maybe.union(o.maybe).subtracting(yes))
    }
}
