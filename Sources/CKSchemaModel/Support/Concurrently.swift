import Foundation

/// Runs two independent pieces of work at once: loading or hashing the two schemas of
/// a diff. On two cores that halves the wall time of `promote`'s heaviest steps.
package enum Concurrently {
    /// The results of `a` and `b`, computed on two threads.
    package static func both<A: Sendable, B: Sendable>(_ a: @Sendable () -> A, _ b: @Sendable () -> B) -> (A, B) {
        let results = Results<A, B>()
        DispatchQueue.concurrentPerform(iterations: 2) { i in
            if i == 0 { results.setA(a()) } else { results.setB(b()) }
        }
        return results.take()
    }

    /// Written once per slot from two threads, read after both have finished.
    private final class Results<A: Sendable, B: Sendable>: @unchecked Sendable {
        private let lock = NSLock()
        private var a: A?
        private var b: B?
        func setA(_ v: A) { lock.lock(); a = v; lock.unlock() }
        func setB(_ v: B) { lock.lock(); b = v; lock.unlock() }
        func take() -> (A, B) {
            lock.lock()
            defer { lock.unlock() }
            guard let a, let b else { preconditionFailure("concurrentPerform ran both iterations") }
            return (a, b)
        }
    }
}
