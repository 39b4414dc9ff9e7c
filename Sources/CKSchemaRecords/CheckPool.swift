import Foundation

/// Threads that check chunks of records in parallel. Results are collected by sequence
/// number, so the caller can emit diagnostics in input order while later chunks are
/// still being checked.
final class CheckPool: @unchecked Sendable {
    private let condition = NSCondition()
    private var queue: [(seq: Int, chunk: RecordChunk)] = []
    private var results: [Int: ChunkResult] = [:]
    private var closed = false
    private var running = 0
    private var stopFlag = false

    init(jobs: Int, schema: CompiledSchema, production: Bool, collectBatch: Bool) {
        running = jobs
        for _ in 0..<jobs {
            let thread = Thread { [self] in
                // Each thread checks against its own compiled copy: the checker retains and
                // releases these objects for every field, and two cores bumping the same
                // reference counts fight over their cache lines (measured: --jobs 2 went
                // from 1.57x to the figure in Benchmarks/RESULTS.md).
                let own = CompiledSchema(schema.schema)
                var checker = RecordChecker(schema: own, production: production, collectBatch: collectBatch, keepsTokens: false)
                self.work(&checker)
            }
            thread.stackSize = 1 << 20
            thread.start()
        }
    }

    private func work(_ checker: inout RecordChecker) {
        while true {
            condition.lock()
            while queue.isEmpty && !closed { condition.wait() }
            if queue.isEmpty {
                running -= 1
                condition.broadcast()
                condition.unlock()
                return
            }
            // The queue holds at most a few chunks (the caller bounds those in flight), and a
            // taken chunk must not stay referenced: each one holds a megabyte.
            let (seq, chunk) = queue.removeFirst()
            let skip = stopFlag
            condition.unlock()
            let result = skip ? ChunkResult() : RecordValidator.check(chunk, with: &checker)
            condition.lock()
            results[seq] = result
            condition.broadcast()
            condition.unlock()
        }
    }

    func submit(_ seq: Int, _ chunk: RecordChunk) {
        condition.lock()
        queue.append((seq, chunk))
        condition.signal()
        condition.unlock()
    }

    /// The result for `seq`, waiting for it when `wait`.
    func result(_ seq: Int, wait: Bool) -> ChunkResult? {
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let r = results.removeValue(forKey: seq) { return r }
            if !wait { return nil }
            condition.wait()
        }
    }

    /// Later chunks are skipped (after `--max-errors`).
    func stop() {
        condition.lock()
        stopFlag = true
        condition.unlock()
    }

    /// Lets the threads finish and waits for them.
    func shutdown() {
        condition.lock()
        closed = true
        condition.broadcast()
        while running > 0 { condition.wait() }
        condition.unlock()
    }
}
