import UIKit

final class HUDController: UIViewController {
    weak var scene: GameScene?

    @objc func playTapped() {
        scene?.stateMachine.enter(LevelState.self)
    }

    @objc func pauseTapped() {
        scene?.stateMachine.enter(PauseState.self)
    }

    @objc func menuTapped() {
        scene?.stateMachine.enter(TitleState.self)
    }
}
