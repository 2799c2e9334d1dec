import Foundation

/// Per-file work on several threads, results in input order: the output never depends on the job count.
public enum Parallel {
    /// The machine's cores: the default of `--jobs`.
    public static var defaultJobs: Int { max(1, ProcessInfo.processInfo.activeProcessorCount) }

    /// Stack of each worker: swift-syntax's parser and visitors recurse as deep as the source nests.
    static let stackSize = 1 << 29

    /// `items.map(body)`, computed by up to `jobs` threads taking the next item as they finish one.
    /// With one job (or one item) it runs on the calling thread.
    public static func map<T, R>(_ items: [T], jobs: Int, _ body: @escaping (T) -> R) -> [R] {
        let workers = min(max(1, jobs), items.count)
        guard workers > 1 else { return items.map(body) }
        let state = WorkState(items: items, body: body)
        let group = DispatchGroup()
        for _ in 0..<workers {
            group.enter()
            let thread = Thread { state.drain(); group.leave() }
            thread.stackSize = stackSize
            thread.start()
        }
        group.wait()
        return state.results.map { $0! }
    }

    /// Shared by the workers; every access to `next` and `results` holds the lock.
    private final class WorkState<T, R>: @unchecked Sendable {
        let items: [T]
        let body: (T) -> R
        var results: [R?]
        var next = 0
        let lock = NSLock()

        init(items: [T], body: @escaping (T) -> R) {
            self.items = items
            self.body = body
            self.results = Array(repeating: nil, count: items.count)
        }

        func drain() {
            while true {
                lock.lock()
                let i = next
                next += 1
                lock.unlock()
                guard i < items.count else { return }
                let r = body(items[i])
                lock.lock()
                results[i] = r
                lock.unlock()
            }
        }
    }
}
