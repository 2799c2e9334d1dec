// Fuzz finding 6 (a hang), as a shape with made-up identifiers: a name looked up from inside types nested
// many levels deep, each inheriting from a type the inputs do not declare (2^depth supertype searches).
struct Level0: Outside {
struct Level1: Outside {
struct Level2: Outside {
struct Level3: Outside {
struct Level4: Outside {
struct Level5: Outside {
struct Level6: Outside {
struct Level7: Outside {
struct Level8: Outside {
struct Level9: Outside {
struct Level10: Outside {
struct Level11: Outside {
struct Level12: Outside {
struct Level13: Outside {
struct Level14: Outside {
struct Level15: Outside {
enum Lamp { case on, off
 mutating func flip(_ e: Unknown) { switch self { case .on: self = .off
 case .off: self = .on } } }
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
enum Flick { case press }
enum Switch {
    case up, down
    mutating func handle(_ flick: Flick) {
        switch (self, flick) {
        case (.up, .press): self = .down
        case (.down, .press): self = .up
        }
    }
}
