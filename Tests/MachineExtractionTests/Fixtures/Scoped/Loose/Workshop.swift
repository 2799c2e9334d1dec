// A type local to a function hides the file's own type of that name.
enum Door { case decoy }

func runWorkshop() {
    enum Door { case shut, open }
    enum Knock { case push, slam }
    struct Entrance {
        var door: Door = .shut
        mutating func handle(_ knock: Knock) {
            switch (door, knock) {
            case (.shut, .push): door = .open
            case (.open, .slam): door = .shut
            default: break
            }
        }
    }
    var entrance = Entrance()
    entrance.handle(.push)
}
