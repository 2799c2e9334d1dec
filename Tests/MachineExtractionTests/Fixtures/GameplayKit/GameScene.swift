import GameplayKit
import SpriteKit

final class GameScene: SKScene {
    var bossDefeated = false
    var stateMachine: GKStateMachine!

    override func didMove(to view: SKView) {
        stateMachine = GKStateMachine(states: [
            TitleState(scene: self), LevelState(scene: self), PauseState(scene: self),
            DeathState(scene: self), VictoryState(scene: self),
        ])
        stateMachine.enter(TitleState.self)
    }

    func restart() {
        let title = TitleState(scene: self)
        stateMachine = GKStateMachine(states: [title, LevelState(scene: self), PauseState(scene: self),
                                               DeathState(scene: self), VictoryState(scene: self)])
        stateMachine.enter(TitleState.self)
    }

    func hideTitle() {}
    func startMusic() {}
    func resumeMusic() {}
    func spawnPlayer() {}
    func showGameOver() {}
}
