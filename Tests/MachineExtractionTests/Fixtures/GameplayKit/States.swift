import GameplayKit

class GameState: GKState {
    unowned let scene: GameScene
    init(scene: GameScene) { self.scene = scene }
}

final class TitleState: GameState {
    override func isValidNextState(_ stateClass: AnyClass) -> Bool {
        stateClass == LevelState.self
    }

    override func willExit(to nextState: GKState) {
        scene.hideTitle()
    }
}

final class LevelState: GameState {
    override func isValidNextState(_ stateClass: AnyClass) -> Bool {
        switch stateClass {
        case is PauseState.Type, is DeathState.Type:
            return true
        case is VictoryState.Type:
            return scene.bossDefeated
        default:
            return false
        }
    }

    override func didEnter(from previousState: GKState?) {
        if previousState is PauseState {
            scene.resumeMusic()
        } else {
            scene.startMusic()
            scene.spawnPlayer()
        }
    }

    override func update(deltaTime seconds: TimeInterval) {
        if scene.player.health <= 0 {
            stateMachine?.enter(DeathState.self)
        }
    }
}

final class PauseState: GameState {
    override func isValidNextState(_ stateClass: AnyClass) -> Bool {
        guard stateClass is LevelState.Type || stateClass is TitleState.Type else { return false }
        return true
    }
}

final class DeathState: GameState {
    override func isValidNextState(_ stateClass: AnyClass) -> Bool {
        return stateClass is TitleState.Type
    }

    override func didEnter(from previousState: GKState?) {
        scene.showGameOver()
    }
}

// Not overridden: GameplayKit allows every transition.
final class VictoryState: GameState {}
